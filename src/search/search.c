/* search.c - the exact solver (see sow/search.h for what it computes).
 *
 * Layers, bottom up:
 *   node()        fail-soft negamax alpha-beta on the future gain, one
 *                 thread, shared table; the only recursive part
 *   probe()       one search of a node by every thread (ABDADA): the first
 *                 to finish gives the result and stops the others
 *   mtd()         MTD(f): null-window searches until the bounds meet, by
 *                 every thread (probe) or by one worker (root moves solved
 *                 side by side)
 *   solve()       root value, every root move's value, pie rule, PV
 */
#include <limits.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "key.h"
#include "mem.h"
#include "rules_inline.h"
#include "internal.h"
#include "tt.h"
#include "sow/search.h"

/* Longest search path. Each level of node() keeps its children on the stack
 * (about 1 KB), so 1024 plies stay well inside a thread's default stack. */
#define MAX_PLY 1024
#define INF 30000

/* Every POLL_NODES nodes a thread publishes its node count and looks at the
 * stop flag; the main thread also checks the clock for progress reports. */
#define POLL_NODES 1024

/* Depth of the move-ordering iterations before an exact search: deeper
 * ones cost more than they save (doc/experiments.md, "Search"). */
#define PRE_DEPTH 8
#define PRE_MIN_SEEDS 24 /* smaller boards solve too fast for it to pay */

/* Probes of nodes with fewer seeds on the board run on one thread. */
#define PARALLEL_MIN_SEEDS 16

/* ABDADA's table of the nodes being searched (see node()): 2^BUSY_BITS
 * slots of one key each, 64 KB, indexed by the mixed key's high bits. */
#define BUSY_BITS 13

/* ABDADA marks and defers only nodes with at least this many seeds more
 * than the oracle knows: below that the bookkeeping costs more than the
 * spreading saves (doc/experiments.md, "Search"). */
#define DEFER_EXCESS 6

/* At an expected cut node the first child usually refutes the node, and a
 * deferral sends the thread to a child nobody needs; one whose first few
 * children failed is more likely an all node. Defer from this child on
 * (doc/experiments.md, "Search"). */
#define CUT_DEFER_FROM 3

/* A path-dependent node's (cycles) best move, kept by the worker that
 * found it. Its best move depends on the path, and threads on different
 * paths writing one shared entry spoil each other's order where nothing
 * but the order prunes: 2-thread analyses of a Toguz 3x3 position took
 * 0.6 M to 32 M nodes with shared hints (12 runs), 0.67 M on one thread
 * (doc/experiments.md, "Cycles: per-worker hints"). The table then keeps
 * only path-free entries. */
#define HINT_BITS 16 /* 1 MB a worker */
typedef struct hint {
    uint64_t key;
    sow_move move;
} hint;

typedef struct worker {
    struct sow_search *s;
    const sow_game *g;
    int id;
    bool abort;
    _Atomic int *tstop; /* the task's stop flag, if any (root moves phase) */
    uint64_t nodes, published;
    uint64_t probes, hits, stores, oprobes;
    /* Results that rest on a heuristic: horizon leaves and, when the table
     * is not exact (sow_analyse), bounds read at a limited draft or under
     * a hashed key. A node whose count did not move is exactly solved. */
    uint64_t inexact;
    int ply;
    sow_pos path[MAX_PLY]; /* the search path, kept only for games with cycles */
    hint *hints;           /* cycles only: path-dependent nodes' moves, 1 << HINT_BITS */
} worker;

struct sow_search {
    const sow_game *g;
    sow_search_options opt;
    sow_oracle oracle;
    bool use_oracle;
    int tb;        /* 1 if the game has a tie-break: |future| <= seeds*scale + tb */
    int etc_min;   /* enhanced transposition cut-offs at nodes with >= this many seeds */
    int pre_depth; /* depth-limited iterations before the exact search */
    search_key key;
    int table_mode; /* the exact key kind of the table's entries (KEY_HASH: none yet) */
    tt tt;
    sow_huge map;   /* the table's memory */
    worker **w;
    _Atomic int stop;
    _Atomic int err;
    _Atomic uint64_t nodes;
    _Atomic int moves_done;   /* root moves solved, parallel moves phase */
    /* ABDADA: keys of the nodes some thread is searching; nodes with at
     * least defer_min seeds mark themselves there while a parallel search
     * runs (abdada), and their younger brothers that another thread is
     * searching are deferred. */
    _Atomic uint64_t *busy;
    int defer_min;
    bool abdada;
    bool moves_parallel;
    /* Tests side by side (sow_search_tests_begin): no worker reports
     * progress (the caller's thread does) and errors stop them all. */
    bool side_by_side;
    int tests_seeds; /* the root's seeds: the key the table is using */
    /* probe() result: the first thread to finish claims have_result with a
     * compare-and-swap, then writes result (read after the region's join).
     * An atomic, not `omp critical`: a named critical section is global to
     * the process, and sow serve runs solves from several threads. */
    int result;
    _Atomic bool have_result;
    /* Where the driver is, for progress reports (main thread only). */
    sow_search_progress pr;
    double t0, last_report;
    /* The ancestors of the node being probed (cycles only). */
    sow_pos *anc; /* room for SOW_PV_MAX + 2 */
    int nanc;
    /* Proven bounds on the root score (score units), for an interrupted
     * solve: narrowed by the root's MTD(f) probes. */
    int root_lower, root_upper;
    /* sow_analyse (internal.h): the horizon's evaluation (NULL: a leaf is
     * worth 0, the stores), whether clean subtrees are stored as exact,
     * and a node budget (0: none), all off for the exact solver. */
    search_eval_fn eval;
    const void *eval_ctx;
    bool promote;
    uint64_t node_limit;
};

/* ---- positions -------------------------------------------------------------- */

static inline int level_of(const sow_pos *p)
{
    return p->b[SOW_B_STORE] + p->b[SOW_HALF + SOW_B_STORE];
}

/* The banked part of p's score for its mover (score units): a score is
 * store_score + future (sow/search.h). */
static inline int store_score(const sow_game *g, const sow_pos *p)
{
    return (p->b[SOW_B_STORE] - p->b[SOW_HALF + SOW_B_STORE]) * g->score_scale;
}

/* What the move from p to its child q banks for p's mover; *sign is +1 if
 * p's mover moves again in q, else -1. The child's value for p's mover is
 * then banked + sign * future(q). */
static inline int banked(const sow_game *g, const sow_pos *p, const sow_pos *q, int *sign)
{
    *sign = sow_pos_to_move(q) == sow_pos_to_move(p) ? 1 : -1;
    return *sign * store_score(g, q) - store_score(g, p);
}

/* Future gain of a finished position for its mover. */
static inline int terminal_future(const sow_game *g, const sow_pos *p)
{
    return sow_i_terminal_score(g, p) - store_score(g, p);
}

