/* sow/index.h - the perfect index of boards (pit counts), shared by the
 * databases (sow/retro.h, sow/db.h) and the search's exact table keys.
 *
 * Board key. In these games the rest of the game does not depend on the
 * stores (doc/retrograde.md), and sow_pos is already mover-relative, so a
 * database key is just the 2m pit counts, read in this order:
 *
 *   j:      0 .. m-1                m .. 2m-1
 *   pit:    mover's pits 1..m       opponent's pits 1..m
 *   byte:   b[0] .. b[m-1]          b[16] .. b[16+m-1]
 *
 * Index (doc/retrograde.md). A board c[0..2m) with k seeds is a
 * composition of k into P = 2m parts; stars and bars turn it into the
 * (P-1)-subset of bar positions b_j = S_j + j (S_j = c_0 + .. + c_j, the
 * prefix sums), and the combinatorial number system ranks that subset:
 *
 *     rank(c) = sum_{j=0}^{P-2} C(S_j + j, j + 1)
 *
 * a bijection onto 0 .. C(k+P-1, P-1) - 1 (colexicographic order of the bar
 * subsets). Rank 0 has every seed in the last pit; sow_index_next steps to
 * rank + 1 in O(1) amortised.
 *
 * Code over all seed counts (sow_index_code_pos). Boards with fewer seeds
 * come first: there are C(k-1+P, P) boards of P pits with fewer than k
 * seeds (compositions of k-1 into P+1 parts, the extra part being the
 * seeds missing), so
 *
 *     code(c) = C(k-1+P, P) + rank(c),   k = c_0 + .. + c_{P-1}
 *
 * is a bijection from the boards with at most K seeds onto
 * 0 .. C(K+P, P) - 1.
 */
#ifndef SOW_INDEX_H
#define SOW_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/position.h"

#define SOW_IDX_MAX_PARTS (2 * SOW_MAX_PITS)

/* The ranking tables for P = 2m parts. term[j][s] = C(s + j, j + 1),
 * saturated at UINT64_MAX where it would overflow (such seed counts are
 * refused long before: their tables could not be allocated). */
typedef struct sow_index {
    int parts;
    uint64_t term[SOW_IDX_MAX_PARTS - 1][SOW_MAX_TOTAL + 1];
    /* below[k]: boards with fewer than k seeds, C(k-1+parts, parts),
     * saturated like term */
    uint64_t below[SOW_MAX_TOTAL + 2];
    /* The terms again, seed-major, for boards of up to 8 pits a side:
     * cell[s][j] = term[j][s] (the mover's row, j < m) and cell[s][8 + j] =
     * term[m + j][s] (the opponent's, j < m - 1), 0 in the other columns.
     * A board's lookups then fall in a few KB of consecutive lines (term's
     * rows lie 2 KB apart and share cache sets). */
    uint64_t cell[SOW_MAX_TOTAL + 1][16];
} sow_index;

void sow_index_init(sow_index *ix, int parts);

/* Boards with exactly k seeds on `parts` pits: C(k+parts-1, parts-1);
 * UINT64_MAX if that does not fit 64 bits. */
uint64_t sow_index_count(int parts, int k);

/* The byte-wise prefix sums of w: byte j of the result is w_0 + .. + w_j,
 * bytes above j playing no part. No byte carries into the next as long as
 * the sums stay below 256, which a board's seeds do (SOW_MAX_TOTAL). */
static inline uint64_t sow_index_prefix_(uint64_t w)
{
    return w * 0x0101010101010101ull;
}

/* sow_index_rank_pos for m <= 8 pits a side: both rows' prefix sums at
 * once (S_j; then s_own + T_j, the opponent's row after the mover's), a
 * multiply each, then the lookups. Inlined with m constant, its loops
 * unroll to 2m - 1 independent lookups.
 *
 * The rank is code(A) + base(sA, B): its first m lookups are the code of
 * the mover's row A among rows of m pits with at most k seeds (*a, if
 * asked). *b, if asked, is the code of the opponent's row B the same
 * way: m more lookups in the same cached table (a packed database level
 * needs both: sow/db.h). A NULL pointer, constant once inlined, costs
 * nothing. */
