/* end_reason.c - why a finished game ended, told to the players as JSON
 * (`sow play --json`, /api/play): which row was empty, or whose turn found
 * her row empty, and where the seeds still in the rows went (swept to
 * their owners, or left for nobody). The rules layer works it out
 * (sow_end_reason: the last move made again, since its final sweep hides
 * which row emptied); this file only chooses the words. */
#include "cli.h"

bool cli_end_reason(const cli_game *cg, cli_end *out)
{
    if (!sow_over(&cg->g, &cg->pos))
        return false;
    sow_end e;
    sow_err err;
    if (cg->nhist > 0) { /* the record from the start: replay to before its last move */
        sow_pos p;
        sow_game_start(&cg->g, &p);
        for (int i = 0; i < cg->nhist - 1; i++)
            sow_make(&cg->g, &p, cg->hist[i]);
        err = sow_end_reason(&cg->g, &p, &cg->hist[cg->nhist - 1], &e);
    } else { /* a position given as it is */
        err = sow_end_reason(&cg->g, &cg->pos, NULL, &e);
    }
    if (err)
        return false;
    out->mover_only = cg->g.end_mover_only;
    out->left = 0;
    for (int side = SOW_SOUTH; side <= SOW_NORTH; side++) {
        out->empty[side] = e.empty[side];
        out->swept[side] = e.swept ? e.left[side] : 0;
        out->left += e.swept ? 0 : e.left[side];
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
