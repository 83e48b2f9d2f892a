/* sow/units.h - a solve split into work units, the way the checkers proof
 * was organised (Schaeffer et al., 2007), so that it can outlive a process
 * (sow/ledger.h keeps the answers).
 *
 * The frontier: every line of play of exactly `depth` plies from the root
 * (an extra turn is a ply too), or shorter where the game ends. Each unit
 * is one bounded question about one frontier node: "is its score at least
 * t?" (sow_search_test), answered fail-soft: a lower or an upper bound on
 * the node's score. The manager runs MTD(f) at the root over the tree
 * above the frontier: each null-window test walks the tree as alpha-beta
 * would, children that may still reach the test first, and cuts off as
 * soon as a child decides its node, so only the questions that still
 * matter are asked. Every answer narrows the bounds of its node, which are
 * propagated by minimax to the root; a question that the bounds already
 * decide is never asked. The units of one solve share one transposition
 * table (entries are exact: reuse across units is sound).
 *
 * Several questions in flight (sow_units_solve_pool, e.g. MPI workers,
 * sow/units_mpi.h; and in one process with several threads, one unit a
 * thread): the walk goes on past a question still unanswered as
 * if it will not cut off and hands out the next ones alpha-beta would
 * ask, up to the pool's slots: at a node its guess expects to fail (an
 * all-node: every child is needed) at once, at one expected to cut only
 * once an elder brother has failed (young brothers wait, as in YBWC).
 * Each answer narrows the bounds and the walk starts again from the root.
 * With one slot it asks exactly the sequential walk's questions.
 *
 * Splitting: a unit given a node budget (sow_units_goal.split_nodes) that
 * passes it gives up, and its node leaves the frontier for its children,
 * each a unit of its own: no question grows beyond what one run can
 * answer, and what a long solve has done is recorded as it goes. Its
 * answers so far stay the node's own bounds, intersected with what its
 * children's minimax proves.
 *
 * Resuming: the answers are facts about positions, whatever the order
 * they were found in, so a solve given the answers of an earlier run
 * starts from its bounds and asks only what they leave open.
 *
 * A unit's node is identified by its line of moves from the root, not by
 * its position: in a game that cycles (Toguz) a node's value depends on
 * the positions above it.
 */
#ifndef SOW_UNITS_H
#define SOW_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/plan.h"
#include "sow/position.h"
#include "sow/progress.h"
#include "sow/rules.h"

/* The deepest frontier one asks for (plies): 6 moves a ply make 6^12
 * lines beyond. */
#define SOW_UNITS_MAX_FRONTIER 12
/* The longest line of a unit: a frontier node split (below) is searched by
 * its children's units, theirs by their children's, down to this depth,
 * where a unit has no budget. */
#define SOW_UNITS_MAX_DEPTH 24

/* One question and its answer. Scores are score units (sow/rules.h), the
 * frontier node's mover's view. */
typedef struct sow_unit {
    sow_move line[SOW_UNITS_MAX_DEPTH]; /* the moves from the root */
    int nline;
    int threshold;        /* the question: score >= threshold? */
    uint64_t max_nodes;   /* its budget (0: none): past it, it is not answered
                             but split (below) */
    bool done;            /* answered (else asked and not answered: in flight) */
    bool split;           /* not answered: it passed max_nodes, so its node is
                             searched by its children's units from now on */
    int bound;            /* the answer: score >= bound if bound >= threshold,
                             else score <= bound */
    uint64_t nodes;       /* search nodes, all threads */
    double cpu_seconds;   /* process CPU time while it was solved */
    double seconds;       /* wall-clock */
    int worker;           /* who solved it: 0 the manager's process, else
                             its MPI rank */
    int64_t ticket;       /* the journal's handle on the question (0: none) */
} sow_unit;

/* Where the questions and answers go (e.g. the ledger); every member may
 * be NULL. An error from a callback stops the solve with that error.
 * `asked` may set u->ticket, which `answered` and `dropped` then get back:
 * several questions can be in flight at once. */
typedef struct sow_units_journal {
    sow_err (*asked)(void *ctx, sow_unit *u);          /* once handed out */
    sow_err (*answered)(void *ctx, const sow_unit *u); /* durable on return */
    void *ctx;
    /* Asked, and will not be answered: its worker gave it back (the solve
     * ended first, or was stopped). */
    sow_err (*dropped)(void *ctx, const sow_unit *u);
    /* Asked, and passed its budget (u->split): its node is split, its
     * children the frontier below it, durable on return (a later run
     * given it back as a known unit with split set splits the node too).
     * NULL: the split is not kept, and a later run asks the node again. */
    sow_err (*split)(void *ctx, const sow_unit *u);
} sow_units_journal;

