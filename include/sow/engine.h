/* sow/engine.h - a resident engine: one game, its limits, the database
 * and the search tables it opened, answering many questions (a position's
 * every move's value, the best move, the move a level plays, a solve)
 * each within its time.
 *
 * The engine is the ONE place that decides how a position is judged (as
 * Stockfish's timeman and Worker: the front end parses, calls and prints):
 *   - the solve plan (sow/plan.h: database or exact search) within the
 *     time, less a reserve (a tenth) kept for an estimate should the
 *     search be cut before it finds a move;
 *   - cut by the time: the proven bounds and the best move so far;
 *   - boards the exact solver refuses (sow_search_exact false: Toguz 9x9,
 *     Congkak 7x7): sow_analyse (sow/analyse.h) within the time, over the
 *     endgame database that builds within a quarter of it
 *     (sow_plan_analysis), exact where it proves the value.
 * The time bounds the whole question, databases included: a build that
 * runs late stops at its last complete seed count (db_cut).
 *
 * The opening book (sow/book.h). Before any of that, a position the
 * game's book holds is answered from it at once (answer.book,
 * sow_engine_from_book): its value and best move (every move's value
 * when each child is in the book too; else the question goes on as
 * above). An estimate in the book serves only a board the exact solver
 * refuses. The book is the file sow_book_path names in the engine's
 * database folder, read on the first question (none without a folder,
 * or when that file is missing, damaged or another game's);
 * sow_engine_set_book gives one instead.
 *
 * Resident. What a question opens stays for the next one:
 *   - the database: a later question whose plan asks for no more seeds
 *     uses it as it is (no file read, no build), whatever it asks for;
 *     one that needs more closes it and opens the bigger one;
 *   - the exact search's table (exact entries: sound for every position
 *     and database), kept while the plan's table fits beside the
 *     database;
 *   - the analysis's table (heuristic bounds at limited drafts), a table
 *     of its own: the two kinds are never mixed, and only one of the two
 *     tables is held at a time (a question of the other kind frees it).
 * The whole (database, table, the search threads' state) stays within
 * limits.memory: what does not fit beside the plan's table is let go
 * first. sow_engine_stats says what it holds.
 *
 * Thread safety: one question at a time per engine (the caller locks, as
 * `sow serve` does per board); distinct engines run side by side.
 * sow_engine_bytes may be called from any thread at any time.
 */
#ifndef SOW_ENGINE_H
#define SOW_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/analyse.h"
#include "sow/book.h"
#include "sow/error.h"
#include "sow/game.h"
#include "sow/plan.h"
#include "sow/position.h"
#include "sow/solution.h"

typedef struct sow_engine sow_engine;

/* Creates an engine for game g (copied: g need not outlive it). Of *lim
 * it keeps memory (0: sow_plan_default_memory()), threads (0:
 * sow_plan_default_threads()), db_dir (copied; NULL: databases built in
 * memory), no_db and stop; the rest belongs to each question. Allocates
 * no table or database yet. SOW_E_ARG (threads < 0, no_db with db_dir),
 * SOW_E_NOMEM, with why. */
sow_err sow_engine_new(const sow_game *g, const sow_limits *lim, sow_engine **out, char *why,
                       size_t why_size);

/* Frees the engine, its database and tables. NULL: nothing. */
void sow_engine_free(sow_engine *e);

/* The game the engine plays (its own copy). */
const sow_game *sow_engine_game(const sow_engine *e);

/* One question's terms. */
typedef struct sow_engine_question {
    double seconds;     /* the time for the question (> 0), databases included */
    double deadline;    /* > 0: the time (sow_retro_clock's clock) by which it
                           ends, so that what came before (a request's wait
                           for a slot) counts; 0: seconds from the call */
    bool all_moves;     /* every move's exact value (hints) rather than only
                           the best move (the computer's reply: much cheaper) */
    bool pie_opening;   /* the position lies within South's opening turn of a
                           pie game */
} sow_engine_question;

/* How the values were found. */
typedef enum sow_engine_how {
    SOW_ENGINE_EXACT,    /* proven: database or complete search */
    SOW_ENGINE_CUT,      /* the exact search hit the time: bounds, best so far */
    SOW_ENGINE_ESTIMATE, /* sow_analyse's estimate (no exact key for this board) */
} sow_engine_how;

typedef struct sow_engine_answer {
    /* Every legal move and its score (rules.h score units, the mover's
     * view); move_scores[k] is exact when move_exact[k]. sol.best is a
     * best move (-1 when the game is over). SOW_ENGINE_CUT: the value is
     * only known to lie in [lower, upper] (sol.score means nothing; the
     * moves' scores are the estimate's when `estimates`, else nothing). */
    sow_solution sol;
    bool move_exact[SOW_MAX_MOVES];
    sow_engine_how how;
    int lower, upper;   /* proven bounds on the root score (EXACT: equal) */
    int depth;          /* the analysis's last complete depth, plies (ESTIMATE,
                           or a CUT whose move came from the estimate) */
    bool estimates;     /* CUT with every move asked for: sol's move scores
                           are an analysis's estimates (a hint shows them,
                           marked as such) */
    bool all_moves;     /* every move's value was asked for */
    bool db_cut;        /* the time kept the database below the plan's (a
                           build cut at its last complete seed count) */
    int db_seeds;       /* the database the answer used; 0: none */
    int db_opens;       /* databases this question opened (0: the resident
                           one served, or none was needed) */
    bool book;          /* answered from the opening book (no search) */
    double seconds;     /* the question's wall time */
} sow_engine_answer;

