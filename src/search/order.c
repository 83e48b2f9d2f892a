/* order.c - which games' analyses reduce late moves deeply by default
 * (order.h, order_lmr; sow_reductions GAME): the games whose matches kept
 * it. Keyed by the game table's id and pit count (m 0: any), never by a
 * name, like the evaluation's fitted weights (eval_fitted.c).
 *
 * None yet: deep reductions cut the nodes to a depth on every game, but
 * no match at 0.5 s a move has shown a gain (on Toguz they lead and no
 * SPRT has decided; on Kalah 6x6 the SPRT rejected one: results/
 * strength.md, "Deeper late-move reductions").
 * An entry {SOW_TOGUZ, 0} makes them Toguz's once a match keeps them.
 */
#include "order.h"
#include "sow/analyse.h"

static const struct {
    sow_game_id game; /* SOW_GAME_COUNT ends the table */
    int m;
} lmr_deep[] = {
    {SOW_GAME_COUNT, 0},
};

bool sow_reductions_deep(const sow_game *g, sow_reductions r)
{
    if (r != SOW_REDUCE_GAME)
        return r == SOW_REDUCE_DEEP;
    for (size_t i = 0; lmr_deep[i].game != SOW_GAME_COUNT; i++)
        if (lmr_deep[i].game == g->cfg.game && (lmr_deep[i].m == 0 || lmr_deep[i].m == g->m))
            return true;
    return false;
}
