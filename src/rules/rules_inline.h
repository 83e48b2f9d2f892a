/* rules_inline.h - the hot core of the rules, inlined into perft, search and
 * retrograde analysis. The public, non-inline entry points are in rules.c.
 *
 * Sowing is branch-free SWAR: s seeds from ring hole `start` are laps =
 * s / L full turns of the ring (+laps in every hole, g->lap) plus s % L
 * seeds in the next holes (g->part[start][s % L]); four 64-bit adds in all.
 * The last seed lands in hole (start + s) mod L.
 */
#ifndef SOW_RULES_INLINE_H
#define SOW_RULES_INLINE_H

#include <assert.h>

#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"

/* Sows s seeds into the holes after ring hole `start`; returns the ring hole
 * of the last seed. The caller has emptied the origin. */
static inline int sow_i_sow(const sow_game *g, sow_pos *p, int start, unsigned s)
{
    unsigned L = (unsigned)g->ring_len;
    uint64_t laps = 0;
    if (s >= L) {
        laps = s / L;
        s -= (unsigned)laps * L;
    }
    const uint64_t *pm = g->part[start][s];
    p->w[0] += laps * g->lap[0] + pm[0];
    p->w[1] += laps * g->lap[1] + pm[1];
    p->w[2] += laps * g->lap[2] + pm[2];
    p->w[3] += laps * g->lap[3] + pm[3];
    unsigned r = (unsigned)start + s;
    return (int)(r >= L ? r - L : r);
}

static inline bool sow_i_row_empty(const sow_game *g, const sow_pos *p, int half)
{
    return ((p->w[2 * half] & g->row_mask[0]) | (p->w[2 * half + 1] & g->row_mask[1])) == 0;
}

/* Seeds in a half's row. Sums bytes by multiplication: exact because no
 * sum can exceed SOW_MAX_TOTAL = 255. */
static inline int sow_i_row_sum(const sow_game *g, const sow_pos *p, int half)
{
    uint64_t lo = p->w[2 * half] & g->row_mask[0];
    uint64_t hi = p->w[2 * half + 1] & g->row_mask[1];
    return (int)((lo * 0x0101010101010101ull) >> 56) + (int)(hi & 0xff);
}

static inline bool sow_i_over(const sow_game *g, const sow_pos *p)
{
    if (sow_i_row_empty(g, p, 0))
        return true;
    return !g->end_mover_only && sow_i_row_empty(g, p, 1);
}

/* The final sweep: each player takes the seeds of her own row. */
static inline void sow_i_sweep(const sow_game *g, sow_pos *p)
{
    p->b[SOW_B_STORE] += (uint8_t)sow_i_row_sum(g, p, 0);
    p->b[SOW_HALF + SOW_B_STORE] += (uint8_t)sow_i_row_sum(g, p, 1);
    p->w[0] &= ~g->row_mask[0];
    p->w[1] &= ~g->row_mask[1];
    p->w[2] &= ~g->row_mask[0];
    p->w[3] &= ~g->row_mask[1];
}

/* Kalah/Congkak capture from own pit byte r (which just became 1). */
static inline void sow_i_capture(const sow_game *g, sow_pos *p, int r)
{
    int o = SOW_HALF + g->m - 1 - r;
    if (p->b[o] || g->capture_empty) {
        p->b[SOW_B_STORE] += (uint8_t)(1 + p->b[o]);
        p->b[r] = 0;
        p->b[o] = 0;
    }
}

/* Toguz: sow from own pit i (origin first unless a singleton), move stones
 * that fell into tuzdiks to their owners' kazans; returns the ring hole of
 * the last stone. */
