/* units.c - a solve by work units (sow/units.h): the tree above the
 * frontier, bounds propagated by minimax, MTD(f) at the root whose
 * null-window tests ask one frontier question at a time.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "sow/notation.h"
#include "sow/units.h"

/* A frontier deeper than this many nodes is refused: its tree would take
 * more memory than the questions are worth (SOW_E_LIMIT). */
#define MAX_NODES (1u << 22)
/* Move ordering above the frontier: each node's depth-limited score at
 * this depth (cheap next to a unit), and the root's first MTD(f) guess at
 * ROOT_GUESS_DEPTH. Without them the tree's cut-offs come late and MTD(f)
 * starts far from the value: Kalah(6,4) asked several times the nodes. */
#define ORDER_DEPTH 4
#define ROOT_GUESS_DEPTH 10

/* One node of the tree above the frontier. Children are contiguous:
 * t[first .. first + n). Bounds are score units, this node's mover's view. */
typedef struct tnode {
    sow_pos p;
    int parent;      /* -1 at the root */
    int first, n;
    int depth;
    sow_move move;   /* from the parent */
    signed char sign;/* +1: the parent's mover moves again here */
    bool leaf;       /* a frontier node: questions are asked about it */
    int lo, hi;
    int h;           /* a depth-limited score: the move ordering's guess */
} tnode;

typedef struct tree {
    const sow_game *g;
    tnode *t;
    size_t n, cap;
} tree;

/* The parent's view of child c's bounds. */
static void conv(const tnode *c, int *lo, int *hi)
{
    *lo = c->sign > 0 ? c->lo : -c->hi;
    *hi = c->sign > 0 ? c->hi : -c->lo;
}

static int board_seeds(const sow_game *g, const sow_pos *p)
{
    int k = 0;
    for (int i = 1; i <= g->m; i++)
        k += sow_pos_pit(p, SOW_SOUTH, i) + sow_pos_pit(p, SOW_NORTH, i);
    return k;
}

/* Is p a repetition of a position on the line from the root to `parent`
 * (then it scores as perpetual play, sow/search.h)? */
static bool repeats(const tree *T, int parent, const sow_pos *p)
{
    for (int i = parent; i >= 0; i = T->t[i].parent)
        if (sow_pos_eq(&T->t[i].p, p))
            return true;
    return false;
}

/* Every score a position can still reach: its stores now, give or take
 * every seed on the board (and the tie-break). */
static void wide(const sow_game *g, const sow_pos *p, int *lo, int *hi)
{
    int mover = sow_pos_to_move(p);
    int banked = (sow_pos_store(p, mover) - sow_pos_store(p, 1 - mover)) * g->score_scale;
    int span = board_seeds(g, p) * g->score_scale + (g->tiebreak ? 1 : 0);
    *lo = banked - span;
    *hi = banked + span;
}

static sow_err push(tree *T, const tnode *x)
{
    if (T->n == T->cap) {
        if (T->cap >= MAX_NODES)
            return SOW_E_LIMIT;
        size_t cap = T->cap ? 2 * T->cap : 256;
        tnode *t = realloc(T->t, cap * sizeof *t);
        if (!t)
            return SOW_E_NOMEM;
        T->t = t;
        T->cap = cap;
    }
    T->t[T->n++] = *x;
    return SOW_OK;
}

/* The tree down to `depth` plies, breadth first (a parent before its
 * children), every node's own bounds set: exact where the game is over or
 * repeats, wide at the frontier. */
static sow_err build(tree *T, const sow_pos *root, int depth)
{
    const sow_game *g = T->g;
    tnode r = {.p = *root, .parent = -1};
    sow_err e = push(T, &r);
    for (size_t i = 0; !e && i < T->n; i++) {
        tnode *x = &T->t[i];
        if (sow_over(g, &x->p)) {
            x->lo = x->hi = sow_terminal_score(g, &x->p);
            continue;
        }
        if (x->parent >= 0 && g->cycles && repeats(T, x->parent, &x->p)) {
            x->lo = x->hi = sow_perpetual_score(g, &x->p);
            continue;
        }
        wide(g, &x->p, &x->lo, &x->hi);
        if (x->depth == depth) {
            x->leaf = true;
            continue;
        }
        sow_move ms[SOW_MAX_MOVES];
        int nm = sow_moves(g, &x->p, ms), first = (int)T->n, d = x->depth;
        sow_pos p = x->p;
        for (int k = 0; k < nm && !e; k++) {
            tnode c = {.p = p, .parent = (int)i, .depth = d + 1, .move = ms[k]};
            sow_make(g, &c.p, ms[k]);
            c.sign = sow_pos_to_move(&c.p) == sow_pos_to_move(&p) ? 1 : -1;
            e = push(T, &c);
        }
        T->t[i].first = first;
        T->t[i].n = nm;
    }
    return e;
}

