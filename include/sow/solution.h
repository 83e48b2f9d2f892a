/* sow/solution.h - what a solver returns, shared by every solver. */
#ifndef SOW_SOLUTION_H
#define SOW_SOLUTION_H

#include <stdint.h>

#include "sow/rules.h"

typedef enum sow_outcome { SOW_LOSS = -1, SOW_DRAW = 0, SOW_WIN = 1 } sow_outcome;

typedef struct sow_solution {
    int score;                      /* for the player to move (rules.h) */
    int value;                      /* her final margin: sow_score_margin(score) */
    sow_outcome outcome;            /* sign of score: tie-break included */
    int nmoves;                     /* legal moves at the root (0 if over) */
    sow_move moves[SOW_MAX_MOVES];
    int move_scores[SOW_MAX_MOVES]; /* each move's score, for the root mover */
    int best;                       /* index into moves of a best move, -1 if none */
    uint64_t nodes;                 /* positions expanded */
} sow_solution;

static inline sow_outcome sow_outcome_of(int score)
{
    return score > 0 ? SOW_WIN : score < 0 ? SOW_LOSS : SOW_DRAW;
}

#endif
