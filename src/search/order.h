/* order.h - move ordering and reductions of the depth-limited search
 * (sow_analyse): killer moves per ply and a history table per side and
 * move, and which moves a late-move reduction may shorten. The exact
 * solver (depth TT_DRAFT_EXACT) keeps its own order (node.c, expand) and
 * never reduces: a reduction there would change what it proves.
 *
 * Order key (larger first):
 *   ORDER_TT                    the table's move
 *   ORDER_EXTRA + c0 * 16 + i   an extra turn, by what it banks (c0), pit i
 *   c * 65536 + h * 32 + i      the other moves: by what they bank (c, c0
 *                               clipped to -63..63), then killer 1, killer
 *                               2 or the history count scaled to 0..1023
 *                               (h), then the pit
 * Measured step by step in results/strength.md ("Search").
 *
 * Exactness: a reduced search that met no horizon proved its bound at any
 * depth, and one that did counts as inexact (internal.h), so a reduction
 * never makes sow_analyse claim a value it did not prove.
 */
#ifndef SOW_SEARCH_ORDER_H
#define SOW_SEARCH_ORDER_H

#include <string.h>

#include "solver.h"

/* Late-move reductions (node.c, search_kids): from the LMR_FROM-th child
 * in order (0-based) of a node with at least LMR_DEPTH plies left, the
 * reducible moves (order_reducible) are searched order_lmr() plies
 * shallower with a null window first, and again at full depth if they beat
 * alpha: one ply, or deep (sow_reductions_deep, order.c: by default on
 * the games whose matches kept it) two, and three from LMR_DEEP_DEPTH
 * plies left. */
#define LMR_FROM 3
#define LMR_DEPTH 3
#define LMR_DEEP_DEPTH 5

/* The plies a late move is reduced by at a node with `depth` plies left. */
static inline int order_lmr(bool deep, int depth)
{
    return !deep ? 1 : depth >= LMR_DEEP_DEPTH ? 3 : 2;
}

/* Reverse futility pruning (node.c, node): a node of the analysis with at
 * most RFP_DEPTH plies left whose evaluation exceeds beta by RFP_MARGIN
 * seeds a ply left returns the evaluation less that margin, unsearched.
 * 3 seeds a ply: about half the evaluation's measured error on Kalah 6x4
 * (6.5 seeds, results/strength.md) at one ply, more than all of it at 3. */
#define RFP_DEPTH 3
#define RFP_MARGIN 3

/* History counts stay below this: on reaching it every count is halved,
 * so recent cut-offs weigh more. */
#define HISTORY_MAX 60000

#define ORDER_TT (1 << 30)
#define ORDER_EXTRA (1 << 29)
#define ORDER_KILLER1 1536 /* above any history (0..1023) */
#define ORDER_KILLER2 1280

/* Does a search of `depth` plies use them (sow_analyse, not exact)? */
static inline bool order_limited(const sow_search *s, int depth)
{
    return s->c.heuristics && depth != TT_DRAFT_EXACT;
}

/* A move that ends the turn: history and killers rank such moves, and
 * only such moves are reduced. Not "no capture": most Kalah and Congkak
 * moves bank a seed passing the store. An extra turn is never quiet. */
static inline bool order_quiet(int sign)
{
    return sign < 0;
}

static inline void order_clear(worker *w)
{
    memset(w->killer, TT_NO_MOVE, sizeof w->killer);
    memset(w->history, 0, sizeof w->history);
}

/* The order key of move mv (pit index i) from a node at `ply` whose
 * mover is `side`: see the header's layout. */
static inline int order_key(const worker *w, int ply, int side, sow_move mv, int i, int c0,
                            int sign, sow_move ttmove)
{
    if (mv == ttmove)
        return ORDER_TT;
    if (sign > 0)
        return ORDER_EXTRA + c0 * 16 + i;
    int c = c0 < -63 ? -63 : c0 > 63 ? 63 : c0;
    int h = w->killer[ply][0] == mv   ? ORDER_KILLER1
            : w->killer[ply][1] == mv ? ORDER_KILLER2
                                      : w->history[side][mv] * 1024 / HISTORY_MAX;
    return c * 65536 + h * 32 + i;
}

/* Neither the table's move nor an extra turn nor a killer: a late-move
 * reduction's candidate, from its order key. */
static inline bool order_reducible(int key)
{
    return key < ORDER_EXTRA && (key & 65535) < ORDER_KILLER2 * 32;
}

/* Move mv (ending the turn) cut off a node at `ply` with `depth` plies left. */
static inline void order_cut(worker *w, int ply, int side, sow_move mv, int depth)
{
    if (w->killer[ply][0] != mv) {
        w->killer[ply][1] = w->killer[ply][0];
        w->killer[ply][0] = mv;
    }
    uint16_t *h = &w->history[side][mv];
    int add = depth * depth;
    if (*h + add >= HISTORY_MAX)
        for (int s = 0; s < 2; s++)
            for (int m = 0; m < ORDER_MOVES; m++)
                w->history[s][m] /= 2;
    *h = (uint16_t)(*h + add < HISTORY_MAX ? *h + add : HISTORY_MAX - 1);
}

#endif
