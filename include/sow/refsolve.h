/* sow/refsolve.h - the reference solver: exhaustive negamax with
 * memoisation, no pruning. Slow, and meant to be obviously right: it is
 * the ground truth the fast solvers and the databases are tested against.
 *
 * Memo key: the whole 32-byte position (stores included), value: the score
 * of the final result for the player to move. No pruning, so every memo
 * entry is exact.
 *
 * Games that can cycle (Toguz): a position that repeats a position on the
 * current path scores as perpetual play (sow_perpetual_score). Such a score
 * depends on the path, so a result is memoised only if no repetition was
 * met anywhere below it: then no line from it meets any position twice, so
 * no path above could change it (a position below that equalled an ancestor
 * would have made the node itself recur below).
 */
#ifndef SOW_REFSOLVE_H
#define SOW_REFSOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/solution.h"

/* Which method sow_ref_solve_with uses. */
typedef enum sow_ref_method {
    SOW_REF_AUTO = 0,  /* FIXPOINT for games that can cycle, else PATH */
    SOW_REF_PATH,      /* the memoised negamax above, repetitions on the path */
    SOW_REF_FIXPOINT,  /* the level-by-level fixpoint below; no pie rule */
} sow_ref_method;

/* Solves `p`. `memory_mb` bounds the memo table: SOW_E_LIMIT if the game is
 * too big for it. `pie_opening`: `p` lies within South's opening turn of a
 * game with the pie rule (g->pie), so after that turn North may swap: each
 * root move then scores max over the completions t of South's turn of
 * -|v(t)| (doc/rules.md). Thread-safe: each call has its own memo table, so
 * calls may run concurrently. */
sow_err sow_ref_solve(const sow_game *g, const sow_pos *p, bool pie_opening,
                      size_t memory_mb, sow_solution *out);

/* sow_ref_solve with a chosen method (tests compare the two). FIXPOINT with
 * `pie_opening` is SOW_E_ARG; FIXPOINT works for every other game too.
 * nodes: PATH counts positions expanded, FIXPOINT the positions of the
 * graph. */
sow_err sow_ref_solve_with(const sow_game *g, const sow_pos *p, bool pie_opening,
                           size_t memory_mb, sow_ref_method method, sow_solution *out);

#endif
