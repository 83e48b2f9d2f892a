/* search.c - the exact solver (see sow/search.h for what it computes).
 *
 * Layers, bottom up:
 *   node()        fail-soft negamax alpha-beta on the future gain, one
 *                 thread, shared table; the only recursive part
 *   probe()       one search of a node by every thread (ABDADA): the first
 *                 to finish gives the result and stops the others
 *   mtd()         MTD(f): null-window probes until the bounds meet
 *   mtd_worker()  MTD(f) on one thread (root moves solved side by side,
 *                 idle threads joining the moves still running)
 *   solve()       root value, every root move's value, pie rule, PV
 */
#include <limits.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "common/clock.h"
#include "common/mem.h"
#include "rules/rules_inline.h"
#include "search/tt.h"
#include "sow/search.h"

/* Longest search path. Each level of node() keeps its children on the stack
 * (about 1 KB), so 1024 plies stay well inside a thread's default stack. */
#define MAX_PLY 1024
#define INF 30000

/* Mixes the ancestor-set hash into a key (games with cycles, sow/search.h):
 * an odd multiplier keeps hist != 0 from cancelling a position hash. */
#define HIST_MIX 0x9E3779B97F4A7C15ull

/* Bytes 0..13 of a half: pits and tuzdik; the store (14) and the flags (15)
 * are not part of the key. */
#define KEY_MASK_HI 0x0000ffffffffffffull

/* Every POLL_NODES nodes a thread publishes its node count and looks at the
 * stop flag; the main thread also checks the clock for progress reports. */
#define POLL_NODES 1024

/* Depth of the move-ordering iterations before an exact search: on
 * Kalah(6,3) depth 8 saves about 15% of the nodes, deeper ones cost more
 * than they save. */
#define PRE_DEPTH 8
#define PRE_MIN_SEEDS 24 /* smaller boards solve too fast for it to pay */

/* Probes of nodes with fewer seeds on the board run on one thread. */
#define PARALLEL_MIN_SEEDS 16

/* ABDADA's table of the nodes being searched (see node()): 2^BUSY_BITS
 * slots of one key each, 64 KB, indexed by the key's high bits. */
#define BUSY_BITS 13

/* ABDADA marks and defers only nodes with at least this many seeds more
 * than the oracle knows. Kalah(6,4), value, 2 threads, 20- and 24-seed
 * databases: 3, 4, 6 and 8 measure alike (within 3% of the nodes). While
 * cut nodes deferred like the others, 3 and 4 did 10-15% more nodes than
 * 6. */
#define DEFER_EXCESS 6

/* At an expected cut node (see node()) the first child usually refutes
 * the node, and a deferral sends the thread to a child nobody needs; one
 * whose first three children failed is more likely an all node, or a root
 * whose type was guessed wrong. Kalah(6,4), value, 2 threads, mean nodes
 * of 8 runs (plain ABDADA: 3 and 5 runs; one thread: 30.6 M and 5.23 M):
 *                       20-seed db   24-seed db
 *   from the 2nd child (plain ABDADA)
 *                          35.3 M      6.75 M
 *   never                  35.8 M      5.71 M
 *   from the 3rd child     34.2 M      6.31 M
 *   from the 4th child     34.8 M      5.62 M */
#define CUT_DEFER_FROM 3

typedef struct worker {
    struct sow_search *s;
    const sow_game *g;
    int id;
    bool abort;
    _Atomic int *tstop; /* the task's stop flag, if any (root moves phase) */
    uint64_t nodes, published;
    uint64_t probes, hits, stores, oprobes;
    int ply;
    /* The search path: positions, their hashes and store sums (levels),
     * kept only for games with cycles. */
    sow_pos path[MAX_PLY];
    uint64_t phash[MAX_PLY];
    int plevel[MAX_PLY];
} worker;

struct sow_search {
    const sow_game *g;
    sow_search_options opt;
    sow_oracle oracle;
    bool use_oracle;
    int tb;        /* 1 if the game has a tie-break: |future| <= seeds*scale + tb */
    int etc_min;   /* enhanced transposition cut-offs at nodes with >= this many seeds */
    int pre_depth; /* depth-limited iterations before the exact search */
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
    /* probe() result: written once per probe under `omp critical`. */
    int result;
    bool have_result;
    /* Where the driver is, for progress reports (main thread only). */
    sow_search_progress pr;
    double t0, last_report;
    /* The ancestors of the node being probed (cycles only). */
    sow_pos *anc; /* room for SOW_PV_MAX + 2 */
    int nanc;
    /* Proven bounds on the root score (score units), for an interrupted
     * solve: narrowed by the root's MTD(f) probes. */
    int root_lower, root_upper;
};

