/* eval_internal.h - the evaluation's parts shared by eval.c, its move
 * terms (eval_moves.c) and its fitted weights (eval_fitted.c, generated
 * by scripts/eval-fit). */
#ifndef SOW_EVAL_INTERNAL_H
#define SOW_EVAL_INTERNAL_H

#include <stdbool.h>

#include "sow/analyse.h"
#include "sow/game.h"
#include "sow/position.h"

/* The mover's move terms of p: *extra, her moves that end in her store
 * (and leave the game on); *gain, the most seeds one move banks (sweep
 * included). own, opp: the pit masks (sow_i_pit_mask) of p and of p
 * swapped, which the caller has. */
void eval_move_terms(const sow_game *g, const sow_pos *p, unsigned own, unsigned opp, int *extra,
                     int *gain);

/* Weights fitted against exact values for one game's boards of m pits
 * (m 0: any m). The table ends with an entry of game SOW_GAME_COUNT. */
typedef struct eval_fit {
    sow_game_id game;
    int m;
    sow_eval_params w;
    int positions;        /* the fit's positions */
    double rmse_before;   /* seeds, today's weights before the fit */
    double rmse_after;    /* seeds, the fitted weights (held-out half) */
} eval_fit;

extern const eval_fit eval_fitted[];

#endif
