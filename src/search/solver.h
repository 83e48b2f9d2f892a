/* solver.h - what the exact solver's files share (sow/search.h says what
 * it computes; internal.h is the part the analysis driver sees).
 *
 * Files, bottom up:
 *   node.c        node(): fail-soft negamax alpha-beta on the future gain,
 *                 one worker, shared table, ABDADA's deferrals; the only
 *                 recursive part. search_at() puts a worker at a node.
 *   probe.c       search_probe(): one search of a node by every thread, the
 *                 first to finish gives the result; search_mtd(): MTD(f) by
 *                 every thread or by one worker
 *   root.c        sow_search_solve: the root value, pie rule, best move, PV
 *   root_moves.c  every root move's value: one after the other, or side by
 *                 side on the threads
 *   questions.c   bounded tests (sow_search_test, side by side) and the
 *                 depth-limited searches (sow_search_depth, _depths)
 *   solver.c      the solver's life (new, free, clear, oracle) and a call's:
 *                 search_call_begin, the one place a call's state is reset
 *   hooks.c       the analysis driver's access (internal.h)
 *
 * State. struct sow_search holds what lasts (table, workers, options,
 * oracle); a call's state (clock, progress, flags, shared counters) is its
 * search_call, which every entry point resets in search_call_begin, so
 * nothing a stopped call left behind reaches the next.
 */
#ifndef SOW_SEARCH_SOLVER_H
#define SOW_SEARCH_SOLVER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "internal.h"
#include "key.h"
#include "mem.h"
#include "rules_inline.h"
#include "tt.h"
#include "sow/search.h"

/* Longest search path. Each level of node() keeps its children on the stack
 * (about 1 KB), so 1024 plies stay well inside a thread's default stack. */
#define MAX_PLY 1024
#define INF 30000

/* ABDADA's table of the nodes being searched (node.c): 2^BUSY_BITS slots
 * of one key each, 64 KB, indexed by the mixed key's high bits. */
#define BUSY_BITS 13

/* A path-dependent node's (cycles) best move, kept by the worker that
 * found it. Its best move depends on the path, and threads on different
 * paths writing one shared entry spoil each other's order where nothing
 * but the order prunes (doc/experiments.md, "Cycles: per-worker hints").
 * The table then keeps only path-free entries. */
#define HINT_BITS 16 /* 1 MB a worker */
typedef struct hint {
    uint64_t key;
    sow_move move;
} hint;

/* Distinct moves (sow/rules.h: a pit in bits 0-3, a Toguz claim in bit 4). */
#define ORDER_MOVES 32

typedef struct worker {
    struct sow_search *s;
    const sow_game *g;
    int id;
    bool abort;
    _Atomic int *tstop; /* the task's stop flag, if any (root moves phase) */
    uint64_t solo_end;  /* > 0: a probe on this worker alone stops (abort,
                           no error) once nodes reaches it (probe.c) */
    uint64_t nodes, published;
    uint64_t probes, hits, stores, oprobes;
    /* Results that rest on a heuristic: horizon leaves and, when the table
     * is not exact (sow_analyse), bounds read at a limited draft or under
     * a hashed key. A node whose count did not move is exactly solved. */
    uint64_t inexact;
    int ply;
    int extra;    /* free extra turns taken on the current path (free_extra) */
    int seldepth; /* the deepest ply reached since the call began */
    sow_pos path[MAX_PLY]; /* the search path, kept only for games with cycles */
    hint *hints;           /* cycles only: path-dependent nodes' moves, 1 << HINT_BITS */
    /* Depth-limited searches only (order.h): the quiet moves that last cut
     * off at each ply, and per side and move how much their cut-offs
     * saved. Cleared at each analysis's start. */
    sow_move killer[MAX_PLY + 1][2];
    uint16_t history[2][ORDER_MOVES];
} worker;

/* A probe runs on one thread up to this many nodes before it wakes the
 * others (probe.c): most probes of a small board end sooner, and a team
 * that searches the same small tree side by side spends twice the CPU for
 * little gain (doc/experiments.md, "One thread first"). */