static inline uint64_t pos_hash(const sow_pos *p)
{
    uint64_t k[4] = {p->w[0], p->w[1] & KEY_MASK_HI, p->w[2], p->w[3] & KEY_MASK_HI};
    return XXH3_64bits(k, sizeof k);
}

static inline int seeds_on_board(const sow_game *g, const sow_pos *p)
{
    return sow_i_row_sum(g, p, 0) + sow_i_row_sum(g, p, 1);
}

static inline int level_of(const sow_pos *p)
{
    return p->b[SOW_B_STORE] + p->b[SOW_HALF + SOW_B_STORE];
}

/* The store difference for the mover of p. */
static inline int store_diff(const sow_pos *p)
{
    return p->b[SOW_B_STORE] - p->b[SOW_HALF + SOW_B_STORE];
}

/* Future gain of a finished position for its mover. */
static inline int terminal_future(const sow_game *g, const sow_pos *p)
{
    return sow_i_terminal_score(g, p) - store_diff(p) * g->score_scale;
}

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

static void poll(worker *w)
{
    sow_search *s = w->s;
    atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
    w->published = w->nodes;
    if (s->opt.stop && *s->opt.stop) {
        int zero = 0;
        atomic_compare_exchange_strong(&s->err, &zero, SOW_E_INTERRUPTED);
        atomic_store(&s->stop, 1);
    }
    if (atomic_load_explicit(&s->stop, memory_order_relaxed) ||
        (w->tstop && atomic_load_explicit(w->tstop, memory_order_relaxed)))
        w->abort = true;
    if (w->id == 0 && (w->nodes & (64 * POLL_NODES - 1)) == 0) {
        double t = sow_now();
        if (s->opt.time_limit > 0 && t - s->t0 > s->opt.time_limit) {
            int zero = 0;
            atomic_compare_exchange_strong(&s->err, &zero, SOW_E_INTERRUPTED);
            atomic_store(&s->stop, 1);
            w->abort = true;
        }
        if (s->opt.progress && t - s->last_report >= s->opt.progress_every)
            report(s);
    }
}

/* Does p repeat an ancestor on the path? Stores never decrease, so only the
 * ancestors with the same store sum (the top of the path) can equal it. */
static bool repeats(const worker *w, const sow_pos *p, uint64_t h, int level)
{
    for (int d = w->ply - 1; d >= 0 && w->plevel[d] == level; d--)
        if (w->phash[d] == h && sow_pos_eq(&w->path[d], p))
            return true;
    return false;
}

/* ABDADA's busy table. Racy by design: a slot holds the key of a node a
 * thread is searching, or 0; a thread marks by overwriting and unmarks only
 * if the slot still holds its key. A lost mark or a stale one only changes
 * which thread searches what, never a result. */
static inline _Atomic uint64_t *busy_slot(const sow_search *s, uint64_t key)
{
    return &s->busy[key >> (64 - BUSY_BITS)];
}

static inline void busy_mark(sow_search *s, uint64_t key)
{
    atomic_store_explicit(busy_slot(s, key), key, memory_order_relaxed);
}

static inline void busy_unmark(sow_search *s, uint64_t key)
{
    _Atomic uint64_t *b = busy_slot(s, key);
    if (atomic_load_explicit(b, memory_order_relaxed) == key)
        atomic_store_explicit(b, 0, memory_order_relaxed);
}

static inline bool busy_is(const sow_search *s, uint64_t key)
{
    return atomic_load_explicit(busy_slot(s, key), memory_order_relaxed) == key;
}

typedef struct child {
    sow_pos q;
    int c0;        /* score units the move banks for the mover */
    int sign;      /* +1: the mover moves again (extra turn), -1: turn ends */
    int key;       /* move ordering, larger first */
    int seeds;     /* seeds on q's board */
    uint64_t h;    /* pos_hash(&q) */
    sow_move mv;
} child;

/* Fail-soft negamax on the future gain of p (not finished) for its mover,
 * window (alpha, beta). `S`: the seeds on p's board. `hist`: XOR of the
 * hashes of the ancestors with the same stores (cycles only, else 0).
 * `depth`: TT_DRAFT_EXACT for an exact search, else the remaining plies (a
 * leaf scores 0: the stores). `cut`: p is an expected cut node (Knuth and
 * Moore's types, the root of a probe taken as an all node, the type
 * flipping with the mover: an extra turn keeps the parent's window, so its
 * child has the parent's type); only ABDADA reads it. */
