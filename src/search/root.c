/* root.c - sow_search_solve: the root's value (MTD(f) after shallow
 * ordering searches), the pie rule's root, a best move under value_only,
 * the principal variation (solver.h; every root move's value is
 * root_moves.c's).
 */
#include <string.h>

#include "clock.h"
#include "solver.h"

/* Depth of the move-ordering iterations before an exact search: deeper
 * ones cost more than they save (doc/experiments.md, "Search"). */
#define PRE_DEPTH 8
#define PRE_MIN_SEEDS 24 /* smaller boards solve too fast for it to pay */

/* Is the future gain of x (not finished, not known) at least t? */
static int test_ge(sow_search *s, const sow_pos *x, int t, bool *ok)
{
    int v = search_probe(s, NULL, 0, x, t - 1, t, TT_DRAFT_EXACT);
    if (v == INF)
        return INF;
    *ok = v >= t;
    return 0;
}

/* A move of x (whose exact future is f, its children searched as roots of
 * their own) that achieves f: known children first, then the table's
 * move, then the rest, each checked by a null-window search. Returns the
 * index in ms, -1 on error. */
static int achieving_move(sow_search *s, const sow_pos *x, int f, const sow_move *ms, int n,
                          int *fchild)
{
    rchild c[SOW_MAX_MOVES];
    bool isknown[SOW_MAX_MOVES];
    int fk[SOW_MAX_MOVES];
    for (int k = 0; k < n; k++) {
        make_child(s->g, x, ms[k], &c[k]);
        isknown[k] = search_known(s, NULL, 0, &c[k].q, &fk[k]);
        if (isknown[k] && c[k].c0 + c[k].sign * fk[k] == f) {
            *fchild = fk[k];
            return k;
        }
    }
    sow_move tm = search_table_move(s, x);
    for (int pass = 0; pass < 2; pass++)
        for (int k = 0; k < n; k++) {
            if (isknown[k] || (pass == 0) != (ms[k] == tm))
                continue;
            /* child value c0 + sign*fq >= f ? */
            bool ok;
            int t = c[k].sign > 0 ? f - c[k].c0 : c[k].c0 - f + 1;
            if (test_ge(s, &c[k].q, t, &ok) == INF)
                return -1;
            if (c[k].sign < 0)
                ok = !ok;
            if (ok) {
                *fchild = c[k].sign * (f - c[k].c0);
                return k;
            }
        }
    return -1; /* unreachable when f is exact */
}

/* Pie rule: max over completions of South's opening turn from q of -|v|. */
static int pie_turn(sow_search *s, const sow_pos *q, int *probes)
{
    const sow_game *g = s->g;
    if (sow_i_over(g, q) || sow_pos_to_move(q) != SOW_SOUTH) {
        int base = search_store_score(g, q);
        int f = search_mtd_all(s, q, 0, base, 1, probes, false);
        if (f == INF)
            return INF;
        int v = base + f;
        return v < 0 ? v : -v;
    }
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, q, ms), best = -INF;
    for (int k = 0; k < n; k++) {
        sow_pos t = *q;
        sow_i_make(g, &t, ms[k]);
        int v = pie_turn(s, &t, probes);
        if (v == INF)
            return INF;
        if (v > best)
            best = v;
    }
    return best;
}

/* The root of a pie opening: every move's value by the pie rule. */
static sow_err solve_pie(sow_search *s, const sow_pos *p, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    int n = sol->nmoves, best = -INF;
    s->c.pr.phase = "moves";
    s->c.pr.nmoves = n;
    for (int k = 0; k < n; k++) {
        s->c.pr.move = k;
        sow_pos q = *p;
        sow_i_make(s->g, &q, sol->moves[k]);
        int v = pie_turn(s, &q, &out->mtd_probes);
        if (v == INF)
            return search_error(s);
        sol->move_scores[k] = v;
        out->move_exact[k] = true;
        if (v > best) {
            best = v;
            sol->best = k;
        }
    }
    sol->score = best;
    out->seconds_value = sow_now() - s->c.t0;
    if (s->opt.pv_max > 0) {
        out->pv[0] = sol->moves[sol->best];
        out->pv_len = 1;
    }
    return SOW_OK;
}

/* The root's future gain into *f: shallow depth-limited searches first
 * (they leave a best move in the table for the nodes near the root; their
 * bounds have a smaller draft, so the exact search never trusts them, and
 * their value is MTD(f)'s first guess), then MTD(f). */
static sow_err solve_value(sow_search *s, const sow_pos *p, sow_search_result *out, int *f)
{
    const sow_game *g = s->g;
    int guess = 0, f0;
    s->c.pr.phase = "order";
    int pre = sow_i_seeds_on_board(g, p) >= PRE_MIN_SEEDS ? PRE_DEPTH : 0;
    for (int d = 1; d <= pre && !search_known(s, NULL, 0, p, &f0); d++) {
        guess = search_guess(s, p, d);
        if (guess == INF)
            return search_error(s);
    }
    s->c.pr.phase = "value";
    int base = search_store_score(g, p);
    *f = search_mtd_all(s, p, guess, base, 1, &out->mtd_probes, true);
    if (*f == INF)
        return search_error(s);
    out->sol.score = base + *f;
    s->c.root_lower = s->c.root_upper = out->sol.score;
    out->seconds_value = sow_now() - s->c.t0;
    return SOW_OK;
}

