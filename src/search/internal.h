/* internal.h - what the analysis driver (analyse.c) uses of the exact
 * solver (solver.h): the same node(), table, threads and oracle, run
 * depth-limited with an evaluation at the horizon.
 *
 * Exactness. node() counts, per thread, the results that rest on a guess:
 * a horizon leaf (evaluated, or 0 without an evaluation), a bound read
 * from the table at a limited draft, and any bound read under a hashed
 * key. A search whose count did not move solved its window exactly, and
 * its node stores its bounds at TT_DRAFT_EXACT, so later depths reuse them
 * as proven. Under a hashed key (a board whose codes do not fit 64 bits,
 * key.h) nothing is promoted and every table read counts as a guess: two
 * positions may share a hash, so nothing the table says is proof there.
 */
#ifndef SOW_SEARCH_INTERNAL_H
#define SOW_SEARCH_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"
#include "sow/search.h"

/* The banked part of p's score for its mover (score units): a score is
 * the store difference plus the future gain (sow/search.h). */
static inline int search_store_score(const sow_game *g, const sow_pos *p)
{
    return (p->b[SOW_B_STORE] - p->b[SOW_HALF + SOW_B_STORE]) * g->score_scale;
}

/* The future gain of p (not finished) for its mover, guessed: score units. */
typedef int (*search_eval_fn)(const sow_game *g, const sow_pos *p, const void *ctx);

/* Starts an analysis of `root` on s: counters and clock reset, the table
 * keyed exactly if root's seeds allow it (else hashed), clean subtrees
 * promoted to exact, `eval` at the horizon (NULL: 0), at most node_limit
 * nodes (0: no limit; past it searches stop with SOW_E_INTERRUPTED), late
 * moves reduced deeply if lmr_deep (order.h). */
void search_analyse_begin(sow_search *s, const sow_pos *root, search_eval_fn eval,
                          const void *eval_ctx, uint64_t node_limit, bool lmr_deep);

/* Back to the exact solver's settings. */
void search_analyse_end(sow_search *s);

/* Searches x (not finished) below the path anc[0..nanc) to `depth` plies
 * on every thread, window (alpha, beta) on x's future gain for its mover.
 * Returns the fail-soft value, or SEARCH_STOPPED (time, nodes, stop flag,
 * error: search_error). *exact: no thread's search rested on a guess (the
 * bound is proven). */
#define SEARCH_STOPPED 30000
#define SEARCH_UNBOUNDED 1000 /* a depth at least this: the exact solver's search */
int search_analyse_probe(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x,
                         int alpha, int beta, int depth, bool *exact);

/* The table's move at x (below anc[0..nanc)), TT_NO_MOVE (0xff) if none. */
sow_move search_table_move(sow_search *s, const sow_pos *x);

/* Exact future gain of x if known without search (finished, a repetition
 * of anc[0..nanc), within the oracle). */
bool search_known(sow_search *s, const sow_pos *anc, int nanc, const sow_pos *x, int *f);

/* Nodes of every thread since search_analyse_begin, and the error that
 * stopped the last search (SOW_OK if none). */
uint64_t search_nodes(const sow_search *s);
sow_err search_error(const sow_search *s);

/* Forgets the error that stopped a search of the call, and every worker's
 * stop mark, so the caller can go on with another search in the same call
 * (counters and clock kept). Only between searches, never during one. */
void search_clear_error(sow_search *s);

/* The deepest ply from the root any thread reached since
 * search_analyse_begin (0: none below the root's children). */
int search_seldepth(const sow_search *s);

/* The node budget of a probe's start on one thread before the others join
 * (at least 1; SOLO_NODES by default): tests lower it so that small
 * boards' probes go on as a team too. Not during a call. */
void search_set_solo_nodes(sow_search *s, uint64_t nodes);

/* The game s was created for. */
const sow_game *search_game(const sow_search *s);

/* Is the table keyed exactly for this analysis? */
bool search_key_exact(const sow_search *s);

/* The kind of key of the last search (KEY_* of key.h). */
int search_key_mode(const sow_search *s);

#endif
