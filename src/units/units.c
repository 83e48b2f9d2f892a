/* units.c - a solve by work units (sow/units.h): the tree above the
 * frontier, bounds propagated by minimax, MTD(f) at the root whose
 * null-window tests ask one frontier question at a time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "msg.h"
#include "internal.h"
#include "sow/notation.h"

/* A frontier deeper than this many nodes is refused: its tree would take
 * more memory than the questions are worth (SOW_E_LIMIT). */
#define MAX_NODES (1u << 22)
/* Move ordering above the frontier: each node's depth-limited score at
 * this depth (cheap next to a unit), and the root's first MTD(f) guess at
 * ROOT_GUESS_DEPTH. Without them the tree's cut-offs come late and MTD(f)
 * starts far from the value: Kalah(6,4) asked several times the nodes.
 * Depth 6 rather than 4: a quarter fewer nodes on Kalah(6,4) and (6,5),
 * not on every board (doc/experiments.md, "Work units side by side"). */
#define ORDER_DEPTH 6
#define ROOT_GUESS_DEPTH 10

/* One node of the tree above the frontier. Children are contiguous:
 * t[first .. first + n), after their parent in t (a split appends them).
 * Bounds are score units, this node's mover's view: olo..ohi what is
 * proven about the node itself (the seeds' span, the end of the game, the
 * answers about it), lo..hi that intersected with its children's minimax
 * (a leaf: the same). */
typedef struct tnode {
    sow_pos p;
    int parent;      /* -1 at the root */
    int first, n;
    int depth;
    sow_move move;   /* from the parent */
    signed char sign;/* +1: the parent's mover moves again here */
    bool leaf;       /* a frontier node: questions are asked about it */
    int olo, ohi;
    int lo, hi;
    int h;           /* a depth-limited score: the move ordering's guess */
    bool busy;       /* a leaf with a question in flight */
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
    int span = sow_seeds_on_board(g, p) * g->score_scale + (g->tiebreak ? 1 : 0);
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

/* Node i's own bounds: exact where the game is over or repeats (false:
 * it has no children), else every score its seeds allow (true). */
static bool settle(tree *T, size_t i)
{
    const sow_game *g = T->g;
    tnode *x = &T->t[i];
    bool open = false;
    if (sow_over(g, &x->p))
        x->olo = x->ohi = sow_terminal_score(g, &x->p);
    else if (x->parent >= 0 && g->cycles && repeats(T, x->parent, &x->p))
        x->olo = x->ohi = sow_perpetual_score(g, &x->p);
    else {
        wide(g, &x->p, &x->olo, &x->ohi);
        open = true;
    }
    x->lo = x->olo;
    x->hi = x->ohi;
    return open;
}

/* Appends node i's children (x->first, x->n set). On an error the tree
 * is not to be used again. */
static sow_err add_children(tree *T, size_t i)
{
    const sow_game *g = T->g;
    sow_move ms[SOW_MAX_MOVES];
    sow_pos p = T->t[i].p;
    int nm = sow_moves(g, &p, ms), first = (int)T->n, d = T->t[i].depth;
    sow_err e = SOW_OK;
    for (int k = 0; k < nm && !e; k++) {
        tnode c = {.p = p, .parent = (int)i, .depth = d + 1, .move = ms[k]};
        sow_make(g, &c.p, ms[k]);
        c.sign = sow_pos_to_move(&c.p) == sow_pos_to_move(&p) ? 1 : -1;
        e = push(T, &c);
    }
    T->t[i].first = first;
    T->t[i].n = e ? 0 : nm;
    return e;
}

/* The tree down to `depth` plies, breadth first (a parent before its
 * children), every node's own bounds set: exact where the game is over or
 * repeats, wide at the frontier. */
static sow_err build(tree *T, const sow_pos *root, int depth)
{
    tnode r = {.p = *root, .parent = -1};
    sow_err e = push(T, &r);
    for (size_t i = 0; !e && i < T->n; i++) {
        if (!settle(T, i))
            continue;
        if (T->t[i].depth == depth)
            T->t[i].leaf = true;
        else
            e = add_children(T, i);
    }
    return e;
}

/* Node i's bounds from its own and its children's; true if they changed.
 * Both are proven, so they cannot cross but by a bug: then the children's
 * minimax is clamped into the node's own. */
static bool recompute(tree *T, int i)
{
    tnode *x = &T->t[i];
    int lo = x->olo, hi = x->ohi;
    if (!x->leaf && x->n > 0) {
        int clo = INT32_MIN, chi = INT32_MIN;
        for (int k = 0; k < x->n; k++) {
            int a, b;
            conv(&T->t[x->first + k], &a, &b);
            clo = a > clo ? a : clo;
            chi = b > chi ? b : chi;
        }
        lo = clo > lo ? (clo < hi ? clo : hi) : lo;
        hi = chi < hi ? (chi > lo ? chi : lo) : hi;
    }
    bool changed = lo != x->lo || hi != x->hi;
    x->lo = lo;
    x->hi = hi;
    return changed;
}

/* Leaf i leaves the frontier for its children (leaves, or exact where the
 * game ends or repeats); its answers so far stay its own bounds. */
static sow_err split(tree *T, int i)
{
    size_t first = T->n;
    sow_err e = add_children(T, (size_t)i);
    if (e)
        return e;
    for (size_t c = first; c < T->n; c++)
        if (settle(T, c))
            T->t[c].leaf = true;
    T->t[i].leaf = false;
    T->t[i].busy = false;
    recompute(T, i);
    return SOW_OK;
}

static void propagate(tree *T, int i)
{
    for (int p = T->t[i].parent; p >= 0 && recompute(T, p); p = T->t[p].parent)
        ;
}

/* Narrows node i's own bounds by an answer about it: score >= bound or
 * score <= bound; its bounds follow (not its parents': propagate). Both
 * bounds are proven, so they cannot cross but by a bug: then the later
 * one is clamped rather than trusted beyond the other. */
static void narrow(tree *T, int i, int threshold, int bound)
{
    tnode *x = &T->t[i];
    if (bound >= threshold) {
        if (bound > x->olo)
            x->olo = bound < x->ohi ? bound : x->ohi;
    } else if (bound < x->ohi) {
        x->ohi = bound > x->olo ? bound : x->olo;
    }
    recompute(T, i);
}

/* The node at the end of u's line, -1 if there is none. */
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
    return i;
}

