/* rules.c - the public, checked entry points to the rules. */
#include "sow/rules.h"

#include "rules_inline.h"

int sow_moves(const sow_game *g, const sow_pos *p, sow_move out[SOW_MAX_MOVES])
{
    return sow_i_moves(g, p, out);
}

void sow_make(const sow_game *g, sow_pos *p, sow_move mv)
{
    sow_i_make(g, p, mv);
}

sow_err sow_play(const sow_game *g, sow_pos *p, sow_move mv)
{
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, ms);
    if (n == 0)
        return SOW_E_OVER;
    for (int k = 0; k < n; k++)
        if (ms[k] == mv) {
            sow_i_make(g, p, mv);
            return SOW_OK;
        }
    return SOW_E_MOVE;
}

int sow_seeds_on_board(const sow_game *g, const sow_pos *p)
{
    return sow_i_seeds_on_board(g, p);
}

bool sow_over(const sow_game *g, const sow_pos *p)
{
    return sow_i_over(g, p);
}

int sow_terminal_score(const sow_game *g, const sow_pos *p)
{
    return sow_i_terminal_score(g, p);
}

int sow_perpetual_score(const sow_game *g, const sow_pos *p)
{
    return (p->b[SOW_B_STORE] - p->b[SOW_HALF + SOW_B_STORE]) * g->score_scale;
}

int sow_final_margin(const sow_game *g, const sow_pos *p)
{
    int mover = sow_score_margin(g, sow_i_terminal_score(g, p));
    return sow_pos_to_move(p) == SOW_SOUTH ? mover : -mover;
}

int sow_score_margin(const sow_game *g, int score)
{
    if (g->score_scale == 1)
        return score;
    int t = score + 1; /* floor division by the scale */
    return t >= 0 ? t / g->score_scale : -((-t + g->score_scale - 1) / g->score_scale);
}

sow_err sow_position_check(const sow_game *g, const sow_pos *p)
{
    int m = g->m, total = 0;
    if (p->b[SOW_B_FLAGS] > 1 || p->b[SOW_HALF + SOW_B_FLAGS] != (p->b[SOW_B_FLAGS] ^ 1))
        return SOW_E_POSITION;
    for (int h = 0; h < 2; h++) {
        const uint8_t *b = p->b + SOW_HALF * h;
        for (int k = m; k < SOW_B_TUZDIK; k++)
            if (b[k])
                return SOW_E_POSITION;
        for (int k = 0; k < m; k++)
            total += b[k];
        total += b[SOW_B_STORE];
        int t = b[SOW_B_TUZDIK];
        if (t) {
            const uint8_t *other = p->b + SOW_HALF * (1 - h);
            if (!g->tuzdik || t > m || t == m || other[t - 1] != 0 ||
                other[SOW_B_TUZDIK] == t)
                return SOW_E_POSITION;
        }
    }
    if (total > SOW_MAX_TOTAL)
        return SOW_E_POSITION;
    return SOW_OK;
}

/* perft for depth >= 1 with the landing rule a compile-time constant: once
 * inlined into the four perft_* below, sow_i_make_as loses the branches and
 * code of the other games and is inlined itself. At depth 1 every move is
 * still made (perft counts make-moves, no bulk counting); only the call to
 * depth 0 is saved, and sow_i_keep stops the compiler from deleting the make
 * whose result nothing reads. */
#define SOW_PERFT_FOR(name, land)                                         \
    static uint64_t name(const sow_game *g, const sow_pos *p, int depth)  \
    {                                                                     \
        sow_move ms[SOW_MAX_MOVES];                                       \
        int n = sow_i_moves(g, p, ms);                                    \
        uint64_t nodes = 0;                                               \
        for (int k = 0; k < n; k++) {                                     \
            sow_pos q = *p;                                               \
            sow_i_make_as(g, &q, ms[k], land);                            \
            if (depth == 1)                                               \
                sow_i_keep(&q);                                             \
            else                                                          \
                nodes += name(g, &q, depth - 1);                          \
        }                                                                 \
        return depth == 1 ? (uint64_t)n : nodes;                          \
    }

SOW_PERFT_FOR(perft_plain, SOW_LAND_PLAIN)
SOW_PERFT_FOR(perft_capture, SOW_LAND_CAPTURE)
SOW_PERFT_FOR(perft_relay, SOW_LAND_RELAY)
SOW_PERFT_FOR(perft_toguz, SOW_LAND_TOGUZ)

uint64_t sow_perft(const sow_game *g, const sow_pos *p, int depth)
{
    if (depth <= 0)
        return depth == 0;
    switch (g->landing) {
    case SOW_LAND_PLAIN:
        return perft_plain(g, p, depth);
    case SOW_LAND_CAPTURE:
        return perft_capture(g, p, depth);
    case SOW_LAND_RELAY:
        return perft_relay(g, p, depth);
    default:
        return perft_toguz(g, p, depth);
    }
}
