/* rules_internal.h - functions of src/rules that the library calls inside
 * this folder and its tests call directly, but that are not part of the
 * API (a user gets them through sow_game_init and sow_moves_parse). */
#ifndef SOW_RULES_INTERNAL_H
#define SOW_RULES_INTERNAL_H

#include <stddef.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/rules.h"

/* Checks ranges and variant applicability (sow_game_init's first step). */
sow_err sow_config_check(const sow_config *c);

/* Parses one move ("7", "7x") of text[0..len) for game g. Only syntax and
 * the pit range are checked here; legality is for sow_play. */
sow_err sow_move_parse(const sow_game *g, const char *text, size_t len, sow_move *out);

#endif
