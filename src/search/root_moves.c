/* root_moves.c - every root move's exact value (sow_search_solve without
 * value_only): one after the other on every thread, or side by side, one
 * move a thread (solver.h).
 */
#include <limits.h>
#include <omp.h>
#include <stdatomic.h>

#include "solver.h"

/* Each root move's first guess: a depth-limited search of its child to
 * this depth (the root's own ordering depth), less a margin in score
 * units, to start below the move's value (doc/experiments.md, "Every
 * move's value"). */
#define MOVE_EST_DEPTH 8
#define MOVE_GUESS_MARGIN 2

static void set_move_score(sow_search_result *out, int k, int score)
{
    sow_solution *sol = &out->sol;
    sol->move_scores[k] = score;
    out->move_exact[k] = true;
    if (sol->best < 0 || score > sol->move_scores[sol->best])
        sol->best = k;
}

/* ---- each move's MTD(f): its first guess and proven bound ------------------- */

/* A root move's MTD(f), ready to run: its child as a root of its own,
 * bounded by what the value search proved (no move beats the root's
 * future f, so the best move needs one test), from a guess near the move's
 * value, the root mover's view: its estimate (move_estimates) a little
 * lower, or f if the estimate is not below it. Guessing f for every move
 * walked a losing move down from the value one test at a time
 * (doc/experiments.md, "Every move's value"). */
static mtd_job move_job(const rchild *c, int f, int est)
{
    int g = est < f ? est - MOVE_GUESS_MARGIN : f; /* root mover's view */
    mtd_job j = {.x = &c->q, .guess = c->sign * (g - c->c0), .lo = MTD_OPEN_LO,
                 .hi = MTD_OPEN_HI};
    if (c->sign > 0)
        j.hi = f - c->c0;
    else
        j.lo = c->c0 - f;
    return j;
}

/* Each root move's estimated value (root mover's view) into est: shallow
 * depth-limited searches of its child, as the root's before its value
 * (their entries have a small draft: the exact search takes only their
 * moves). False if stopped. */
static bool move_estimates(sow_search *s, const rchild *c, int n, int *est)
{
    for (int k = 0; k < n; k++) {
        int fq = 0;
        if (!search_known(s, NULL, 0, &c[k].q, &fq))
            for (int d = 1; d <= MOVE_EST_DEPTH; d++) {
                fq = search_guess(s, &c[k].q, d);
                if (fq == INF)
                    return false;
            }
        est[k] = c[k].c0 + c[k].sign * fq;
    }
    return true;
}

/* Every root move's value, one after the other, each an MTD(f) on every
 * thread (root future f). */
sow_err search_moves_serial(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    int base = search_store_score(s->g, p);
    rchild c[SOW_MAX_MOVES];
    int est[SOW_MAX_MOVES];
    for (int k = 0; k < sol->nmoves; k++)
        make_child(s->g, p, sol->moves[k], &c[k]);
    if (!move_estimates(s, c, sol->nmoves, est))
        return search_error(s);
    for (int k = 0; k < sol->nmoves; k++) {
        s->c.pr.move = k;
        mtd_job j = move_job(&c[k], f, est[k]);
        j.base = base + c[k].c0;
        j.sign = c[k].sign;
        int fq = search_mtd(s, &j, &out->mtd_probes);
        if (fq == INF)
            return search_error(s);
        set_move_score(out, k, base + c[k].c0 + c[k].sign * fq);
    }
    return SOW_OK;
}

/* The shared state of the parallel root moves. */
typedef struct root_moves {
    int n;
    rchild c[SOW_MAX_MOVES];
    int fq[SOW_MAX_MOVES]; /* each move's exact future, INF until known */
    int est[SOW_MAX_MOVES]; /* each move's estimated value (move_estimates) */
    _Atomic int done[SOW_MAX_MOVES], tstop[SOW_MAX_MOVES], joined[SOW_MAX_MOVES];
    _Atomic int next;
} root_moves;

static void root_moves_init(root_moves *rm, const sow_game *g, const sow_pos *p,
                            const sow_solution *sol)
{
    rm->n = sol->nmoves;
    atomic_init(&rm->next, 0);
    for (int k = 0; k < rm->n; k++) {
        make_child(g, p, sol->moves[k], &rm->c[k]);
        rm->fq[k] = INF;
        atomic_init(&rm->done[k], 0);
        atomic_init(&rm->tstop[k], 0);
        atomic_init(&rm->joined[k], 0);
    }
}

/* The next root move for a thread: an untaken one, else the unfinished one
 * with the fewest joiners; -1 if all are done. */
static int root_move_next(root_moves *rm)
{
    int k = atomic_fetch_add(&rm->next, 1);
    if (k < rm->n)
        return k;
    k = -1;
    int fewest = INT_MAX;
    for (int j = 0; j < rm->n; j++) {
        int jj = atomic_load(&rm->joined[j]);
        if (!atomic_load(&rm->done[j]) && jj < fewest) {
            fewest = jj;
            k = j;
        }
    }
    if (k >= 0)
        atomic_fetch_add(&rm->joined[k], 1);
    return k;
}

/* One thread's part of search_moves_parallel. */
static void root_moves_worker(sow_search *s, worker *w, root_moves *rm, int f, int *probes)
{
    for (;;) {
        int k = root_move_next(rm);
        if (k < 0)
            break;
        const rchild *c = &rm->c[k];
        mtd_job j = move_job(c, f, rm->est[k]);
        j.w = w;
        w->tstop = &rm->tstop[k];
        int v = search_mtd(s, &j, probes);
        w->tstop = NULL;
        if (v != INF) {
            int zero = 0;
            if (atomic_compare_exchange_strong(&rm->done[k], &zero, 1)) {
                rm->fq[k] = v;
                atomic_fetch_add(&s->c.moves_done, 1);
            }
            atomic_store(&rm->tstop[k], 1);
        } else if (atomic_load(&s->c.stop)) {
            break; /* an error or the time limit */
        }
    }
    search_publish(w);
}

/* Every root move's value with several threads: each takes the next root
 * move and solves it alone, an MTD(f) on its own worker over the shared
 * table (the moves are independent work). A thread that finds no move left
 * joins the unfinished move with the fewest joiners, running the same
 * MTD(f) on it; ABDADA's busy table spreads the two over its tree, and the
 * first to finish stops the others (tstop). */
sow_err search_moves_parallel(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    root_moves rm;
    root_moves_init(&rm, s->g, p, sol);
    if (!move_estimates(s, rm.c, rm.n, rm.est))
        return search_error(s);
    atomic_store(&s->c.stop, 0);
    atomic_store(&s->c.moves_done, 0);
    s->c.moves_parallel = true;
    s->c.abdada = true;
    s->c.pr.lower = s->c.pr.upper = s->c.pr.test = sol->score;
    int probes = 0;
#pragma omp parallel num_threads(s->opt.threads) reduction(+ : probes)
    root_moves_worker(s, s->w[omp_get_thread_num()], &rm, f, &probes);
    s->c.abdada = false;
    s->c.moves_parallel = false;
    out->mtd_probes += probes;
    if (atomic_load(&s->c.err))
        return search_error(s);
    int base = search_store_score(s->g, p);
    for (int k = 0; k < rm.n; k++) {
        if (rm.fq[k] == INF)
            return SOW_E_INTERRUPTED; /* unreachable without an error */
        set_move_score(out, k, base + rm.c[k].c0 + rm.c[k].sign * rm.fq[k]);
    }
    return SOW_OK;
}