/* Builds the tree, splits the known splits' nodes (shorter lines first: a
 * parent before its children) and applies the known answers; bounds
 * propagated. */
static sow_err grow(tree *T, const sow_pos *root, int depth, const sow_unit *known,
                    size_t nknown, uint64_t *reused)
{
    sow_err e = build(T, root, depth);
    *reused = 0;
    for (int d = depth; !e && d < SOW_UNITS_MAX_DEPTH; d++)
        for (size_t k = 0; !e && k < nknown; k++) {
            if (!known[k].split || known[k].nline != d)
                continue;
            int i = find(T, &known[k]);
            if (i >= 0 && T->t[i].leaf)
                e = split(T, i);
        }
    if (e)
        return e;
    for (size_t k = 0; k < nknown; k++) {
        if (!known[k].done)
            continue;
        int i = find(T, &known[k]);
        if (i < 0)
            continue;
        narrow(T, i, known[k].threshold, known[k].bound);
        (*reused)++;
    }
    /* Children come after their parents: one pass from the end. */
    for (size_t i = T->n; i-- > 0;)
        recompute(T, (int)i);
    return SOW_OK;
}

/* The frontier nodes (splits' children included), *exact of them exact. */
static uint64_t leaves(const tree *T, uint64_t *exact)
{
    uint64_t n = 0, x = 0;
    for (size_t i = 0; i < T->n; i++)
        if (T->t[i].leaf) {
            n++;
            x += T->t[i].lo == T->t[i].hi;
        }
    *exact = x;
    return n;
}

sow_err sow_units_prove(const sow_game *g, const sow_pos *root, int depth,
                        const sow_unit *known, size_t nknown, sow_units_bounds *out)
{
    memset(out, 0, sizeof *out);
    if (depth < 1 || depth > SOW_UNITS_MAX_FRONTIER)
        return SOW_E_ARG;
    tree T = {.g = g};
    uint64_t reused;
    sow_err e = grow(&T, root, depth, known, nknown, &reused);
    if (!e) {
        out->lower = T.t[0].lo;
        out->upper = T.t[0].hi;
        out->frontier = leaves(&T, &out->exact);
    }
    free(T.t);
    return e;
}

/* ---- a worker: what one process answers ------------------------------------ */

struct sow_units_worker {
    const sow_game *g;
    sow_pos root;
    const sow_plan *plan;
    sow_search *s;
    sow_db *db;
    int db_seeds;
    double t0;
};

