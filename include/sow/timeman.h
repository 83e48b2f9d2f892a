/* sow/timeman.h - how long to think about one move of a game played on a
 * clock: the time manager of `sow engine`'s `go wtime ... btime ...` and of
 * `sow match --tc`.
 *
 * A move gets an even share of the time left over the moves the game is
 * expected to last still (or the moves to the next time control), plus
 * most of the increment, and never so much that the clock could fall: at
 * most half of what is left, less a safety margin for the answer to reach
 * the other side. Stockfish's timeman.cpp is the model (an optimum from the
 * moves to go, a hard maximum from the time left); the constants are in
 * src/engine/timeman.c with their reasons.
 */
#ifndef SOW_TIMEMAN_H
#define SOW_TIMEMAN_H

typedef struct sow_clock {
    double left;       /* seconds on the mover's clock (> 0) */
    double increment;  /* seconds added after each of the mover's moves (>= 0) */
    int moves_to_go;   /* moves to the next time control; 0: the rest of the game */
    int ply;           /* plies played since the start (an estimate of how much
                          of the game remains) */
    double overhead;   /* seconds lost per move outside the search (process,
                          pipes); < 0: the default (SOW_TIMEMAN_OVERHEAD) */
} sow_clock;

#define SOW_TIMEMAN_OVERHEAD 0.03

/* The seconds to spend on this move: > 0, and at most half of (left -
 * overhead) unless that is below 1 ms, then 1 ms. Pure, thread-safe. */
double sow_time_for_move(const sow_clock *c);

#endif
