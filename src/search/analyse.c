/* analyse.c - iterative deepening over the exact solver (sow/analyse.h).
 *
 * Each depth searches the root's moves one by one (principal variation
 * search at the root: the best moves so far by aspiration windows around
 * their previous value, the rest with a null window that only asks
 * whether they beat the multipv-th best, re-searched open if they do),
 * each child by search_analyse_probe:
 * node() on every thread over the shared table, the evaluation at the
 * horizon. The next depth orders the moves by this depth's scores.
 */
#include <string.h>

#include "clock.h"
#include "internal.h"
#include "rules_inline.h"
#include "sow/analyse.h"

#define WIDE 29000 /* beyond any future gain (|future| <= 255 * 3 + 1) */
/* The first aspiration window: this many seeds either side of the guess,
 * doubled at each failure (results/strength.md, "Search"). */
#define ASPIRATION_SEEDS 6

typedef struct root_move {
    sow_pos q;
    int c0, sign;   /* the move's value is c0 + sign * future(q), root future units */
    bool known;     /* future(q) known without search (fq) */
    int fq;
    int idx;        /* index into the info's moves */
} root_move;

static int eval_hook(const sow_game *g, const sow_pos *p, const void *ctx)
{
    return sow_eval(g, p, ctx);
}

/* The root move's value, window (a, b) on it (root future units): the
 * fail-soft result, SEARCH_STOPPED if stopped; *exact if proven. */
static int search_move(sow_search *s, const sow_pos *root, const root_move *rm, int a, int b,
                       int depth, bool *exact)
{
    if (rm->known) {
        *exact = true;
        return rm->c0 + rm->sign * rm->fq;
    }
    int f;
    if (rm->sign > 0)
        f = search_analyse_probe(s, root, 1, &rm->q, a - rm->c0, b - rm->c0, depth - 1, exact);
    else
        f = search_analyse_probe(s, root, 1, &rm->q, rm->c0 - b, rm->c0 - a, depth - 1, exact);
    if (f == SEARCH_STOPPED)
        return SEARCH_STOPPED;
    return rm->c0 + rm->sign * f;
}

/* The move's value by aspiration windows: a window around `guess` (the
 * previous depth's value), widened on the side it failed, twice as far
 * each time, until the value falls inside. Measured against MTD(f) from
 * the same guess: fewer nodes on Toguz and Kalah, the same on Congkak
 * (results/strength.md, "Search"). SEARCH_STOPPED if stopped; *exact if
 * the last search, the one inside its window, was proven. */
static int aspire_move(sow_search *s, const sow_pos *root, const root_move *rm, int guess,
                       int depth, bool *exact)
{
    int delta = ASPIRATION_SEEDS * search_game(s)->score_scale;
    int a = guess - delta, b = guess + delta;
    for (;;) {
        a = a < -WIDE ? -WIDE : a;
        b = b > WIDE ? WIDE : b;
        int v = search_move(s, root, rm, a, b, depth, exact);
        if (v == SEARCH_STOPPED)
            return v;
        delta *= 2;
        if (v <= a && a > -WIDE)
            a = v - delta;
        else if (v >= b && b < WIDE)
            b = v + delta;
        else
            return v;
    }
}

/* Is pit move mv legal at x? */
static bool legal(const sow_game *g, const sow_pos *x, sow_move mv)
{
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, x, ms);
    for (int i = 0; i < n; i++)
        if (ms[i] == mv)
            return true;
    return false;
}

/* The principal variation: the best move, then the table's moves while
 * they are legal and the line does not repeat a position. */
static void extract_pv(sow_search *s, const sow_game *g, const sow_pos *root,
                       sow_analyse_info *in, int depth)
{
    sow_pos line[SOW_PV_MAX + 1];
    line[0] = *root;
    in->pv_len = 0;
    if (in->best < 0)
        return;
    sow_move mv = in->moves[in->best];
    int max = depth < SOW_PV_MAX ? depth : SOW_PV_MAX;
    while (in->pv_len < max) {
        sow_pos x = line[in->pv_len];
        in->pv[in->pv_len++] = mv;
        sow_i_make(g, &x, mv);
        for (int i = 0; i <= in->pv_len - 1; i++)
            if (sow_pos_eq(&line[i], &x))
                return;
        line[in->pv_len] = x;
        if (sow_i_over(g, &x))
            return;
        mv = search_table_move(s, &x);
        if (!legal(g, &x, mv))
            return;
    }
}

