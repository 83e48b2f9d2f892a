/* probe.c - a whole root from a database: its value and every move's, the
 * pie rule included (Fathom's tb_probe_root). */
#include <limits.h>

#include "sow/db.h"
#include "sow/rules.h"

/* Score of q for its mover: the final score if over, else stores + db. */
static int score_of(const sow_game *g, const sow_db *db, const sow_pos *q, uint64_t *probes)
{
    if (sow_over(g, q))
        return sow_terminal_score(g, q);
    (*probes)++;
    return (q->b[SOW_B_STORE] - q->b[SOW_HALF + SOW_B_STORE]) * g->score_scale +
           sow_db_probe(db, q);
}

/* Pie rule: best for South over the completions of her opening turn from q
 * of -|v| at its end (doc/rules.md; as sow_ref_solve does). */
static int pie_turn(const sow_game *g, const sow_db *db, const sow_pos *q, uint64_t *probes)
{
    if (sow_over(g, q) || sow_pos_to_move(q) != SOW_SOUTH) {
        int v = score_of(g, db, q, probes);
        return v < 0 ? v : -v;
    }
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_moves(g, q, ms), best = INT_MIN;
    for (int k = 0; k < n; k++) {
        sow_pos t = *q;
        sow_make(g, &t, ms[k]);
        int s = pie_turn(g, db, &t, probes);
        if (s > best)
            best = s;
    }
    return best;
}

sow_err sow_db_probe_root(const sow_db *db, const sow_game *g, const sow_pos *pos,
                          bool pie_opening, sow_solution *out)
{
    if (sow_position_check(g, pos) != SOW_OK)
        return SOW_E_POSITION;
    bool over = sow_over(g, pos);
    if (!over && (!db || db->m != g->m || db->score_scale != g->score_scale ||
                  db->toguz != (g->landing == SOW_LAND_TOGUZ) ||
                  sow_seeds_on_board(g, pos) > db->max_seeds ||
                  !sow_db_covers(db, g, sow_seeds_on_board(g, pos))))
        return SOW_E_ARG;
    if (pie_opening && !over && (!g->pie || sow_pos_to_move(pos) != SOW_SOUTH))
        return SOW_E_ARG;
    sow_solution *s = out;
    s->best = -1;
    s->nmoves = sow_moves(g, pos, s->moves);
    uint64_t probes = 0;
    if (s->nmoves == 0) {
        s->score = sow_terminal_score(g, pos);
    } else {
        s->score = INT_MIN;
        for (int i = 0; i < s->nmoves; i++) {
            sow_pos q = *pos;
            sow_make(g, &q, s->moves[i]);
            int v;
            if (pie_opening) {
                v = pie_turn(g, db, &q, &probes);
            } else {
                v = score_of(g, db, &q, &probes);
                if (sow_pos_to_move(&q) != sow_pos_to_move(pos))
                    v = -v;
            }
            s->move_scores[i] = v;
            if (v > s->score) {
                s->score = v;
                s->best = i;
            }
        }
    }
    s->value = sow_score_margin(g, s->score);
    s->outcome = sow_outcome_of(s->score);
    s->nodes = probes;
    return SOW_OK;
}
