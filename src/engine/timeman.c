/* timeman.c - the time for one move on a clock: see sow/timeman.h. */
#include "sow/timeman.h"

/* A sowing game lasts 60-120 plies (Kalah 6x4 about 60, Toguz about 120):
 * without moves to go, plan for this many more of the mover's moves, but
 * never fewer than MIN_MOVES_LEFT, since the end is rarely in sight. */
#define EXPECTED_MOVES 40
#define MIN_MOVES_LEFT 12
/* The share of the increment spent at once: the rest builds a reserve. */
#define INCREMENT_SHARE 0.8
/* Never more than this share of the clock on one move. */
#define MAX_SHARE 0.5
#define MIN_SECONDS 0.001

double sow_time_for_move(const sow_clock *c)
{
    double overhead = c->overhead < 0 ? SOW_TIMEMAN_OVERHEAD : c->overhead;
    double left = c->left - overhead;
    if (left <= 2 * MIN_SECONDS)
        return MIN_SECONDS;
    int moves = c->moves_to_go;
    if (moves <= 0) {
        moves = EXPECTED_MOVES - c->ply / 2;
        if (moves < MIN_MOVES_LEFT)
            moves = MIN_MOVES_LEFT;
    }
    double t = left / moves + INCREMENT_SHARE * (c->increment > 0 ? c->increment : 0);
    if (t > MAX_SHARE * left)
        t = MAX_SHARE * left;
    return t < MIN_SECONDS ? MIN_SECONDS : t;
}