/* Node i's bounds from its children's; true if they changed. */
static bool recompute(tree *T, int i)
{
    tnode *x = &T->t[i];
    if (x->leaf || x->n == 0)
        return false;
    int lo = INT32_MIN, hi = INT32_MIN;
    for (int k = 0; k < x->n; k++) {
        int a, b;
        conv(&T->t[x->first + k], &a, &b);
        lo = a > lo ? a : lo;
        hi = b > hi ? b : hi;
    }
    bool changed = lo != x->lo || hi != x->hi;
    x->lo = lo;
    x->hi = hi;
    return changed;
}

static void propagate(tree *T, int i)
{
    for (int p = T->t[i].parent; p >= 0 && recompute(T, p); p = T->t[p].parent)
        ;
}

/* Narrows leaf i by an answer: score >= bound or score <= bound. Both
 * bounds are proven, so they cannot cross but by a bug: then the later
 * one is clamped rather than trusted beyond the other. */
static void narrow(tnode *x, int threshold, int bound)
{
    if (bound >= threshold) {
        if (bound > x->lo)
            x->lo = bound < x->hi ? bound : x->hi;
    } else if (bound < x->hi) {
        x->hi = bound > x->lo ? bound : x->lo;
    }
}

/* The frontier node on u's line, -1 if there is none. */
static int find(const tree *T, const sow_unit *u)
{
    int i = 0;
    for (int d = 0; d < u->nline; d++) {
        const tnode *x = &T->t[i];
        int c = -1;
        for (int k = 0; k < x->n; k++)
            if (T->t[x->first + k].move == u->line[d])
                c = x->first + k;
        if (c < 0)
            return -1;
        i = c;
    }
    return T->t[i].leaf ? i : -1;
}

/* Builds the tree and applies the known answers; bounds propagated. */
static sow_err grow(tree *T, const sow_pos *root, int depth, const sow_unit *known,
                    size_t nknown, uint64_t *reused)
{
    sow_err e = build(T, root, depth);
    if (e)
        return e;
    *reused = 0;
    for (size_t k = 0; k < nknown; k++) {
        if (!known[k].done)
            continue;
        int i = find(T, &known[k]);
        if (i < 0)
            continue;
        narrow(&T->t[i], known[k].threshold, known[k].bound);
        (*reused)++;
    }
    for (size_t i = T->n; i-- > 0;)
        recompute(T, (int)i);
    return SOW_OK;
}

sow_err sow_units_prove(const sow_game *g, const sow_pos *root, int depth,
                        const sow_unit *known, size_t nknown, sow_units_bounds *out)
{
    memset(out, 0, sizeof *out);
    if (depth < 1 || depth > SOW_UNITS_MAX_DEPTH)
        return SOW_E_ARG;
    tree T = {.g = g};
    uint64_t reused;
    sow_err e = grow(&T, root, depth, known, nknown, &reused);
    if (!e) {
        out->lower = T.t[0].lo;
        out->upper = T.t[0].hi;
        for (size_t i = 0; i < T.n; i++)
            if (T.t[i].leaf) {
                out->frontier++;
                out->exact += T.t[i].lo == T.t[i].hi;
            }
    }
    free(T.t);
    return e;
}

/* ---- the solve --------------------------------------------------------------- */

typedef struct solver {
    tree T;
    sow_search *s;
    const sow_plan *plan;
    const sow_units_journal *j;
    const sow_units_callbacks *cb;
    sow_units_result *out;
    double t0;
} solver;

static sow_err fail(sow_units_result *out, sow_err e, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static sow_err fail(sow_units_result *out, sow_err e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error, sizeof out->error, fmt, ap);
    va_end(ap);
    return e;
}