static int node(worker *w, const sow_pos *p, int S, uint64_t h, uint64_t hist, int alpha,
                int beta, int depth, bool cut)
{
    sow_search *s = w->s;
    const sow_game *g = w->g;
    uint64_t nodes0 = w->nodes++;
    if ((w->nodes & (POLL_NODES - 1)) == 0)
        poll(w);
    if (w->abort)
        return 0;

    if (s->use_oracle && S <= s->oracle.max_seeds) {
        w->oprobes++;
        return s->oracle.probe(s->oracle.ctx, p);
    }
    if (depth == 0)
        return 0;
    int hi = S * g->score_scale + s->tb, lo = -hi;
    if (hi <= alpha)
        return hi;
    if (lo >= beta)
        return lo;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;

    int level = 0;
    if (g->cycles) {
        level = level_of(p);
        if (repeats(w, p, h, level))
            return 0; /* perpetual play: the stores stay as they are */
    }
    uint64_t key = h ^ (hist * HIST_MIX);

    tt_data d;
    sow_move ttmove = TT_NO_MOVE;
    w->probes++;
    if (tt_probe(&s->tt, key, &d)) {
        w->hits++;
        ttmove = d.move;
        if (d.draft >= depth) {
            if (d.lower >= beta)
                return d.lower;
            if (d.upper <= alpha)
                return d.upper;
            if (d.lower == d.upper)
                return d.lower;
            if (d.lower > alpha)
                alpha = d.lower;
            if (d.upper < beta)
                beta = d.upper;
        }
    }
    const int alpha0 = alpha;

    int mover = sow_pos_to_move(p);
    int D0 = store_diff(p);
    int scale = g->score_scale;
    int cdepth = depth == TT_DRAFT_EXACT ? depth : depth - 1;
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, ms);
    child c[SOW_MAX_MOVES];
    /* ord[0..nc): the children to search; oc[0..no): those the oracle
     * knows (indices into c). */
    uint8_t ord[SOW_MAX_MOVES], oc[SOW_MAX_MOVES];
    const int8_t *oe[SOW_MAX_MOVES]; /* their oracle entries (oracle.entry) */
    int nc = 0, no = 0;
    int best = -INF;
    sow_move bestmove = TT_NO_MOVE;

    /* Make every move. Finished children are scored at once and may cut
     * off before any search; so may the oracle's, probed after all moves
     * are made, their entries prefetched first. A child whose seeds bound
     * its value outside the window needs no search either. */
    for (int i = 0; i < n; i++) {
        child *ch = &c[i];
        ch->q = *p;
        sow_i_make(g, &ch->q, ms[i]);
        ch->mv = ms[i];
        bool same = sow_pos_to_move(&ch->q) == mover;
        ch->sign = same ? 1 : -1;
        int dq = store_diff(&ch->q);
        ch->c0 = ((same ? dq : -dq) - D0) * scale;
        int v;
        if (sow_i_over(g, &ch->q)) {
            v = ch->c0 + ch->sign * terminal_future(g, &ch->q);
        } else {
            int sq = seeds_on_board(g, &ch->q);
            ch->seeds = sq;
            if (s->use_oracle && sq <= s->oracle.max_seeds) {
                if (s->oracle.entry) {
                    oe[no] = s->oracle.entry(s->oracle.ctx, &ch->q);
                    __builtin_prefetch(oe[no]);
                } else if (s->oracle.prefetch) {
                    s->oracle.prefetch(s->oracle.ctx, &ch->q);
                }
                oc[no++] = (uint8_t)i;
                continue;
            }
            int hic = sq * scale + s->tb;
            if (ch->c0 + hic > alpha) {
                if (ch->c0 - hic >= beta)
                    return ch->c0 - hic;
                ch->key = (ms[i] == ttmove ? 1 << 20 : 0) + (same ? 1 << 12 : 0) + ch->c0 * 16 + i;
                ch->h = pos_hash(&ch->q);
                if (!g->cycles)
                    tt_prefetch(&s->tt, ch->h);
                ord[nc++] = (uint8_t)i;
                continue;
            }
            v = ch->c0 + hic; /* an upper bound, at most alpha */
        }
        if (v > best) {
            best = v;
            bestmove = ms[i];
            if (v >= beta)
                return v;
        }
    }
    for (int k = 0; k < no; k++) {
        const child *ch = &c[oc[k]];
        w->oprobes++;
        int f = s->oracle.entry ? *oe[k] : s->oracle.probe(s->oracle.ctx, &ch->q);
        int v = ch->c0 + ch->sign * f;
        if (v > best) {
            best = v;
            bestmove = ch->mv;
            if (v >= beta)
                return v;
        }
    }
    if (best > alpha)
        alpha = best;

    /* Enhanced transposition cut-offs: a child's stored bound may already
     * refute this node; costs one probe per child, so only far from the
     * leaves. */
    uint64_t chist = 0;
    if (g->cycles)
        chist = hist ^ h;
    if (S >= s->etc_min && depth == TT_DRAFT_EXACT) {
        for (int k = 0; k < nc; k++) {
            const child *ch = &c[ord[k]];
            uint64_t hc = g->cycles && level_of(&ch->q) == level ? chist : 0;
            tt_data cd;
            if (tt_probe(&s->tt, ch->h ^ (hc * HIST_MIX), &cd) && cd.draft >= cdepth) {
                int v = ch->sign > 0 ? ch->c0 + cd.lower : ch->c0 - cd.upper;
                if (v >= beta) {
                    tt_store(&s->tt, key, v, hi, ch->mv, depth, 1);
                    return v;
                }
            }
        }
    }

    /* Order: the table's move, extra turns, then by what the move banks
     * (captures), then the pit nearest the store. Insertion sort of the
     * indices: n <= 18. */
    for (int i = 1; i < nc; i++) {
        uint8_t t = ord[i];
        int kt = c[t].key, j = i;
        while (j > 0 && c[ord[j - 1]].key < kt) {
            ord[j] = ord[j - 1];
            j--;
        }
        ord[j] = t;
    }
    if (w->ply >= MAX_PLY) {
        atomic_store(&s->err, SOW_E_LIMIT);
        atomic_store(&s->stop, 1);
        w->abort = true;
        return 0;
    }
    if (g->cycles) {
        w->path[w->ply] = *p;
        w->phash[w->ply] = h;
        w->plevel[w->ply] = level;
    }
    /* ABDADA (Weill 1996): every thread searches the same tree; the first
     * child is searched by all, but a younger brother that another thread
     * is searching now is put off to a second pass, by when its bounds are
     * usually in the table. The threads so spread over the children of the
     * nodes that must search them all. At expected cut nodes, whose first
     * child usually refutes them, only from the fourth child on (see
     * CUT_DEFER_FROM). */
    bool par = s->abdada && S >= s->defer_min; /* marks itself busy, defers */
    int first = cut ? CUT_DEFER_FROM : 1;      /* the first child it may defer */
    uint8_t deferred[SOW_MAX_MOVES];
    int nd = 0;
    if (par)
        busy_mark(s, key);
    w->ply++;
    for (int pass = 0; pass < 2; pass++) {
        int cnt = pass ? nd : nc;
        for (int k = 0; k < cnt; k++) {
            int ci = pass ? deferred[k] : ord[k];
            const child *ch = &c[ci];
            uint64_t hc = g->cycles && level_of(&ch->q) == level ? chist : 0;
            if (par && pass == 0 && k >= first && ch->seeds >= s->defer_min &&
                busy_is(s, ch->h ^ (hc * HIST_MIX))) {
                deferred[nd++] = (uint8_t)ci;
                continue;
            }
            int v;
            if (ch->sign > 0)
                v = ch->c0 + node(w, &ch->q, ch->seeds, ch->h, hc, alpha - ch->c0,
                                  beta - ch->c0, cdepth, cut);
            else
                v = ch->c0 - node(w, &ch->q, ch->seeds, ch->h, hc, ch->c0 - beta,
                                  ch->c0 - alpha, cdepth, !cut);
            if (w->abort) {
                w->ply--;
                if (par)
                    busy_unmark(s, key);
                return 0;
            }
            if (v > best) {
                best = v;
                bestmove = ch->mv;
                if (v > alpha) {
                    alpha = v;
                    if (v >= beta)
                        goto searched;
                }
            }
        }
    }
