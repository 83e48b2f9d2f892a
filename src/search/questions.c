/* questions.c - the solver's smaller questions (solver.h): one bounded
 * test (sow_search_test), tests side by side on the workers
 * (sow_search_tests_begin .. _end) and the depth-limited searches
 * (sow_search_depth, sow_search_depths).
 */
#include <omp.h>
#include <stdatomic.h>

#include "solver.h"

/* ---- bounded tests ----------------------------------------------------------- */

sow_err sow_search_test(sow_search *s, const sow_pos *line, int n, int t, uint64_t max_nodes,
                        int *bound, uint64_t *nodes)
{
    *nodes = 0;
    if (n < 1 || n > SOW_PV_MAX)
        return SOW_E_ARG;
    const sow_game *g = s->g;
    const sow_pos *x = &line[n - 1];
    if (sow_position_check(g, x))
        return SOW_E_POSITION;
    if (!search_key_use(s, sow_i_seeds_on_board(g, x)))
        return SOW_E_LIMIT; /* no exact table key (key.h) */
    search_call_begin(s, "unit");
    search_oracle_root(s, sow_i_seeds_on_board(g, x));
    s->c.node_limit = max_nodes;
    s->c.node_budget = true;
    int base = search_store_score(g, x), span = future_bound(s, sow_i_seeds_on_board(g, x)), f;
    s->c.pr.test = t;
    s->c.pr.lower = base - span;
    s->c.pr.upper = base + span;
    if (search_known(s, line, n - 1, x, &f)) {
        *bound = base + f;
        return SOW_OK;
    }
    int v = search_probe(s, line, n - 1, x, t - base - 1, t - base, TT_DRAFT_EXACT);
    *nodes = search_nodes(s);
    if (v == INF)
        return search_stopped(s);
    *bound = base + v;
    return SOW_OK;
}

sow_err sow_search_tests_begin(sow_search *s, const sow_pos *root)
{
    if (sow_position_check(s->g, root))
        return SOW_E_POSITION;
    if (!search_key_use(s, sow_i_seeds_on_board(s->g, root)))
        return SOW_E_LIMIT; /* no exact table key (key.h) */
    search_call_begin(s, "unit");
    search_oracle_root(s, sow_i_seeds_on_board(s->g, root));
    s->c.side_by_side = true;
    s->c.tests_seeds = sow_i_seeds_on_board(s->g, root);
    s->c.abdada = s->opt.threads > 1;
    return SOW_OK;
}

sow_err sow_search_test_on(sow_search *s, int k, const sow_pos *line, int n, int t,
                           uint64_t max_nodes, int *bound, uint64_t *nodes)
{
    *nodes = 0;
    if (!s->c.side_by_side || k < 0 || k >= s->opt.threads || n < 1 || n > SOW_PV_MAX)
        return SOW_E_ARG;
    const sow_game *g = s->g;
    const sow_pos *x = &line[n - 1];
    if (sow_position_check(g, x))
        return SOW_E_POSITION;
    if (sow_i_seeds_on_board(g, x) > s->c.tests_seeds)
        return SOW_E_ARG; /* above the root given to sow_search_tests_begin */
    int base = search_store_score(g, x), f;
    if (search_known(s, line, n - 1, x, &f)) {
        *bound = base + f;
        return SOW_OK;
    }
    if (atomic_load(&s->c.stop))
        return search_stopped(s);
    worker *w = s->w[k];
    uint64_t n0 = w->nodes;
    w->solo_end = max_nodes ? n0 + max_nodes : 0;
    int v = search_at(w, line, n - 1, x, t - base - 1, t - base, TT_DRAFT_EXACT);
    bool spent = w->solo_end && w->nodes >= w->solo_end;
    w->solo_end = 0;
    *nodes = w->nodes - n0;
    search_publish(w);
    if (w->abort)
        return !atomic_load(&s->c.stop) && spent ? SOW_E_BUDGET : search_stopped(s);
    *bound = base + v;
    return SOW_OK;
}

void sow_search_tests_cancel(sow_search *s)
{
    search_fail(s, SOW_E_INTERRUPTED);
}

uint64_t sow_search_tests_nodes(const sow_search *s)
{
    return atomic_load_explicit(&s->c.nodes, memory_order_relaxed);
}

void sow_search_tests_end(sow_search *s)
{
    s->c.side_by_side = false;
    s->c.abdada = false;
    atomic_store(&s->c.stop, 0);
}

/* ---- depth-limited searches -------------------------------------------------- */

sow_err sow_search_depth(sow_search *s, const sow_pos *p, int depth, int *score, uint64_t *nodes)
{
    if (depth < 0 || depth >= TT_DRAFT_EXACT)
        return SOW_E_ARG;
    if (sow_position_check(s->g, p))
        return SOW_E_POSITION;
    search_call_begin(s, "depth");
    s->c.use_oracle = false;
    search_key_use(s, sow_i_seeds_on_board(s->g, p));
    int f = 0;
    sow_err e = SOW_OK;
    if (sow_i_over(s->g, p))
        f = terminal_future(s->g, p);
    for (int d = 1; d <= depth && !sow_i_over(s->g, p); d++) {
        f = search_probe(s, NULL, 0, p, -INF, INF, d);
        if (f == INF) {
            e = search_error(s);
            break;
        }
    }
    *score = search_store_score(s->g, p) + f;
    *nodes = search_nodes(s);
    return e;
}

/* One thread's part of sow_search_depths: the next position, alone. */
static void depths_worker(sow_search *s, worker *w, const sow_pos *ps, const int *depths, int n,
                          int *scores, _Atomic int *next)
{
    for (int i; (i = atomic_fetch_add(next, 1)) < n && !w->abort;) {
        const sow_pos *p = &ps[i];
        int f = 0;
        if (sow_i_over(s->g, p))
            f = terminal_future(s->g, p);
        for (int d = 1; d <= depths[i] && !sow_i_over(s->g, p) && !w->abort; d++)
            f = search_at(w, NULL, 0, p, -INF, INF, d);
        scores[i] = search_store_score(s->g, p) + f;
    }
    search_publish(w);
}

sow_err sow_search_depths(sow_search *s, const sow_pos *ps, const int *depths, int n, int *scores,
                          uint64_t *nodes)
{
    *nodes = 0;
    int most = 0;
    for (int i = 0; i < n; i++) {
        if (depths[i] < 0 || depths[i] >= TT_DRAFT_EXACT)
            return SOW_E_ARG;
        if (sow_position_check(s->g, &ps[i]))
            return SOW_E_POSITION;
        int k = sow_i_seeds_on_board(s->g, &ps[i]);
        most = k > most ? k : most;
    }
    search_call_begin(s, "depth");
    s->c.use_oracle = false;
    search_key_use(s, most);
    _Atomic int next = 0;
    int threads = n > 1 ? s->opt.threads : 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
    depths_worker(s, s->w[omp_get_thread_num()], ps, depths, n, scores, &next);
    *nodes = search_nodes(s);
    return search_error(s);
}