sow_err sow_units_worker_new(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             const sow_units_callbacks *cb, sow_units_worker **out, char *why,
                             size_t why_size)
{
    *out = NULL;
    sow_units_worker *w = calloc(1, sizeof *w);
    if (!w)
        return sow_fail(why, why_size, SOW_E_NOMEM, "no memory");
    *w = (sow_units_worker){.g = g, .root = *root, .plan = plan, .t0 = sow_now()};
    const sow_limits *L = &plan->limits;
    sow_search_options so = {
        .threads = L->threads,
        .tt_mb = plan->tt_mb,
        .value_only = true,
        .progress = cb ? cb->search_progress : NULL,
        .progress_ctx = cb ? cb->ctx : NULL,
        .progress_every = cb ? cb->progress_every : 0,
        .stop = L->stop,
    };
    sow_err e = sow_search_new(g, &so, &w->s);
    if (e == SOW_E_NOMEM)
        sow_fail(why, why_size, e, "cannot allocate a %zu MB transposition table", plan->tt_mb);
    else if (e)
        sow_fail(why, why_size, e, "%s", sow_err_name(e));
    if (!e && plan->db_seeds > 0) {
        sow_plan_callbacks pc = {.db_progress = cb ? cb->db_progress : NULL,
                                 .ctx = cb ? cb->ctx : NULL};
        sow_oracle oracle;
        e = sow_plan_open_db(g, plan, &pc, &w->db, &oracle, why, why_size);
        if (!e) {
            sow_search_set_oracle(w->s, &oracle);
            w->db_seeds = plan->db_seeds;
        }
    }
    if (e) {
        sow_units_worker_free(w);
        return e;
    }
    *out = w;
    return SOW_OK;
}

void sow_units_worker_free(sow_units_worker *w)
{
    if (!w)
        return;
    sow_search_free(w->s);
    sow_db_close(w->db);
    free(w);
}

/* The node at the end of u's line, and the path to it: the line comes
 * from another process, so it is replayed as a player would, legal moves
 * only. */
static sow_err replay(const sow_units_worker *w, const sow_unit *u,
                      sow_pos path[SOW_UNITS_MAX_DEPTH + 1])
{
    if (u->nline < 0 || u->nline > SOW_UNITS_MAX_DEPTH)
        return SOW_E_ARG;
    path[0] = w->root;
    for (int d = 0; d < u->nline; d++) {
        sow_move ms[SOW_MAX_MOVES];
        int nm = sow_over(w->g, &path[d]) ? 0 : sow_moves(w->g, &path[d], ms), k = 0;
        while (k < nm && ms[k] != u->line[d])
            k++;
        if (k == nm)
            return SOW_E_MOVE;
        path[d + 1] = path[d];
        sow_make(w->g, &path[d + 1], u->line[d]);
    }
    return SOW_OK;
}

/* Answers u on every thread of the search (k < 0: sow_search_test, the
 * process's CPU) or on its thread k alone (sow_search_test_on, that
 * thread's CPU). */
static sow_err answer(sow_units_worker *w, int k, sow_unit *u)
{
    u->done = u->split = false;
    sow_pos path[SOW_UNITS_MAX_DEPTH + 1];
    sow_err e = replay(w, u, path);
    if (e)
        return e;
    double c0 = k < 0 ? sow_cpu_now() : sow_thread_cpu_now(), w0 = sow_now();
    e = k < 0 ? sow_search_test(w->s, path, u->nline + 1, u->threshold, u->max_nodes, &u->bound,
                                &u->nodes)
              : sow_search_test_on(w->s, k, path, u->nline + 1, u->threshold, u->max_nodes,
                                   &u->bound, &u->nodes);
    u->cpu_seconds = (k < 0 ? sow_cpu_now() : sow_thread_cpu_now()) - c0;
    u->seconds = sow_now() - w0;
    u->done = e == SOW_OK;
    u->split = e == SOW_E_BUDGET;
    return u->split ? SOW_OK : e;
}

sow_err sow_units_worker_answer(sow_units_worker *w, sow_unit *u)
{
    const sow_limits *L = &w->plan->limits;
    u->done = u->split = false;
    if (L->stop && *L->stop)
        return SOW_E_INTERRUPTED;
    double left = 0;
    if (L->time_limit > 0) {
        left = L->time_limit - (sow_now() - w->t0);
        if (left <= 0)
            return SOW_E_INTERRUPTED;
    }
    sow_search_set_time_limit(w->s, left);
    return answer(w, -1, u);
}

