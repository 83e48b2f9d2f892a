/* sow/position.h - the packed position shared by all four games.
 *
 * A position is 32 bytes: four 64-bit words, seen as two 16-byte halves.
 * Half 0 always belongs to the player to move ("own"), half 1 to the other
 * player ("opp"). Because the layout is relative to the mover, one table of
 * sowing masks serves both players, and ending a turn is a swap of the two
 * halves (two 16-byte moves).
 *
 *   byte:  0   1   2   3   4   5   6   7 | 8   9  10  11  12  13  14  15
 *   w[0]: p1  p2  p3  p4  p5  p6  p7  p8 |                                 own
 *   w[1]:                                 p9   0   0   0   0  tz  st  fl
 *   w[2]: p1  p2  p3  p4  p5  p6  p7  p8 |                                 opp
 *   w[3]:                                 p9   0   0   0   0  tz  st  fl
 *
 *   pK  seeds in the half owner's pit K (her own numbering, 1..m, in sowing
 *       order); bytes for pits above m are always 0
 *   tz  Toguz only: the pit number (1..m) on the OTHER row that this half's
 *       owner claimed as her tuzdik; 0 = none
 *   st  the half owner's store (kazan)
 *   fl  bit 0: this half belongs to North. So half 0's bit says who moves.
 *
 * Every count is one byte, so the total number of seeds of a board is at
 * most 255 (checked by sow_game_init). Sowing adds to several bytes at
 * once with 64-bit adds (SWAR); no byte can carry into the next because no
 * count can exceed the total. A tuzdik pit always holds 0: seeds that fall
 * into it go straight to its owner's store.
 *
 * Positions are values: copy them, compare them with memcmp/sow_pos_eq.
 * Unused bytes are always zero, so equal positions are equal byte-for-byte.
 */
#ifndef SOW_POSITION_H
#define SOW_POSITION_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "sow's packed position assumes a little-endian machine"
#endif

#define SOW_MAX_PITS 9          /* pits per side */
#define SOW_MAX_TOTAL 255       /* seeds on a board, stores included */

enum {
    SOW_HALF = 16,              /* bytes per half */
    SOW_B_TUZDIK = 13,          /* byte offsets within a half */
    SOW_B_STORE = 14,
    SOW_B_FLAGS = 15,
    SOW_FLAG_NORTH = 1,
};

typedef union sow_pos {
    uint64_t w[4];
    uint8_t b[32];
} sow_pos;

_Static_assert(sizeof(sow_pos) == 32, "sow_pos must be four words");
_Static_assert(SOW_MAX_PITS <= SOW_B_TUZDIK, "pits must not overlap the tuzdik byte");
_Static_assert(SOW_MAX_TOTAL <= UINT8_MAX, "a count must fit one byte");

/* Player numbers: South moves first. */
enum { SOW_SOUTH = 0, SOW_NORTH = 1 };

/* Which player (SOW_SOUTH / SOW_NORTH) is to move. */
static inline int sow_pos_to_move(const sow_pos *p)
{
    return p->b[SOW_B_FLAGS] & SOW_FLAG_NORTH;
}

/* The half (0 = mover, 1 = other) that belongs to `player`. */
static inline int sow_pos_half_of(const sow_pos *p, int player)
{
    return sow_pos_to_move(p) != player;
}

/* Seeds in `player`'s pit `pit` (1..m, her own numbering). */
static inline int sow_pos_pit(const sow_pos *p, int player, int pit)
{
    return p->b[SOW_HALF * sow_pos_half_of(p, player) + pit - 1];
}

static inline int sow_pos_store(const sow_pos *p, int player)
{
    return p->b[SOW_HALF * sow_pos_half_of(p, player) + SOW_B_STORE];
}

/* The opponent-row pit number `player` claimed as tuzdik, 0 if none. */
static inline int sow_pos_tuzdik(const sow_pos *p, int player)
{
    return p->b[SOW_HALF * sow_pos_half_of(p, player) + SOW_B_TUZDIK];
}

/* Exchange the halves: the other player is now to move. */
static inline void sow_pos_swap(sow_pos *p)
{
    uint64_t a = p->w[0], b = p->w[1];
    p->w[0] = p->w[2];
    p->w[1] = p->w[3];
    p->w[2] = a;
    p->w[3] = b;
}

static inline bool sow_pos_eq(const sow_pos *a, const sow_pos *b)
{
    return ((a->w[0] ^ b->w[0]) | (a->w[1] ^ b->w[1]) |
            (a->w[2] ^ b->w[2]) | (a->w[3] ^ b->w[3])) == 0;
}

#endif