/* The bound on the future gain of a position with `seeds` on its board. */
static inline int future_bound(const sow_search *s, int seeds)
{
    return seeds * s->g->score_scale + s->tb;
}

/* Of the ancestors path[0..n) of x, those at the top with x's stores: the
 * only ones x can repeat, since stores never decrease. Returns whether
 * there is any (x's value then depends on its path, sow/search.h), and
 * *rep whether x equals one of them. */
static bool same_stores_above(const sow_pos *path, int n, const sow_pos *x, bool *rep)
{
    int level = level_of(x);
    bool any = false;
    *rep = false;
    for (int d = n - 1; d >= 0 && level_of(&path[d]) == level; d--) {
        any = true;
        if (sow_pos_eq(&path[d], x)) {
            *rep = true;
            break;
        }
    }
    return any;
}

/* ---- polling ----------------------------------------------------------------- */

static void report(sow_search *s)
{
    double t = sow_now();
    s->last_report = t;
    if (!s->opt.progress)
        return;
    s->pr.nodes = atomic_load_explicit(&s->nodes, memory_order_relaxed);
    if (s->moves_parallel)
        s->pr.move = atomic_load(&s->moves_done);
    s->pr.seconds = t - s->t0;
    s->opt.progress(s->opt.progress_ctx, &s->pr);
}

static void fail(sow_search *s, sow_err e)
{
    int zero = 0;
    atomic_compare_exchange_strong(&s->err, &zero, (int)e);
    atomic_store(&s->stop, 1);
}

static void poll(worker *w)
{
    sow_search *s = w->s;
    atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
    w->published = w->nodes;
    if (s->opt.stop && __atomic_load_n(s->opt.stop, __ATOMIC_RELAXED))
        fail(s, SOW_E_INTERRUPTED);
    if (atomic_load_explicit(&s->stop, memory_order_relaxed) ||
        (w->tstop && atomic_load_explicit(w->tstop, memory_order_relaxed)))
        w->abort = true;
    if (s->node_limit && atomic_load_explicit(&s->nodes, memory_order_relaxed) >= s->node_limit) {
        fail(s, SOW_E_INTERRUPTED);
        w->abort = true;
    }
    if (w->id == 0 && (w->nodes & (64 * POLL_NODES - 1)) == 0) {
        double t = sow_now();
        if (s->opt.time_limit > 0 && t - s->t0 > s->opt.time_limit) {
            fail(s, SOW_E_INTERRUPTED);
            w->abort = true;
        }
        if (s->opt.progress && !s->side_by_side && t - s->last_report >= s->opt.progress_every)
            report(s);
    }
}

/* ---- ABDADA's busy table ------------------------------------------------------ */

/* Racy by design: a slot holds the key of a node a thread is searching, or
 * 0; a thread marks by overwriting and unmarks only if the slot still holds
 * its key. A lost mark or a stale one only changes which thread searches
 * what, never a result. */
static inline _Atomic uint64_t *busy_slot(const sow_search *s, uint64_t f)
{
    return &s->busy[tt_mix(f) >> (64 - BUSY_BITS)];
}

static inline void busy_mark(sow_search *s, tt_key key)
{
    uint64_t f = tt_fold(key);
    atomic_store_explicit(busy_slot(s, f), f, memory_order_relaxed);
}

static inline void busy_unmark(sow_search *s, tt_key key)
{
    uint64_t f = tt_fold(key);
    _Atomic uint64_t *b = busy_slot(s, f);
    if (atomic_load_explicit(b, memory_order_relaxed) == f)
        atomic_store_explicit(b, 0, memory_order_relaxed);
}

static inline bool busy_is(const sow_search *s, tt_key key)
{
    uint64_t f = tt_fold(key);
    return atomic_load_explicit(busy_slot(s, f), memory_order_relaxed) == f;
}

/* ---- node() ----------------------------------------------------------------------- */

typedef struct child {
    sow_pos q;
    tt_key key;    /* key_of(q), once keyed */
    int order;     /* move ordering, larger first */
    int16_t c0;    /* score units the move banks for the mover */
    int8_t sign;   /* +1: the mover moves again (extra turn), -1: turn ends */
    uint8_t seeds; /* seeds on q's board */
    sow_move mv;
    bool anc;      /* q has an ancestor with its stores (cycles only) */
    bool keyed;    /* key is set (see child_key) */
} child;

_Static_assert(sizeof(child) == 64, "a child is one cache line");

/* A node's children, made by expand(). */
typedef struct kids {
    child c[SOW_MAX_MOVES];
    /* ord[0..nc): the children to search; oc[0..no): those the oracle
     * knows (indices into c), oe their oracle entries (oracle.entry). */
    uint8_t ord[SOW_MAX_MOVES], oc[SOW_MAX_MOVES];
    const int8_t *oe[SOW_MAX_MOVES];
    int nc, no;
    int best;          /* the best value so far (fail-soft) */
    sow_move bestmove;
} kids;

/* The key of a child to search, computed on first use. At an expected
 * cut node most children are never searched: their keys wait until the
 * first child fails to cut (doc/experiments.md, "Exact table keys:
 * speed"). */
static inline tt_key child_key(const sow_search *s, child *ch)
{
    if (!ch->keyed) {
        ch->key = key_of(&s->key, &ch->q);
        ch->keyed = true;
        tt_prefetch(&s->tt, ch->key);
    }
    return ch->key;
}

/* Keys (and prefetches the buckets of) the children ord[from..nc). */
static inline void key_kids(const sow_search *s, kids *k, int from)
{
    for (int j = from; j < k->nc; j++)
        child_key(s, &k->c[k->ord[j]]);
}

/* Scores v for move mv; true if it cuts off (v >= beta). */
static inline bool consider(kids *k, int v, sow_move mv, int beta)
{
    if (v > k->best) {
        k->best = v;
        k->bestmove = mv;
    }
    return v >= beta;
}

/* Makes every move of p. Finished children are scored at once, and so is a
 * child whose seeds bound its value at most alpha; the oracle's children
 * are collected (their entries prefetched) for score_oracle(); the rest
 * are to be searched: keyed (child_key) all if `all`, else only the
 * first in order. True if a child already refutes p (k->best >= beta is
 * then p's fail-soft value). */
