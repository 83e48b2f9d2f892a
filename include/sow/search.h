/* sow/search.h - the exact solver: parallel alpha-beta driven by MTD(f),
 * with a shared transposition table and optional endgame-database probes.
 *
 * What is searched. A score (sow/rules.h) splits into the store difference
 * already banked and the *future gain* still to come:
 *     score = (own store - opp store) * score_scale + future.
 * In every game here the future gain does not depend on the stores (they
 * are never sown from), so the search works on the future gain, keys its
 * transposition table on the pits and tuzdiks only (stores and side-to-move flag
 * masked out: the rules are symmetric; an exact code, never a hash: see
 * sow_search_exact), and bounds it by the seeds left on
 * the board: |future| <= seeds_on_board * scale (+1 for a tie-break).
 *
 * Cycles (Toguz). A position repeated on the current search path scores as
 * perpetual play (sow_perpetual_score: future gain 0). The value of a node
 * then depends on its ancestors, but only on those with the same stores:
 * stores never decrease, so a position below a node can only equal an
 * ancestor if no store changed in between. A node with no such ancestor
 * on the path (just after a capture, or the root) has a path-free value:
 * only those take bounds from, and give bounds to, the transposition
 * table; the others use it for move ordering only (doc/search.md,
 * "Cycles"). Each root move's child is searched as a root of its own, so
 * a move scores what it banks plus the value of the position it leads to,
 * and the value, every move's score and the principal variation equal
 * sow_ref_solve's (the endless game, endless play worth 0 future: the
 * first repetition and endless play give the same value at a search's
 * root, doc/search.md).
 *
 * Threads (OpenMP), ABDADA: every thread searches the same probe over the
 * shared table; a node far enough above the database marks itself busy
 * while it searches, and a thread defers a younger brother that another is
 * searching to a second pass; the first thread to finish gives the result.
 * Root moves' exact values are solved one per thread, threads left idle
 * joining the moves still running. Every completed null-window search is
 * exact for its window, whatever the shared table holds, so the value and
 * every root move's value are identical for any thread count (node counts
 * differ).
 */
#ifndef SOW_SEARCH_H
#define SOW_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/solution.h"

/* Where an oracle's probe reads, kept between its two halves (locate,
 * read below); opaque to the search, copied in and out by the oracle. */
typedef struct sow_oracle_loc {
    uint64_t w[2];
} sow_oracle_loc;

/* An exact oracle for positions with few seeds left, e.g. an endgame
 * database (the CLI wires sow_db in; the search does not depend on it).
 * `probe` returns the future gain (score units, see above) for the player to
 * move of any non-finished position whose pits hold at most `max_seeds`
 * seeds in all, and max_seeds - j * g->level_step of them (sow_game: the
 * seed counts a board of the game reaches from max_seeds; a search whose
 * root reaches none of them does not use the oracle). It must be
 * thread-safe. */
typedef struct sow_oracle {
    int max_seeds;
    int (*probe)(const void *ctx, const sow_pos *p);
    const void *ctx;
    /* Optional (may be NULL): starts loading what probe(p) will read. A
     * node prefetches all its children's entries before probing any, so
     * their cache and TLB misses overlap instead of adding up. */
    void (*prefetch)(const void *ctx, const sow_pos *p);
    /* Optional (may be NULL): where probe(p) reads, a signed byte holding
     * the future gain. If set, a node locates each child's entry once,
     * prefetches it and reads it later: one call and one index computation
     * instead of two (prefetch is then not used). */
    const int8_t *(*entry)(const void *ctx, const sow_pos *p);
    /* Optional (both or neither; entry, if set, goes first): the probe in
     * two halves, for an oracle with no byte to point at (packed database
     * levels). locate(p) finds where probe(p) reads, starts loading it and
     * keeps the place in *loc; read(loc) reads it later: one index
     * computation a child instead of prefetch's and probe's two. */
    void (*locate)(const void *ctx, const sow_pos *p, sow_oracle_loc *loc);
    int (*read)(const void *ctx, const sow_oracle_loc *loc);
} sow_oracle;

/* Progress report, passed to the progress callback from the search's main
 * thread (never concurrently). */
