/* sow/refsolve.h - the reference solver: slow, and meant to be obviously
 * right. It is the ground truth the fast solvers and the databases are
 * tested against. Two methods:
 *
 * PATH: exhaustive negamax with memoisation, no pruning. Memo key: the
 * whole 32-byte position (stores included), value: the score of the final
 * result for the player to move; every memo entry is exact. Games that can
 * cycle: a position that repeats one on the current path scores as
 * perpetual play (sow_perpetual_score). Such a score depends on the path,
 * so a result is memoised only if no repetition was met anywhere below it:
 * then no line from it meets any position twice, so no path above could
 * change it (a position below that equalled an ancestor would have made
 * the node itself recur below). Exponential on Toguz boards from 3x1 on.
 *
 * FIXPOINT (the default for games that can cycle): every position reachable
 * from the root, stores set aside, solved level by level (seeds on the
 * board) by per-threshold attractors computed by plain iteration, endless
 * play worth 0 more (src/search/refsolve.c has the method, doc/search.md
 * "Cycles" why it is right). Memory: about 100 bytes per position.
 *
 * What a root move scores. FIXPOINT: what it banks plus the value of the
 * position it leads to (doc/rules.md, Toguz 6), the same whatever led to
 * the root. PATH: the value of its line with the root on the path, so that
 * a line returning to the root scores as perpetual play. The two give the
 * same value of the root (the best move), but other moves may differ; e.g.
 * Toguz 2x1 "1,1/0/0,0/0/s", move 2: FIXPOINT +2, PATH 0 (test_refsolve).
 * Without cycles both give the same scores.
 */
#ifndef SOW_REFSOLVE_H
#define SOW_REFSOLVE_H

#include <stdbool.h>
#include <stddef.h>

#include "sow/error.h"
#include "sow/search.h"
#include "sow/game.h"
#include "sow/solution.h"

/* Solves `p`. `memory_mb` bounds the memo table (PATH) or the position
 * graph (FIXPOINT): SOW_E_LIMIT if the game is too big for it. `pie_opening`: `p` lies within South's opening turn of a
 * game with the pie rule (g->pie), so after that turn North may swap: each
 * root move then scores max over the completions t of South's turn of
 * -|v(t)| (doc/rules.md). Thread-safe: each call has its own memo table, so
 * calls may run concurrently. */
sow_err sow_ref_solve(const sow_game *g, const sow_pos *p, bool pie_opening,
                      size_t memory_mb, sow_solution *out);

/* FIXPOINT above an endgame database: the positions the oracle holds (at
 * most oracle->max_seeds seeds on the board) are exits worth what their
 * move banks plus the oracle's exact future, and only the levels above it
 * are enumerated and solved. The oracle must be exact and path-free (a
 * database: doc/search.md, "Cycles"). For games that cycle above a
 * database, where the path search's lines outgrow its stack; the whole
 * graph above the database must fit memory_mb (SOW_E_LIMIT if not). Every
 * move's score as sow_ref_solve's FIXPOINT gives it; no pie rule.
 * seconds > 0: SOW_E_INTERRUPTED once that much wall time has passed
 * (looked at every few thousand positions and at every threshold of a
 * level); 0: no limit. */
sow_err sow_ref_solve_above(const sow_game *g, const sow_pos *p, const sow_oracle *oracle,
                            size_t memory_mb, double seconds, sow_solution *out);

/* ---- Experimental: for tests and tools; may change without notice -----
 * (seen with SOW_EXPERIMENTAL defined: sow/version.h, "API tiers") */
#ifdef SOW_EXPERIMENTAL

/* Which method sow_ref_solve_with uses. */
typedef enum sow_ref_method {
    SOW_REF_AUTO = 0,  /* FIXPOINT for games that can cycle, else PATH */
    SOW_REF_PATH,      /* memoised negamax, repetitions on the path */
    SOW_REF_FIXPOINT,  /* the level-by-level fixpoint; no pie rule */
} sow_ref_method;

/* sow_ref_solve with a chosen method (tests compare the two). FIXPOINT with
 * `pie_opening` is SOW_E_ARG; FIXPOINT works for every other game too.
 * nodes: PATH counts positions expanded, FIXPOINT the positions of the
 * graph. */
sow_err sow_ref_solve_with(const sow_game *g, const sow_pos *p, bool pie_opening,
                           size_t memory_mb, sow_ref_method method, sow_solution *out);

#endif /* SOW_EXPERIMENTAL */

#endif
