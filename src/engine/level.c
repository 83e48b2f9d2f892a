/* level.c - the levels of play (sow/engine.h): how often each plays a
 * random move instead of the best one found. */
#include "internal.h"
#include "sow/rules.h"

int sow_engine_random_percent(int level)
{
    static const int pct[SOW_ENGINE_LEVELS + 1] = {100, 75, 50, 20, 0};
    return level >= 1 && level <= SOW_ENGINE_LEVELS ? pct[level] : 0;
}

/* xorshift64: the game's own generator, so that a seed replays a game. */
static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

sow_err sow_engine_choose(sow_engine *e, const sow_pos *p, const sow_engine_question *q,
                          int level, uint64_t *rng, sow_move *move, sow_engine_answer *out,
                          bool *searched, char *why, size_t why_size)
{
    *searched = false;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(&e->g, p, mv);
    if (n == 0)
        return SOW_E_OVER;
    if ((int)(next_rand(rng) % 100) < sow_engine_random_percent(level)) {
        *move = mv[next_rand(rng) % (uint64_t)n];
        return SOW_OK;
    }
    sow_engine_question best = *q;
    best.all_moves = false;
    sow_err err = sow_engine_evaluate(e, p, &best, out, why, why_size);
    if (err)
        return err;
    *searched = true;
    *move = out->sol.moves[out->sol.best];
    return SOW_OK;
}