static bool expand(worker *w, const sow_pos *p, kids *k, int alpha, int beta, sow_move ttmove,
                   bool all)
{
    sow_search *s = w->s;
    const sow_game *g = w->g;
    int level = level_of(p);
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, ms);
    k->nc = k->no = 0;
    k->best = -INF;
    k->bestmove = TT_NO_MOVE;
    child *top = NULL; /* the first child in order */
    for (int i = 0; i < n; i++) {
        child *ch = &k->c[i];
        ch->q = *p;
        sow_i_make(g, &ch->q, ms[i]);
        ch->mv = ms[i];
        int sign;
        ch->c0 = (int16_t)banked(g, p, &ch->q, &sign);
        ch->sign = (int8_t)sign;
        if (sow_i_over(g, &ch->q)) {
            if (consider(k, ch->c0 + ch->sign * terminal_future(g, &ch->q), ms[i], beta))
                return true;
            continue;
        }
        int sq = sow_i_seeds_on_board(g, &ch->q);
        ch->seeds = (uint8_t)sq;
        if (s->use_oracle && sq <= s->oracle.max_seeds) {
            if (s->oracle.entry) {
                k->oe[k->no] = s->oracle.entry(s->oracle.ctx, &ch->q);
                __builtin_prefetch(k->oe[k->no]);
            } else if (s->oracle.prefetch) {
                s->oracle.prefetch(s->oracle.ctx, &ch->q);
            }
            k->oc[k->no++] = (uint8_t)i;
            continue;
        }
        int hic = future_bound(s, sq);
        if (ch->c0 + hic <= alpha) {
            consider(k, ch->c0 + hic, ms[i], beta); /* an upper bound, at most alpha */
            continue;
        }
        if (ch->c0 - hic >= beta) {
            k->best = ch->c0 - hic;
            return true;
        }
        /* Order: the table's move, extra turns, then by what the move
         * banks (captures), then the pit nearest the store. */
        ch->order = (ms[i] == ttmove ? 1 << 20 : 0) + (ch->sign > 0 ? 1 << 12 : 0) + ch->c0 * 16 + i;
        ch->anc = g->cycles && level_of(&ch->q) == level;
        ch->keyed = false;
        if (all)
            child_key(s, ch);
        else if (!top || ch->order > top->order)
            top = ch;
        k->ord[k->nc++] = (uint8_t)i;
    }
    if (top)
        child_key(s, top);
    return false;
}

/* Scores the children the oracle knows; true on a cut-off. */
static bool score_oracle(worker *w, kids *k, int beta)
{
    sow_search *s = w->s;
    for (int j = 0; j < k->no; j++) {
        const child *ch = &k->c[k->oc[j]];
        w->oprobes++;
        int f = s->oracle.entry ? *k->oe[j] : s->oracle.probe(s->oracle.ctx, &ch->q);
        if (consider(k, ch->c0 + ch->sign * f, ch->mv, beta))
            return true;
    }
    return false;
}

/* Enhanced transposition cut-offs: a child's stored bound may already
 * refute the node (key). Costs one probe per child, so only far from the
 * leaves. Only path-free children (no ancestor with their stores) have
 * bounds that hold here. True and *v on a cut-off. */
static bool etc(worker *w, kids *k, tt_key key, int beta, int hi, int depth, int *v)
{
    sow_search *s = w->s;
    key_kids(s, k, 0);
    for (int j = 0; j < k->nc; j++) {
        const child *ch = &k->c[k->ord[j]];
        tt_data cd;
        if (ch->anc || !tt_probe(&s->tt, ch->key, &cd) || cd.draft < depth)
            continue;
        int x = ch->sign > 0 ? ch->c0 + cd.lower : ch->c0 - cd.upper;
        if (x >= beta) {
            tt_store(&s->tt, key, x, hi, ch->mv, depth, 1);
            *v = x;
            return true;
        }
    }
    return false;
}

/* Insertion sort of the children to search, larger order first: n <= 18. */
static void order(kids *k)
{
    for (int i = 1; i < k->nc; i++) {
        uint8_t t = k->ord[i];
        int kt = k->c[t].order, j = i;
        while (j > 0 && k->c[k->ord[j - 1]].order < kt) {
            k->ord[j] = k->ord[j - 1];
            j--;
        }
        k->ord[j] = t;
    }
}

static int node(worker *w, const sow_pos *p, int S, tt_key key, bool anc, int alpha, int beta,
                int depth, bool cut);

/* A leaf of a depth-limited search (depth 0, p not finished): 0 (the
 * stores decide) or the evaluation, clipped to what the seeds allow so
 * that the search's seed bounds stay bounds. Either is a guess. */
static inline int horizon(worker *w, const sow_pos *p, int hi)
{
    sow_search *s = w->s;
    w->inexact++;
    if (!s->eval)
        return 0;
    int v = s->eval(s->g, p, s->eval_ctx);
    return v > hi ? hi : v < -hi ? -hi : v;
}

/* The draft to store a node's bounds at: a depth-limited search whose
 * subtree met no horizon and read no inexact bound proved them for every
 * depth, so sow_analyse stores them as exact; never under a hashed key,
 * where even the entry read back might be another position's. */
static inline int clean_draft(const sow_search *s, int depth, bool clean)
{
    return s->promote && clean && s->key.exact ? TT_DRAFT_EXACT : depth;
}

/* Searches the ordered children of the node (key, S seeds) in the window
 * (alpha, beta), alpha already raised to k->best. ABDADA (Weill 1996): every
 * thread searches the same tree; the first child is searched by all, but a
 * younger brother that another thread is searching now is put off to a
 * second pass, by when its bounds are usually in the table. The threads so
 * spread over the children of the nodes that must search them all. At
 * expected cut nodes, whose first child usually refutes them, only from
 * child CUT_DEFER_FROM on. Returns with k->best updated; w->abort if
 * stopped. */
static void search_kids(worker *w, kids *k, tt_key key, int S, int alpha, int beta,
                        int cdepth, bool cut)
{
    sow_search *s = w->s;
    bool par = s->abdada && S >= s->defer_min; /* marks itself busy, defers */
    int first = cut ? CUT_DEFER_FROM : 1;      /* the first child it may defer */
    uint8_t deferred[SOW_MAX_MOVES];
    int nd = 0;
    if (par)
        busy_mark(s, key);
    for (int pass = 0; pass < 2; pass++) {
        int cnt = pass ? nd : k->nc;
        for (int j = 0; j < cnt; j++) {
            int ci = pass ? deferred[j] : k->ord[j];
            child *ch = &k->c[ci];
            tt_key ck = child_key(s, ch);
            if (par && pass == 0 && j >= first && ch->seeds >= s->defer_min &&
                busy_is(s, ck)) {
                deferred[nd++] = (uint8_t)ci;
                continue;
            }
            int v;
            if (ch->sign > 0)
                v = ch->c0 + node(w, &ch->q, ch->seeds, ck, ch->anc, alpha - ch->c0,
                                  beta - ch->c0, cdepth, cut);
            else
                v = ch->c0 - node(w, &ch->q, ch->seeds, ck, ch->anc, ch->c0 - beta,
                                  ch->c0 - alpha, cdepth, !cut);
            if (w->abort)
                goto out;
            if (consider(k, v, ch->mv, beta))
                goto out;
            if (pass == 0 && j == 0)
                key_kids(s, k, 1); /* no cut from the first: likely an all node */
            if (v > alpha)
                alpha = v;
        }
    }
out:
    if (par)
        busy_unmark(s, key);
}