#define SOLO_NODES ((uint64_t)1 << 16)

/* The extra turns a path of the solver's first-guess searches takes
 * without counting a ply (search_call.free_extra): 3, 4 and 6 measured,
 * 4 best on the boards of over a million nodes (doc/experiments.md, "Free
 * extra turns in the first guesses"). */
#define GUESS_FREE_EXTRA 4

/* One call's state: reset by search_call_begin, at the start of every
 * entry point (and by sow_search_tests_begin and search_analyse_begin for
 * the calls they open). */
typedef struct search_call {
    bool use_oracle; /* the solver's oracle, off for depth-limited searches */
    _Atomic int stop;
    _Atomic int err;
    _Atomic uint64_t nodes;
    _Atomic int moves_done; /* root moves solved, parallel moves phase */
    /* ABDADA: nodes with at least defer_min seeds mark themselves busy
     * while a parallel search runs, and defer brothers others search. */
    bool abdada;
    bool moves_parallel;
    /* Tests side by side (sow_search_tests_begin): no worker reports
     * progress (the caller's thread does) and errors stop them all. */
    bool side_by_side;
    int tests_seeds; /* the root's seeds: the key the table is using */
    /* search_probe's result: the first thread to finish claims have_result
     * with a compare-and-swap, then writes result (read after the region's
     * join). An atomic, not `omp critical`: a named critical section is
     * global to the process, and sow serve runs solves from several
     * threads. */
    int result;
    _Atomic bool have_result;
    /* Where the driver is, for progress reports (main thread only). */
    sow_search_progress pr;
    double t0, last_report;
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
    /* The node limit is a test's budget (sow_search_test's max_nodes): it
     * ends the call with SOW_E_BUDGET rather than SOW_E_INTERRUPTED. */
    bool node_budget;
    /* sow_analyse only: killers, history and reductions (order.h); the
     * other depth-limited searches (sow_search_depth, _depths) keep the
     * exact solver's order. */
    bool heuristics;
    bool lmr_deep; /* with heuristics: order_lmr's deeper reductions */
    /* The solver's own depth-limited searches (its first guesses and the
     * moves they leave in the table: search_guess): how many
     * extra turns a path may take without counting a ply (node.c,
     * search_kids); 0 elsewhere, every move a ply. */
    int free_extra;
} search_call;

struct sow_search {
    const sow_game *g;
    sow_search_options opt;
    sow_oracle oracle;
    bool has_oracle;
    int tb;        /* 1 if the game has a tie-break: |future| <= seeds*scale + tb */
    int etc_min;   /* enhanced transposition cut-offs at nodes with >= this many seeds */
    int defer_min; /* ABDADA marks and defers nodes with >= this many seeds */
    uint64_t solo_nodes; /* a probe's budget on one thread (SOLO_NODES) */
    search_key key;
    int table_mode; /* the exact key kind of the table's entries (KEY_HASH: none yet) */
    tt tt;
    sow_huge map;   /* the table's memory */
    worker **w;
    /* ABDADA: keys of the nodes some thread is searching (node.c). */
    _Atomic uint64_t *busy;
    search_call c;
};

/* ---- positions ------------------------------------------------------------ */

static inline int level_of(const sow_pos *p)
{
    return p->b[SOW_B_STORE] + p->b[SOW_HALF + SOW_B_STORE];
}

/* What the move from p to its child q banks for p's mover; *sign is +1 if
 * p's mover moves again in q, else -1. The child's value for p's mover is
 * then banked + sign * future(q). */
static inline int banked(const sow_game *g, const sow_pos *p, const sow_pos *q, int *sign)
{
    *sign = sow_pos_to_move(q) == sow_pos_to_move(p) ? 1 : -1;
    return *sign * search_store_score(g, q) - search_store_score(g, p);
}

