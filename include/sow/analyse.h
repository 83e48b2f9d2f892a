/* sow/analyse.h - analysis of positions too big to solve: iterative
 * deepening alpha-beta with a heuristic evaluation at the horizon, on the
 * exact solver's node(), table, threads and oracle (sow/search.h), exact
 * as soon as a search proves its value.
 *
 * What is exact. A result is labelled exact only when nothing in it rests
 * on a guess: every line ended in a finished game, a repetition (Toguz:
 * perpetual play), the oracle, or a table bound that was itself proven.
 * The search counts the guesses (horizon leaves, bounds of a limited draft)
 * and stores a node's bounds as proven only when its subtree made none.
 * Boards whose positions have no exact 64-bit table key (Toguz 9x9,
 * Congkak 7x7: src/search/key.h) use a hashed key, where two positions may
 * share an entry: there nothing read from the table counts as proof, so
 * only lines that end without the table (game over, oracle) can make a
 * result exact.
 *
 * The evaluation. A guess of the future gain (sow/search.h: the final
 * margin minus the store difference) for the player to move, from terms
 * that read the game's rule fields, never its name. Each term is the
 * mover's minus the opponent's (the same term computed with the halves
 * swapped), so the evaluation of a position and of its mirror (the other
 * player to move on the same board) are opposite. Weights are in
 * hundredths of a seed:
 *   row        each seed in the player's own row, on games that sweep the
 *              rows to their owners at the end (sow_game.sweep): such seeds
 *              are partly hers already
 *   mobility   each pit she can sow from: fewer moves, fewer good ones,
 *              and an empty row ends the game
 *   extra      each move that earns an extra turn (the last seed in her
 *              store): a free tempo
 *   capture    each seed the best single move banks (captures, tuzdik
 *              claims, seeds sown into her store): the threat now on board
 *   tuzdik     each seed on the board while the player holds a tuzdik
 *              (sow_game.tuzdik): it banks every seed sown into it for the
 *              rest of the game, a share of the seeds still to be sown
 *   decided    a store holding more than half of all seeds (Toguz's 82 of
 *              162; any game whose stores only grow): the game is won
 * The weights were chosen by `sow match` results (doc/experiments.md,
 * "Evaluation weights by match results" and "Toguz weights by matches";
 * results/match.md, results/strength.md): each term either won games or
 * was neutral, and the row term is off where rows are not swept (on
 * Chungkala it loses badly).
 */
#ifndef SOW_ANALYSE_H
#define SOW_ANALYSE_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"
#include "sow/search.h"

typedef struct sow_eval_params {
    int row, mobility, extra, capture, tuzdik, decided; /* hundredths of a seed */
} sow_eval_params;

/* The default weights for game g: those fitted against exact values for
 * its game and pit count (scripts/eval-fit, results/strength.md,
 * "Evaluation"), else the hand weights below; those that do not apply to
 * g's rules are 0. */
void sow_eval_default(const sow_game *g, sow_eval_params *out);

/* The evaluation of p (not finished) for its mover, score units (margin *
 * g->score_scale): the rounded sum of the terms above. All-zero weights
 * give 0 (material only: the stores decide). Thread-safe. */
int sow_eval(const sow_game *g, const sow_pos *p, const sow_eval_params *w);

/* The deepest iteration (plies). */
#define SOW_ANALYSE_MAX_DEPTH 250

/* One completed depth. Scores are score units for the player to move at
 * the root (stores included), like sow_solution's. */
typedef struct sow_analyse_info {
    int depth;                        /* plies; 0: no depth completed yet */
    int seldepth;                     /* the deepest ply any line reached (>= depth) */
    int score;                        /* the root's score at this depth */
    bool exact;                       /* proven (see the top of this file) */
    int best;                         /* index into moves, -1 if none */
    int nmoves;
    sow_move moves[SOW_MAX_MOVES];
    int move_scores[SOW_MAX_MOVES];   /* each move's score at this depth */
    /* move_bound[k]: move_scores[k] is only an upper bound (the move was
     * refuted below the multipv-th best, not searched to its value) */
    bool move_bound[SOW_MAX_MOVES];
    bool move_exact[SOW_MAX_MOVES];   /* the score (or bound) is proven */
    /* The multipv best moves, best first (indices into moves). */
    int nlines;
    int lines[SOW_MAX_MOVES];
    int pv_len;                       /* principal variation from the root */
    sow_move pv[SOW_PV_MAX];
    uint64_t nodes;                   /* since the analysis began */
    double seconds;
} sow_analyse_info;

