/* engine/internal.h - the resident engine's state and its parts:
 *   engine.c    life, what it holds and the memory bound, the solve question
 *   question.c  sow_engine_evaluate: the policy (plan, cut, estimate)
 *   analysis.c  the estimate: sow_analyse on its own table
 *   level.c     the levels of play
 *   book.c      the opening book's answers
 *   book_build.c  building a book with the engine
 */
#ifndef SOW_ENGINE_INTERNAL_H
#define SOW_ENGINE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/analyse.h"
#include "sow/book.h"
#include "sow/db.h"
#include "sow/engine.h"
#include "sow/search.h"

#define MB (1ull << 20)

struct sow_engine {
    sow_game g;
    sow_limits lim;       /* memory and threads filled in; db_dir = dir */
    char *dir;
    sow_db *db;           /* the resident database, or NULL */
    sow_search *search;   /* the resident search, or NULL ... */
    bool analysis;        /* ... the analysis's (heuristic entries) */
    size_t tt_mb;         /* its table */
    _Atomic uint64_t bytes;
    unsigned questions, db_opens;
    sow_book *book;       /* the opening book, or NULL ... */
    int book_state;       /* ... 0: not looked for yet, 1: held, -1: none */
    bool book_hit;        /* the last question was answered from it */
};

/* Records what the engine holds in e->bytes. */
void engine_account(sow_engine *e);

/* Bytes of the resident database, and of a search with a tt_mb table. */
uint64_t engine_db_bytes(const sow_engine *e);
uint64_t engine_search_bytes(const sow_engine *e, size_t tt_mb);

/* Frees the resident search / database. */
void engine_drop_search(sow_engine *e);
void engine_drop_db(sow_engine *e);

/* The exact question: sow_plan_make with *L (the engine's limits and the
 * question's), then sow_plan_solve_held on what the engine holds. */
sow_err engine_exact(sow_engine *e, const sow_pos *p, const sow_limits *L, sow_plan *plan,
                     sow_plan_result *res, char *why, size_t why_size);

/* The estimate ending at `end`: every move scored (all_moves: each to its
 * value, else the best and bounds for the rest), exact where the
 * analysis proved it; fills sol, move_exact, how, lower, upper, depth and
 * db_cut/db_seeds/db_opens of *out. */
sow_err engine_estimate(sow_engine *e, const sow_pos *p, double end, bool all_moves,
                        sow_engine_answer *out, char *why, size_t why_size);

/* The book's answer to p (sow_engine_evaluate's: out zeroed, its
 * all_moves set), if the book holds p (and, for all_moves, every child);
 * sets how, sol, move_exact, bounds, depth and out->book. */
bool engine_book_answer(sow_engine *e, const sow_pos *p, bool all_moves,
                        sow_engine_answer *out);

/* The same for sow_engine_analyse (one line asked for, no score_move):
 * *out as one completed depth, reported to opt->on_depth. */
bool engine_book_analyse(sow_engine *e, const sow_pos *p, const sow_analyse_options *opt,
                         sow_analyse_info *out);

#endif
