#include "eval_internal.h"
const eval_fit eval_fitted[] = {
    {.game = SOW_GAME_COUNT},
};
