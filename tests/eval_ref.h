/* eval_ref.h - the evaluation as it was before the landing holes (every
 * move made, through the public rules API; the tuzdik's term per seed on
 * the board since 2026-12-06): the definition that
 * tests/test_eval.c checks sow_eval against and that bench/eval_bench.c
 * times it against. Test and bench code only, never the library. */
#ifndef SOW_TESTS_EVAL_REF_H
#define SOW_TESTS_EVAL_REF_H

#include <stdbool.h>

#include "sow/analyse.h"
#include "sow/rules.h"

/* One side's terms, in hundredths of a seed; all: every seed in play. */
static inline int eval_ref_side(const sow_game *g, const sow_pos *p, const sow_eval_params *w,
                                int all)
{
    int v = 0, row = 0, mob = 0;
    for (int i = 0; i < g->m; i++) {
        row += p->b[i];
        mob += p->b[i] > 0;
    }
    v += w->row * row + w->mobility * mob;
    if (w->tuzdik && p->b[SOW_B_TUZDIK]) /* a share of every seed still to be sown */
        v += w->tuzdik * sow_seeds_on_board(g, p);
    if (w->decided && 2 * p->b[SOW_B_STORE] > all)
        v += w->decided;
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_over(g, p) ? 0 : sow_moves(g, p, ms), extra = 0, gain = 0;
    for (int i = 0; i < n; i++) {
        sow_pos q = *p;
        sow_make(g, &q, ms[i]);
        bool again = sow_pos_to_move(&q) == sow_pos_to_move(p);
        int banked = q.b[(again ? 0 : SOW_HALF) + SOW_B_STORE] - p->b[SOW_B_STORE];
        if (again && !sow_over(g, &q))
            extra++;
        if (banked > gain)
            gain = banked;
    }
    return v + w->extra * extra + w->capture * gain;
}

/* The mover's evaluation in score units, rounded half away from zero. */
static inline int eval_ref(const sow_game *g, const sow_pos *p, const sow_eval_params *w)
{
    int all = sow_seeds_on_board(g, p) + p->b[SOW_B_STORE] + p->b[SOW_HALF + SOW_B_STORE];
    sow_pos q = *p;
    sow_pos_swap(&q);
    int c = (eval_ref_side(g, p, w, all) - eval_ref_side(g, &q, w, all)) * g->score_scale;
    return c >= 0 ? (c + 50) / 100 : -((-c + 50) / 100);
}

#endif
