/* rules_inline.h - the hot core of the rules, inlined into perft, search and
 * retrograde analysis. The public, non-inline entry points are in rules.c.
 *
 * Sowing is branch-free SWAR: s seeds from ring hole `start` are laps =
 * s / L full turns of the ring (+laps in every hole, g->lap) plus s % L
 * seeds in the next holes (g->part[start][s % L]); four 64-bit adds in all.
 * The last seed lands in hole (start + s) mod L.
 *
 * Speed notes (measurements: doc/experiments.md, results/perft.md). Every
 * write to a position is a whole-word read-modify-write (sow_i_zero,
 * sow_i_add), never a byte store: the next sowing reads the same bytes back
 * through 64-bit loads, and a load wider than a pending narrow store cannot
 * be forwarded from the store buffer. Reading single bytes is fine. The lap
 * count uses a reciprocal multiply instead of a division, and move
 * generation turns the mover's row into a bit mask of non-empty pits in a
 * few word operations.
 */
#ifndef SOW_RULES_INLINE_H
#define SOW_RULES_INLINE_H

#include <assert.h>

#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"

/* Byte `b` of `p` set to 0, by a word operation (see the speed notes). */
static inline void sow_i_zero(sow_pos *p, int b)
{
    p->w[b >> 3] &= ~((uint64_t)0xff << (8 * (b & 7)));
}

/* Byte `b` of `p` increased by v; the byte cannot overflow into the next
 * because no count exceeds SOW_MAX_TOTAL. */
static inline void sow_i_add(sow_pos *p, int b, unsigned v)
{
    p->w[b >> 3] += (uint64_t)v << (8 * (b & 7));
}

/* Empties byte `from` (holding s seeds) and sows them into the holes after
 * ring hole `start`; returns the ring hole of the last seed. Emptying the
 * origin is folded into the four word adds of the sowing rather than done
 * by a store before them: the compiler may vectorise the adds into one
 * 32-byte load, which cannot be forwarded from a pending 8-byte store
 * (doc/experiments.md). The subtraction cannot borrow: each byte's final
 * count is in 0..255. */