/* Insertion sort of the root order by the previous depth's scores, best
 * first (stable: ties keep their order). */
static void sort_order(int *ord, int n, const int *score)
{
    for (int i = 1; i < n; i++) {
        int t = ord[i], j = i;
        while (j > 0 && score[ord[j - 1]] < score[t]) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = t;
    }
}

/* The k-th best value among the moves of ord[0..done) searched to their
 * value (not refuted bounds), or -WIDE if fewer than k were. */
static int kth_best(const int *ord, int done, const int *val, const bool *bound, int k)
{
    int top[SOW_MAX_MOVES], n = 0;
    for (int i = 0; i < done; i++)
        if (!bound[ord[i]])
            top[n++] = ord[i];
    if (n < k)
        return -WIDE;
    sort_order(top, n, val);
    return val[top[k - 1]];
}

/* One depth: every root move's value or bound (root future units) into
 * val/bound/ex; move `must` (-1: none) to its value; false if stopped. */
static bool iterate(sow_search *s, const sow_pos *root, root_move *rm, int n, const int *ord,
                    int depth, int multipv, int must, const int *guess, int *val, bool *bound,
                    bool *ex)
{
    for (int j = 0; j < n; j++) {
        int i = ord[j];
        int thr = i == must ? -WIDE : kth_best(ord, j, val, bound, multipv);
        bool e1 = true, e2 = true;
        int v;
        if (thr == -WIDE) {
            v = aspire_move(s, root, &rm[i], guess[i], depth, &e1);
        } else {
            v = search_move(s, root, &rm[i], thr, thr + 1, depth, &e1);
            if (v != SEARCH_STOPPED && v > thr)
                v = search_move(s, root, &rm[i], thr, WIDE, depth, &e2);
        }
        if (v == SEARCH_STOPPED)
            return false;
        val[i] = v;
        bound[i] = thr != -WIDE && v <= thr; /* fail-soft: an upper bound */
        ex[i] = e1 && e2;
    }
    return true;
}

/* Fills the info of a completed depth from the moves' results. */
static void record(sow_search *s, const sow_game *g, const sow_pos *root, int depth, int n,
                   const int *val, const bool *bound, const bool *ex, int multipv, double t0,
                   sow_analyse_info *out)
{
    int base = search_store_score(g, root);
    int ord[SOW_MAX_MOVES];
    out->depth = depth;
    out->exact = true;
    out->best = -1;
    for (int i = 0; i < n; i++) {
        out->move_scores[i] = base + val[i];
        out->move_bound[i] = bound[i];
        out->move_exact[i] = ex[i];
        out->exact = out->exact && ex[i];
        if (!bound[i] && (out->best < 0 || val[i] > val[out->best]))
            out->best = i;
        ord[i] = i;
    }
    out->score = base + val[out->best];
    sort_order(ord, n, val);
    out->nlines = 0;
    for (int j = 0; j < n && out->nlines < multipv; j++)
        if (!bound[ord[j]])
            out->lines[out->nlines++] = ord[j];
    extract_pv(s, g, root, out, depth);
    out->nodes = search_nodes(s);
    out->seldepth = search_seldepth(s);
    if (out->seldepth < depth)
        out->seldepth = depth;
    out->seconds = sow_now() - t0;
}