/* The analysis's late-move reductions (doc/search.md, "Analysis"): the
 * game's (the depth its matches kept: one ply, or deep on the games
 * listed in src/search/order.c), one ply, or deep (two plies, three from
 * five plies left). */
typedef enum sow_reductions {
    SOW_REDUCE_GAME = 0,
    SOW_REDUCE_ONE,
    SOW_REDUCE_DEEP,
} sow_reductions;

typedef struct sow_analyse_options {
    int max_depth;             /* 1..SOW_ANALYSE_MAX_DEPTH; 0: that maximum */
    uint64_t max_nodes;        /* stop past this many nodes; 0: no limit */
    double time_limit;         /* seconds; 0: no limit */
    int multipv;               /* lines to score exactly, >= 1 (0: 1) */
    const sow_eval_params *eval; /* NULL: material only (a leaf is the stores) */
    sow_reductions reductions; /* 0: the game's */
    /* NULL, or a legal move at the root that each depth scores to its
     * value (never a bound), whatever multipv: a game review judges the
     * move played by the same search that found the best one. */
    const sow_move *score_move;
    /* Called after each completed depth, on the calling thread. */
    void (*on_depth)(void *ctx, const sow_analyse_info *info);
    void *ctx;
} sow_analyse_options;

/* Whether the analysis of g reduces late moves deeply under r (the
 * game's choice for SOW_REDUCE_GAME). */
bool sow_reductions_deep(const sow_game *g, sow_reductions r);

/* Analyses p with solver s (created for its game; its oracle is used, its
 * table kept between calls). Iterates depth 1, 2, ... until the value is
 * proven (info exact), max_depth is done, or a limit stops it.
 * *out: the last completed depth (depth 0 and best -1 if none completed;
 * for a finished p, depth 0, exact, its final score). Returns SOW_OK when
 * the value is proven or max_depth is done; SOW_E_INTERRUPTED when the
 * time, the node budget or the solver's stop flag cut a depth short;
 * SOW_E_POSITION for a malformed p; SOW_E_ARG for bad options (a
 * score_move that is not a legal move at p included). Where a game's
 * positions can come back, a depth past twice the seeds is searched
 * unbounded; if a line of it outgrows the search stack, deepening goes on
 * depth-limited (never an error). Not reentrant on one s. */
sow_err sow_analyse(sow_search *s, const sow_pos *p, const sow_analyse_options *opt,
                    sow_analyse_info *out);

/* ---- Experimental: for tests and tools; may change without notice -----
 * (seen with SOW_EXPERIMENTAL defined: sow/version.h, "API tiers") */
#ifdef SOW_EXPERIMENTAL

/* The terms, in the order of sow_eval_params's fields. */
enum {
    SOW_EVAL_ROW, SOW_EVAL_MOBILITY, SOW_EVAL_EXTRA, SOW_EVAL_CAPTURE, SOW_EVAL_TUZDIK,
    SOW_EVAL_DECIDED, SOW_EVAL_TERMS
};

/* The weights chosen by matches before the fit (doc/experiments.md,
 * "Evaluation weights by match results"), those that apply to g. */
void sow_eval_hand(const sow_game *g, sow_eval_params *out);

/* Zeroes the weights of w that do not apply to g's rules: row where the
 * rows are not swept, extra without a store in the ring, tuzdik without
 * claims. */
void sow_eval_applicable(const sow_game *g, sow_eval_params *w);

/* Each term of p (not finished) unweighted, the mover's minus the
 * opponent's: sow_eval(g, p, w) is the rounded sum of w's field k times
 * out[k], times g->score_scale / 100. Thread-safe. */
void sow_eval_terms(const sow_game *g, const sow_pos *p, int out[SOW_EVAL_TERMS]);

#endif /* SOW_EXPERIMENTAL */

#endif