static inline int sow_i_toguz_sow(const sow_game *g, sow_pos *p, int i)
{
    unsigned s = p->b[i];
    p->b[i] = 0;
    int start = s == 1 ? i : (i == 0 ? g->ring_len - 1 : i - 1);
    int r = sow_i_sow(g, p, start, s);
    int t = p->b[SOW_B_TUZDIK];
    if (t) {
        p->b[SOW_B_STORE] += p->b[SOW_HALF + t - 1];
        p->b[SOW_HALF + t - 1] = 0;
    }
    t = p->b[SOW_HALF + SOW_B_TUZDIK];
    if (t) {
        p->b[SOW_HALF + SOW_B_STORE] += p->b[t - 1];
        p->b[t - 1] = 0;
    }
    return r;
}

/* May the mover claim opponent pit byte `o` (count already 3)? */
static inline bool sow_i_claim_ok(const sow_game *g, const sow_pos *p, int o)
{
    int pit = o - SOW_HALF + 1;
    return g->tuzdik && p->b[SOW_B_TUZDIK] == 0 && pit != g->m &&
           pit != p->b[SOW_HALF + SOW_B_TUZDIK];
}

static inline void sow_i_make(const sow_game *g, sow_pos *p, sow_move mv)
{
    int i = mv & SOW_MOVE_PIT_MASK;
    int m = g->m;
    bool again = false;
    assert(i < m && p->b[i] > 0);

    if (g->landing == SOW_LAND_TOGUZ) {
        int r = sow_i_toguz_sow(g, p, i);
        int o = g->ring_byte[r];
        if (o >= SOW_HALF && o != SOW_HALF - 1 + p->b[SOW_B_TUZDIK]) {
            unsigned c = p->b[o];
            if ((c & 1) == 0) {
                p->b[SOW_B_STORE] += (uint8_t)c;
                p->b[o] = 0;
            } else if (mv & SOW_MOVE_CLAIM) {
                assert(c == 3 && sow_i_claim_ok(g, p, o));
                p->b[SOW_B_TUZDIK] = (uint8_t)(o - SOW_HALF + 1);
                p->b[SOW_B_STORE] += 3;
                p->b[o] = 0;
            }
        }
    } else {
        unsigned s = p->b[i];
        p->b[i] = 0;
        int r = sow_i_sow(g, p, i, s);
        if (g->landing == SOW_LAND_RELAY) {
            /* An occupied landing hole (either row) is picked up and sown on;
             * terminates because each turn of the ring stores a seed. */
            while (r != m && p->b[g->ring_byte[r]] > 1) {
                int o = g->ring_byte[r];
                unsigned c = p->b[o];
                p->b[o] = 0;
                r = sow_i_sow(g, p, r, c);
            }
        }
        if (r == m)
            again = true;
        else if (r < m && g->landing != SOW_LAND_PLAIN && p->b[r] == 1)
            sow_i_capture(g, p, r);
    }
    if (!again)
        sow_pos_swap(p);
    if (g->sweep && sow_i_over(g, p))
        sow_i_sweep(g, p);
}

static inline int sow_i_moves(const sow_game *g, const sow_pos *p, sow_move *out)
{
    if (sow_i_over(g, p))
        return 0;
    int n = 0;
    bool claims = g->tuzdik && p->b[SOW_B_TUZDIK] == 0;
    for (int i = 0; i < g->m; i++) {
        if (!p->b[i])
            continue;
        out[n++] = (sow_move)i;
        if (claims) {
            sow_pos q = *p;
            int o = g->ring_byte[sow_i_toguz_sow(g, &q, i)];
            if (o >= SOW_HALF && q.b[o] == 3 && sow_i_claim_ok(g, &q, o))
                out[n++] = (sow_move)(i | SOW_MOVE_CLAIM);
        }
    }
    return n;
}

static inline int sow_i_terminal_score(const sow_game *g, const sow_pos *p)
{
    int margin = p->b[SOW_B_STORE] - p->b[SOW_HALF + SOW_B_STORE];
    int own = sow_i_row_sum(g, p, 0), opp = sow_i_row_sum(g, p, 1);
    if (g->sweep)
        margin += own - opp;
    int tb = g->tiebreak ? (own > 0) - (opp > 0) : 0;
    return margin * g->score_scale + tb;
}

#endif
