/* root_moves.c - every root move's exact value (sow_search_solve without
 * value_only): one after the other on every thread, or side by side, one
 * move a thread (solver.h).
 */
#include <limits.h>
#include <omp.h>
#include <stdatomic.h>

#include "solver.h"

static void set_move_score(sow_search_result *out, int k, int score)
{
    sow_solution *sol = &out->sol;
    sol->move_scores[k] = score;
    out->move_exact[k] = true;
    if (sol->best < 0 || score > sol->move_scores[sol->best])
        sol->best = k;
}

/* Every root move's value, one after the other, each an MTD(f) on every
 * thread from the guess that it is a best move (root future f). */
sow_err search_moves_serial(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    int base = search_store_score(s->g, p);
    for (int k = 0; k < sol->nmoves; k++) {
        s->c.pr.move = k;
        rchild c;
        make_child(s->g, p, sol->moves[k], &c);
        int fq = search_mtd_all(s, &c.q, c.sign * (f - c.c0), base + c.c0, c.sign, &out->mtd_probes,
                         false);
        if (fq == INF)
            return search_error(s);
        set_move_score(out, k, base + c.c0 + c.sign * fq);
    }
    return SOW_OK;
}

/* The shared state of the parallel root moves. */
typedef struct root_moves {
    int n;
    rchild c[SOW_MAX_MOVES];
    int fq[SOW_MAX_MOVES]; /* each move's exact future, INF until known */
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
        mtd_job j = {&c->q, NULL, 0, c->sign * (f - c->c0), w, 0, 0, false};
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