sow_err units_worker_answer_on(sow_units_worker *w, int k, sow_unit *u)
{
    return answer(w, k, u);
}

sow_search *units_worker_search(sow_units_worker *w)
{
    return w->s;
}

sow_err sow_units_worker_value(sow_units_worker *w, sow_unit *u, uint64_t max_nodes, int *lower,
                               int *upper)
{
    sow_pos path[SOW_UNITS_MAX_DEPTH + 1];
    u->done = false;
    u->nodes = 0;
    u->cpu_seconds = u->seconds = 0;
    sow_err e = replay(w, u, path);
    if (e)
        return e;
    const sow_pos *p = &path[u->nline];
    int lo, hi;
    wide(w->g, p, &lo, &hi);
    if (sow_over(w->g, p))
        lo = hi = sow_terminal_score(w->g, p);
    *lower = lo;
    *upper = hi;
    if (lo == hi) {
        u->done = true;
        u->bound = lo;
        return SOW_OK;
    }
    const sow_limits *L = &w->plan->limits;
    sow_search_set_time_limit(w->s, 0);
    sow_search_clear(w->s);
    double c0 = sow_cpu_now(), w0 = sow_now();
    uint64_t n = 0;
    int f = 0;
    e = sow_search_depth(w->s, p, ORDER_DEPTH, &f, &n);
    u->nodes += n;
    while (!e && lo < hi) {
        if (L->stop && *L->stop) {
            e = SOW_E_INTERRUPTED;
            break;
        }
        if (max_nodes && u->nodes >= max_nodes) {
            e = SOW_E_INTERRUPTED;
            break;
        }
        int beta = f <= lo ? lo + 1 : f > hi ? hi : f, b;
        e = sow_search_test(w->s, path, u->nline + 1, beta, 0, &b, &n);
        u->nodes += n;
        if (e)
            break;
        if (b >= beta)
            lo = b > lo ? b : lo;
        else
            hi = b < hi ? b : hi;
        f = b;
    }
    u->cpu_seconds = sow_cpu_now() - c0;
    u->seconds = sow_now() - w0;
    *lower = lo;
    *upper = hi;
    u->done = e == SOW_OK;
    u->bound = lo;
    return e;
}

/* ---- the solve --------------------------------------------------------------- */

/* The most questions in flight at once (a pool's slots beyond are idle). */
#define MAX_SLOTS 1024

typedef struct solver {
    tree T;
    sow_units_worker *w;
    const sow_units_pool *pool;
    const sow_plan *plan;
    const sow_units_journal *j;
    const sow_units_callbacks *cb;
    sow_units_result *out;
    char *why;           /* the caller's message buffer, never NULL here */
    size_t why_size;
    double t0;
    /* The questions in flight: fl[k] about leaf fl_leaf[k]. */
    sow_unit *fl;
    int *fl_leaf;
    int inflight, slots;
    /* The local pool (pool NULL): the one question handed to this process. */
    sow_unit local;
    bool local_full;
    /* Why a local question came back unanswered (the sequential pool or
     * the threads', pool.c); collect returns it once. */
    sow_err local_err;
    double cpu0;         /* the process's CPU when the solve began */
    uint64_t nodes0;     /* out->nodes when the threads' pool began */
    bool pool_threads;   /* the threads' pool answers (pool.c) */
    uint64_t split_nodes;/* each unit's budget (sow_units_goal) */
    /* The ordering searches of a split's children, while the worker's
     * search may be busy with units: one thread, a 1 MB table (a depth-6
     * search of Kalah fits), made at the first split. */
    sow_search *orderer;
    double order_cpu;    /* its CPU (this process's searches) */
} solver;

/* The local pool: one slot, answered by this process when waited for. */
static sow_err local_submit(void *ctx, sow_unit *u)
{
    solver *S = ctx;
    u->worker = 0;
    S->local = *u;
    S->local_full = true;
    return SOW_OK;
}

static sow_err local_wait(void *ctx, sow_unit *u)
{
    solver *S = ctx;
    if (!S->local_full)
        return SOW_E_ARG;
    S->local_full = false;
    *u = S->local;
    S->local_err = sow_units_worker_answer(S->w, u);
    return SOW_OK;
}