/* Fail-soft negamax on the future gain of p (not finished) for its mover,
 * window (alpha, beta). `S`: the seeds on p's board; `key`: key_of(p).
 * `anc` (cycles only): p has an ancestor with its stores on the path, so its
 * value may depend on the path; its table entry then serves as a move hint
 * only (its bounds hold for p without such ancestors), and it stores no
 * bounds but the trivial ones. `depth`: TT_DRAFT_EXACT for an exact search,
 * else the remaining plies (a leaf scores 0: the stores). `cut`: p is an
 * expected cut node (Knuth and Moore's types, the root of a probe taken as
 * an all node, the type flipping with the mover: an extra turn keeps the
 * parent's window, so its child has the parent's type); ABDADA reads it,
 * and expand() keys only the first child of such a node. */
static int node(worker *w, const sow_pos *p, int S, tt_key key, bool anc, int alpha, int beta,
                int depth, bool cut)
{
    sow_search *s = w->s;
    uint64_t nodes0 = w->nodes++;
    if ((w->nodes & (POLL_NODES - 1)) == 0)
        poll(w);
    if (w->abort)
        return 0;
    if (s->use_oracle && S <= s->oracle.max_seeds) {
        w->oprobes++;
        return s->oracle.probe(s->oracle.ctx, p);
    }
    int hi = future_bound(s, S), lo = -hi;
    if (depth == 0)
        return horizon(w, p, hi);
    if (hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;
    bool rep;
    if (anc && (same_stores_above(w->path, w->ply, p, &rep), rep))
        return 0; /* perpetual play: the stores stay as they are */

    tt_data d;
    sow_move ttmove = TT_NO_MOVE;
    const uint64_t inexact0 = w->inexact;
    w->probes++;
    const uint64_t fold = anc ? tt_fold(key) : 0; /* hints only */
    hint *h = anc ? &w->hints[tt_mix(fold) >> (64 - HINT_BITS)] : NULL;
    if (h && h->key == fold && h->move != TT_NO_MOVE) {
        ttmove = h->move; /* the table's entry, if any, is path-free */
        w->hits++;
    } else if (tt_probe(&s->tt, key, &d)) {
        w->hits++;
        ttmove = d.move;
        if (!anc && d.draft >= depth) {
            if (d.draft != TT_DRAFT_EXACT || !s->key.exact)
                w->inexact++;
            if (d.lower >= beta || d.lower == d.upper)
                return d.lower;
            if (d.upper <= alpha)
                return d.upper;
            if (d.lower > alpha)
                alpha = d.lower;
            if (d.upper < beta)
                beta = d.upper;
        }
    }
    const int alpha0 = alpha;

    kids k;
    if (expand(w, p, &k, alpha, beta, ttmove, !cut) ||
        (s->use_oracle && score_oracle(w, &k, beta)))
        return k.best;
    if (k.best > alpha)
        alpha = k.best;
    int v, cdepth = depth == TT_DRAFT_EXACT ? depth : depth - 1;
    if (!anc && S >= s->etc_min && depth == TT_DRAFT_EXACT && etc(w, &k, key, beta, hi, depth, &v))
        return v;
    order(&k);
    if (w->ply >= MAX_PLY) {
        fail(s, SOW_E_LIMIT);
        w->abort = true;
        return 0;
    }
    if (w->g->cycles)
        w->path[w->ply] = *p;
    w->ply++;
    search_kids(w, &k, key, S, alpha, beta, cdepth, cut);
    w->ply--;
    if (w->abort)
        return 0;

    /* Fail-soft: best >= beta is a lower bound, best <= the window's lower
     * end an upper bound, anything between is exact. */
    int best = k.best, lower = lo, upper = hi;
    if (best >= beta)
        lower = best;
    else if (best <= alpha0)
        upper = best;
    else
        lower = upper = best;
    w->stores++;
    if (h) {
        h->key = fold;
        h->move = k.bestmove;
    } else
        tt_store(&s->tt, key, lower, upper, k.bestmove,
                 clean_draft(s, depth, w->inexact == inexact0), w->nodes - nodes0);
    return best;
}

/* ---- one search by every thread ---------------------------------------- */

/* Puts a worker at x, a node below anc[0..nanc), and searches it. */
static int search_at(worker *w, const sow_pos *anc, int nanc, const sow_pos *x, int alpha,
                     int beta, int depth)
{
    const sow_game *g = w->g;
    bool rep, above = g->cycles && same_stores_above(anc, nanc, x, &rep);
    w->abort = false;
    w->ply = nanc;
    if (g->cycles)
        memcpy(w->path, anc, (size_t)nanc * sizeof *anc);
    return node(w, x, sow_i_seeds_on_board(g, x), key_of(&w->s->key, x), above, alpha, beta, depth,
                false);
}

/* Searches x (not finished), with s->anc[0..nanc) as its path, on every
 * thread: each runs the whole search, ABDADA's deferrals (node()) spread
 * them over the tree, and whichever completes first gives the result (all
 * would give a sound fail-soft result for the same window) and stops the
 * rest. Returns INF on error (s->err). */
static int probe(sow_search *s, const sow_pos *x, int alpha, int beta, int depth)
{
    atomic_store(&s->stop, 0);
    atomic_store(&s->have_result, false);
    s->result = 0;
    /* Small searches run on one thread: waking the team costs more than
     * they take. */
    int threads = sow_i_seeds_on_board(s->g, x) >= PARALLEL_MIN_SEEDS ? s->opt.threads : 1;
    s->abdada = threads > 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        worker *w = s->w[omp_get_thread_num()];
        int v = search_at(w, s->anc, s->nanc, x, alpha, beta, depth);
        if (!w->abort) {
            bool no = false;
            if (atomic_compare_exchange_strong(&s->have_result, &no, true))
                s->result = v;
            atomic_store(&s->stop, 1);
        }
        atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
        w->published = w->nodes;
    }
    s->abdada = false;
    if (atomic_load(&s->err) || !atomic_load(&s->have_result))
        return INF;
    return s->result;
}

/* Exact future gain of x for its mover if it is known without search:
 * finished, a repetition of an ancestor in anc[0..nanc), or within the
 * oracle. */
static bool known_at(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int *f)
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
    if (s->use_oracle && sow_i_seeds_on_board(g, x) <= s->oracle.max_seeds) {
        *f = s->oracle.probe(s->oracle.ctx, x);
        return true;
    }
    return false;
}

static bool known(sow_search *s, const sow_pos *x, int *f)
{
    return known_at(s, s->anc, s->nanc, x, f);
}

/* ---- MTD(f) ---------------------------------------------------------------- */