searched:
    w->ply--;
    if (par)
        busy_unmark(s, key);

    /* Fail-soft: best >= beta is a lower bound, best <= the window's lower
     * end an upper bound, anything between is exact. */
    int lower = lo, upper = hi;
    if (best >= beta)
        lower = best;
    else if (best <= alpha0)
        upper = best;
    else
        lower = upper = best;
    w->stores++;
    tt_store(&s->tt, key, lower, upper, bestmove, depth, w->nodes - nodes0);
    return best;
}

/* ---- one search by every thread ---------------------------------------- */

/* The hash of the ancestors of the probed node with the same stores, the
 * `hist` argument node() expects at that node. */
static uint64_t hist_at(const sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x)
{
    uint64_t hist = 0;
    if (!s->g->cycles)
        return 0;
    int level = level_of(x);
    for (int d = nanc - 1; d >= 0 && level_of(&anc[d]) == level; d--)
        hist ^= pos_hash(&anc[d]);
    return hist;
}

static uint64_t anc_hist(const sow_search *s, const sow_pos *x)
{
    return hist_at(s, s->anc, s->nanc, x);
}

/* Puts a worker at the root of a search of a node below anc[0..nanc). */
static void worker_at(worker *w, const sow_pos *anc, int nanc)
{
    w->abort = false;
    w->ply = nanc;
    if (w->g->cycles)
        for (int d = 0; d < nanc; d++) {
            w->path[d] = anc[d];
            w->phash[d] = pos_hash(&anc[d]);
            w->plevel[d] = level_of(&anc[d]);
        }
}