static inline __attribute__((always_inline)) uint64_t
sow_index_rank_parts_m_(const sow_index *ix, const sow_pos *p, unsigned *k, uint64_t *a,
                        uint64_t *b, int m)
{
    uint64_t own = sow_index_prefix_(p->w[0]);
    uint64_t s_own = (own >> (8 * (m - 1))) & 0xff;
    uint64_t bt = sow_index_prefix_(p->w[2]);
    uint64_t opp = bt + s_own * 0x0101010101010101ull;
    /* Asked for code(A), the two rows' lookups are summed apart and
     * added last; else in one chain: each form is the faster where it is
     * used (the same code as the two functions this one replaced). */
    uint64_t ca = 0, cb = 0, r = 0;
    for (int j = 0; j < m; j++) {
        uint64_t x = ix->cell[(own >> (8 * j)) & 0xff][j];
        if (a)
            ca += x;
        else
            r += x;
        if (b)
            cb += ix->cell[(bt >> (8 * j)) & 0xff][j];
    }
    for (int j = 0; j < m - 1; j++)
        r += ix->cell[(opp >> (8 * j)) & 0xff][8 + j];
    if (a)
        *a = ca, r += ca;
    if (b)
        *b = cb;
    *k = (unsigned)(opp >> (8 * (m - 1))) & 0xff;
    return r;
}

static inline __attribute__((always_inline)) uint64_t
sow_index_rank_pos_m_(const sow_index *ix, const sow_pos *p, unsigned *k, int m)
{
    return sow_index_rank_parts_m_(ix, p, k, NULL, NULL, m);
}

/* Rank of the board of p (stores, tuzdik and flags ignored); *k gets its
 * seed count. Hot path of the search's keys, of the build and of
 * sow_db_probe. */
static inline uint64_t sow_index_rank_pos(const sow_index *ix, const sow_pos *p, unsigned *k)
{
    int m = ix->parts / 2;
    switch (m) {
    case 1: return sow_index_rank_pos_m_(ix, p, k, 1);
    case 2: return sow_index_rank_pos_m_(ix, p, k, 2);
    case 3: return sow_index_rank_pos_m_(ix, p, k, 3);
    case 4: return sow_index_rank_pos_m_(ix, p, k, 4);
    case 5: return sow_index_rank_pos_m_(ix, p, k, 5);
    case 6: return sow_index_rank_pos_m_(ix, p, k, 6);
    case 7: return sow_index_rank_pos_m_(ix, p, k, 7);
    case 8: return sow_index_rank_pos_m_(ix, p, k, 8);
    default: break;
    }
    uint64_t r = 0;
    unsigned s = 0;
    for (int j = 0; j < m; j++) {
        s += p->b[j];
        r += ix->term[j][s];
    }
    for (int j = 0; j < m - 1; j++) {
        s += p->b[SOW_HALF + j];
        r += ix->term[m + j][s];
    }
    *k = s + p->b[SOW_HALF + m - 1];
    return r;
}

/* The code of the board of p among the boards of every seed count (see
 * above). */
static inline uint64_t sow_index_code_pos(const sow_index *ix, const sow_pos *p)
{
    unsigned k;
    uint64_t r = sow_index_rank_pos(ix, p, &k);
    return ix->below[k] + r;
}

/* Boards with at most k seeds on `parts` pits, C(k+parts, parts): the
 * number of codes; UINT64_MAX if that does not fit 64 bits. */
uint64_t sow_index_codes(int parts, int k);

/* The board of rank r among those with k seeds (r < sow_index_count). */
void sow_index_unrank(const sow_index *ix, int k, uint64_t r, uint8_t *c);

/* Steps c to the board of the next rank (same k); false after the last. */
static inline bool sow_index_next(int parts, uint8_t *c)
{
    /* Increment the first bar that can move (b_j + 1 < b_{j+1}, i.e.
     * c[j+1] > 0) and pack the bars below it to the bottom. */
    unsigned s = 0;
    for (int j = 0; j < parts - 1; j++) {
        s += c[j];
        if (c[j + 1]) {
            c[j + 1]--;
            for (int i = 0; i < j; i++)
                c[i] = 0;
            c[j] = (uint8_t)(s + 1);
            return true;
        }
    }
    return false;
}

/* ---- Toguz Kumalak: tuzdik states (doc/retrograde.md, "Toguz") --------
 *
 * A Toguz board also has a tuzdik state: t0 = the mover's tuzdik (a pit
 * 1..m-1 of the opponent's row, byte SOW_B_TUZDIK of half 0), t1 = the
 * opponent's (a pit of the mover's row); 0 = none; t0 != t1 unless both
 * are 0. A tuzdik always holds 0 seeds, so the key leaves it out: the
 * P = 2m - (t0 > 0) - (t1 > 0) other pits, in the board key's order, ranked
 * as sow_index_rank with P parts (term[] does not depend on the parts).
 * A level (k seeds) is the blocks of the states, by class j = number of
 * tuzdiks, then within class 1 (t0, 0) for t0 = 1..m-1 and (0, t1) for
 * t1 = 1..m-1, within class 2 (t0, t1) in lexicographic order:
 *
 *   | (0,0): C(k+2m-1,2m-1) | 2(m-1) blocks of C(k+2m-2,2m-2) | (m-1)(m-2) of C(k+2m-3,2m-3) |
 *
 * `no-tuzdik` boards have the first block only. m >= 2. */