/* Questions in flight at once: the pool's slots now (a pool whose
 * workers die has fewer), at most the in-flight table's size. */
static int slots(const solver *S)
{
    int n = S->pool->slots;
    return n < 1 ? 1 : n > S->slots ? S->slots : n;
}

/* Hands out the question "score(leaf i) >= beta?". */
static sow_err submit(solver *S, int i, int beta)
{
    const sow_limits *L = &S->plan->limits;
    if (L->stop && __atomic_load_n(L->stop, __ATOMIC_RELAXED))
        return SOW_E_INTERRUPTED;
    if (L->time_limit > 0 && sow_now() - S->t0 >= L->time_limit)
        return SOW_E_INTERRUPTED;
    sow_unit u = {.threshold = beta};
    int n = S->T.t[i].depth;
    u.max_nodes = n < SOW_UNITS_MAX_DEPTH ? S->split_nodes : 0;
    for (int k = i, d = n; k > 0; k = S->T.t[k].parent, d--)
        u.line[d - 1] = S->T.t[k].move;
    u.nline = n;
    sow_err e = S->pool->submit(S->pool->ctx, &u);
    if (e)
        return e;
    S->fl[S->inflight] = u;
    S->fl_leaf[S->inflight] = i;
    S->inflight++;
    S->T.t[i].busy = true;
    if (S->j && S->j->asked && (e = S->j->asked(S->j->ctx, &S->fl[S->inflight - 1])))
        return e;
    return SOW_OK;
}

/* Progress, after each answer and (the threads' pool) every second while
 * long units run. With the pool the nodes and CPU so far are this
 * process's, the units under way included, so the figures never go back;
 * otherwise those of the answers (an MPI manager's workers are elsewhere). */
static void tick(void *ctx)
{
    solver *S = ctx;
    if (!S->cb || !S->cb->progress)
        return;
    bool live = S->pool_threads;
    sow_units_progress pr = {
        S->T.t[0].lo, S->T.t[0].hi, S->out->units,
        live ? S->nodes0 + sow_search_tests_nodes(units_worker_search(S->w)) : S->out->nodes,
        live ? sow_cpu_now() - S->cpu0 : S->out->cpu_seconds, sow_now() - S->t0};
    S->cb->progress(S->cb->ctx, &pr);
}

/* The move ordering's guesses of nodes first .. T.n (a split's children)
 * on the orderer (solver.orderer). */
static sow_err order_new(solver *S, size_t first)
{
    if (!S->orderer) {
        sow_search_options so = {.threads = 1, .tt_mb = 1, .value_only = true};
        sow_err e = sow_search_new(S->T.g, &so, &S->orderer);
        if (e)
            return e;
    }
    for (size_t c = first; c < S->T.n; c++) {
        tnode *x = &S->T.t[c];
        uint64_t n = 0;
        sow_err e = x->lo == x->hi ? SOW_OK : sow_search_depth(S->orderer, &x->p, ORDER_DEPTH,
                                                               &x->h, &n);
        if (x->lo == x->hi)
            x->h = x->lo;
        S->out->nodes += n;
        if (e)
            return e;
    }
    return SOW_OK;
}

/* Leaf i's unit u passed its budget: the journal keeps the split, the
 * node's children join the frontier. */
static sow_err split_leaf(solver *S, int i, const sow_unit *u)
{
    sow_err e = S->j && S->j->split ? S->j->split(S->j->ctx, u) : SOW_OK;
    if (e)
        return e;
    S->out->splits++;
    size_t first = S->T.n;
    /* This thread's CPU: the threads' pool searches on beside it. */
    double c0 = sow_thread_cpu_now();
    if ((e = split(&S->T, i)) == SOW_E_LIMIT)
        return sow_fail(S->why, S->why_size, e,
                        "splitting a unit: the tree above the frontier passed %u nodes",
                        MAX_NODES);
    if (e)
        return sow_fail(S->why, S->why_size, e, "no memory for a unit's split");
    e = order_new(S, first);
    double spent = sow_thread_cpu_now() - c0;
    S->order_cpu += spent;
    S->out->cpu_seconds += spent;
    if (e)
        return sow_fail(S->why, S->why_size, e, "ordering a split's children: %s",
                        sow_err_name(e));
    propagate(&S->T, i);
    tick(S);
    return SOW_OK;
}