static sow_err run(sow_search *s, const sow_game *g, const sow_pos *p,
                   const sow_analyse_options *opt, sow_analyse_info *out)
{
    double t0 = sow_now();
    int n = out->nmoves = sow_i_moves(g, p, out->moves);
    if (n == 0) {
        out->score = sow_i_terminal_score(g, p);
        out->exact = true;
        return SOW_OK;
    }
    root_move rm[SOW_MAX_MOVES];
    int val[SOW_MAX_MOVES], prev[SOW_MAX_MOVES], ord[SOW_MAX_MOVES];
    bool bound[SOW_MAX_MOVES], ex[SOW_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        root_move *r = &rm[i];
        r->q = *p;
        sow_i_make(g, &r->q, out->moves[i]);
        r->sign = sow_pos_to_move(&r->q) == sow_pos_to_move(p) ? 1 : -1;
        r->c0 = r->sign * search_store_score(g, &r->q) - search_store_score(g, p);
        r->known = search_known(s, p, 1, &r->q, &r->fq);
        r->idx = i;
        ord[i] = i;
        prev[i] = 0;
    }
    int maxd = opt->max_depth > 0 ? opt->max_depth : SOW_ANALYSE_MAX_DEPTH;
    int multipv = opt->multipv > 0 ? opt->multipv : 1;
    int must = -1;
    for (int i = 0; opt->score_move && i < n; i++)
        if (out->moves[i] == *opt->score_move)
            must = i;
    /* Where a position can come back (Toguz), a depth-limited search
     * meets its repetitions only on the lines it reaches, and their nodes
     * give the table no proven bounds (sow/search.h, "Cycles"): deepening
     * alone may never prove the value. Past twice the seeds on the board,
     * the iteration is the exact solver's unbounded search instead (under
     * an exact key only: a hashed one could prove nothing). */
    int unbounded = g->cycles && search_key_exact(s) ? 2 * sow_i_seeds_on_board(g, p) : SOW_ANALYSE_MAX_DEPTH;
    for (int d = 1; d <= maxd; d++) {
        sort_order(ord, n, prev);
        int sd = d > unbounded ? SEARCH_UNBOUNDED + 1 : d;
        if (!iterate(s, p, rm, n, ord, sd, multipv, must, prev, val, bound, ex)) {
            sow_err e = search_error(s);
            if (e == SOW_E_LIMIT && sd > SOW_ANALYSE_MAX_DEPTH) {
                /* A line of the unbounded search outgrew the longest path
                 * it can hold (node.c): deepen depth-limited instead, from
                 * this depth on, until the clock or the depth stops it. */
                search_clear_error(s);
                unbounded = SOW_ANALYSE_MAX_DEPTH;
                d--;
                continue;
            }
            return e ? e : SOW_E_INTERRUPTED;
        }
        record(s, g, p, d, n, val, bound, ex, multipv, t0, out);
        if (opt->on_depth)
            opt->on_depth(opt->ctx, out);
        if (out->exact)
            return SOW_OK;
        /* Refuted moves keep their bound as their order key: below the
         * moves searched to their value. */
        memcpy(prev, val, sizeof prev);
    }
    return SOW_OK;
}

sow_err sow_analyse(sow_search *s, const sow_pos *p, const sow_analyse_options *opt,
                    sow_analyse_info *out)
{
    memset(out, 0, sizeof *out);
    out->best = -1;
    const sow_game *g = search_game(s);
    if (sow_position_check(g, p))
        return SOW_E_POSITION;
    if (opt->max_depth < 0 || opt->max_depth > SOW_ANALYSE_MAX_DEPTH || opt->multipv < 0 ||
        opt->time_limit < 0 || (opt->score_move && !legal(g, p, *opt->score_move)) ||
        opt->reductions < SOW_REDUCE_GAME || opt->reductions > SOW_REDUCE_DEEP)
        return SOW_E_ARG;
    search_analyse_begin(s, p, opt->eval ? eval_hook : NULL, opt->eval, opt->max_nodes,
                         sow_reductions_deep(g, opt->reductions));
    sow_search_set_time_limit(s, opt->time_limit);
    sow_err e = run(s, g, p, opt, out);
    if (out->depth == 0)
        out->nodes = search_nodes(s);
    search_analyse_end(s);
    sow_search_set_time_limit(s, 0);
    return e;
}
