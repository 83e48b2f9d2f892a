/* end.c - why a game ended and when it was decided, in the rules' terms:
 * what the players are told (sow_end_reason, sow_decided in sow/rules.h). */
#include "sow/rules.h"

#include "rules_inline.h"

static int row_sum(const sow_game *g, const sow_pos *p, int side)
{
    int k = 0;
    for (int i = 1; i <= g->m; i++)
        k += sow_pos_pit(p, side, i);
    return k;
}

/* The winner by totals, then by the tie-break (who still has seeds), the
 * order sow_i_terminal_score compares them in. */
static void judge(const sow_game *g, sow_end *out)
{
    int d = out->total[SOW_SOUTH] - out->total[SOW_NORTH];
    out->tiebreak = false;
    if (d == 0 && g->tiebreak) {
        d = (out->left[SOW_SOUTH] > 0) - (out->left[SOW_NORTH] > 0);
        out->tiebreak = d != 0;
    }
    out->winner = d > 0 ? SOW_SOUTH : d < 0 ? SOW_NORTH : -1;
}

sow_err sow_end_reason(const sow_game *g, const sow_pos *p, const sow_move *last,
                       sow_end *out)
{
    sow_pos q = *p;
    if (last) {
        sow_move ms[SOW_MAX_MOVES];
        int n = sow_i_moves(g, &q, ms), k = 0;
        if (n == 0)
            return SOW_E_OVER;
        while (k < n && ms[k] != *last)
            k++;
        if (k == n)
            return SOW_E_MOVE;
        sow_i_turn_as(g, &q, *last, g->landing);
    }
    if (!sow_i_over(g, &q))
        return SOW_E_POSITION;
    out->to_move = sow_pos_to_move(&q);
    out->swept = g->sweep;
    for (int side = SOW_SOUTH; side <= SOW_NORTH; side++) {
        out->left[side] = row_sum(g, &q, side);
        out->empty[side] = out->left[side] == 0;
        out->total[side] = sow_pos_store(&q, side) + (g->sweep ? out->left[side] : 0);
    }
    judge(g, out);
    return SOW_OK;
}

int sow_decided(const sow_game *g, const sow_pos *p)
{
    int store[2], all = 0;
    for (int side = SOW_SOUTH; side <= SOW_NORTH; side++) {
        store[side] = sow_pos_store(p, side);
        all += store[side] + row_sum(g, p, side);
    }
    for (int side = SOW_SOUTH; side <= SOW_NORTH; side++)
        if (2 * store[side] > all)
            return side;
    return -1;
}
