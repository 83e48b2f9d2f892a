/* eval.c - the horizon's evaluation (terms and their reasons: sow/analyse.h). */
#include "rules_inline.h"
#include "sow/analyse.h"

/* Default weights, hundredths of a seed; the matches that chose them (an
 * ablation per term): doc/experiments.md, "Evaluation weights by match results". */
#define W_ROW 25
#define W_MOBILITY 10
#define W_EXTRA 50
#define W_CAPTURE 50
#define W_TUZDIK 300
#define W_DECIDED 200

void sow_eval_default(const sow_game *g, sow_eval_params *out)
{
    out->row = g->sweep ? W_ROW : 0;
    out->mobility = W_MOBILITY;
    out->extra = g->ring_has_store ? W_EXTRA : 0;
    out->capture = W_CAPTURE;
    out->tuzdik = g->tuzdik ? W_TUZDIK : 0;
    out->decided = W_DECIDED;
}

/* The terms of the half-0 player (the mover of p), hundredths of a seed.
 * `all` is every seed of the game (pits and stores). */
static int side_terms(const sow_game *g, const sow_pos *p, const sow_eval_params *w, int all)
{
    int v = 0;
    if (w->row)
        v += w->row * sow_i_row_sum(g, p, 0);
    if (w->tuzdik && p->b[SOW_B_TUZDIK])
        v += w->tuzdik;
    if (w->decided && 2 * p->b[SOW_B_STORE] > all)
        v += w->decided;
    if (w->mobility)
        v += w->mobility * __builtin_popcount(sow_i_pit_mask(g, p));
    if (w->extra || w->capture) {
        sow_move ms[SOW_MAX_MOVES];
        int n = sow_i_moves(g, p, ms), extra = 0, gain = 0;
        for (int i = 0; i < n; i++) {
            sow_pos q = *p;
            sow_i_make(g, &q, ms[i]);
            bool again = sow_pos_to_move(&q) == sow_pos_to_move(p);
            int banked = q.b[(again ? 0 : SOW_HALF) + SOW_B_STORE] - p->b[SOW_B_STORE];
            if (again && !sow_i_over(g, &q))
                extra++;
            if (banked > gain)
                gain = banked;
        }
        v += w->extra * extra + w->capture * gain;
    }
    return v;
}

int sow_eval(const sow_game *g, const sow_pos *p, const sow_eval_params *w)
{
    int all = sow_i_seeds_on_board(g, p) + p->b[SOW_B_STORE] +
              p->b[SOW_HALF + SOW_B_STORE];
    sow_pos q = *p;
    sow_pos_swap(&q);
    int c = (side_terms(g, p, w, all) - side_terms(g, &q, w, all)) * g->score_scale;
    /* Rounded half away from zero, so that the mirror gets exactly -v. */
    return c >= 0 ? (c + 50) / 100 : -((-c + 50) / 100);
}