/* Asks the question "score(leaf i) >= beta?" and records its answer. */
static sow_err ask(solver *S, int i, int beta, bool *ge)
{
    const sow_limits *L = &S->plan->limits;
    if (L->stop && __atomic_load_n(L->stop, __ATOMIC_RELAXED))
        return SOW_E_INTERRUPTED;
    double left = 0;
    if (L->time_limit > 0) {
        left = L->time_limit - (sow_now() - S->t0);
        if (left <= 0)
            return SOW_E_INTERRUPTED;
    }
    sow_search_set_time_limit(S->s, left);
    sow_unit u = {.threshold = beta};
    sow_pos path[SOW_UNITS_MAX_DEPTH + 1];
    int n = S->T.t[i].depth + 1;
    for (int k = i, d = n - 1; k >= 0; k = S->T.t[k].parent, d--) {
        path[d] = S->T.t[k].p;
        if (d > 0)
            u.line[d - 1] = S->T.t[k].move;
    }
    u.nline = n - 1;
    sow_err e = S->j && S->j->asked ? S->j->asked(S->j->ctx, &u) : SOW_OK;
    if (e)
        return e;
    double c0 = sow_cpu_now(), w0 = sow_now();
    e = sow_search_test(S->s, path, n, beta, &u.bound, &u.nodes);
    u.cpu_seconds = sow_cpu_now() - c0;
    u.seconds = sow_now() - w0;
    S->out->cpu_seconds += u.cpu_seconds;
    S->out->nodes += u.nodes;
    if (e)
        return e;
    u.done = true;
    if (S->j && S->j->answered && (e = S->j->answered(S->j->ctx, &u)))
        return e;
    S->out->units++;
    narrow(&S->T.t[i], beta, u.bound);
    propagate(&S->T, i);
    *ge = u.bound >= beta;
    if (S->cb && S->cb->progress) {
        sow_units_progress pr = {S->T.t[0].lo, S->T.t[0].hi, S->out->units, S->out->nodes,
                                 S->out->cpu_seconds, sow_now() - S->t0};
        S->cb->progress(S->cb->ctx, &pr);
    }
    return SOW_OK;
}

/* Is score(node i) >= beta? Alpha-beta over the tree with a null window:
 * the children that may still reach beta, the most promising first, until
 * one does. The bounds are exact facts, so a question they decide is not
 * asked again. */
