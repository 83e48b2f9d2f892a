/* key.h - the transposition table's key: an exact code of what a node's
 * value depends on.
 *
 * The future gain of a position depends on its pits and, in Toguz, the two
 * tuzdiks; not on the stores (sow/search.h). The key is therefore
 *
 *     key = (code(pits) * T + own tuzdik) * T + opponent's tuzdik
 *
 * where code is the rank among boards of every seed count (sow/index.h,
 * sow_index_code_pos: 2m pits, at most the game's seeds) and T = m tuzdik
 * states per side (none, or pit 1..m-1: pit m cannot be claimed), T = 1
 * without tuzdiks. It is a bijection onto 0 .. C(total+2m, 2m) * T^2 - 1,
 * so two positions share a key exactly when they share a value.
 *
 * That range fits 64 bits for every board the exact solver can finish
 * (Kalah(6,6): C(84,12) ~ 2^47) but not for the largest (Toguz 9x9:
 * C(180,18) * 81 ~ 2^87). For those, key.exact is false and the key is a
 * 64-bit hash (XXH3 of the pits and tuzdiks): sow_search_solve refuses such
 * games (SOW_E_LIMIT), and only sow_search_depth, whose scores are a
 * benchmark's heuristic anyway, runs on the hashed key.
 */
#ifndef SOW_SEARCH_KEY_H
#define SOW_SEARCH_KEY_H

#include <stdbool.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "sow/game.h"
#include "sow/index.h"

/* Bytes 0..13 of a half: pits and tuzdik; the store (14) and the flags (15)
 * are not part of the hashed key. */
#define KEY_MASK_HI 0x0000ffffffffffffull

typedef struct search_key {
    bool exact;      /* the code fits 64 bits */
    uint64_t tz;     /* T: tuzdik states per side (1: no tuzdiks) */
    uint64_t count;  /* number of keys (exact only) */
    sow_index ix;    /* 2m parts */
} search_key;

/* The number of keys of game g, 0 if it does not fit 64 bits. */
static inline uint64_t key_count(const sow_game *g)
{
    uint64_t tz = g->tuzdik ? (uint64_t)g->m : 1;
    uint64_t codes = sow_index_codes(2 * g->m, g->total);
    return codes != UINT64_MAX && codes <= UINT64_MAX / (tz * tz) ? codes * tz * tz : 0;
}

/* Sets up the key of game g; k->exact says whether it is exact. */
static inline void key_init(search_key *k, const sow_game *g)
{
    sow_index_init(&k->ix, 2 * g->m);
    k->tz = g->tuzdik ? (uint64_t)g->m : 1;
    k->count = key_count(g);
    k->exact = k->count != 0;
}

static inline uint64_t key_of(const search_key *k, const sow_pos *p)
{
    if (__builtin_expect(!k->exact, 0)) {
        uint64_t w[4] = {p->w[0], p->w[1] & KEY_MASK_HI, p->w[2], p->w[3] & KEY_MASK_HI};
        return XXH3_64bits(w, sizeof w);
    }
    uint64_t c = sow_index_code_pos(&k->ix, p);
    if (k->tz > 1)
        c = (c * k->tz + p->b[SOW_B_TUZDIK]) * k->tz + p->b[SOW_HALF + SOW_B_TUZDIK];
    return c;
}

#endif
