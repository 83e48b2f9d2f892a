/* sow/packed.h - a database level packed in about 4 bits a position: the
 * read side, shared by the probe (sow/db.h) and by the build, which reads
 * the levels below the one it computes (src/retro/build.c). The encoder and
 * the file's layout are src/db/pack.c's; doc/db-format.md, "Packed levels".
 */
#ifndef SOW_PACKED_H
#define SOW_PACKED_H

#include <assert.h>
#include <stdint.h>

/* The entry of board (A, B), A the mover's row and B the other's, of
 * rank r is
 *
 *     dict[g[code(B)] + f[code(A)] + c],   c = nibble r (0..14)
 *
 * code(row) being the row's rank among the rows of m pits with at most k
 * seeds; c = 15 is an escape: the value is in esc[], found by rank. */
typedef struct sow_db_pack {
    const uint8_t *nib;  /* rank r: bits 4*(r%2) .. +3 of nib[r/2] */
    const int8_t *g;     /* by code(B) */
    const int8_t *f;     /* by code(A) */
    const int8_t *dict;  /* the level's values, increasing (256 slots) */
    const uint64_t *esc; /* rank << 8 | (uint8_t)value, increasing */
    uint64_t nesc;
} sow_db_pack;

/* The value of escaped rank r: rare (about 1% of the entries or fewer,
 * results/db-escapes.md), a binary search, kept out of line so that the
 * probe stays small. */
static __attribute__((noinline, cold, unused)) int sow_db_pack_escape_(const sow_db_pack *pk,
                                                                       uint64_t r)
{
    uint64_t lo = 0, hi = pk->nesc;
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (pk->esc[mid] >> 8 <= r)
            lo = mid;
        else
            hi = mid;
    }
    assert(pk->nesc && pk->esc[lo] >> 8 == r);
    return (int8_t)(uint8_t)pk->esc[lo];
}

/* Entry of rank r, whose rows have codes a (own) and b (other). The
 * dict's index is taken modulo 256: a no-op on any level the encoder
 * wrote (every unescaped entry's index is a place, 0..255), and what
 * keeps a damaged g or f inside dict's 256 slots (wrong values, which the
 * file's checksum catches, never a read outside the level). */
static inline int sow_db_pack_get(const sow_db_pack *pk, uint64_t r, uint64_t a, uint64_t b)
{
    unsigned c = (pk->nib[r >> 1] >> (4 * (r & 1))) & 15u;
    if (__builtin_expect(c == 15, 0))
        return sow_db_pack_escape_(pk, r);
    return pk->dict[(uint8_t)(pk->g[b] + pk->f[a] + (int)c)];
}

#endif