static sow_err test(solver *S, int i, int beta, bool *ge)
{
    tnode *x = &S->T.t[i];
    if (x->lo >= beta || x->hi < beta) {
        *ge = x->lo >= beta;
        return SOW_OK;
    }
    if (x->leaf)
        return ask(S, i, beta, ge);
    int order[SOW_MAX_MOVES], n = x->n, first = x->first, lo[SOW_MAX_MOVES],
        hi[SOW_MAX_MOVES];
    for (int k = 0; k < n; k++) {
        conv(&S->T.t[first + k], &lo[k], &hi[k]);
        int j = k;
        /* Insertion sort by the guess, descending: the child most likely
         * to reach the test first. */
        (void)lo;
        (void)hi;
        int hk = S->T.t[first + k].sign * S->T.t[first + k].h;
        while (j > 0 && S->T.t[first + order[j - 1]].sign * S->T.t[first + order[j - 1]].h < hk) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    for (int r = 0; r < n; r++) {
        int c = first + order[r];
        int a, b;
        conv(&S->T.t[c], &a, &b);
        if (b < beta)
            continue;
        bool cge;
        sow_err e = S->T.t[c].sign > 0 ? test(S, c, beta, &cge) : test(S, c, 1 - beta, &cge);
        if (e)
            return e;
        if (S->T.t[c].sign < 0)
            cge = !cge;
        if (cge) {
            *ge = true;
            return SOW_OK;
        }
    }
    *ge = false;
    return SOW_OK;
}

/* The move ordering's guesses (tnode.h); the root's is MTD(f)'s start. */
static sow_err guess(solver *S)
{
    for (size_t i = 0; i < S->T.n; i++) {
        tnode *x = &S->T.t[i];
        if (x->lo == x->hi) {
            x->h = x->lo;
            continue;
        }
        uint64_t nodes;
        sow_err e = sow_search_depth(S->s, &x->p, i ? ORDER_DEPTH : ROOT_GUESS_DEPTH, &x->h,
                                     &nodes);
        S->out->nodes += nodes;
        if (e)
            return e;
    }
    return SOW_OK;
}

/* MTD(f) at the root: null-window tests until the bounds meet. */
static sow_err mtd(solver *S)
{
    tnode *r = &S->T.t[0];
    int f = r->h;
    while (r->lo < r->hi) {
        int beta = f <= r->lo ? r->lo + 1 : f > r->hi ? r->hi : f;
        bool ge;
        sow_err e = test(S, 0, beta, &ge);
        if (e)
            return e;
        f = ge ? r->lo : r->hi;
    }
    return SOW_OK;
}

static sow_err open_solver(solver *S, const sow_game *g, sow_db **db)
{
    const sow_plan *plan = S->plan;
    const sow_limits *L = &plan->limits;
    const sow_units_callbacks *cb = S->cb;
    sow_search_options so = {
        .threads = L->threads,
        .tt_mb = plan->tt_mb,
        .value_only = true,
        .progress = cb ? cb->search_progress : NULL,
        .progress_ctx = cb ? cb->ctx : NULL,
        .progress_every = cb ? cb->progress_every : 0,
        .stop = L->stop,
    };
    sow_err e = sow_search_new(g, &so, &S->s);
    if (e == SOW_E_NOMEM)
        return fail(S->out, e, "cannot allocate a %zu MB transposition table", plan->tt_mb);
    if (e)
        return fail(S->out, e, "%s", sow_err_name(e));
    if (plan->db_seeds > 0) {
        sow_db_options o = {
            .threads = L->threads,
            .memory = plan->db_budget,
            .progress = cb ? cb->db_progress : NULL,
            .progress_ctx = cb ? cb->ctx : NULL,
            .stop = L->stop,
            .make_dir = true,
        };
        char why[SOW_PLAN_WHY];
        e = sow_db_open(g, plan->db_seeds, L->db_dir, &o, db, why, sizeof why);
        if (e)
            return fail(S->out, e, "database up to %d seeds: %s", plan->db_seeds, why);
        sow_oracle oracle;
        sow_plan_oracle(*db, plan->db_seeds, &oracle);
        sow_search_set_oracle(S->s, &oracle);
        S->out->db_seeds = plan->db_seeds;
    }
    return SOW_OK;
}

sow_err sow_units_solve(const sow_game *g, const sow_pos *root, const sow_plan *plan, int depth,
                        const sow_unit *known, size_t nknown, const sow_units_journal *j,
                        const sow_units_callbacks *cb, sow_units_result *out)
{
    memset(out, 0, sizeof *out);
    solver S = {.T = {.g = g}, .plan = plan, .j = j, .cb = cb, .out = out, .t0 = sow_now()};
    wide(g, root, &out->lower, &out->upper);
    if (depth < 1 || depth > SOW_UNITS_MAX_DEPTH)
        return fail(out, SOW_E_ARG, "the frontier depth %d is not within 1..%d", depth,
                    SOW_UNITS_MAX_DEPTH);
    if (plan->limits.pie_opening)
        return fail(out, SOW_E_ARG, "work units do not take a pie-rule opening");
    if (sow_over(g, root))
        return fail(out, SOW_E_ARG, "the game is over: there is nothing to solve");
    sow_db *db = NULL;
    sow_err e = grow(&S.T, root, depth, known, nknown, &out->reused);
    if (e == SOW_E_LIMIT)
        fail(out, e, "a frontier at %d plies has over %u nodes above it: take a smaller depth",
             depth, MAX_NODES);
    else if (e)
        fail(out, e, "no memory for the tree above the frontier");
    for (size_t i = 0; !e && i < S.T.n; i++)
        out->frontier += S.T.t[i].leaf;
    if (!e)
        e = open_solver(&S, g, &db);
    if (!e) {
        double c0 = sow_cpu_now();
        e = guess(&S);
        out->cpu_seconds += sow_cpu_now() - c0;
    }
    if (!e)
        e = mtd(&S);
    if (S.T.t) {
        out->lower = S.T.t[0].lo;
        out->upper = S.T.t[0].hi;
    }
    if (!e) {
        out->score = S.T.t[0].lo;
        out->value = sow_score_margin(g, out->score);
        out->outcome = sow_outcome_of(out->score);
        const tnode *r = &S.T.t[0];
        for (int k = 0; k < r->n; k++) {
            int a, b;
            conv(&S.T.t[r->first + k], &a, &b);
            if (a == out->score) {
                out->best = S.T.t[r->first + k].move;
                break;
            }
        }
    } else if (!out->error[0]) {
        fail(out, e, "%s",
             e == SOW_E_INTERRUPTED ? "interrupted"
             : e == SOW_E_LIMIT     ? "a line of play is longer than the search stack"
                                    : sow_err_name(e));
    }
    sow_search_free(S.s);
    sow_db_close(db);
    free(S.T.t);
    out->seconds = sow_now() - S.t0;
    return e;
}

void sow_units_line_format(const sow_unit *u, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (int d = 0; d < u->nline && at < size; d++) {
        char mv[8];
        sow_move_format(u->line[d], mv, sizeof mv);
        int w = snprintf(buf + at, size - at, "%s%s", d ? "," : "", mv);
        at += w > 0 ? (size_t)w : 0;
    }
}

sow_err sow_units_line_parse(const sow_game *g, const char *text, sow_unit *u)
{
    return sow_moves_parse(g, text, u->line, SOW_UNITS_MAX_DEPTH, &u->nline);
}