/* Waits for one question to come back and records its answer. */
static sow_err collect(solver *S)
{
    if (S->inflight == 0)
        return sow_fail(S->why, S->why_size, SOW_E_ARG,
                        "waiting with no question in flight (a bug)");
    sow_unit u;
    sow_err e = S->pool->wait(S->pool->ctx, &u);
    S->out->cpu_seconds += u.cpu_seconds;
    S->out->nodes += u.nodes;
    if (e)
        return e;
    int i = find(&S->T, &u), k = 0;
    while (k < S->inflight && S->fl_leaf[k] != i)
        k++;
    if (i < 0 || k == S->inflight)
        return sow_fail(S->why, S->why_size, SOW_E_ARG,
                        "an answer to a question not asked (a bug)");
    u.ticket = S->fl[k].ticket;
    S->inflight--;
    S->fl[k] = S->fl[S->inflight];
    S->fl_leaf[k] = S->fl_leaf[S->inflight];
    S->T.t[i].busy = false;
    if (u.split)
        return split_leaf(S, i, &u);
    if (!u.done) {
        e = S->j && S->j->dropped ? S->j->dropped(S->j->ctx, &u) : SOW_OK;
        sow_err le = S->local_err;
        S->local_err = SOW_OK;
        return le ? le : e;
    }
    if (S->j && S->j->answered && (e = S->j->answered(S->j->ctx, &u)))
        return e;
    S->out->units++;
    narrow(&S->T, i, u.threshold, u.bound);
    propagate(&S->T, i);
    tick(S);
    return SOW_OK;
}

/* A walk's verdict on "score >= beta?": decided, or waiting for answers. */
typedef enum { W_LT, W_GE, W_WAIT } wres;

/* Is score(node i) >= beta? Alpha-beta over the tree with a null window:
 * the children that may still reach beta, the most promising first, until
 * one does. The bounds are exact facts, so a question they decide is not
 * asked again. A child waiting for an answer is passed over as if it will
 * fail (the speculation) while slots are free, so the next questions
 * alpha-beta would ask go out too (below: not everywhere). */
