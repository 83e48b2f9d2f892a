/* probe.c - searches of one node by the solver's threads: a probe (every
 * thread searches the node, the first to finish gives the result) and
 * MTD(f), null-window probes until the bounds meet, by every thread or by
 * one worker (solver.h). A probe starts on one thread and wakes the others
 * only if it outgrows a node budget.
 */
#include <omp.h>
#include <stdatomic.h>

#include "solver.h"

/* The probe on worker 0 alone, up to s->solo_nodes nodes: true with *v if
 * it finished. What it stored stays in the table for the team. */
static bool probe_solo(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x,
                       int alpha, int beta, int depth, int *v)
{
    worker *w = s->w[0];
    w->solo_end = w->nodes + s->solo_nodes;
    *v = search_at(w, anc, nanc, x, alpha, beta, depth);
    w->solo_end = 0;
    search_publish(w);
    return !w->abort;
}

/* Each thread runs the whole search, ABDADA's deferrals (node.c) spread
 * them over the tree, and whichever completes first gives the result (all
 * would give a sound fail-soft result for the same window) and stops the
 * rest. */
static void probe_team(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x,
                       int alpha, int beta, int depth, int threads)
{
    search_call *c = &s->c;
    c->abdada = threads > 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        worker *w = s->w[omp_get_thread_num()];
        int v = search_at(w, anc, nanc, x, alpha, beta, depth);
        if (!w->abort) {
            bool no = false;
            if (atomic_compare_exchange_strong(&c->have_result, &no, true))
                c->result = v;
            atomic_store(&c->stop, 1);
        }
        search_publish(w);
    }
    c->abdada = false;
}

int search_guess(sow_search *s, const sow_pos *x, int depth)
{
    s->c.free_extra = GUESS_FREE_EXTRA;
    int v = search_probe(s, NULL, 0, x, -INF, INF, depth);
    s->c.free_extra = 0;
    return v;
}

int search_probe(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int alpha,
                 int beta, int depth)
{
    search_call *c = &s->c;
    atomic_store(&c->stop, 0);
    atomic_store(&c->have_result, false);
    c->result = 0;
    int threads = s->opt.threads, v;
    if (threads > 1) {
        if (probe_solo(s, anc, nanc, x, alpha, beta, depth, &v))
            return v;
        /* Stopped for good (an error, the clock, the caller), not by the
         * budget: as the team would. */
        if (atomic_load(&c->stop) || atomic_load(&c->err))
            return INF;
    }
    probe_team(s, anc, nanc, x, alpha, beta, depth, threads);
    if (atomic_load(&c->err) || !atomic_load(&c->have_result))
        return INF;
    return c->result;
}

/* Exact future gain of x for its mover if it is known without search:
 * finished, a repetition of an ancestor in anc[0..nanc), or within the
 * oracle. */
bool search_known(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int *f)
{
    const sow_game *g = s->g;
    bool rep;
    if (sow_i_over(g, x)) {
        *f = terminal_future(g, x);
        return true;
    }
    if (g->cycles && (same_stores_above(anc, nanc, x, &rep), rep)) {
        *f = 0;
        return true;
    }
    if (s->c.use_oracle && sow_i_seeds_on_board(g, x) <= s->oracle.max_seeds) {
        *f = s->oracle.probe(s->oracle.ctx, x);
        return true;
    }
    return false;
}

/* The table's move at x, TT_NO_MOVE if none (a hint: any entry's move is
 * one, whatever the path). */
sow_move search_table_move(sow_search *s, const sow_pos *x)
{
    tt_data d;
    return tt_probe(&s->tt, key_of(&s->key, x), &d) ? d.move : TT_NO_MOVE;
}

/* ---- MTD(f) ----------------------------------------------------------------- */

/* One null-window search of the job's node at beta: its fail-soft value,
 * INF if stopped. */
static int mtd_test(sow_search *s, const mtd_job *j, int beta)
{
    if (!j->w)
        return search_probe(s, j->anc, j->nanc, j->x, beta - 1, beta, TT_DRAFT_EXACT);
    worker *w = j->w;
    if (atomic_load_explicit(&s->c.stop, memory_order_relaxed) ||
        (w->tstop && atomic_load_explicit(w->tstop, memory_order_relaxed)))
        return INF;
    int g = search_at(w, j->anc, j->nanc, j->x, beta - 1, beta, TT_DRAFT_EXACT);
    return w->abort ? INF : g;
}

/* Progress of a job on every thread: the bounds [lo, hi] and test beta on
 * its future, shown in the root mover's view. */
static void mtd_progress(sow_search *s, const mtd_job *j, int lo, int hi, int beta)
{
    sow_search_progress *pr = &s->c.pr;
    pr->lower = j->sign > 0 ? j->base + lo : j->base - hi;
    pr->upper = j->sign > 0 ? j->base + hi : j->base - lo;
    pr->test = j->sign > 0 ? j->base + beta : j->base - beta + 1;
}

int search_mtd(sow_search *s, const mtd_job *j, int *probes)
{
    int f;
    if (search_known(s, j->anc, j->nanc, j->x, &f))
        return f;
    int hi = future_bound(s, sow_i_seeds_on_board(s->g, j->x)), lo = -hi;
    if (j->lo > lo)
        lo = j->lo;
    if (j->hi < hi)
        hi = j->hi;
    int g = j->guess < lo ? lo : j->guess > hi ? hi : j->guess;
    while (lo < hi) {
        int beta = g <= lo ? lo + 1 : g;
        if (!j->w)
            mtd_progress(s, j, lo, hi, beta);
        g = mtd_test(s, j, beta);
        if (g == INF)
            return INF;
        (*probes)++;
        if (g >= beta)
            lo = g;
        else
            hi = g;
        if (j->root) {
            s->c.root_lower = j->base + lo;
            s->c.root_upper = j->base + hi;
        }
    }
    return lo;
}

int search_mtd_all(sow_search *s, const sow_pos *x, int guess, int base, int sign, int *probes,
                   bool root)
{
    mtd_job j = {.x = x, .guess = guess, .base = base, .sign = sign, .root = root,
                 .lo = MTD_OPEN_LO, .hi = MTD_OPEN_HI};
    return search_mtd(s, &j, probes);
}