/* Searches x (not finished), with s->anc[0..nanc) as its path, on every
 * thread: each runs the whole search, ABDADA's deferrals (node()) spread
 * them over the tree, and whichever completes first gives the result (all
 * would give a sound fail-soft result for the same window) and stops the
 * rest. Returns INF on error (s->err). */
static int probe(sow_search *s, const sow_pos *x, int alpha, int beta, int depth)
{
    uint64_t hist = anc_hist(s, x);
    atomic_store(&s->stop, 0);
    s->have_result = false;
    s->result = 0;
    /* Small searches run on one thread: waking the team costs more than
     * they take. */
    int threads = seeds_on_board(s->g, x) >= PARALLEL_MIN_SEEDS ? s->opt.threads : 1;
    s->abdada = threads > 1;
#pragma omp parallel num_threads(threads) if (threads > 1)
    {
        worker *w = s->w[omp_get_thread_num()];
        worker_at(w, s->anc, s->nanc);
        int v = node(w, x, seeds_on_board(s->g, x), pos_hash(x), hist, alpha, beta, depth, false);
        if (!w->abort) {
#pragma omp critical(sow_search_result)
            {
                if (!s->have_result) {
                    s->have_result = true;
                    s->result = v;
                }
            }
            atomic_store(&s->stop, 1);
        }
        atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
        w->published = w->nodes;
    }
    s->abdada = false;
    if (atomic_load(&s->err) || !s->have_result)
        return INF;
    return s->result;
}

/* Exact future gain of x for its mover if it is known without search:
 * finished, a repetition of an ancestor, or within the oracle. */
static bool known_at(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int *f)
{
    const sow_game *g = s->g;
    if (sow_i_over(g, x)) {
        *f = terminal_future(g, x);
        return true;
    }
    if (g->cycles) {
        int level = level_of(x);
        for (int d = nanc - 1; d >= 0 && level_of(&anc[d]) == level; d--)
            if (sow_pos_eq(&anc[d], x)) {
                *f = 0;
                return true;
            }
    }
    if (s->use_oracle && seeds_on_board(g, x) <= s->oracle.max_seeds) {
        *f = s->oracle.probe(s->oracle.ctx, x);
        return true;
    }
    return false;
}

static bool known(sow_search *s, const sow_pos *x, int *f)
{
    return known_at(s, s->anc, s->nanc, x, f);
}

/* MTD(f) on one worker, no parallel region: the exact future gain of x
 * below anc[0..nanc). For searching several nodes at once, one per
 * thread. Returns INF if stopped (error or time limit). */
static int mtd_worker(sow_search *s, worker *w, const sow_pos *x, const sow_pos *anc, int nanc,
                      int guess, int *probes)
{
    int f;
    if (known_at(s, anc, nanc, x, &f))
        return f;
    int hi = seeds_on_board(s->g, x) * s->g->score_scale + s->tb, lo = -hi;
    int g = guess < lo ? lo : guess > hi ? hi : guess;
    uint64_t h = pos_hash(x), hist = hist_at(s, anc, nanc, x);
    while (lo < hi) {
        int beta = g <= lo ? lo + 1 : g;
        if (atomic_load_explicit(&s->stop, memory_order_relaxed) ||
            (w->tstop && atomic_load_explicit(w->tstop, memory_order_relaxed)))
            return INF;
        worker_at(w, anc, nanc);
        g = node(w, x, seeds_on_board(s->g, x), h, hist, beta - 1, beta, TT_DRAFT_EXACT, false);
        if (w->abort)
            return INF;
        (*probes)++;
        if (g >= beta)
            lo = g;
        else
            hi = g;
    }
    return lo;
}