static sow_err walk(solver *S, int i, int beta, wres *res)
{
    tnode *x = &S->T.t[i];
    if (x->lo >= beta || x->hi < beta) {
        *res = x->lo >= beta ? W_GE : W_LT;
        return SOW_OK;
    }
    *res = W_WAIT;
    if (x->leaf)
        return x->busy || S->inflight >= slots(S) ? SOW_OK : submit(S, i, beta);
    int order[SOW_MAX_MOVES], n = x->n, first = x->first;
    for (int k = 0; k < n; k++) {
        /* Insertion sort by the guess, descending: the child most likely
         * to reach the test first. */
        int j = k, hk = S->T.t[first + k].sign * S->T.t[first + k].h;
        while (j > 0 && S->T.t[first + order[j - 1]].sign * S->T.t[first + order[j - 1]].h < hk) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    /* Speculation past a child still waiting for answers: at a node
     * expected to cut (its guess reaches the test) only once an elder
     * brother has failed in this walk, as young brothers wait in YBWC:
     * otherwise the eldest usually cuts and the questions about its
     * brothers are thrown away, which cost Kalah(6,5) 1.8x the nodes
     * (doc/experiments.md, "Work units side by side").
     * At a node expected to fail, every child must be searched anyway. */
    bool waiting = false, elder = false;
    for (int r = 0; r < n; r++) {
        int c = first + order[r], a, b;
        conv(&S->T.t[c], &a, &b);
        if (b < beta)
            continue;
        if (waiting && !elder && x->h >= beta)
            break;
        wres cr;
        sow_err e = walk(S, c, S->T.t[c].sign > 0 ? beta : 1 - beta, &cr);
        if (e)
            return e;
        if (S->T.t[c].sign < 0 && cr != W_WAIT)
            cr = cr == W_GE ? W_LT : W_GE;
        if (cr == W_GE) {
            *res = W_GE;
            return SOW_OK;
        }
        if (cr == W_WAIT) {
            waiting = true;
            if (S->inflight >= slots(S))
                break;
        } else {
            elder = true;
        }
    }
    *res = waiting ? W_WAIT : W_LT;
    return SOW_OK;
}

/* The move ordering's guesses (tnode.h); the root's is MTD(f)'s start.
 * One batch, side by side on the threads (sow_search_depths). */
static sow_err guess(solver *S)
{
    sow_pos *ps = malloc(S->T.n * sizeof *ps);
    int *depths = malloc(S->T.n * sizeof *depths), *hs = malloc(S->T.n * sizeof *hs);
    int *at = malloc(S->T.n * sizeof *at), n = 0;
    sow_err e = ps && depths && hs && at ? SOW_OK : SOW_E_NOMEM;
    for (size_t i = 0; !e && i < S->T.n; i++) {
        tnode *x = &S->T.t[i];
        if (x->lo == x->hi) {
            x->h = x->lo;
            continue;
        }
        ps[n] = x->p;
        depths[n] = i ? ORDER_DEPTH : ROOT_GUESS_DEPTH;
        at[n++] = (int)i;
    }
    uint64_t nodes = 0;
    if (!e && n)
        e = sow_search_depths(S->w->s, ps, depths, n, hs, &nodes);
    S->out->nodes += nodes;
    for (int k = 0; !e && k < n; k++)
        S->T.t[at[k]].h = hs[k];
    free(ps);
    free(depths);
    free(hs);
    free(at);
    return e;
}

/* Do the root's bounds answer what was asked? */
static bool answered(const tnode *r, const sow_units_goal *goal)
{
    if (goal && goal->test)
        return r->lo >= goal->threshold || r->hi < goal->threshold;
    return r->lo == r->hi;
}

/* MTD(f) at the root: null-window tests until the bounds meet (a test
 * goal: the one test); each test walks the tree again after every answer
 * until the bounds decide it. */
static sow_err mtd(solver *S, const sow_units_goal *goal)
{
    int f = S->T.t[0].h;
    /* The root is read anew after every answer: a split may move the tree
     * (push reallocates). */
    for (tnode *r = &S->T.t[0]; !answered(r, goal); r = &S->T.t[0]) {
        int beta = goal && goal->test ? goal->threshold
                   : f <= r->lo      ? r->lo + 1
                   : f > r->hi       ? r->hi
                                     : f;
        wres w;
        for (;;) {
            sow_err e = walk(S, 0, beta, &w);
            if (e)
                return e;
            if (w != W_WAIT)
                break;
            if ((e = collect(S)))
                return e;
        }
        f = w == W_GE ? S->T.t[0].lo : S->T.t[0].hi;
    }
    return SOW_OK;
}

/* After the solve (or a stop): the questions still in flight come back,
 * answered or not; their answers are facts and are kept. */
static sow_err drain(solver *S)
{
    sow_err e = SOW_OK;
    if (!S->pool->cancel) { /* the local pool: nothing runs until waited for */
        for (int k = 0; k < S->inflight; k++)
            if (!e && S->j && S->j->dropped)
                e = S->j->dropped(S->j->ctx, &S->fl[k]);
        S->inflight = 0;
        return e;
    }
    S->pool->cancel(S->pool->ctx);
    while (!e && S->inflight)
        e = collect(S);
    return e;
}

sow_err sow_units_solve(const sow_game *g, const sow_pos *root, const sow_plan *plan, int depth,
                        const sow_unit *known, size_t nknown, const sow_units_journal *j,
                        const sow_units_callbacks *cb, sow_units_result *out, char *why,
                        size_t why_size)
{
    return sow_units_solve_pool(g, root, plan, depth, known, nknown, NULL, NULL, j, cb, out,
                                why, why_size);
}

/* A root move whose lower bound is the root's (exact: a best move; a test
 * that held: one that proves it). */
static sow_move proving_move(const tree *T)
{
    const tnode *r = &T->t[0];
    for (int k = 0; k < r->n; k++) {
        int a, b;
        conv(&T->t[r->first + k], &a, &b);
        if (a == r->lo)
            return T->t[r->first + k].move;
    }
    return T->t[r->first].move; /* not reached: lo is its children's best */
}

sow_err sow_units_solve_pool(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             int depth, const sow_unit *known, size_t nknown,
                             const sow_units_goal *goal, const sow_units_pool *pool,
                             const sow_units_journal *j,
                             const sow_units_callbacks *cb, sow_units_result *out, char *why,
                             size_t why_size)
{
    memset(out, 0, sizeof *out);
    char msg[SOW_WHY]; /* errors below add a message unless one was given */
    why = sow_why_or(why, &why_size, msg);
    double cpu0 = sow_cpu_now();
    solver S = {.T = {.g = g}, .plan = plan, .j = j, .cb = cb, .out = out, .why = why,
                .why_size = why_size, .t0 = sow_now(), .cpu0 = cpu0,
                .split_nodes = goal ? goal->split_nodes : 0};
    /* No pool given: this process answers, one unit at a time on one
     * thread, else one unit per thread at once (pool.c), set up below. */
    int threads = plan->limits.threads;
    sow_units_pool local = {threads > 1 ? threads : 1, local_submit, local_wait, NULL, &S};
    units_pool *tp = NULL;
    S.pool = pool ? pool : &local;
    S.slots = S.pool->slots < 1 ? 1 : S.pool->slots > MAX_SLOTS ? MAX_SLOTS : S.pool->slots;
    wide(g, root, &out->lower, &out->upper);
    if (depth < 1 || depth > SOW_UNITS_MAX_FRONTIER)
        return sow_fail(why, why_size, SOW_E_ARG, "the frontier depth %d is not within 1..%d",
                        depth, SOW_UNITS_MAX_FRONTIER);
    if (plan->limits.pie_opening)
        return sow_fail(why, why_size, SOW_E_ARG,
                        "work units do not take a pie-rule opening");
    if (sow_over(g, root))
        return sow_fail(why, why_size, SOW_E_ARG,
                        "the game is over: there is nothing to solve");
    S.fl = malloc((size_t)S.slots * sizeof *S.fl);
    S.fl_leaf = malloc((size_t)S.slots * sizeof *S.fl_leaf);
    sow_err e = S.fl && S.fl_leaf ? SOW_OK : SOW_E_NOMEM;
    if (!e)
        e = grow(&S.T, root, depth, known, nknown, &out->reused);
    if (e == SOW_E_LIMIT)
        sow_fail(why, why_size, e,
                 "a frontier at %d plies has over %u nodes above it: take a smaller depth", depth,
                 MAX_NODES);
    else if (e)
        sow_fail(why, why_size, e, "no memory for the tree above the frontier");
    if (!e && (e = sow_units_worker_new(g, root, plan, cb, &S.w, why, why_size)) == SOW_OK)
        out->db_seeds = S.w->db_seeds;
    double own = 0; /* this process's CPU in searches */
    if (!e) {
        double c0 = sow_cpu_now();
        e = guess(&S);
        own = sow_cpu_now() - c0;
        out->cpu_seconds += own;
    }
    if (!e && !pool && threads > 1) {
        const sow_limits *L = &plan->limits;
        sow_search *s = units_worker_search(S.w);
        if ((e = sow_search_tests_begin(s, root)) == SOW_OK) {
            S.nodes0 = out->nodes;
            e = units_pool_new(S.w, threads, &S.local_err,
                               L->time_limit > 0 ? S.t0 + L->time_limit : 0, tick, &S,
                               cb ? cb->progress_every : 0, &local, &tp);
            if (e)
                sow_search_tests_end(s);
            S.pool_threads = !e;
        }
    }
    if (!e)
        e = mtd(&S, goal);
    if (S.inflight) {
        sow_err d = drain(&S);
        e = e ? e : d;
    }
    if (tp) {
        units_pool_free(tp);
        sow_search_tests_end(units_worker_search(S.w));
    }
    if (S.T.t) {
        out->lower = S.T.t[0].lo;
        out->upper = S.T.t[0].hi;
        uint64_t exact;
        out->frontier = leaves(&S.T, &exact);
    }
    if (!e) {
        const tnode *r = &S.T.t[0];
        out->exact = r->lo == r->hi;
        if (out->exact) {
            out->score = r->lo;
            out->value = sow_score_margin(g, out->score);
            out->outcome = sow_outcome_of(out->score);
        }
        out->has_best = out->exact || (goal && goal->test && r->lo >= goal->threshold);
        if (out->has_best)
            out->best = proving_move(&S.T);
    } else if (!why[0]) {
        sow_fail(why, why_size, e, "%s",
                 e == SOW_E_INTERRUPTED ? "interrupted"
                 : e == SOW_E_LIMIT     ? "a line of play is longer than the search stack"
                 : e == SOW_E_MOVE      ? "a unit's line is not legal play (a bug)"
                                        : sow_err_name(e));
    }
    sow_units_worker_free(S.w);
    sow_search_free(S.orderer);
    free(S.T.t);
    free(S.fl);
    free(S.fl_leaf);
    /* Local units ran in this process: their CPU is not overhead. */
    own += S.order_cpu;
    if (!pool)
        own = out->cpu_seconds;
    out->manager_cpu = sow_cpu_now() - cpu0 - own;
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