/* Progress, after each answered unit (calling thread). */
typedef struct sow_units_progress {
    int lower, upper;       /* proven bounds on the root score */
    uint64_t units;         /* answered in this run */
    uint64_t nodes;
    double cpu_seconds, seconds;
} sow_units_progress;

typedef struct sow_units_callbacks {
    void (*progress)(void *ctx, const sow_units_progress *pr);
    /* The search's reports inside a unit, and the database's. */
    void (*search_progress)(void *ctx, const sow_search_progress *pr);
    sow_progress_fn db_progress;
    void *ctx;
    double progress_every;  /* seconds between search reports (<= 0: 1 s) */
} sow_units_callbacks;

/* What a solve asks of the root. NULL (or test false): its exact score, by
 * MTD(f). test: only "is the root's score at least `threshold`?" (score
 * units), one null-window test at the root split into units: a bound
 * proven (e.g. a published one, or the first step of a campaign) at a
 * fraction of the exact solve's cost; its answers are the same facts, so
 * a later exact solve from the same ledger reuses them. */
typedef struct sow_units_goal {
    bool test;
    int threshold;
    /* How the questions are asked: each unit's node budget (0: none). A
     * unit past it gives up and its node is split: its children join the
     * frontier, each a unit of its own with the same budget, so no
     * question outgrows a run (doc/ledger.md, "Splitting a unit"). A unit
     * SOW_UNITS_MAX_DEPTH plies deep has no budget. */
    uint64_t split_nodes;
} sow_units_goal;

typedef struct sow_units_result {
    bool exact;              /* score, value and outcome hold (SOW_OK; with
                                a test goal only if the bounds met) */
    int score, value;        /* once solved (SOW_OK and exact) */
    sow_outcome outcome;
    bool has_best;           /* best holds: */
    sow_move best;           /* a best root move (exact), or one that proves
                                the lower bound (a test that held) */
    int lower, upper;        /* proven bounds on the root score, always */
    uint64_t units;          /* answered in this run */
    uint64_t reused;         /* answers given (an earlier run's) */
    uint64_t frontier;       /* frontier nodes (questions are about these),
                                splits included */
    uint64_t splits;         /* units split in this run */
    uint64_t nodes;          /* this run */
    double cpu_seconds;      /* this run: units (every worker's) and the
                                ordering searches above the frontier */
    double manager_cpu;      /* this process's CPU outside its own searches
                                (the walk, the journal, the transport) */
    double seconds;          /* this run, wall-clock, database included */
    int db_seeds;            /* the database used; 0: none */
    int workers_lost;        /* MPI workers found dead (sow/units_mpi.h) */
} sow_units_result;

/* Solves `root` (a position of g, not in a pie opening) by work units over
 * the frontier at `depth` plies (1..SOW_UNITS_MAX_FRONTIER), with the plan's
 * threads (several: that many units at once, one thread each, over the
 * one table), table and database (from sow_plan_make for this g and root; its
 * trial is not run: a decomposed solve is a long one). known[0..nknown):
 * answers and splits of earlier runs of this solve (a split one's node is
 * split again, parents first; an answer is applied to the node at the end
 * of its line wherever it is in the tree; units neither done nor split,
 * or whose line is not in the tree, are ignored). Every question goes to j->asked and
 * its answer to j->answered at once. Returns SOW_OK (out->score exact),
 * SOW_E_INTERRUPTED (plan->limits.stop or time_limit; out->lower/upper
 * hold what is proven), SOW_E_ARG (depth, pie opening, a game over),
 * the database's and the search's errors and the journal's, with why
 * saying what went wrong (sow/error.h, "Messages"). */
sow_err sow_units_solve(const sow_game *g, const sow_pos *root, const sow_plan *plan, int depth,
                        const sow_unit *known, size_t nknown, const sow_units_journal *j,
                        const sow_units_callbacks *cb, sow_units_result *out, char *why,
                        size_t why_size);

/* Where the questions go when several may be in flight (MPI workers).
 * Called from the solving thread only. */