/* One MTD(f): what differs between its uses. */
typedef struct mtd_job {
    const sow_pos *x;      /* the node */
    const sow_pos *anc;    /* its path anc[0..nanc) */
    int nanc;
    int guess;             /* first guess of x's future gain */
    worker *w;             /* NULL: every thread (probe); else this worker alone */
    /* Progress (w == NULL only): the score shown is base + sign * future,
     * the root mover's view. */
    int base, sign;
    bool root;             /* x is the root: narrows s->root_lower/upper */
} mtd_job;

/* One null-window search of the job's node at beta: its fail-soft value,
 * INF if stopped. */
static int mtd_test(sow_search *s, const mtd_job *j, int beta)
{
    if (!j->w)
        return probe(s, j->x, beta - 1, beta, TT_DRAFT_EXACT);
    worker *w = j->w;
    if (atomic_load_explicit(&s->stop, memory_order_relaxed) ||
        (w->tstop && atomic_load_explicit(w->tstop, memory_order_relaxed)))
        return INF;
    int g = search_at(w, j->anc, j->nanc, j->x, beta - 1, beta, TT_DRAFT_EXACT);
    return w->abort ? INF : g;
}

/* MTD(f): the exact future gain of j->x. Returns INF if stopped (error,
 * time limit or the task's stop flag). */
static int mtd(sow_search *s, const mtd_job *j, int *probes)
{
    int f;
    if (known_at(s, j->anc, j->nanc, j->x, &f))
        return f;
    int hi = future_bound(s, sow_i_seeds_on_board(s->g, j->x)), lo = -hi;
    int g = j->guess < lo ? lo : j->guess > hi ? hi : j->guess;
    while (lo < hi) {
        int beta = g <= lo ? lo + 1 : g;
        if (!j->w) {
            s->pr.lower = j->sign > 0 ? j->base + lo : j->base - hi;
            s->pr.upper = j->sign > 0 ? j->base + hi : j->base - lo;
            s->pr.test = j->sign > 0 ? j->base + beta : j->base - beta + 1;
        }
        g = mtd_test(s, j, beta);
        if (g == INF)
            return INF;
        (*probes)++;
        if (g >= beta)
            lo = g;
        else
            hi = g;
        if (j->root) {
            s->root_lower = j->base + lo;
            s->root_upper = j->base + hi;
        }
    }
    return lo;
}

/* MTD(f) of x below s->anc on every thread. */
static int mtd_all(sow_search *s, const sow_pos *x, int guess, int base, int sign, int *probes,
                   bool root)
{
    mtd_job j = {x, s->anc, s->nanc, guess, NULL, base, sign, root};
    return mtd(s, &j, probes);
}

/* ---- the root ------------------------------------------------------------ */

/* A child of the root or of a PV node. */
typedef struct rchild {
    sow_pos q;
    int c0, sign;
} rchild;

static void make_child(const sow_game *g, const sow_pos *p, sow_move mv, rchild *c)
{
    c->q = *p;
    sow_i_make(g, &c->q, mv);
    c->c0 = banked(g, p, &c->q, &c->sign);
}

/* Is the future gain of x (not finished, not known) at least t? */
static int test_ge(sow_search *s, const sow_pos *x, int t, bool *ok)
{
    int v = probe(s, x, t - 1, t, TT_DRAFT_EXACT);
    if (v == INF)
        return INF;
    *ok = v >= t;
    return 0;
}

/* The table's move at x, TT_NO_MOVE if none (a hint: any entry's move is
 * one, whatever the path). */
static sow_move tt_move(sow_search *s, const sow_pos *x)
{
    tt_data d;
    return tt_probe(&s->tt, key_of(&s->key, x), &d) ? d.move : TT_NO_MOVE;
}

/* A move of x (whose exact future is f, its children searched below
 * s->anc[0..s->nanc)) that achieves f: known children first, then the table's move, then the rest,
 * each checked by a null-window search. Returns the index in ms, -1 on
 * error. */
