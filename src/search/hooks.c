/* hooks.c - the analysis driver's access to the solver (internal.h):
 * depth-limited probes with an evaluation at the horizon over the exact
 * solver's node(), table and threads.
 */
#include "clock.h"
#include "order.h"
#include "solver.h"

void search_analyse_begin(sow_search *s, const sow_pos *root, search_eval_fn eval,
                          const void *eval_ctx, uint64_t node_limit, bool lmr_deep)
{
    search_call_begin(s, "depth");
    search_key_use(s, sow_i_seeds_on_board(s->g, root));
    search_oracle_root(s, sow_i_seeds_on_board(s->g, root));
    s->c.eval = eval;
    s->c.eval_ctx = eval_ctx;
    s->c.promote = true;
    s->c.node_limit = node_limit;
    s->c.heuristics = true;
    s->c.lmr_deep = lmr_deep;
    for (int i = 0; i < s->opt.threads; i++)
        order_clear(s->w[i]);
}

void search_analyse_end(sow_search *s)
{
    s->c.eval = NULL;
    s->c.eval_ctx = NULL;
    s->c.promote = false;
    s->c.node_limit = 0;
    s->c.heuristics = false;
    s->c.lmr_deep = false;
}

static uint64_t inexact_sum(const sow_search *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->opt.threads; i++)
        n += s->w[i]->inexact;
    return n;
}

int search_analyse_probe(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x,
                         int alpha, int beta, int depth, bool *exact)
{
    if (depth < 0)
        depth = 0;
    if (depth >= SEARCH_UNBOUNDED)
        depth = TT_DRAFT_EXACT;
    else if (depth >= TT_DRAFT_EXACT)
        depth = TT_DRAFT_EXACT - 1;
    /* A probe of a few nodes never reaches the nodes' poll: the stop flag
     * and the clock are read here too, so that short probes end a search
     * in time. */
    if ((s->opt.stop && __atomic_load_n(s->opt.stop, __ATOMIC_RELAXED)) ||
        (s->opt.time_limit > 0 && sow_now() - s->c.t0 > s->opt.time_limit)) {
        search_fail(s, SOW_E_INTERRUPTED);
        return SEARCH_STOPPED;
    }
    uint64_t before = inexact_sum(s);
    int v = search_probe(s, anc, nanc, x, alpha, beta, depth);
    *exact = inexact_sum(s) == before;
    return v == INF ? SEARCH_STOPPED : v;
}

int search_seldepth(const sow_search *s)
{
    int d = 0;
    for (int i = 0; i < s->opt.threads; i++)
        if (s->w[i]->seldepth > d)
            d = s->w[i]->seldepth;
    return d;
}

bool search_key_exact(const sow_search *s)
{
    return s->key.exact;
}

int search_key_mode(const sow_search *s)
{
    return s->key.mode;
}

void search_set_solo_nodes(sow_search *s, uint64_t nodes)
{
    s->solo_nodes = nodes;
}

const sow_game *search_game(const sow_search *s)
{
    return s->g;
}