typedef struct sow_search_progress {
    /* "order" (depth-limited iterations for move ordering), "value" (the
     * root's MTD(f)), "moves" (each root move, or with value_only the search
     * for a move achieving the value), "pv" (the principal variation),
     * "depth" (sow_search_depth), "unit" (sow_search_test) */
    const char *phase;
    int lower, upper;   /* proven bounds on the score being solved, mover's view */
    int test;           /* the current null-window test value */
    int move, nmoves;   /* "moves": which root move (0-based) of how many */
    uint64_t nodes;     /* all threads, since the solve began */
    double seconds;     /* since the solve began */
} sow_search_progress;

typedef struct sow_search_options {
    int threads;             /* 1 .. SOW_MAX_THREADS (OpenMP threads) */
    size_t tt_mb;            /* transposition table size, >= 1 MB */
    const sow_oracle *oracle;/* NULL: no database */
    /* `p` lies within South's opening turn of a game with the pie rule
     * (see sow_ref_solve): root moves score max over the completions t of
     * South's turn of -|v(t)|. */
    bool pie_opening;
    /* Only the root value: move_scores of non-best moves are then upper
     * bounds (move_exact false). Much cheaper than every move's value. */
    bool value_only;
    int pv_max;              /* longest principal variation to extract (0: none) */
    void (*progress)(void *ctx, const sow_search_progress *pr);
    void *progress_ctx;
    double progress_every;   /* seconds between reports (<= 0: 1 s) */
    double time_limit;       /* > 0: give up after this many seconds (SOW_E_INTERRUPTED) */
    /* If not NULL: once *stop is non-zero (e.g. set by a SIGINT handler),
     * the search stops within about a millisecond with SOW_E_INTERRUPTED. */
    const sow_stop_flag *stop;
} sow_search_options;

#define SOW_PV_MAX 512

/* The most threads any sow command or library call takes. */
#define SOW_MAX_THREADS 1024

typedef struct sow_search_result {
    sow_solution sol;                 /* value, outcome, per-move scores, best, nodes */
    bool move_exact[SOW_MAX_MOVES];   /* sol.move_scores[k] is exact (else an upper bound) */
    int pv_len;
    sow_move pv[SOW_PV_MAX];          /* a principal variation from the root */
    int mtd_probes;                   /* null-window searches of the root value */
    uint64_t tt_stores, tt_probes, tt_hits;
    uint64_t oracle_probes;
    double seconds;                   /* wall-clock, the whole call */
    double seconds_value;             /* wall-clock until the root value was known */
    /* Proven bounds on the root score (score units, the mover's view),
     * filled on every return: equal to sol.score once the value is known,
     * and on SOW_E_INTERRUPTED what the search had proven when it stopped
     * (sol.best is then the best move found so far, -1 if none). */
    int lower, upper;
} sow_search_result;

/* A solver: a transposition table and its threads' state, for one game.
 * Reusable for many positions of that game (the table keeps what it
 * learnt: entries are exact, so reuse is sound). */
typedef struct sow_search sow_search;

/* Creates a solver for game `g` (which must outlive it). SOW_E_ARG for
 * threads < 1 or tt_mb < 1; SOW_E_NOMEM if the table cannot be allocated.
 * The options are copied. */
sow_err sow_search_new(const sow_game *g, const sow_search_options *opt, sow_search **out);
void sow_search_free(sow_search *s);

/* Replaces the oracle (NULL: none); the table stays, its entries are exact
 * whatever the oracle. */
void sow_search_set_oracle(sow_search *s, const sow_oracle *oracle);

/* Sets options.time_limit for the next calls. */
void sow_search_set_time_limit(sow_search *s, double seconds);

/* Sets the options that belong to one question, for the next calls:
 * pie_opening, value_only, pv_max, progress (with its ctx and every),
 * time_limit and stop, from *opt (its threads, tt_mb and oracle are not
 * read: they belong to the solver). The table keeps what it learnt: its
 * entries are exact whatever the question. SOW_E_ARG for pv_max < 0.
 * Not while a call runs on s. */
sow_err sow_search_set_question(sow_search *s, const sow_search_options *opt);

/* Forgets every table entry (e.g. for reproducible node counts). */
void sow_search_clear(sow_search *s);

/* Can the exact solver take position `p` of game `g`? Its table keys are
 * an exact code of the pits and tuzdiks (src/search/key.h), which must fit
 * 64 bits for every board with as many seeds as p has: true for every
 * board the solver can finish (Kalah(6,6): 2^47 codes), false for the
 * largest (Toguz 9x9: ~2^87) and for positions given more seeds than that.
 * Thread-safe. */
bool sow_search_exact(const sow_game *g, const sow_pos *p);