typedef struct rchild {
    sow_pos q;
    int c0, sign;
} rchild;

static void make_child(const sow_game *g, const sow_pos *p, sow_move mv, rchild *c)
{
    c->q = *p;
    sow_i_make(g, &c->q, mv);
    bool same = sow_pos_to_move(&c->q) == sow_pos_to_move(p);
    c->sign = same ? 1 : -1;
    int dq = store_diff(&c->q);
    c->c0 = ((same ? dq : -dq) - store_diff(p)) * g->score_scale;
}

/* MTD(f): the exact future gain of x, from a first guess. The score
 * reported for progress is base + sign * future (the root mover's view).
 * Returns INF on error. */
static int mtd(sow_search *s, const sow_pos *x, int guess, int base, int sign, int *probes,
               bool root)
{
    int f;
    if (known(s, x, &f))
        return f;
    int hi = seeds_on_board(s->g, x) * s->g->score_scale + s->tb, lo = -hi;
    int g = guess < lo ? lo : guess > hi ? hi : guess;
    while (lo < hi) {
        int beta = g <= lo ? lo + 1 : g;
        if (sign > 0) {
            s->pr.lower = base + lo;
            s->pr.upper = base + hi;
            s->pr.test = base + beta;
        } else {
            s->pr.lower = base - hi;
            s->pr.upper = base - lo;
            s->pr.test = base - beta + 1;
        }
        g = probe(s, x, beta - 1, beta, TT_DRAFT_EXACT);
        if (g == INF)
            return INF;
        if (probes)
            (*probes)++;
        if (g >= beta)
            lo = g;
        else
            hi = g;
        if (root) {
            s->root_lower = base + lo;
            s->root_upper = base + hi;
        }
    }
    return lo;
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

/* ---- the root ------------------------------------------------------------ */

/* The table's move at x (with s->anc as its path), TT_NO_MOVE if none. */
static sow_move tt_move(sow_search *s, const sow_pos *x)
{
    tt_data d;
    uint64_t key = pos_hash(x) ^ (anc_hist(s, x) * HIST_MIX);
    return tt_probe(&s->tt, key, &d) ? d.move : TT_NO_MOVE;
}

/* A move of x (whose exact future is f; x is s->anc[s->nanc - 1]) that
 * achieves f: known children first, then the table's move, then the rest,
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

/* Pie rule: max over completions of South's opening turn from q of -|v|. */
static int pie_turn(sow_search *s, const sow_pos *q, int *probes)
{
    const sow_game *g = s->g;
    if (sow_i_over(g, q) || sow_pos_to_move(q) != SOW_SOUTH) {
        int base = store_diff(q) * g->score_scale;
        s->nanc = 0;
        int f = mtd(s, q, 0, base, 1, probes, false);
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
    int scale = g->score_scale;
    sow_pos anc[SOW_PV_MAX + 2];
    s->anc = anc;
    s->nanc = 0;

    sol->nmoves = sow_i_moves(g, p, sol->moves);
    if (sol->nmoves == 0) {
        sol->score = sow_i_terminal_score(g, p);
        out->seconds_value = sow_now() - s->t0;
        return SOW_OK;
    }
    int n = sol->nmoves;
    int base = store_diff(p) * scale;

    if (s->opt.pie_opening) {
        s->pr.phase = "moves";
        s->pr.nmoves = n;
        int best = -INF;
        for (int k = 0; k < n; k++) {
            s->pr.move = k;
            sow_pos q = *p;
            sow_i_make(g, &q, sol->moves[k]);
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

    /* Move ordering first: shallow depth-limited searches leave a best
     * move in the table for the nodes near the root (their bounds have a
     * smaller draft, so the exact search never trusts them), and their
     * value is MTD(f)'s first guess. */
    int guess = 0;
    int f0;
    s->pr.phase = "order";
    int pre = seeds_on_board(g, p) >= PRE_MIN_SEEDS ? s->pre_depth : 0;
    for (int d = 1; d <= pre && !known(s, p, &f0); d++) {
        guess = probe(s, p, -INF, INF, d);
        if (guess == INF)
            return (sow_err)atomic_load(&s->err);
    }

    /* The root value. */
    s->pr.phase = "value";
    int f = mtd(s, p, guess, base, 1, &out->mtd_probes, true);
    if (f == INF)
        return (sow_err)atomic_load(&s->err);
    sol->score = base + f;
    s->root_lower = s->root_upper = sol->score;
    out->seconds_value = sow_now() - s->t0;

    /* Every root move's value, each an MTD(f) from the guess that it is a
     * best move; with value_only, just a move that achieves the value. */
    anc[0] = *p;
    s->nanc = 1;
    s->pr.phase = "moves";
    s->pr.nmoves = n;
    if (s->opt.value_only) {
        int fc;
        int k = achieving_move(s, p, f, sol->moves, n, &fc);
        if (k < 0)
            return atomic_load(&s->err) ? (sow_err)atomic_load(&s->err) : SOW_E_LIMIT;
        for (int i = 0; i < n; i++) {
            sol->move_scores[i] = sol->score; /* an upper bound: no move beats the value */
            out->move_exact[i] = i == k;
        }
        sol->best = k;
    } else if (s->opt.threads > 1) {
        /* Several threads: each takes the next root move and solves it
         * alone, an MTD(f) on its own worker over the shared table (the
         * moves are independent work). A thread that finds no move left
         * joins the unfinished move with the fewest joiners, running the
         * same MTD(f) on it; ABDADA's busy table spreads the two over its
         * tree, and the first to finish stops the others (tstop). */
        rchild c[SOW_MAX_MOVES];
        int fq[SOW_MAX_MOVES];
        _Atomic int done[SOW_MAX_MOVES], tstop[SOW_MAX_MOVES], joined[SOW_MAX_MOVES];
        _Atomic int next = 0;
        for (int k = 0; k < n; k++) {
            make_child(g, p, sol->moves[k], &c[k]);
            fq[k] = INF;
            atomic_init(&done[k], 0);
            atomic_init(&tstop[k], 0);
            atomic_init(&joined[k], 0);
        }
        atomic_store(&s->stop, 0);
        atomic_store(&s->moves_done, 0);
        s->moves_parallel = true;
        s->abdada = true;
        s->pr.lower = s->pr.upper = s->pr.test = sol->score;
        int probes = 0;
#pragma omp parallel num_threads(s->opt.threads) reduction(+ : probes)
        {
            worker *w = s->w[omp_get_thread_num()];
            for (;;) {
                int k = atomic_fetch_add(&next, 1);
                if (k >= n) {
                    /* Every move is taken: join one still running. */
                    k = -1;
                    int fewest = INT_MAX;
                    for (int j = 0; j < n; j++) {
                        int jj = atomic_load(&joined[j]);
                        if (!atomic_load(&done[j]) && jj < fewest) {
                            fewest = jj;
                            k = j;
                        }
                    }
                    if (k < 0)
                        break;
                    atomic_fetch_add(&joined[k], 1);
                }
                w->tstop = &tstop[k];
                int v = mtd_worker(s, w, &c[k].q, anc, 1, c[k].sign * (f - c[k].c0), &probes);
                w->tstop = NULL;
                if (v != INF) {
                    int zero = 0;
                    if (atomic_compare_exchange_strong(&done[k], &zero, 1)) {
                        fq[k] = v;
                        atomic_fetch_add(&s->moves_done, 1);
                    }
                    atomic_store(&tstop[k], 1);
                } else if (atomic_load(&s->stop)) {
                    break; /* an error or the time limit */
                }
            }
            atomic_fetch_add_explicit(&s->nodes, w->nodes - w->published, memory_order_relaxed);
            w->published = w->nodes;
        }
        s->abdada = false;
        s->moves_parallel = false;
        out->mtd_probes += probes;
        if (atomic_load(&s->err))
            return (sow_err)atomic_load(&s->err);
        for (int k = 0; k < n; k++) {
            if (fq[k] == INF)
                return SOW_E_INTERRUPTED; /* unreachable without an error */
            sol->move_scores[k] = base + c[k].c0 + c[k].sign * fq[k];
            out->move_exact[k] = true;
            if (sol->best < 0 || sol->move_scores[k] > sol->move_scores[sol->best])
                sol->best = k;
        }
    } else {
        for (int k = 0; k < n; k++) {
            s->pr.move = k;
            rchild c;
            make_child(g, p, sol->moves[k], &c);
            int fq = mtd(s, &c.q, c.sign * (f - c.c0), base + c.c0, c.sign, &out->mtd_probes,
                         false);
            if (fq == INF)
                return (sow_err)atomic_load(&s->err);
            sol->move_scores[k] = base + c.c0 + c.sign * fq;
            out->move_exact[k] = true;
            if (sol->best < 0 || sol->move_scores[k] > sol->move_scores[sol->best])
                sol->best = k;
        }
    }

    /* The principal variation: from each node of known exact future, a
     * move achieving it (the root's best move first). */
    s->pr.phase = "pv";
    sow_pos x = *p;
    int fx = f;
    while (out->pv_len < s->opt.pv_max && out->pv_len < SOW_PV_MAX) {
        sow_move ms[SOW_MAX_MOVES];
        int nm = sow_i_moves(g, &x, ms);
        if (nm == 0)
            break;
        anc[s->nanc++] = x;
        int fc, k;
        if (out->pv_len == 0) {
            k = sol->best;
            rchild c;
            make_child(g, &x, ms[k], &c);
            fc = c.sign * (f - c.c0);
        } else {
            k = achieving_move(s, &x, fx, ms, nm, &fc);
            if (k < 0)
                return atomic_load(&s->err) ? (sow_err)atomic_load(&s->err) : SOW_E_LIMIT;
        }
        out->pv[out->pv_len++] = ms[k];
        sow_i_make(g, &x, ms[k]);
        fx = fc;
        /* A repetition ends the line (perpetual play). */
        if (g->cycles) {
            bool rep = false;
            for (int d = 0; d < s->nanc; d++)
                rep |= sow_pos_eq(&anc[d], &x);
            if (rep)
                break;
        }
    }
    return SOW_OK;
}

sow_err sow_search_solve(sow_search *s, const sow_pos *p, sow_search_result *out)
{
    memset(out, 0, sizeof *out);
    out->sol.best = -1;
    if (sow_position_check(s->g, p))
        return SOW_E_POSITION;
    if (s->opt.pie_opening && (!s->g->pie || sow_pos_to_move(p) != SOW_SOUTH))
        return SOW_E_ARG;
    reset_counters(s);
    s->t0 = s->last_report = sow_now();
    memset(&s->pr, 0, sizeof s->pr);
    int span = seeds_on_board(s->g, p) * s->g->score_scale + s->tb;
    s->root_lower = store_diff(p) * s->g->score_scale - span;
    s->root_upper = store_diff(p) * s->g->score_scale + span;
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
    int base = store_diff(p) * s->g->score_scale;
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

/* ---- life cycle ------------------------------------------------------------ */

/* The node sizes from which the table's cut-offs and ABDADA pay, in seeds
 * above the oracle's reach. */
static void set_limits(sow_search *s)
{
    int base = s->use_oracle ? s->oracle.max_seeds : 0;
    s->etc_min = base + 6;
    s->defer_min = base + DEFER_EXCESS;
}

size_t sow_search_tt_bytes(size_t tt_mb)
{
    return tt_mb * 1024 * 1024 / sizeof(tt_bucket) * sizeof(tt_bucket);
}

sow_err sow_search_new(const sow_game *g, const sow_search_options *opt, sow_search **out)
{
    *out = NULL;
    if (opt->threads < 1 || opt->threads > 256 || opt->tt_mb < 1 ||
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
    if (opt->oracle && !g->cycles) {
        s->oracle = *opt->oracle;
        s->use_oracle = true;
    }
    s->opt.oracle = NULL;
    s->tb = g->tiebreak ? 1 : 0;
    s->pre_depth = PRE_DEPTH;
    size_t bytes = sow_search_tt_bytes(opt->tt_mb);
    s->tt.nb = bytes / sizeof(tt_bucket);
    s->tt.b = sow_huge_alloc(bytes, &s->map);
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
    }
    *out = s;
    return SOW_OK;
}

void sow_search_set_oracle(sow_search *s, const sow_oracle *oracle)
{
    s->use_oracle = oracle && !s->g->cycles;
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
}

void sow_search_free(sow_search *s)
{
    if (!s)
        return;
    if (s->w)
        for (int i = 0; i < s->opt.threads; i++)
            free(s->w[i]);
    free(s->w);
    free(s->busy);
    sow_huge_free(&s->map);
    free(s);
}