typedef struct sow_units_pool {
    int slots;    /* questions in flight at once, >= 1; read before each
                     question, so a pool may lower it (a worker died) */
    /* Hands question u out (u->line, nline, threshold, max_nodes); sets
     * u->worker. */
    sow_err (*submit)(void *ctx, sow_unit *u);
    /* Blocks until a question handed out comes back into *u: its line,
     * threshold and worker, and either its answer (done), or split (it
     * passed u->max_nodes: its node is split), or neither (given back
     * unanswered: after cancel, or its worker died; it is asked again if it
     * still matters). An error stops the solve. */
    sow_err (*wait)(void *ctx, sow_unit *u);
    /* The solve is over or stopped: abandon the questions in flight (each
     * still comes back through wait, answered or not). */
    void (*cancel)(void *ctx);
    void *ctx;
} sow_units_pool;

/* sow_units_solve with the questions answered by `pool` (NULL: this
 * process, one at a time, or one a thread with the plan's threads, which
 * is sow_units_solve) and what is asked of the root set by `goal` (NULL:
 * the exact score). With a test goal SOW_OK means the bounds decide it:
 * out->lower >= threshold (the test held) or out->upper < threshold.
 * This process still runs the ordering searches above the frontier with
 * the plan's table and database. */
sow_err sow_units_solve_pool(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             int depth, const sow_unit *known, size_t nknown,
                             const sow_units_goal *goal, const sow_units_pool *pool,
                             const sow_units_journal *j,
                             const sow_units_callbacks *cb, sow_units_result *out, char *why,
                             size_t why_size);

/* What answers one process gives: a search with the plan's threads and
 * table, and its database (opened, or built and saved into
 * plan->limits.db_dir). cb: progress of the database and of each unit's
 * search (may be NULL). SOW_E_NOMEM and the database's errors, with a
 * one-line why. */
typedef struct sow_units_worker sow_units_worker;
sow_err sow_units_worker_new(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             const sow_units_callbacks *cb, sow_units_worker **out, char *why,
                             size_t why_size);
/* Answers u (u->line from the root, u->threshold, u->max_nodes): bound,
 * nodes, CPU (this process's) and wall seconds, done; or SOW_OK with split
 * set and not done, past its budget. Errors as sow_search_test, and
 * SOW_E_MOVE for a line that is not legal play from the root; the plan's
 * stop flag and time limit (counted from sow_units_worker_new) hold. Not
 * reentrant on one worker. */
sow_err sow_units_worker_answer(sow_units_worker *w, sow_unit *u);
/* The exact score of the node at the end of u->line (legal play from the
 * root, as for sow_units_worker_answer), for estimating what units cost
 * (scripts/predict-66): MTD(f) of null-window tests from a depth-4 guess,
 * the table cleared first so that the cost does not depend on what was
 * solved before. max_nodes > 0: no new test once that many nodes are spent
 * (a test under way is not cut; the plan's stop flag is). Returns SOW_OK
 * with *lower == *upper == u->bound the score (the node's mover's view),
 * or SOW_E_INTERRUPTED (budget or stop) with the bounds proven so far;
 * u->nodes, cpu_seconds, seconds are what it spent. Errors as
 * sow_units_worker_answer. */
sow_err sow_units_worker_value(sow_units_worker *w, sow_unit *u, uint64_t max_nodes, int *lower,
                               int *upper);
void sow_units_worker_free(sow_units_worker *w);

/* What answers prove about the root without solving anything: bounds on
 * its score (minimax of the frontier's bounds), how many frontier nodes
 * there are (the known splits' children included) and how many are exact.
 * SOW_E_ARG for a bad depth; SOW_E_NOMEM. Thread-safe. */
typedef struct sow_units_bounds {
    int lower, upper;
    uint64_t frontier, exact;
} sow_units_bounds;
sow_err sow_units_prove(const sow_game *g, const sow_pos *root, int depth,
                        const sow_unit *known, size_t nknown, sow_units_bounds *out);

/* The line of a unit as text ("3,1,6"), at least 4 * SOW_UNITS_MAX_DEPTH
 * bytes; and back (SOW_E_MOVE on bad syntax, SOW_E_LIMIT if too long). */
#define SOW_UNITS_LINE_TEXT (4 * SOW_UNITS_MAX_DEPTH + 1)
void sow_units_line_format(const sow_unit *u, char *buf, size_t size);
sow_err sow_units_line_parse(const sow_game *g, const char *text, sow_unit *u);

#endif
