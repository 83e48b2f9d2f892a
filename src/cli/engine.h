/* engine.h - the computer player of `sow play --interactive` and `sow
 * serve`: every legal move's value within a time budget, and the move a
 * given level plays.
 *
 * engine_evaluate is the ONE place that decides how a position is judged:
 * the solve plan (database or exact search) within the time limit, its
 * best move so far when the limit cuts it, and for boards the exact solver
 * refuses (Toguz 9x9, Congkak 7x7) sow_analyse (sow/analyse.h) within the
 * time: iterative deepening with the evaluation over the endgame database
 * that builds within a quarter of the time (sow_plan_analysis, as `sow
 * analyse` does), exact where it proves the value. The time bounds the
 * whole evaluation: a database build that runs late stops at its last
 * complete seed count (db_cut), and the search gets what is left. */
#ifndef SOW_CLI_ENGINE_H
#define SOW_CLI_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"
#include "sow/solution.h"

typedef struct engine_limits {
    double seconds;             /* time budget for one evaluation (> 0): its wall
                                   time, databases included */
    double deadline;            /* > 0: the time (cli_now's clock) by which it
                                   ends, so that what came before (a request's
                                   wait for a slot) counts; 0: seconds from
                                   the call */
    int threads;                /* 0: the plan's default */
    uint64_t memory;            /* bytes; 0: the plan's default */
    const char *db_dir;         /* database folder, or NULL */
    const sow_stop_flag *stop;  /* optional: stop early (Ctrl-C) */
} engine_limits;

/* How the values were found. */
typedef enum engine_how {
    ENGINE_EXACT,   /* proven: database or complete search */
    ENGINE_CUT,     /* the exact search hit the time limit: bounds, best so far */
    ENGINE_DEPTH,   /* sow_analyse's estimate (no exact key for this board) */
} engine_how;

typedef struct engine_eval {
    /* Every legal move and its score (rules.h score units, the mover's
     * view); move_scores[k] is exact when move_exact[k]. sol.best is a
     * best move (-1 when the game is over). */
    sow_solution sol;
    bool move_exact[SOW_MAX_MOVES];
    engine_how how;
    int lower, upper;   /* proven bounds on the root score (ENGINE_EXACT: equal) */
    int depth;          /* ENGINE_DEPTH: the analysis's last complete depth, plies
                           (ENGINE_CUT: the estimate's, when one ran) */
    bool estimates;     /* ENGINE_CUT: sol's move scores are an analysis's
                           estimates (all_moves); else they are unknown */
    bool all_moves;     /* every move's value was asked for (else only the best is exact) */
    bool db_cut;        /* the time limit kept the database below the plan's
                           (a build cut at its last complete seed count) */
    double seconds;
    char why[192];      /* on an error: why, one line */
} engine_eval;

/* Judges `p` (a position of `g`; pie: within South's opening turn of a pie
 * game). all_moves: every move's exact value (hints) rather than only the
 * best move (the computer's reply: much cheaper). Returns SOW_OK, or an
 * error with out->why (memory, database files). Thread-safe across calls. */
sow_err engine_evaluate(const sow_game *g, const sow_pos *p, bool pie, bool all_moves,
                        const engine_limits *lim, engine_eval *out);

/* Levels of play, 1..ENGINE_LEVELS (the default ENGINE_LEVELS plays
 * perfectly where the board is solved in time):
 *   1  a random legal move 3 times out of 4, else the best move
 *   2  a random legal move half the time
 *   3  a random legal move 1 time in 5
 *   4  always the best move found
 * A random move costs no search, so low levels also answer at once. */
#define ENGINE_LEVELS 4

/* The probability, in percent, that `level` plays a random move. */
int engine_random_percent(int level);

/* The move the computer plays at `level`: *rng is a xorshift state (not
 * 0) advanced here, so a seed reproduces a game. out is filled when a
 * search ran (*searched true), untouched otherwise. */
sow_err engine_choose(const sow_game *g, const sow_pos *p, bool pie, int level,
                      uint64_t *rng, const engine_limits *lim, sow_move *move,
                      engine_eval *out, bool *searched);

#endif