/* value_only: just a root move that achieves the value (future f). */
static sow_err solve_best(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    int fc;
    int k = achieving_move(s, p, f, sol->moves, sol->nmoves, &fc);
    if (k < 0)
        return search_stopped(s);
    for (int i = 0; i < sol->nmoves; i++) {
        sol->move_scores[i] = sol->score; /* an upper bound: no move beats the value */
        out->move_exact[i] = i == k;
    }
    sol->best = k;
    return SOW_OK;
}

/* The principal variation: from each node of known exact future, a move
 * achieving it (the root's best move first). Each node's children are
 * searched as roots of their own, as the root moves were, so the values
 * agree step by step; the line itself is kept to stop at a repetition. */
static sow_err solve_pv(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    const sow_game *g = s->g;
    s->c.pr.phase = "pv";
    sow_pos line[SOW_PV_MAX + 1];
    int nline = 0;
    sow_pos x = *p;
    int fx = f;
    while (out->pv_len < s->opt.pv_max && out->pv_len < SOW_PV_MAX) {
        sow_move ms[SOW_MAX_MOVES];
        int nm = sow_i_moves(g, &x, ms);
        if (nm == 0)
            break;
        line[nline++] = x;
        int fc, k;
        if (out->pv_len == 0) {
            k = out->sol.best;
            rchild c;
            make_child(g, &x, ms[k], &c);
            fc = c.sign * (f - c.c0);
        } else {
            k = achieving_move(s, &x, fx, ms, nm, &fc);
            if (k < 0)
                return search_stopped(s);
        }
        out->pv[out->pv_len++] = ms[k];
        sow_i_make(g, &x, ms[k]);
        fx = fc;
        bool rep;
        if (g->cycles && (same_stores_above(line, nline, &x, &rep), rep))
            break; /* a repetition ends the line (perpetual play) */
    }
    return SOW_OK;
}

static void collect(sow_search *s, sow_search_result *out)
{
    out->sol.nodes = 0;
    for (int i = 0; i < s->opt.threads; i++) {
        worker *w = s->w[i];
        out->sol.nodes += w->nodes;
        out->tt_probes += w->probes;
        out->tt_hits += w->hits;
        out->tt_stores += w->stores;
        out->oracle_probes += w->oprobes;
    }
}

static sow_err solve(sow_search *s, const sow_pos *p, sow_search_result *out)
{
    const sow_game *g = s->g;
    sow_solution *sol = &out->sol;
    sol->nmoves = sow_i_moves(g, p, sol->moves);
    if (sol->nmoves == 0) {
        sol->score = sow_i_terminal_score(g, p);
        out->seconds_value = sow_now() - s->c.t0;
        return SOW_OK;
    }
    if (s->opt.pie_opening)
        return solve_pie(s, p, out);
    int f;
    sow_err e = solve_value(s, p, out, &f);
    if (e)
        return e;
    /* Every root move is scored as what it banks plus the value of the
     * position it leads to, searched as a root of its own (nothing above
     * it on the path): doc/rules.md's scoring with cycles, the reference's
     * (doc/search.md, "Cycles"). The root's value is the same either way. */
    s->c.pr.phase = "moves";
    s->c.pr.nmoves = sol->nmoves;
    if (s->opt.value_only)
        e = solve_best(s, p, f, out);
    else if (s->opt.threads > 1)
        e = search_moves_parallel(s, p, f, out);
    else
        e = search_moves_serial(s, p, f, out);
    return e ? e : solve_pv(s, p, f, out);
}

/* What an interrupted solve knows: the bounds its probes proved and, if
 * no root move was solved yet, the table's move at the root as the best
 * found so far. */
static void stopped_at(sow_search *s, const sow_pos *p, sow_search_result *out)
{
    out->lower = s->c.root_lower;
    out->upper = s->c.root_upper;
    if (out->sol.best >= 0 || out->sol.nmoves == 0)
        return;
    sow_move tm = search_table_move(s, p);
    for (int k = 0; k < out->sol.nmoves; k++)
        if (out->sol.moves[k] == tm)
            out->sol.best = k;
}

sow_err sow_search_solve(sow_search *s, const sow_pos *p, sow_search_result *out)
{
    memset(out, 0, sizeof *out);
    out->sol.best = -1;
    if (sow_position_check(s->g, p))
        return SOW_E_POSITION;
    if (s->opt.pie_opening && (!s->g->pie || sow_pos_to_move(p) != SOW_SOUTH))
        return SOW_E_ARG;
    if (!search_key_use(s, sow_i_seeds_on_board(s->g, p)))
        return SOW_E_LIMIT; /* no exact table key (key.h) */
    search_call_begin(s, NULL);
    search_oracle_root(s, sow_i_seeds_on_board(s->g, p));
    int span = future_bound(s, sow_i_seeds_on_board(s->g, p));
    s->c.root_lower = search_store_score(s->g, p) - span;
    s->c.root_upper = search_store_score(s->g, p) + span;
    sow_err e = solve(s, p, out);
    collect(s, out);
    if (e == SOW_OK) {
        out->sol.value = sow_score_margin(s->g, out->sol.score);
        out->sol.outcome = sow_outcome_of(out->sol.score);
        out->lower = out->upper = out->sol.score;
    } else {
        stopped_at(s, p, out);
    }
    out->seconds = sow_now() - s->c.t0;
    return e;
}