static int achieving_move(sow_search *s, const sow_pos *x, int f, const sow_move *ms, int n,
                          int *fchild)
{
    rchild c[SOW_MAX_MOVES];
    bool isknown[SOW_MAX_MOVES];
    int fk[SOW_MAX_MOVES];
    for (int k = 0; k < n; k++) {
        make_child(s->g, x, ms[k], &c[k]);
        isknown[k] = known(s, &c[k].q, &fk[k]);
        if (isknown[k] && c[k].c0 + c[k].sign * fk[k] == f) {
            *fchild = fk[k];
            return k;
        }
    }
    sow_move tm = tt_move(s, x);
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

static sow_err stopped(sow_search *s)
{
    int e = atomic_load(&s->err);
    return e ? (sow_err)e : SOW_E_LIMIT;
}

/* Pie rule: max over completions of South's opening turn from q of -|v|. */
static int pie_turn(sow_search *s, const sow_pos *q, int *probes)
{
    const sow_game *g = s->g;
    if (sow_i_over(g, q) || sow_pos_to_move(q) != SOW_SOUTH) {
        int base = store_score(g, q);
        s->nanc = 0;
        int f = mtd_all(s, q, 0, base, 1, probes, false);
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
    s->pr.phase = "moves";
    s->pr.nmoves = n;
    for (int k = 0; k < n; k++) {
        s->pr.move = k;
        sow_pos q = *p;
        sow_i_make(s->g, &q, sol->moves[k]);
        int v = pie_turn(s, &q, &out->mtd_probes);
        if (v == INF)
            return (sow_err)atomic_load(&s->err);
        sol->move_scores[k] = v;
        out->move_exact[k] = true;
        if (v > best) {
            best = v;
            sol->best = k;
        }
    }
    sol->score = best;
    out->seconds_value = sow_now() - s->t0;
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
    s->pr.phase = "order";
    int pre = sow_i_seeds_on_board(g, p) >= PRE_MIN_SEEDS ? s->pre_depth : 0;
    for (int d = 1; d <= pre && !known(s, p, &f0); d++) {
        guess = probe(s, p, -INF, INF, d);
        if (guess == INF)
            return (sow_err)atomic_load(&s->err);
    }
    s->pr.phase = "value";
    int base = store_score(g, p);
    *f = mtd_all(s, p, guess, base, 1, &out->mtd_probes, true);
    if (*f == INF)
        return (sow_err)atomic_load(&s->err);
    out->sol.score = base + *f;
    s->root_lower = s->root_upper = out->sol.score;
    out->seconds_value = sow_now() - s->t0;
    return SOW_OK;
}

/* value_only: just a root move that achieves the value (future f). */
static sow_err solve_best(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    int fc;
    int k = achieving_move(s, p, f, sol->moves, sol->nmoves, &fc);
    if (k < 0)
        return stopped(s);
    for (int i = 0; i < sol->nmoves; i++) {
        sol->move_scores[i] = sol->score; /* an upper bound: no move beats the value */
        out->move_exact[i] = i == k;
    }
    sol->best = k;
    return SOW_OK;
}

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
static sow_err solve_moves_serial(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    int base = store_score(s->g, p);
    for (int k = 0; k < sol->nmoves; k++) {
        s->pr.move = k;
        rchild c;
        make_child(s->g, p, sol->moves[k], &c);
        int fq = mtd_all(s, &c.q, c.sign * (f - c.c0), base + c.c0, c.sign, &out->mtd_probes,
                         false);
        if (fq == INF)
            return (sow_err)atomic_load(&s->err);
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

/* One thread's part of solve_moves_parallel. */
static void root_moves_worker(sow_search *s, worker *w, root_moves *rm, int f, int *probes)
{
    for (;;) {
        int k = root_move_next(rm);
        if (k < 0)
            break;
        const rchild *c = &rm->c[k];
        mtd_job j = {&c->q, s->anc, s->nanc, c->sign * (f - c->c0), w, 0, 0, false};
        w->tstop = &rm->tstop[k];
        int v = mtd(s, &j, probes);
        w->tstop = NULL;
        if (v != INF) {
            int zero = 0;
            if (atomic_compare_exchange_strong(&rm->done[k], &zero, 1)) {
                rm->fq[k] = v;
                atomic_fetch_add(&s->moves_done, 1);
            }
            atomic_store(&rm->tstop[k], 1);
        } else if (atomic_load(&s->stop)) {
            break; /* an error or the time limit */
        }
    }
    atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
    w->published = w->nodes;
}

/* Every root move's value with several threads: each takes the next root
 * move and solves it alone, an MTD(f) on its own worker over the shared
 * table (the moves are independent work). A thread that finds no move left
 * joins the unfinished move with the fewest joiners, running the same
 * MTD(f) on it; ABDADA's busy table spreads the two over its tree, and the
 * first to finish stops the others (tstop). */
static sow_err solve_moves_parallel(sow_search *s, const sow_pos *p, int f,
                                    sow_search_result *out)
{
    sow_solution *sol = &out->sol;
    root_moves rm;
    rm.n = sol->nmoves;
    atomic_init(&rm.next, 0);
    for (int k = 0; k < rm.n; k++) {
        make_child(s->g, p, sol->moves[k], &rm.c[k]);
        rm.fq[k] = INF;
        atomic_init(&rm.done[k], 0);
        atomic_init(&rm.tstop[k], 0);
        atomic_init(&rm.joined[k], 0);
    }
    atomic_store(&s->stop, 0);
    atomic_store(&s->moves_done, 0);
    s->moves_parallel = true;
    s->abdada = true;
    s->pr.lower = s->pr.upper = s->pr.test = sol->score;
    int probes = 0;
#pragma omp parallel num_threads(s->opt.threads) reduction(+ : probes)
    root_moves_worker(s, s->w[omp_get_thread_num()], &rm, f, &probes);
    s->abdada = false;
    s->moves_parallel = false;
    out->mtd_probes += probes;
    if (atomic_load(&s->err))
        return (sow_err)atomic_load(&s->err);
    int base = store_score(s->g, p);
    for (int k = 0; k < rm.n; k++) {
        if (rm.fq[k] == INF)
            return SOW_E_INTERRUPTED; /* unreachable without an error */
        set_move_score(out, k, base + rm.c[k].c0 + rm.c[k].sign * rm.fq[k]);
    }
    return SOW_OK;
}

/* The principal variation: from each node of known exact future, a move
 * achieving it (the root's best move first). Each node's children are
 * searched as roots of their own, as the root moves were, so the values
 * agree step by step; the line itself is kept to stop at a repetition. */
static sow_err solve_pv(sow_search *s, const sow_pos *p, int f, sow_search_result *out)
{
    const sow_game *g = s->g;
    s->pr.phase = "pv";
    sow_pos line[SOW_PV_MAX + 1];
    int nline = 0;
    sow_pos x = *p;
    int fx = f;
    s->nanc = 0;
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
                return stopped(s);
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

static void reset_counters(sow_search *s)
{
    atomic_store(&s->nodes, 0);
    atomic_store(&s->err, 0);
    for (int i = 0; i < s->opt.threads; i++) {
        worker *w = s->w[i];
        w->nodes = w->published = 0;
        w->probes = w->hits = w->stores = w->oprobes = 0;
    }
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
    sow_pos anc[SOW_PV_MAX + 2];
    s->anc = anc;
    s->nanc = 0;

    sol->nmoves = sow_i_moves(g, p, sol->moves);
    if (sol->nmoves == 0) {
        sol->score = sow_i_terminal_score(g, p);
        out->seconds_value = sow_now() - s->t0;
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
    s->nanc = 0;
    s->pr.phase = "moves";
    s->pr.nmoves = sol->nmoves;
    if (s->opt.value_only)
        e = solve_best(s, p, f, out);
    else if (s->opt.threads > 1)
        e = solve_moves_parallel(s, p, f, out);
    else
        e = solve_moves_serial(s, p, f, out);
    return e ? e : solve_pv(s, p, f, out);
}

/* Picks the key for a search whose root has `seeds` seeds (they never grow
 * below it): packed if it holds them, else the code, else the hash, which
 * only depth-limited searches accept; true if exact. The table's exact
 * entries were all made under one exact kind: a search under the other
 * clears it first, since keys of two kinds can be equal for different
 * positions. */
static bool key_use(sow_search *s, int seeds)
{
    search_key *k = &s->key;
    k->mode = seeds <= k->packed_seeds ? KEY_PACKED
              : seeds <= k->max_seeds  ? KEY_CODE
                                       : KEY_HASH;
    k->exact = k->mode != KEY_HASH;
    if (k->exact && s->table_mode != k->mode) {
        if (s->table_mode != KEY_HASH)
            sow_search_clear(s);
        s->table_mode = k->mode;
    }
    return k->exact;
}

sow_err sow_search_solve(sow_search *s, const sow_pos *p, sow_search_result *out)
{
    memset(out, 0, sizeof *out);
    out->sol.best = -1;
    if (sow_position_check(s->g, p))
        return SOW_E_POSITION;
    if (s->opt.pie_opening && (!s->g->pie || sow_pos_to_move(p) != SOW_SOUTH))
        return SOW_E_ARG;
    if (!key_use(s, sow_i_seeds_on_board(s->g, p)))
        return SOW_E_LIMIT; /* no exact table key (key.h) */
    reset_counters(s);
    s->t0 = s->last_report = sow_now();
    memset(&s->pr, 0, sizeof s->pr);
    int span = future_bound(s, sow_i_seeds_on_board(s->g, p));
    s->root_lower = store_score(s->g, p) - span;
    s->root_upper = store_score(s->g, p) + span;
    sow_err e = solve(s, p, out);
    collect(s, out);
    if (e == SOW_OK) {
        out->sol.value = sow_score_margin(s->g, out->sol.score);
        out->sol.outcome = sow_outcome_of(out->sol.score);
        out->lower = out->upper = out->sol.score;
    } else {
        out->lower = s->root_lower;
        out->upper = s->root_upper;
        if (out->sol.best < 0 && out->sol.nmoves > 0) {
            /* The best move found so far: the table's move at the root. */
            s->nanc = 0;
            sow_move tm = tt_move(s, p);
            for (int k = 0; k < out->sol.nmoves; k++)
                if (out->sol.moves[k] == tm)
                    out->sol.best = k;
        }
    }
    out->seconds = sow_now() - s->t0;
    return e;
}

sow_err sow_search_test(sow_search *s, const sow_pos *line, int n, int t, int *bound,
                        uint64_t *nodes)
{
    *nodes = 0;
    if (n < 1 || n > SOW_PV_MAX)
        return SOW_E_ARG;
    const sow_game *g = s->g;
    const sow_pos *x = &line[n - 1];
    if (sow_position_check(g, x))
        return SOW_E_POSITION;
    if (!key_use(s, sow_i_seeds_on_board(g, x)))
        return SOW_E_LIMIT; /* no exact table key (key.h) */
    reset_counters(s);
    s->t0 = s->last_report = sow_now();
    memset(&s->pr, 0, sizeof s->pr);
    s->pr.phase = "unit";
    s->pr.test = t;
    sow_pos anc[SOW_PV_MAX];
    memcpy(anc, line, (size_t)(n - 1) * sizeof *anc);
    s->anc = anc;
    s->nanc = n - 1;
    int base = store_score(g, x), span = future_bound(s, sow_i_seeds_on_board(g, x)), f;
    s->pr.lower = base - span;
    s->pr.upper = base + span;
    if (known(s, x, &f)) {
        *bound = base + f;
        return SOW_OK;
    }
    int v = probe(s, x, t - base - 1, t - base, TT_DRAFT_EXACT);
    uint64_t all = 0;
    for (int i = 0; i < s->opt.threads; i++)
        all += s->w[i]->nodes;
    *nodes = all;
    if (v == INF)
        return stopped(s);
    *bound = base + v;
    return SOW_OK;
}

sow_err sow_search_tests_begin(sow_search *s, const sow_pos *root)
{
    if (sow_position_check(s->g, root))
        return SOW_E_POSITION;
    if (!key_use(s, sow_i_seeds_on_board(s->g, root)))
        return SOW_E_LIMIT; /* no exact table key (key.h) */
    reset_counters(s);
    atomic_store(&s->stop, 0);
    s->t0 = s->last_report = sow_now();
    s->side_by_side = true;
    s->tests_seeds = sow_i_seeds_on_board(s->g, root);
    s->abdada = s->opt.threads > 1;
    return SOW_OK;
}

sow_err sow_search_test_on(sow_search *s, int k, const sow_pos *line, int n, int t, int *bound,
                           uint64_t *nodes)
{
    *nodes = 0;
    if (!s->side_by_side || k < 0 || k >= s->opt.threads || n < 1 || n > SOW_PV_MAX)
        return SOW_E_ARG;
    const sow_game *g = s->g;
    const sow_pos *x = &line[n - 1];
    if (sow_position_check(g, x))
        return SOW_E_POSITION;
    if (sow_i_seeds_on_board(g, x) > s->tests_seeds)
        return SOW_E_ARG; /* above the root given to sow_search_tests_begin */
    int base = store_score(g, x), f;
    if (known_at(s, line, n - 1, x, &f)) {
        *bound = base + f;
        return SOW_OK;
    }
    if (atomic_load(&s->stop))
        return stopped(s);
    worker *w = s->w[k];
    uint64_t n0 = w->nodes;
    int v = search_at(w, line, n - 1, x, t - base - 1, t - base, TT_DRAFT_EXACT);
    *nodes = w->nodes - n0;
    atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
    w->published = w->nodes;
    if (w->abort)
        return stopped(s);
    *bound = base + v;
    return SOW_OK;
}

void sow_search_tests_cancel(sow_search *s)
{
    int zero = 0;
    atomic_compare_exchange_strong(&s->err, &zero, (int)SOW_E_INTERRUPTED);
    atomic_store(&s->stop, 1);
}

uint64_t sow_search_tests_nodes(const sow_search *s)
{
    return atomic_load_explicit(&s->nodes, memory_order_relaxed);
}

void sow_search_tests_end(sow_search *s)
{
    s->side_by_side = false;
    s->abdada = false;
    atomic_store(&s->stop, 0);
}

sow_err sow_search_depth(sow_search *s, const sow_pos *p, int depth, int *score, uint64_t *nodes)
{
    if (depth < 0 || depth >= TT_DRAFT_EXACT)
        return SOW_E_ARG;
    if (sow_position_check(s->g, p))
        return SOW_E_POSITION;
    reset_counters(s);
    s->t0 = s->last_report = sow_now();
    sow_pos anc[1];
    s->anc = anc;
    s->nanc = 0;
    bool oracle = s->use_oracle;
    s->use_oracle = false;
    key_use(s, sow_i_seeds_on_board(s->g, p));
    int base = store_score(s->g, p);
    int f = 0;
    sow_err e = SOW_OK;
    if (sow_i_over(s->g, p)) {
        f = terminal_future(s->g, p);
    } else {
        s->pr.phase = "depth";
        for (int d = 1; d <= depth; d++) {
            f = probe(s, p, -INF, INF, d);
            if (f == INF) {
                e = (sow_err)atomic_load(&s->err);
                break;
            }
        }
    }
    s->use_oracle = oracle;
    *score = base + f;
    *nodes = 0;
    for (int i = 0; i < s->opt.threads; i++)
        *nodes += s->w[i]->nodes;
    return e;
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
    reset_counters(s);
    s->t0 = s->last_report = sow_now();
    s->pr.phase = "depth";
    atomic_store(&s->stop, 0);
    bool oracle = s->use_oracle;
    s->use_oracle = false;
    key_use(s, most);
    _Atomic int next = 0;
    int threads = n > 1 ? s->opt.threads : 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        worker *w = s->w[omp_get_thread_num()];
        for (int i; (i = atomic_fetch_add(&next, 1)) < n && !w->abort;) {
            const sow_pos *p = &ps[i];
            int f = 0;
            if (sow_i_over(s->g, p))
                f = terminal_future(s->g, p);
            for (int d = 1; d <= depths[i] && !sow_i_over(s->g, p) && !w->abort; d++)
                f = search_at(w, p, 0, p, -INF, INF, d);
            scores[i] = store_score(s->g, p) + f;
        }
        atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
        w->published = w->nodes;
    }
    s->use_oracle = oracle;
    for (int i = 0; i < s->opt.threads; i++)
        *nodes += s->w[i]->nodes;
    return atomic_load(&s->err) ? (sow_err)atomic_load(&s->err) : SOW_OK;
}

/* ---- life cycle ------------------------------------------------------------ */

/* The node sizes from which the table's cut-offs and ABDADA pay, in seeds
 * above the oracle's reach. */
static void set_limits(sow_search *s)
{
    int base = s->use_oracle ? s->oracle.max_seeds : 0;
    s->etc_min = base + 6;
    s->defer_min = base + DEFER_EXCESS;
}

bool sow_search_exact(const sow_game *g, const sow_pos *p)
{
    int seeds = 0;
    for (int pl = 0; pl < 2; pl++)
        for (int i = 1; i <= g->m; i++)
            seeds += sow_pos_pit(p, pl, i);
    return seeds <= key_max_seeds(g);
}

size_t sow_search_tt_bytes(size_t tt_mb)
{
    return tt_mb * 1024 * 1024 / sizeof(tt_bucket) * sizeof(tt_bucket);
}

size_t sow_search_thread_bytes(const sow_game *g)
{
    return sizeof(worker) + (g->cycles ? ((size_t)1 << HINT_BITS) * sizeof(hint) : 0);
}

static void hints_clear(hint *h)
{
    for (size_t i = 0; i < (size_t)1 << HINT_BITS; i++)
        h[i] = (hint){0, TT_NO_MOVE};
}

static hint *hints_new(void)
{
    hint *h = malloc(((size_t)1 << HINT_BITS) * sizeof *h);
    if (h)
        hints_clear(h);
    return h;
}

sow_err sow_search_new(const sow_game *g, const sow_search_options *opt, sow_search **out)
{
    *out = NULL;
    if (opt->threads < 1 || opt->threads > SOW_MAX_THREADS || opt->tt_mb < 1 ||
        opt->tt_mb > ((size_t)1 << 30) || opt->pv_max < 0)
        return SOW_E_ARG;
    if (opt->oracle && (!opt->oracle->probe || opt->oracle->max_seeds < 0))
        return SOW_E_ARG;
    sow_search *s = calloc(1, sizeof *s);
    if (!s)
        return SOW_E_NOMEM;
    s->g = g;
    s->opt = *opt;
    if (s->opt.progress_every <= 0)
        s->opt.progress_every = 1.0;
    /* With cycles too: the oracle's entries are path-free exact values, and
     * no node it answers can have an ancestor with its stores (doc/search.md). */
    if (opt->oracle) {
        s->oracle = *opt->oracle;
        s->use_oracle = true;
    }
    s->opt.oracle = NULL;
    s->tb = g->tiebreak ? 1 : 0;
    key_init(&s->key, g);
    s->pre_depth = PRE_DEPTH;
    size_t bytes = sow_search_tt_bytes(opt->tt_mb);
    /* The packed key needs the table in groups of 2^split buckets (tt.h):
     * only where that wastes at most 1/16 of it. */
    uint64_t nb = bytes / sizeof(tt_bucket);
    if (s->key.packed_seeds >= 0 && nb >> s->key.split >= 16)
        tt_shape(&s->tt, nb, (unsigned)s->key.split);
    else {
        s->key.packed_seeds = -1;
        tt_shape(&s->tt, nb, 0);
    }
    s->tt.b = sow_huge_alloc(bytes, &s->map);
    s->tt.shared = opt->threads > 1;
    s->w = calloc((size_t)opt->threads, sizeof *s->w);
    s->busy = calloc((size_t)1 << BUSY_BITS, sizeof *s->busy);
    set_limits(s);
    if (!s->tt.b || !s->w || !s->busy) {
        sow_search_free(s);
        return SOW_E_NOMEM;
    }
    for (int i = 0; i < opt->threads; i++) {
        s->w[i] = calloc(1, sizeof(worker));
        if (!s->w[i]) {
            sow_search_free(s);
            return SOW_E_NOMEM;
        }
        s->w[i]->s = s;
        s->w[i]->g = g;
        s->w[i]->id = i;
        if (g->cycles && !(s->w[i]->hints = hints_new())) {
            sow_search_free(s);
            return SOW_E_NOMEM;
        }
    }
    *out = s;
    return SOW_OK;
}

void sow_search_set_oracle(sow_search *s, const sow_oracle *oracle)
{
    s->use_oracle = oracle != NULL;
    if (s->use_oracle)
        s->oracle = *oracle;
    set_limits(s);
}

void sow_search_set_time_limit(sow_search *s, double seconds)
{
    s->opt.time_limit = seconds;
}

void sow_search_clear(sow_search *s)
{
    sow_huge_zero(&s->map);
    s->table_mode = KEY_HASH;
    for (int i = 0; i < s->opt.threads; i++)
        if (s->w[i]->hints)
            hints_clear(s->w[i]->hints);
}

void sow_search_free(sow_search *s)
{
    if (!s)
        return;
    if (s->w)
        for (int i = 0; i < s->opt.threads; i++) {
            if (s->w[i])
                free(s->w[i]->hints);
            free(s->w[i]);
        }
    free(s->w);
    free(s->busy);
    sow_huge_free(&s->map);
    free(s);
}

/* ---- the analysis driver's access (internal.h) -------------------------- */

void search_analyse_begin(sow_search *s, const sow_pos *root, search_eval_fn eval,
                          const void *eval_ctx, uint64_t node_limit)
{
    reset_counters(s);
    for (int i = 0; i < s->opt.threads; i++)
        s->w[i]->inexact = 0;
    s->t0 = s->last_report = sow_now();
    memset(&s->pr, 0, sizeof s->pr);
    s->pr.phase = "depth";
    key_use(s, sow_i_seeds_on_board(s->g, root));
    s->eval = eval;
    s->eval_ctx = eval_ctx;
    s->promote = true;
    s->node_limit = node_limit;
}

void search_analyse_end(sow_search *s)
{
    s->eval = NULL;
    s->eval_ctx = NULL;
    s->promote = false;
    s->node_limit = 0;
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
    s->anc = (sow_pos *)anc;
    s->nanc = nanc;
    uint64_t before = inexact_sum(s);
    int v = probe(s, x, alpha, beta, depth);
    *exact = inexact_sum(s) == before;
    return v == INF ? SEARCH_STOPPED : v;
}

sow_move search_table_move(sow_search *s, const sow_pos *x)
{
    return tt_move(s, x);
}

bool search_known(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int *f)
{
    return known_at(s, anc, nanc, x, f);
}

uint64_t search_nodes(const sow_search *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->opt.threads; i++)
        n += s->w[i]->nodes;
    return n;
}

sow_err search_error(const sow_search *s)
{
    return (sow_err)atomic_load(&s->err);
}

bool search_key_exact(const sow_search *s)
{
    return s->key.exact;
}

int search_key_mode(const sow_search *s)
{
    return s->key.mode;
}

const sow_game *search_game(const sow_search *s)
{
    return s->g;
}
