/* node.c - node(): fail-soft negamax alpha-beta on the future gain of one
 * position, one worker over the shared table, with ABDADA's deferrals
 * when every thread searches the same probe (solver.h). The only recursive
 * part of the solver, and the only hot one.
 */
#include <stdatomic.h>
#include <string.h>

#include "clock.h"
#include "order.h"
#include "solver.h"

/* Every POLL_NODES nodes a thread publishes its node count and looks at the
 * stop flag; the main thread also checks the clock for progress reports. */
#define POLL_NODES 1024
/* ... and every CLOCK_POLLS polls thread 0 reads the clock: often enough
 * that a loaded machine's slow nodes still end a search in time (a read
 * costs about 25 ns; 65,536 nodes between reads overshot a 0.5 s analysis
 * by seconds on a loaded machine: doc/experiments.md, "The engine
 * protocol"). */
#define CLOCK_POLLS 4

/* At an expected cut node the first child usually refutes the node, and a
 * deferral sends the thread to a child nobody needs; one whose first few
 * children failed is more likely an all node. Defer from this child on
 * (doc/experiments.md, "Search"). */
#define CUT_DEFER_FROM 3

/* In exact mode's move order an extra turn is worth this many seeds banked:
 * ahead of small captures, behind big ones (before: ahead of every
 * capture; 6% fewer nodes on Kalah(6,4): doc/experiments.md, "Exact
 * search: fewer nodes"). */
#define EXTRA_TURN_ORDER 3

/* An exact node takes the move of a depth-limited entry (the first
 * guesses' searches, an analysis before it in the same table) only if that
 * entry was searched at least this many plies deep: the moves of shallower
 * ones ordered worse than the exact order, and with a table big enough to
 * keep them all they cost up to a quarter more nodes (Kalah(6,4) above a
 * 20-seed database, 256 MB: doc/experiments.md, "Shallow moves in a big
 * table"). */
#define GUESS_MOVE_DRAFT 4

/* ---- polling ----------------------------------------------------------------- */

static void report(sow_search *s)
{
    double t = sow_now();
    s->c.last_report = t;
    if (!s->opt.progress)
        return;
    s->c.pr.nodes = atomic_load_explicit(&s->c.nodes, memory_order_relaxed);
    if (s->c.moves_parallel)
        s->c.pr.move = atomic_load(&s->c.moves_done);
    s->c.pr.seconds = t - s->c.t0;
    s->opt.progress(s->opt.progress_ctx, &s->c.pr);
}

void search_fail(sow_search *s, sow_err e)
{
    int zero = 0;
    atomic_compare_exchange_strong(&s->c.err, &zero, (int)e);
    atomic_store(&s->c.stop, 1);
}

