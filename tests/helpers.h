/* helpers.h - what the cmocka suites share: a game from its parameters,
 * two small random number generators and random positions. Include it
 * after <cmocka.h> (game_of asserts). Every test keeps its own generator
 * state, so a seed reproduces a failure. */
#ifndef SOW_TESTS_HELPERS_H
#define SOW_TESTS_HELPERS_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"

static inline void game_of(sow_game *g, sow_game_id id, int m, int n, unsigned variant)
{
    sow_config c = {id, m, n, variant};
    assert_int_equal(sow_game_init(g, &c), SOW_OK);
}

/* A linear congruential step: 31 bits, any seed (0 included). */
static inline uint64_t rng_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

/* xorshift64: all 64 bits, for a seed that is not 0. */
static inline uint64_t xorshift64(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Plays up to `plies` random moves from the start. It stops when the game
 * ends or, if `live`, just before a move that would end it (a position
 * that still has moves). */
static inline void random_play(const sow_game *g, uint64_t seed, int plies, bool live, sow_pos *p)
{
    sow_game_start(g, p);
    for (int i = 0; i < plies; i++) {
        sow_move ms[SOW_MAX_MOVES];
        int n = sow_moves(g, p, ms);
        if (n == 0)
            return;
        sow_pos q = *p;
        sow_make(g, &q, ms[rng_next(&seed) % (uint64_t)n]);
        if (live && sow_moves(g, &q, ms) == 0)
            return;
        *p = q;
    }
}

/* A position after up to `plies` random moves; it may be over. */
static inline void random_position(const sow_game *g, uint64_t seed, int plies, sow_pos *p)
{
    random_play(g, seed, plies, false, p);
}

/* A position after up to `plies` random moves that still has moves. */
static inline void random_live_position(const sow_game *g, uint64_t seed, int plies, sow_pos *p)
{
    random_play(g, seed, plies, true, p);
}

#endif