/* Where the block of state (t0, t1) starts in level k; ix has 2m parts. */
static inline uint64_t sow_toguz_block(const sow_index *ix, int k, int t0, int t1)
{
    int m = ix->parts / 2;
    int cls = (t0 > 0) + (t1 > 0);
    /* C(k+P-1, P-1) = term[P-2][k+1] */
    uint64_t i = cls == 0 ? 0 : cls == 1 ? (t0 ? (uint64_t)t0 - 1 : (uint64_t)(m - 2 + t1))
                                         : (uint64_t)((t0 - 1) * (m - 2) + t1 - 1 - (t1 > t0));
    uint64_t off = 0;
    if (cls >= 1)
        off += ix->term[2 * m - 2][k + 1];
    if (cls >= 2)
        off += 2 * (uint64_t)(m - 1) * ix->term[2 * m - 3][k + 1];
    return off + i * ix->term[2 * m - cls - 2][k + 1];
}

/* The pits of p other than tuzdiks, in key order, into c; returns P. */
static inline int sow_toguz_pits(int m, const sow_pos *p, uint8_t *c)
{
    int t0 = p->b[SOW_B_TUZDIK], t1 = p->b[SOW_HALF + SOW_B_TUZDIK], n = 0;
    for (int j = 0; j < m; j++)
        if (j != t1 - 1)
            c[n++] = p->b[j];
    for (int j = 0; j < m; j++)
        if (j != t0 - 1)
            c[n++] = p->b[SOW_HALF + j];
    return n;
}

/* Index of p within its level (block + rank); *k gets its seed count. */
static inline uint64_t sow_toguz_rank_pos(const sow_index *ix, const sow_pos *p, unsigned *k)
{
    uint8_t c[SOW_IDX_MAX_PARTS];
    int P = sow_toguz_pits(ix->parts / 2, p, c);
    uint64_t r = 0;
    unsigned s = 0;
    for (int j = 0; j < P - 1; j++) {
        s += c[j];
        r += ix->term[j][s];
    }
    *k = s + c[P - 1];
    return sow_toguz_block(ix, (int)*k, p->b[SOW_B_TUZDIK], p->b[SOW_HALF + SOW_B_TUZDIK]) + r;
}

/* Entries of level k (m >= 2): all states, or only (0,0) without tuzdiks;
 * UINT64_MAX if that does not fit. */
uint64_t sow_toguz_level_count(int m, bool tuzdik, int k);

/* ---- Experimental: for tests and tools; may change without notice -----
 * (seen with SOW_EXPERIMENTAL defined: sow/version.h, "API tiers") */
#ifdef SOW_EXPERIMENTAL

/* Rank of c[0..parts) (any k). */
static inline uint64_t sow_index_rank(const sow_index *ix, const uint8_t *c)
{
    uint64_t r = 0;
    unsigned s = 0;
    for (int j = 0; j < ix->parts - 1; j++) {
        s += c[j];
        r += ix->term[j][s];
    }
    return r;
}

/* Steps c to the board of the previous rank; false at rank 0. */
static inline bool sow_index_prev(int parts, uint8_t *c)
{
    /* The inverse of sow_index_next: the first non-empty pit j gives one
     * seed back to pit j+1 and its other seeds to pit 0, the highest
     * arrangement of the pits below j+1. */
    int j = 0;
    while (j < parts - 1 && !c[j])
        j++;
    if (j == parts - 1)
        return false;
    unsigned v = c[j] - 1u;
    c[j] = 0;
    c[j + 1]++;
    c[0] = (uint8_t)v;
    return true;
}

/* Board <-> position: c[j] as drawn above. The position gets stores 0, no
 * tuzdik, South to move (half 0 flag 0, half 1 flag North). */
void sow_index_to_pos(int m, const uint8_t *c, sow_pos *p);
void sow_index_from_pos(int m, const sow_pos *p, uint8_t *c);

#endif /* SOW_EXPERIMENTAL */

#endif
