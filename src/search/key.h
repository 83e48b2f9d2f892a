/* key.h - the transposition table's key: an exact code of what a node's
 * value depends on.
 *
 * The future gain of a position depends on its pits and, in Toguz, the two
 * tuzdiks; not on the stores (sow/search.h). A key is a function of those
 * alone, and one-to-one over the boards a search can meet, so two positions
 * share a key exactly when they share a value. Each search takes one of
 * three kinds, by its root's seeds (which never grow below it;
 * search_key_use in solver.c):
 *
 * KEY_PACKED, the fast one: each pit's count in a field of b bits, then
 * each tuzdik in tb bits (pit 1..m-1 or none: m states, tb = bits(m-1)):
 *
 *   bit:  0      b     ..  mb          ..  2mb     2mb+tb    2mb+2tb
 *        | own 1 | own 2 .. | opp 1 | .. | own tz | opp tz |
 *
 * b is the bit length of the start position's seeds (Kalah(6,4): 48, b =
 * 6), so a board of at most 2^b - 1 seeds has every count in its field:
 * the fields give the board back (one-to-one). Two pext instructions make
 * it (doc/experiments.md, "Exact table keys: speed"). Keys may exceed 64
 * bits (Kalah(6,4): 72): the table stores the low 64 and its bucket
 * settles the rest (tt.h, tt_index), which needs the table in groups of
 * 2^(bits - 64) buckets; offered for m <= 8 up to 64 + KEY_SPLIT_MAX bits.
 *
 * KEY_CODE, dense: (code(pits) * T + own tuzdik) * T + opponent's tuzdik,
 * code the rank among boards of every seed count (sow/index.h,
 * sow_index_code_pos: 2m pits) and T = m (1 without tuzdiks): a bijection
 * from the boards of at most K seeds onto 0 .. C(K+2m, 2m) * T^2 - 1,
 * which fits 64 bits for every board the exact solver can finish
 * (Kalah(6,6): C(84,12) ~ 2^47) but not for the largest (Toguz 9x9:
 * C(180,18) * 81 ~ 2^87), nor for a --position holding more seeds than
 * K = key.max_seeds. About 50 instructions, twice a packed key's.
 *
 * KEY_HASH: a root beyond both is refused by sow_search_solve (SOW_E_LIMIT);
 * only sow_search_depth, whose scores are a benchmark's heuristic anyway,
 * then runs on a 64-bit hash (XXH3 of the pits and tuzdiks).
 */
#ifndef SOW_SEARCH_KEY_H
#define SOW_SEARCH_KEY_H

#include <stdbool.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "sow/game.h"
#include "sow/index.h"
#include "tt.h"

/* Bytes 0..13 of a half: pits and tuzdik; the store (14) and the flags (15)
 * are not part of the hashed key. */
#define KEY_MASK_HI 0x0000ffffffffffffull

/* The kinds of key, one per search (search_key_use in solver.c). */
enum { KEY_HASH, KEY_CODE, KEY_PACKED };

typedef struct search_key {
    int mode;          /* this search's: KEY_PACKED, KEY_CODE or KEY_HASH */
    bool exact;        /* mode != KEY_HASH */
    int max_seeds;     /* the most seeds on a board whose code fits 64 bits */
    int packed_seeds;  /* the most seeds KEY_PACKED holds; -1: not used */
    int split;         /* KEY_PACKED: bits of the key above 64 (tt.h) */
    unsigned m, b, tb; /* KEY_PACKED: pits a side, bits a pit, bits a tuzdik */
    uint64_t fmask;    /* KEY_PACKED: the low b bits of each of m bytes */
    uint64_t tz;       /* T: tuzdik states per side (1: no tuzdiks) */
    sow_index ix;      /* 2m parts */
} search_key;

/* The most seeds a board of game g may hold for every code up to it to fit
 * 64 bits (codes grow with the seeds: boards with fewer come first). */
static inline int key_max_seeds(const sow_game *g)
{
    uint64_t tz = g->tuzdik ? (uint64_t)g->m : 1;
    int k = -1;
    while (k < SOW_MAX_TOTAL) {
        uint64_t codes = sow_index_codes(2 * g->m, k + 1);
        if (codes == UINT64_MAX || codes > UINT64_MAX / (tz * tz))
            break;
        k++;
    }
    return k;
}

static inline unsigned key_bits_(unsigned x)
{
    return x ? 32u - (unsigned)__builtin_clz(x) : 0u;
}

/* Sets up the keys of game g. The packed key gets b bits a pit, enough
 * for the start position's seeds; it is offered when its bits exceed 64
 * by at most KEY_SPLIT_MAX (a table too small for that split refuses it:
 * sow_search_new). */
#define KEY_SPLIT_MAX 24
static inline void key_init(search_key *k, const sow_game *g)
{
    sow_index_init(&k->ix, 2 * g->m);
    k->tz = g->tuzdik ? (uint64_t)g->m : 1;
    k->max_seeds = key_max_seeds(g);
    k->mode = KEY_HASH;
    k->exact = false;
    k->m = (unsigned)g->m;
    k->b = key_bits_((unsigned)(2 * g->m * g->cfg.seeds));
    k->tb = g->tuzdik ? key_bits_((unsigned)g->m - 1) : 0;
    int bits = (int)(2 * k->m * k->b + 2 * k->tb);
    k->split = bits > 64 ? bits - 64 : 0;
    k->fmask = 0;
    for (unsigned j = 0; j < k->m && j < 8; j++)
        k->fmask |= ((1ull << k->b) - 1) << (8 * j);
    k->packed_seeds = g->m <= 8 && k->b <= 8 && k->split <= KEY_SPLIT_MAX ? (1 << k->b) - 1 : -1;
    if (k->packed_seeds > SOW_MAX_TOTAL)
        k->packed_seeds = SOW_MAX_TOTAL;
}

/* The b-bit fields of the m low bytes of w, packed (bytes < 2^b). */
static inline uint64_t key_pack_(const search_key *k, uint64_t w)
{
/* pext is microcoded on AMD before Zen 3 (tens of cycles and more): the
 * shifts are faster there. */
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__)
    return __builtin_ia32_pext_di(w, k->fmask);
#else
    uint64_t x = 0;
    for (unsigned j = 0; j < k->m; j++)
        x |= ((w >> (8 * j)) & 0xff) << (k->b * j);
    return x;
#endif
}

static inline tt_key key_of(const search_key *k, const sow_pos *p)
{
    if (__builtin_expect(k->mode == KEY_PACKED, 1)) {
        unsigned mb = k->m * k->b;
        tt_key x = (tt_key)key_pack_(k, p->w[0]) | (tt_key)key_pack_(k, p->w[2]) << mb;
        if (k->tb)
            x |= (tt_key)((uint64_t)p->b[SOW_B_TUZDIK] |
                          (uint64_t)p->b[SOW_HALF + SOW_B_TUZDIK] << k->tb)
                 << (2 * mb);
        return x;
    }
    if (__builtin_expect(k->mode == KEY_HASH, 0)) {
        uint64_t w[4] = {p->w[0], p->w[1] & KEY_MASK_HI, p->w[2], p->w[3] & KEY_MASK_HI};
        return XXH3_64bits(w, sizeof w);
    }
    uint64_t c = sow_index_code_pos(&k->ix, p);
    if (k->tz > 1)
        c = (c * k->tz + p->b[SOW_B_TUZDIK]) * k->tz + p->b[SOW_HALF + SOW_B_TUZDIK];
    return c;
}

#endif
