/* eval.c - the horizon's evaluation (terms and their reasons: sow/analyse.h). */
#include "eval_internal.h"
#include "rules_inline.h"

/* The weights before the fit, hundredths of a seed, for a board the fit
 * did not cover; the matches that chose them (an ablation per term):
 * doc/experiments.md, "Evaluation weights by match results". The tuzdik's
 * is per seed on the board: a tuzdik banks a share of the seeds still to
 * be sown (doc/experiments.md, "Toguz weights by matches"). */
#define W_ROW 25
#define W_MOBILITY 10
#define W_EXTRA 50
#define W_CAPTURE 50
#define W_TUZDIK 25
#define W_DECIDED 200

/* Weights chosen by matches where they beat both the hand weights and the
 * fit, keyed like eval_fitted (the game table's id and m): Toguz 9x9's
 * fit, on its endgame databases' positions, lost its match, and a grid
 * of fixed-depth matches found these (doc/experiments.md, "Toguz weights
 * by matches"; results/strength.md). Looked up before the fit. */
static const eval_fit eval_matched[] = {
    {.game = SOW_TOGUZ, .m = 9,
     .w = {.row = 10, .mobility = 150, .extra = 0, .capture = 25, .tuzdik = 25, .decided = 200}},
    {.game = SOW_GAME_COUNT},
};

void sow_eval_hand(const sow_game *g, sow_eval_params *out)
{
    out->row = W_ROW;
    out->mobility = W_MOBILITY;
    out->extra = W_EXTRA;
    out->capture = W_CAPTURE;
    out->tuzdik = W_TUZDIK;
    out->decided = W_DECIDED;
    sow_eval_applicable(g, out);
}

void sow_eval_applicable(const sow_game *g, sow_eval_params *w)
{
    if (!g->sweep)
        w->row = 0; /* unswept rows are nobody's (on Chungkala it lost badly) */
    if (!g->ring_has_store)
        w->extra = 0;
    if (!g->tuzdik)
        w->tuzdik = 0;
}

/* The matched entry for g's game and pit count, else the fitted one, else
 * the game's fitted entry for any m, else the hand weights. Keyed by the
 * game table's id and m, never by a name; the terms that do not apply to
 * g's rules stay 0. */
void sow_eval_default(const sow_game *g, sow_eval_params *out)
{
    for (const eval_fit *f = eval_matched; f->game != SOW_GAME_COUNT; f++)
        if (f->game == g->cfg.game && f->m == g->m) {
            *out = f->w;
            sow_eval_applicable(g, out);
            return;
        }
    const eval_fit *any = NULL;
    for (const eval_fit *f = eval_fitted; f->game != SOW_GAME_COUNT; f++) {
        if (f->game != g->cfg.game)
            continue;
        if (f->m == g->m) {
            *out = f->w;
            sow_eval_applicable(g, out);
            return;
        }
        if (f->m == 0)
            any = f;
    }
    if (!any) {
        sow_eval_hand(g, out);
        return;
    }
    *out = any->w;
    sow_eval_applicable(g, out);
}

/* Every seed of the position, `board` of them in the pits: a store past
 * half of it decides the game. */
static int all_seeds(const sow_pos *p, int board)
{
    return board + p->b[SOW_B_STORE] + p->b[SOW_HALF + SOW_B_STORE];
}

/* The half-0 player's (p's mover's) terms; own, opp: the pit masks of p
 * and of p swapped; `board`: the seeds in the pits. */
static void side_terms(const sow_game *g, const sow_pos *p, unsigned own, unsigned opp, int board,
                       int t[SOW_EVAL_TERMS])
{
    t[SOW_EVAL_ROW] = sow_i_row_sum(g, p, 0);
    t[SOW_EVAL_MOBILITY] = __builtin_popcount(own);
    eval_move_terms(g, p, own, opp, &t[SOW_EVAL_EXTRA], &t[SOW_EVAL_CAPTURE]);
    t[SOW_EVAL_TUZDIK] = (p->b[SOW_B_TUZDIK] != 0) * board;
    t[SOW_EVAL_DECIDED] = 2 * p->b[SOW_B_STORE] > all_seeds(p, board);
}

void sow_eval_terms(const sow_game *g, const sow_pos *p, int out[SOW_EVAL_TERMS])
{
    int a[SOW_EVAL_TERMS], b[SOW_EVAL_TERMS], board = sow_i_seeds_on_board(g, p);
    sow_pos q = *p;
    sow_pos_swap(&q);
    unsigned own = sow_i_pit_mask(g, p), opp = sow_i_pit_mask(g, &q);
    side_terms(g, p, own, opp, board, a);
    side_terms(g, &q, opp, own, board, b);
    for (int k = 0; k < SOW_EVAL_TERMS; k++)
        out[k] = a[k] - b[k];
}

/* Hundredths of a seed to score units, rounded half away from zero so that
 * the mirror gets exactly -v. */
static int to_score(const sow_game *g, int hundredths)
{
    int c = hundredths * g->score_scale;
    return c >= 0 ? (c + 50) / 100 : -((-c + 50) / 100);
}

/* The move terms cost the most (each pit's landing): skipped when their
 * weights are 0. */
int sow_eval(const sow_game *g, const sow_pos *p, const sow_eval_params *w)
{
    int board = sow_i_seeds_on_board(g, p), all = all_seeds(p, board), v = 0;
    sow_pos q = *p;
    sow_pos_swap(&q);
    unsigned own = sow_i_pit_mask(g, p), opp = sow_i_pit_mask(g, &q);
    if (w->row)
        v += w->row * (sow_i_row_sum(g, p, 0) - sow_i_row_sum(g, p, 1));
    if (w->mobility)
        v += w->mobility * (__builtin_popcount(own) - __builtin_popcount(opp));
    if (w->extra || w->capture) {
        int e0, c0, e1, c1;
        eval_move_terms(g, p, own, opp, &e0, &c0);
        eval_move_terms(g, &q, opp, own, &e1, &c1);
        v += w->extra * (e0 - e1) + w->capture * (c0 - c1);
    }
    if (w->tuzdik)
        v += w->tuzdik * ((p->b[SOW_B_TUZDIK] != 0) - (p->b[SOW_HALF + SOW_B_TUZDIK] != 0)) *
             board;
    if (w->decided)
        v += w->decided *
             ((2 * p->b[SOW_B_STORE] > all) - (2 * p->b[SOW_HALF + SOW_B_STORE] > all));
    return to_score(g, v);
}