static inline int sow_i_sow(const sow_game *g, sow_pos *p, int from, int start, unsigned s)
{
    unsigned L = (unsigned)g->ring_len;
    uint64_t laps = 0, take = (uint64_t)s << (8 * (from & 7));
    int wf = from >> 3;
    unsigned k = s;
    assert(s <= SOW_MAX_TOTAL && p->b[from] == s);
    if (k >= L) {
        laps = (k * g->ring_recip) >> 16; /* k / L, see game.h */
        k -= (unsigned)laps * L;
    }
    const uint64_t *pm = g->part[start][k];
    p->w[0] += laps * g->lap[0] + pm[0] - (wf == 0 ? take : 0);
    p->w[1] += laps * g->lap[1] + pm[1] - (wf == 1 ? take : 0);
    p->w[2] += laps * g->lap[2] + pm[2] - (wf == 2 ? take : 0);
    p->w[3] += laps * g->lap[3] + pm[3] - (wf == 3 ? take : 0);
    unsigned r = (unsigned)start + k;
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

/* Seeds in the pits of both rows, tuzdiks' and stores' never counted: the
 * level a database and the search's bounds go by (sow_seeds_on_board). */
static inline int sow_i_seeds_on_board(const sow_game *g, const sow_pos *p)
{
    return sow_i_row_sum(g, p, 0) + sow_i_row_sum(g, p, 1);
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
    sow_i_add(p, SOW_B_STORE, (unsigned)sow_i_row_sum(g, p, 0));
    sow_i_add(p, SOW_HALF + SOW_B_STORE, (unsigned)sow_i_row_sum(g, p, 1));
    p->w[0] &= ~g->row_mask[0];
    p->w[1] &= ~g->row_mask[1];
    p->w[2] &= ~g->row_mask[0];
    p->w[3] &= ~g->row_mask[1];
}

/* Kalah/Congkak capture from own pit byte r (which just became 1). */
static inline void sow_i_capture(const sow_game *g, sow_pos *p, int r)
{
    int o = SOW_HALF + g->m - 1 - r;
    unsigned c = p->b[o];
    if (c || g->capture_empty) {
        sow_i_add(p, SOW_B_STORE, 1 + c);
        sow_i_zero(p, r);
        sow_i_zero(p, o);
    }
}

/* Toguz: the ring hole after which s seeds taken from own pit i are sown,
 * the hole before it (the origin gets the first seed) unless a singleton.
 * The other games sow from the hole after the pit: start i. */
static inline int sow_i_toguz_start(const sow_game *g, int i, unsigned s)
{
    return s == 1 ? i : i == 0 ? g->ring_len - 1 : i - 1;
}

/* Toguz: sow from own pit i (origin first unless a singleton), move seeds
 * that fell into tuzdiks to their owners' kazans; returns the ring hole of
 * the last seed. */
static inline int sow_i_toguz_sow(const sow_game *g, sow_pos *p, int i)
{
    unsigned s = p->b[i];
    int r = sow_i_sow(g, p, i, sow_i_toguz_start(g, i, s), s);
    int t = p->b[SOW_B_TUZDIK];
    if (t) {
        sow_i_add(p, SOW_B_STORE, p->b[SOW_HALF + t - 1]);
        sow_i_zero(p, SOW_HALF + t - 1);
    }
    t = p->b[SOW_HALF + SOW_B_TUZDIK];
    if (t) {
        sow_i_add(p, SOW_HALF + SOW_B_STORE, p->b[t - 1]);
        sow_i_zero(p, t - 1);
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

/* One sowing and what its last seed does, without the final sweep: the
 * position the end rule looks at (sow_end_reason needs it unswept). */
static inline __attribute__((always_inline)) void
sow_i_turn_as(const sow_game *g, sow_pos *p, sow_move mv, sow_landing land)
{
    int i = mv & SOW_MOVE_PIT_MASK;
    int m = g->m;
    bool again = false;
    assert(i < m && p->b[i] > 0 && land == g->landing);

    if (land == SOW_LAND_TOGUZ) {
        int r = sow_i_toguz_sow(g, p, i);
        int o = g->ring_byte[r];
        if (o >= SOW_HALF && o != SOW_HALF - 1 + p->b[SOW_B_TUZDIK]) {
            unsigned c = p->b[o];
            if ((c & 1) == 0) {
                sow_i_add(p, SOW_B_STORE, c);
                sow_i_zero(p, o);
            } else if (mv & SOW_MOVE_CLAIM) {
                assert(c == 3 && sow_i_claim_ok(g, p, o));
                sow_i_add(p, SOW_B_TUZDIK, (unsigned)(o - SOW_HALF + 1)); /* was 0 */
                sow_i_add(p, SOW_B_STORE, 3);
                sow_i_zero(p, o);
            }
        }
    } else {
        int r = sow_i_sow(g, p, i, i, p->b[i]);
        if (land == SOW_LAND_RELAY) {
            /* An occupied landing hole (either row) is picked up and sown on;
             * terminates because each turn of the ring stores a seed. */
            while (r != m && p->b[g->ring_byte[r]] > 1) {
                int o = g->ring_byte[r];
                r = sow_i_sow(g, p, o, r, p->b[o]);
            }
        }
        if (r == m)
            again = true;
        else if (r < m && land != SOW_LAND_PLAIN && p->b[r] == 1)
            sow_i_capture(g, p, r);
    }
    if (!again)
        sow_pos_swap(p);
}

/* sow_i_make with the landing rule passed in: callers that know it at
 * compile time (perft) get code for their game only. land == g->landing. */
static inline __attribute__((always_inline)) void
sow_i_make_as(const sow_game *g, sow_pos *p, sow_move mv, sow_landing land)
{
    sow_i_turn_as(g, p, mv, land);
    if (g->sweep && sow_i_over(g, p))
        sow_i_sweep(g, p);
}

static inline void sow_i_make(const sow_game *g, sow_pos *p, sow_move mv)
{
    sow_i_make_as(g, p, mv, g->landing);
}

/* Makes the compiler believe *p is read, so that a make whose result is
 * unused (perft's last ply) is still performed. Emits no instruction of
 * its own. */
static inline void sow_i_keep(const sow_pos *p)
{
    __asm__ volatile("" : : "r"(p->w[0]), "r"(p->w[1]), "r"(p->w[2]), "r"(p->w[3]));
}

/* Bit k set iff the mover's pit k + 1 is non-empty (k < m). Pits above m
 * hold 0 anyway; the row mask costs one AND and keeps the result right even
 * for a position built without that care. Byte-wise "non-zero" without
 * carries between bytes: adding 0x7f to the low 7 bits sets bit 7 iff they
 * are non-zero, or-ing x adds the bytes whose bit 7 was already set; the
 * multiply then gathers bit 8k into bit 56 + k (no two partial products
 * meet there). */
static inline unsigned sow_i_pit_mask(const sow_game *g, const sow_pos *p)
{
    const uint64_t lo7 = 0x7f7f7f7f7f7f7f7full;
    uint64_t x = p->w[0] & g->row_mask[0];
    uint64_t nz = (((x & lo7) + lo7) | x) & ~lo7;
    unsigned mask = (unsigned)(((nz >> 7) * 0x0102040810204080ull) >> 56);
    return mask | (unsigned)((p->w[1] & g->row_mask[1]) != 0) << 8;
}

static inline int sow_i_moves(const sow_game *g, const sow_pos *p, sow_move *out)
{
    if (sow_i_over(g, p))
        return 0;
    int n = 0;
    bool claims = g->tuzdik && p->b[SOW_B_TUZDIK] == 0;
    for (unsigned mask = sow_i_pit_mask(g, p); mask; mask &= mask - 1) {
        int i = __builtin_ctz(mask);
        out[n++] = (sow_move)i;
        if (claims) {
            /* Where the last seed lands and what it finds there, without
             * sowing: with `laps` full turns and k more seeds, the landing
             * hole got laps + (k > 0) seeds. A claimable pit is in the
             * opponent's row, which holds no tuzdik while the mover has none,
             * so no seed there went to a kazan. */
            unsigned s = p->b[i], L = (unsigned)g->ring_len, laps = 0, k = s;
            if (k >= L) {
                laps = (k * g->ring_recip) >> 16;
                k -= laps * L;
            }
            unsigned r = (s == 1 ? (unsigned)i : (i == 0 ? L - 1 : (unsigned)i - 1)) + k;
            int o = g->ring_byte[r >= L ? r - L : r];
            if (o >= SOW_HALF && p->b[o] + laps + (k > 0) == 3 && sow_i_claim_ok(g, p, o))
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