static void poll(worker *w)
{
    sow_search *s = w->s;
    search_call *c = &s->c;
    search_publish(w);
    if (s->opt.stop && __atomic_load_n(s->opt.stop, __ATOMIC_RELAXED))
        search_fail(s, SOW_E_INTERRUPTED);
    if (atomic_load_explicit(&c->stop, memory_order_relaxed) ||
        (w->tstop && atomic_load_explicit(w->tstop, memory_order_relaxed)) ||
        (w->solo_end && w->nodes >= w->solo_end))
        w->abort = true;
    if (c->node_limit && atomic_load_explicit(&c->nodes, memory_order_relaxed) >= c->node_limit) {
        search_fail(s, c->node_budget ? SOW_E_BUDGET : SOW_E_INTERRUPTED);
        w->abort = true;
    }
    if (w->id == 0 && (w->nodes & (CLOCK_POLLS * POLL_NODES - 1)) == 0) {
        double t = sow_now();
        if (s->opt.time_limit > 0 && t - c->t0 > s->opt.time_limit) {
            search_fail(s, SOW_E_INTERRUPTED);
            w->abort = true;
        }
        if (s->opt.progress && !c->side_by_side && t - c->last_report >= s->opt.progress_every)
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
     * knows (indices into c), oe their oracle entries (oracle.entry) or ol
     * their places (oracle.locate). */
    uint8_t ord[SOW_MAX_MOVES], oc[SOW_MAX_MOVES];
    union {
        const int8_t *oe[SOW_MAX_MOVES];
        sow_oracle_loc ol[SOW_MAX_MOVES];
    };
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

/* Collects child i, one the oracle knows, for score_oracle(), and starts
 * loading its entry. */
static inline void oracle_child(const sow_search *s, kids *k, int i)
{
    const sow_pos *q = &k->c[i].q;
    if (s->oracle.entry) {
        k->oe[k->no] = s->oracle.entry(s->oracle.ctx, q);
        __builtin_prefetch(k->oe[k->no]);
    } else if (s->oracle.locate) {
        s->oracle.locate(s->oracle.ctx, q, &k->ol[k->no]);
    } else if (s->oracle.prefetch) {
        s->oracle.prefetch(s->oracle.ctx, q);
    }
    k->oc[k->no++] = (uint8_t)i;
}

/* Makes every move of p. Finished children are scored at once, and so is a
 * child whose seeds bound its value at most alpha; the oracle's children
 * are collected (their entries prefetched) for score_oracle(); the rest
 * are to be searched: keyed (child_key) all if `all`, else only the
 * first in order, none if they are horizon leaves (`leaves`). True if a
 * child already refutes p (k->best >= beta is then p's fail-soft value). */
/* The move, kept out of line: node.c is its only caller, and gcc then
 * inlines it into node(), which costs about 5% of the search's time
 * (doc/experiments.md, "The search split: one copy of the move"). */
static __attribute__((noinline)) void make_move(const sow_game *g, sow_pos *q, sow_move mv)
{
    sow_i_make(g, q, mv);
}

static bool expand(worker *w, const sow_pos *p, kids *k, int alpha, int beta, sow_move ttmove,
                   bool all, bool limited, bool leaves)
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
        make_move(g, &ch->q, ms[i]);
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
        if (s->c.use_oracle && sq <= s->oracle.max_seeds) {
            oracle_child(s, k, i);
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
        /* Order: the table's move, then by what the move banks (captures),
         * an extra turn counted as EXTRA_TURN_ORDER seeds more, then the
         * pit nearest the store; the analysis's search puts extra turns
         * first and killers and history before the pit (order.h). */
        if (limited)
            ch->order = order_key(w, w->ply, sow_pos_to_move(p), ms[i], i, ch->c0, ch->sign, ttmove);
        else
            ch->order = (ms[i] == ttmove ? 1 << 20 : 0) +
                        (ch->c0 + (ch->sign > 0 ? EXTRA_TURN_ORDER * g->score_scale : 0)) * 16 + i;
        ch->anc = g->cycles && level_of(&ch->q) == level;
        ch->keyed = false;
        if (!leaves) { /* a horizon leaf reads no table: never keyed */
            if (all)
                child_key(s, ch);
            else if (!top || ch->order > top->order)
                top = ch;
        }
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
        int f = s->oracle.entry    ? *k->oe[j]
                : s->oracle.locate ? s->oracle.read(s->oracle.ctx, &k->ol[j])
                                   : s->oracle.probe(s->oracle.ctx, &ch->q);
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

/* What a depth-limited search guesses p's future to be: 0 (the stores
 * decide) or the evaluation. The pruning by it reads the same guess, so
 * all-zero weights search exactly as no evaluation. */
static inline int guess(const sow_search *s, const sow_pos *p)
{
    return s->c.eval ? s->c.eval(s->g, p, s->c.eval_ctx) : 0;
}

/* A leaf of a depth-limited search (depth 0, p not finished): its guess,
 * clipped to what the seeds allow so that the search's seed bounds stay
 * bounds. */
static inline int horizon(worker *w, const sow_pos *p, int hi)
{
    w->inexact++;
    int v = guess(w->s, p);
    return v > hi ? hi : v < -hi ? -hi : v;
}

/* The draft to store a node's bounds at: a depth-limited search whose
 * subtree met no horizon and read no inexact bound proved them for every
 * depth, so sow_analyse stores them as exact; never under a hashed key,
 * where even the entry read back might be another position's. */
static inline int clean_draft(const sow_search *s, int depth, bool clean)
{
    return s->c.promote && clean && s->key.exact ? TT_DRAFT_EXACT : depth;
}

/* May an extra turn below this node (its children cdepth plies deep) take
 * its ply back? Only in the solver's own first-guess searches
 * (free_extra), a few times a path: a horizon that cuts a turn in the
 * middle scores a chain of extra turns at what its first move banked, and
 * the moves such searches leave in the table order the exact search;
 * unbounded, Congkak's relay chains blow it up (doc/experiments.md, "Free
 * extra turns in the first guesses"). The same for every child: w->extra
 * is back to the node's own after each. */
static inline bool free_turns(const worker *w, int cdepth)
{
    return cdepth != TT_DRAFT_EXACT && w->extra < w->s->c.free_extra;
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
    bool leaves = cdepth == 0; /* horizon leaves: no keys, no table */
    bool par = s->c.abdada && S >= s->defer_min && !leaves; /* marks itself busy, defers */
    int first = cut ? CUT_DEFER_FROM : 1;      /* the first child it may defer */
    bool limited = order_limited(s, cdepth);
    bool lmr = limited && cdepth + 1 >= LMR_DEPTH;
    int lmr_r = order_lmr(s->c.lmr_deep, cdepth + 1); /* the node's, not each child's */
    bool gives = free_turns(w, cdepth); /* extra turns take their ply back */
    uint8_t deferred[SOW_MAX_MOVES];
    int nd = 0;
    if (par)
        busy_mark(s, key);
    for (int pass = 0; pass < 2; pass++) {
        int cnt = pass ? nd : k->nc;
        for (int j = 0; j < cnt; j++) {
            int ci = pass ? deferred[j] : k->ord[j];
            child *ch = &k->c[ci];
            bool back = gives && ch->sign > 0;
            tt_key ck = leaves && !back ? 0 : child_key(s, ch);
            if (par && pass == 0 && j >= first && ch->seeds >= s->defer_min &&
                busy_is(s, ck)) {
                deferred[nd++] = (uint8_t)ci;
                continue;
            }
            int v;
            if (lmr && pass == 0 && j >= LMR_FROM && order_reducible(ch->order)) {
                v = ch->c0 - node(w, &ch->q, ch->seeds, ck, ch->anc, ch->c0 - alpha - 1,
                                  ch->c0 - alpha, cdepth - lmr_r, !cut);
                if (w->abort)
                    goto out;
                if (v <= alpha) { /* refuted at the reduced depth: kept */
                    consider(k, v, ch->mv, beta);
                    continue;
                }
            }
            if (ch->sign > 0) {
                w->extra += back;
                v = ch->c0 + node(w, &ch->q, ch->seeds, ck, ch->anc, alpha - ch->c0,
                                  beta - ch->c0, cdepth + back, cut);
                w->extra -= back;
            } else
                v = ch->c0 - node(w, &ch->q, ch->seeds, ck, ch->anc, ch->c0 - beta,
                                  ch->c0 - alpha, cdepth, !cut);
            if (w->abort)
                goto out;
            if (consider(k, v, ch->mv, beta)) {
                if (limited && order_quiet(ch->sign))
                    order_cut(w, w->ply - 1, 1 - sow_pos_to_move(&ch->q), ch->mv, cdepth + 1);
                goto out;
            }
            if (pass == 0 && j == 0 && !leaves)
                key_kids(s, k, 1); /* no cut from the first: likely an all node */
            if (v > alpha)
                alpha = v;
        }
    }
out:
    if (par)
        busy_unmark(s, key);
}

/* The node's table entry, or for a path-dependent node (h set: cycles) its
 * worker's hint, whose move goes first (the table's entry, if any, is
 * path-free, so only its move serves). A path-free node's entry, deep
 * enough, narrows the window (*alpha, *beta); true with *v if it decides
 * the node. An entry shallower than GUESS_MOVE_DRAFT gives an exact node
 * nothing, not even its move. */
static inline bool table_read(worker *w, tt_key key, const hint *h, uint64_t fold, int depth,
                              int *alpha, int *beta, sow_move *ttmove, int *v)
{
    sow_search *s = w->s;
    tt_data d;
    w->probes++;
    if (h && h->key == fold && h->move != TT_NO_MOVE) {
        *ttmove = h->move;
        w->hits++;
        return false;
    }
    if (!tt_probe(&s->tt, key, &d))
        return false;
    w->hits++;
    if (d.draft < GUESS_MOVE_DRAFT && depth == TT_DRAFT_EXACT)
        return false;
    *ttmove = d.move;
    if (h || d.draft < depth)
        return false;
    if (d.draft != TT_DRAFT_EXACT || !s->key.exact)
        w->inexact++;
    if (d.lower >= *beta || d.lower == d.upper) {
        *v = d.lower;
        return true;
    }
    if (d.upper <= *alpha) {
        *v = d.upper;
        return true;
    }
    if (d.lower > *alpha)
        *alpha = d.lower;
    if (d.upper < *beta)
        *beta = d.upper;
    return false;
}

/* Searches the node's ordered children one ply down (search_kids); false
 * if stopped, or past the longest path (SOW_E_LIMIT). */
static inline bool descend(worker *w, const sow_pos *p, kids *k, tt_key key, int S, int alpha,
                           int beta, int cdepth, bool cut)
{
    if (w->ply >= MAX_PLY) {
        search_fail(w->s, SOW_E_LIMIT);
        w->abort = true;
        return false;
    }
    if (w->g->cycles)
        w->path[w->ply] = *p;
    w->ply++;
    if (w->ply > w->seldepth)
        w->seldepth = w->ply;
    search_kids(w, k, key, S, alpha, beta, cdepth, cut);
    w->ply--;
    return !w->abort;
}

/* Stores a searched node's fail-soft result k->best, searched in the
 * window (alpha0, beta) within its seeds' bounds [-hi, hi]: best >= beta
 * is a lower bound, best <= alpha0 an upper bound, anything between is
 * exact. A path-dependent node (h) keeps only its move, in its worker's
 * hint. */
static inline void store(worker *w, tt_key key, hint *h, uint64_t fold, const kids *k, int alpha0,
                         int beta, int hi, int draft, uint64_t cost)
{
    int best = k->best, lower = -hi, upper = hi;
    if (best >= beta)
        lower = best;
    else if (best <= alpha0)
        upper = best;
    else
        lower = upper = best;
    w->stores++;
    if (h) {
        h->key = fold;
        h->move = k->bestmove;
    } else
        tt_store(&w->s->tt, key, lower, upper, k->bestmove, draft, cost);
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
    if (s->c.use_oracle && S <= s->oracle.max_seeds) {
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

    sow_move ttmove = TT_NO_MOVE;
    const uint64_t inexact0 = w->inexact;
    const uint64_t fold = anc ? tt_fold(key) : 0; /* hints only */
    hint *h = anc ? &w->hints[tt_mix(fold) >> (64 - HINT_BITS)] : NULL;
    int v;
    if (table_read(w, key, h, fold, depth, &alpha, &beta, &ttmove, &v))
        return v;
    /* Reverse futility pruning (the analysis only: order_limited): so far
     * above beta that a few plies will not bring it back, the node takes
     * its cut-off unsearched, counted inexact like a horizon leaf so that
     * nothing built on it is labelled exact. Kept on matches at equal
     * nodes (results/strength.md, "Reverse futility pruning"). */
    if (depth <= RFP_DEPTH && !anc && order_limited(s, depth)) {
        int m = RFP_MARGIN * s->g->score_scale * depth;
        int e = guess(s, p);
        if (e - m >= beta) {
            w->inexact++;
            return e - m > hi ? hi : e - m;
        }
    }
    const int alpha0 = alpha;

    kids k;
    int cdepth = depth == TT_DRAFT_EXACT ? depth : depth - 1;
    if (expand(w, p, &k, alpha, beta, ttmove, !cut, order_limited(s, depth), cdepth == 0) ||
        (s->c.use_oracle && score_oracle(w, &k, beta)))
        return k.best;
    if (k.best > alpha)
        alpha = k.best;
    if (!anc && S >= s->etc_min && depth == TT_DRAFT_EXACT && etc(w, &k, key, beta, hi, depth, &v))
        return v;
    order(&k);
    if (!descend(w, p, &k, key, S, alpha, beta, cdepth, cut))
        return 0;
    int draft = clean_draft(s, depth, w->inexact == inexact0);
    store(w, key, h, fold, &k, alpha0, beta, hi, draft, w->nodes - nodes0);
    return k.best;
}

/* ---- a worker at a node -------------------------------------------------------- */

int search_at(worker *w, const sow_pos *anc, int nanc, const sow_pos *x, int alpha, int beta,
              int depth)
{
    const sow_game *g = w->g;
    bool rep, above = g->cycles && same_stores_above(anc, nanc, x, &rep);
    w->abort = false;
    w->ply = nanc;
    if (g->cycles && nanc > 0)
        memcpy(w->path, anc, (size_t)nanc * sizeof *anc);
    return node(w, x, sow_i_seeds_on_board(g, x), key_of(&w->s->key, x), above, alpha, beta, depth,
                false);
}

void search_publish(worker *w)
{
    atomic_fetch_add_explicit(&w->s->c.nodes, w->nodes - w->published, memory_order_relaxed);
    w->published = w->nodes;
}