/* Judges p (a position of the engine's game) within q's time. Returns
 * SOW_OK, or an error with why: SOW_E_POSITION, SOW_E_ARG (q->seconds <=
 * 0 without a deadline), SOW_E_NOMEM, the database's errors,
 * SOW_E_INTERRUPTED (the stop flag). */
sow_err sow_engine_evaluate(sow_engine *e, const sow_pos *p, const sow_engine_question *q,
                            sow_engine_answer *out, char *why, size_t why_size);

/* Levels of play, 1..SOW_ENGINE_LEVELS (the default SOW_ENGINE_LEVELS
 * plays the best move found: perfect where the board is solved in time):
 *   1  a random legal move 3 times out of 4, else the best move
 *   2  a random legal move half the time
 *   3  a random legal move 1 time in 5
 *   4  always the best move found
 * A random move costs no search, so low levels also answer at once. */
#define SOW_ENGINE_LEVELS 4

/* The probability, in percent, that `level` plays a random move (0 for a
 * level outside 1..SOW_ENGINE_LEVELS). */
int sow_engine_random_percent(int level);

/* The move the engine plays at `level` (q->all_moves is ignored: only the
 * best move is asked for). *rng is a xorshift state (not 0) advanced
 * here, so a seed reproduces a game. out is filled when a search ran
 * (*searched true), untouched otherwise. SOW_E_OVER when p has no move;
 * else errors as sow_engine_evaluate. */
sow_err sow_engine_choose(sow_engine *e, const sow_pos *p, const sow_engine_question *q,
                          int level, uint64_t *rng, sow_move *move, sow_engine_answer *out,
                          bool *searched, char *why, size_t why_size);

/* `sow solve`'s question on the resident database and table: the plan
 * (sow_plan_make with the engine's memory, threads, db_dir and stop, and
 * of *q only value_only, pie_opening, time_limit, deadline, tt_mb,
 * db_seeds and no_db) into *plan, then sow_plan_solve_held. Errors as
 * those two (SOW_E_LIMIT: a board the exact solver refuses). */
sow_err sow_engine_solve(sow_engine *e, const sow_pos *p, const sow_limits *q, sow_plan *plan,
                         sow_plan_result *out, char *why, size_t why_size);

/* Gives the engine book b (owned from now on: freed with the engine or
 * the next call); NULL: no book, and none looked for in the database
 * folder (a build asks the search, not the book). SOW_E_MISMATCH (b
 * freed, the engine without a book) if b is another game's. */
sow_err sow_engine_set_book(sow_engine *e, sow_book *b);

/* Was the last question (evaluate, choose or analyse) answered from the
 * book? */
bool sow_engine_from_book(const sow_engine *e);

/* What an engine holds. */
typedef struct sow_engine_stats {
    uint64_t bytes;       /* all of it: database + tables + threads' state */
    uint64_t memory;      /* its bound (limits.memory) */
    uint64_t db_bytes;    /* the resident database's tables */
    int db_seeds;         /* its seed counts 0..db_seeds; 0: none */
    uint64_t table_bytes; /* the resident search (exact or analysis), threads'
                             state included */
    bool analysis_table;  /* that search is the analysis's */
    unsigned questions;   /* answered since sow_engine_new */
    unsigned db_opens;    /* databases opened (loaded or built) since then */
} sow_engine_stats;

void sow_engine_stats_get(const sow_engine *e, sow_engine_stats *out);

/* stats.bytes alone, from any thread, also while a question runs (what
 * it held when the question started or last changed what it holds). */
uint64_t sow_engine_bytes(const sow_engine *e);

/* A position the book holds (and opt asks for one line, no score_move)
 * is answered from it: *out one depth (1 when the value is exact, else
 * the book's analysis depth), its move, reported to opt->on_depth;
 * sow_engine_from_book then says so. Otherwise:
 * sow_analyse (sow/analyse.h) of p on the engine's resident analysis
 * table and database: opt as given (limits, evaluation, callbacks; its
 * time_limit kept if shorter), ending by `end` (> 0: the time on
 * sow_retro_clock's clock by which it ends, the database's build
 * included; 0: opt's own limits only, the database the trial's). The
 * database the analysis's plan picks is opened, or the resident one kept
 * when it holds as many seeds; both stay for the next question, as the
 * table does (an engine protocol's `go`). Returns sow_analyse's codes
 * (SOW_E_INTERRUPTED: a limit or the engine's stop flag cut a depth
 * short; *out holds the last complete one), SOW_E_POSITION, SOW_E_NOMEM
 * or the database's errors, with why. Not reentrant on one engine. */
sow_err sow_engine_analyse(sow_engine *e, const sow_pos *p, double end,
                           const sow_analyse_options *opt, sow_analyse_info *out, char *why,
                           size_t why_size);

#endif