/* Solves `p` exactly: value, outcome, every root move's score (unless
 * value_only), a best move, a principal variation. SOW_E_POSITION if `p`
 * is not a position of the game, SOW_E_ARG for pie_opening when `p` is not
 * South-to-move in a pie game, SOW_E_LIMIT if p has no exact table key
 * (sow_search_exact false: the solver refuses rather than trust a hash)
 * or a line is longer than the search stack (1024 plies), SOW_E_INTERRUPTED past the time limit or on
 * *options.stop (out->lower/upper and sol.best say what is known). Not
 * reentrant on one sow_search. */
sow_err sow_search_solve(sow_search *s, const sow_pos *p, sow_search_result *out);

/* One bounded question, the work unit of a decomposed solve (sow/units.h):
 * is the score of line[n-1] (score units, its mover's view, stores
 * included) at least t? line[0..n-1) are the positions above it from the
 * solve's root: a game that cycles scores a repetition of one of them as
 * perpetual play, so the answer is the one a search from line[0] would
 * give at that node (other games ignore them). *bound is the fail-soft
 * answer: *bound >= t means score >= *bound; *bound < t means score <=
 * *bound. *nodes: the nodes this question took (all threads). One
 * null-window search on the solver's threads and table, which keeps what
 * it learnt for the next question. max_nodes > 0 is a budget: past it the
 * test gives up with SOW_E_BUDGET (what it stored stays in the table).
 * Errors as sow_search_solve (SOW_E_ARG: n outside 1..SOW_PV_MAX);
 * progress reports have phase "unit". Not reentrant on one sow_search. */
sow_err sow_search_test(sow_search *s, const sow_pos *line, int n, int t, uint64_t max_nodes,
                        int *bound, uint64_t *nodes);

/* Tests side by side, one thread each (the work units of sow/units.h
 * answered at once over one table): between sow_search_tests_begin and
 * sow_search_tests_end, sow_search_test_on(s, k, ...) is sow_search_test
 * on worker k alone (0 <= k < threads), and calls for distinct k may run
 * at once from different threads; no other call on s may. begin fixes the
 * table's key for positions of at most root's seeds on the board (the
 * tests must be below it) and resets the node counts; it fails as
 * sow_search_test would on root. Workers report no progress: the caller
 * reads sow_search_tests_nodes (every worker's nodes since begin) from
 * its own thread. An error in one test (or *options.stop) stops every
 * test under way, as does sow_search_tests_cancel (any thread), after
 * which every test returns SOW_E_INTERRUPTED until end. A test past its
 * max_nodes (worker k's own nodes) gives up alone, with SOW_E_BUDGET. */
sow_err sow_search_tests_begin(sow_search *s, const sow_pos *root);
sow_err sow_search_test_on(sow_search *s, int k, const sow_pos *line, int n, int t,
                           uint64_t max_nodes, int *bound, uint64_t *nodes);
void sow_search_tests_cancel(sow_search *s);
uint64_t sow_search_tests_nodes(const sow_search *s);
void sow_search_tests_end(sow_search *s);

/* Fixed-depth search (benchmarks): depth-limited alpha-beta with iterative
 * deepening, a leaf scored as the store difference (future gain 0).
 * `*score` is the depth-`depth` minimax score for the mover (exact score if
 * the whole game fits in the depth), `*nodes` the nodes visited. Runs on
 * the solver's threads; with one thread and a cleared table the node count
 * is deterministic. The oracle is not used. For a position without an
 * exact key (sow_search_exact false) the table is keyed by a 64-bit hash of the
 * position instead: a collision could change a depth-limited score, a
 * benchmark's heuristic, never a solved value. */
sow_err sow_search_depth(sow_search *s, const sow_pos *p, int depth, int *score,
                         uint64_t *nodes);

/* sow_search_depth of ps[0..n) (each to depths[i]; scores[i] as *score),
 * side by side: each thread takes the next position and searches it alone
 * (many small searches, where one each on every thread would spend more
 * in waking the team than in searching: the ordering searches of
 * sow/units.h). *nodes: all of them. Errors as sow_search_depth; on an
 * error the scores are not set. */
sow_err sow_search_depths(sow_search *s, const sow_pos *ps, const int *depths, int n, int *scores,
                          uint64_t *nodes);

/* Bytes a search allocates per thread beside its table (the thread's
 * path and, for games with cycles, its move hints). */
size_t sow_search_thread_bytes(const sow_game *g);

#endif
