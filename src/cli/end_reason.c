/* end_reason.c - why a finished game ended, told to the players: which row
 * was empty, or whose turn found her row empty, and where the seeds still
 * in the rows went (swept to their owners, or left for nobody).
 *
 * The final sweep is part of the move that ends the game (sow_make), so
 * the position after it has both rows empty and no longer shows which one
 * emptied. The last move is therefore made again by the same game with its
 * sweep switched off (the rules are data: sow_game.sweep), which stops one
 * step earlier, at the position the game ended in. */
#include "cli.h"

static int row_sum(const sow_game *g, const sow_pos *p, int player)
{
    int s = 0;
    for (int k = 1; k <= g->m; k++)
        s += sow_pos_pit(p, player, k);
    return s;
}

/* The position the game ended in, before its final sweep. */
static void unswept_end(const cli_game *cg, sow_pos *out)
{
    *out = cg->pos;
    if (!cg->g.sweep || cg->nhist == 0)
        return; /* nothing swept, or a position given as it is */
    sow_game bare = cg->g; /* about 12 KB (its sowing tables) */
    bare.sweep = false;
    sow_game_start(&cg->g, out);
    for (int i = 0; i < cg->nhist - 1; i++)
        sow_make(&cg->g, out, cg->hist[i]);
    sow_make(&bare, out, cg->hist[cg->nhist - 1]);
}

bool cli_end_reason(const cli_game *cg, cli_end *out)
{
    sow_pos p;
    if (!sow_over(&cg->g, &cg->pos))
        return false;
    unswept_end(cg, &p);
    out->mover_only = cg->g.end_mover_only;
    out->empty[SOW_SOUTH] = out->empty[SOW_NORTH] = false;
    out->left = 0;
    for (int side = SOW_SOUTH; side <= SOW_NORTH; side++) {
        int seeds = row_sum(&cg->g, &p, side);
        out->empty[side] = seeds == 0;
        out->swept[side] = cg->g.sweep ? seeds : 0;
        out->left += cg->g.sweep ? 0 : seeds;
    }
    return true;
}

void cli_fjson_end(FILE *f, const cli_game *cg)
{
    cli_end e;
    if (!cli_end_reason(cg, &e)) {
        fprintf(f, ",\"end\":null");
        return;
    }
    const char *empty = e.empty[SOW_SOUTH] && e.empty[SOW_NORTH] ? "both"
                        : e.empty[SOW_SOUTH]                     ? "south"
                                                                 : "north";
    fprintf(f, ",\"end\":{\"rule\":\"%s\",\"empty\":\"%s\",\"swept\":{\"south\":%d,"
            "\"north\":%d},\"left\":%d}",
            e.mover_only ? "no move" : "row empty", empty, e.swept[SOW_SOUTH],
            e.swept[SOW_NORTH], e.left);
}