/* Future gain of a finished position for its mover. */
static inline int terminal_future(const sow_game *g, const sow_pos *p)
{
    return sow_i_terminal_score(g, p) - search_store_score(g, p);
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
static inline bool same_stores_above(const sow_pos *path, int n, const sow_pos *x, bool *rep)
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

/* A child of the root or of a PV node. */
typedef struct rchild {
    sow_pos q;
    int c0, sign;
} rchild;

static inline void make_child(const sow_game *g, const sow_pos *p, sow_move mv, rchild *c)
{
    c->q = *p;
    sow_i_make(g, &c->q, mv);
    c->c0 = banked(g, p, &c->q, &c->sign);
}

/* ---- node.c ----------------------------------------------------------------- */

/* Puts worker w at x, a node below anc[0..nanc), and searches it: window
 * (alpha, beta), `depth` as node()'s. w->abort if stopped. */
int search_at(worker *w, const sow_pos *anc, int nanc, const sow_pos *x, int alpha, int beta,
              int depth);

/* Adds w's nodes not yet counted to the call's total. */
void search_publish(worker *w);

/* Stops the call with error e (the first error stays). */
void search_fail(sow_search *s, sow_err e);

/* ---- probe.c ---------------------------------------------------------------- */

/* Searches x (not finished) below anc[0..nanc) on every thread (ABDADA).
 * Returns INF on error (the call's err). */
int search_probe(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int alpha,
                 int beta, int depth);

/* One of the solver's first-guess searches: x (a root of its own) to
 * `depth` plies, open window, GUESS_FREE_EXTRA extra turns a path free
 * (search_call.free_extra). Returns INF on error. */
int search_guess(sow_search *s, const sow_pos *x, int depth);

/* One MTD(f): what differs between its uses. */
typedef struct mtd_job {
    const sow_pos *x;      /* the node */
    const sow_pos *anc;    /* its path anc[0..nanc) */
    int nanc;
    int guess;             /* first guess of x's future gain */
    worker *w;             /* NULL: every thread (search_probe); else this worker alone */
    /* Progress (w == NULL only): the score shown is base + sign * future,
     * the root mover's view. */
    int base, sign;
    bool root;             /* x is the root: narrows the call's root_lower/upper */
    /* Bounds on x's future already proven (e.g. by the root's value
     * search), narrowed further by the seeds on x's board. */
    int lo, hi;
} mtd_job;

/* MTD(f): the exact future gain of j->x. Returns INF if stopped (error,
 * time limit or the task's stop flag); *probes counts its tests. */
int search_mtd(sow_search *s, const mtd_job *j, int *probes);

/* No bound known yet for an mtd_job's lo and hi. */
#define MTD_OPEN_LO (-INF)
#define MTD_OPEN_HI INF

/* MTD(f) of x as a root of its own (no ancestors) on every thread. */
int search_mtd_all(sow_search *s, const sow_pos *x, int guess, int base, int sign, int *probes,
                   bool root);

/* ---- root_moves.c ----------------------------------------------------------- */

/* Every root move's value (root p of future f) into out: each an MTD(f) on
 * every thread, one after the other (serial), or each move on one thread,
 * side by side (parallel). */
sow_err search_moves_serial(sow_search *s, const sow_pos *p, int f, sow_search_result *out);
sow_err search_moves_parallel(sow_search *s, const sow_pos *p, int f, sow_search_result *out);

/* ---- solver.c --------------------------------------------------------------- */

/* Starts a call: every part of its state reset (counters, flags, the
 * workers' stop marks, the clock, progress with `phase`). */
void search_call_begin(sow_search *s, const char *phase);

/* Picks the table's key for a search whose root has `seeds` seeds; true
 * if exact (key.h). */
bool search_key_use(sow_search *s, int seeds);
/* After search_call_begin, for a search whose root has `seeds` seeds: the
 * oracle is used unless the root never reaches its seed counts (the
 * oracle answers max_seeds - j * g->level_step only: sow_oracle). */
void search_oracle_root(sow_search *s, int seeds);

/* The error that stopped the call (SOW_E_LIMIT if none was set). */
sow_err search_stopped(const sow_search *s);

#endif
