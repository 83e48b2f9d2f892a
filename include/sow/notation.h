/* sow/notation.h - positions and move lists as text (doc/notation.md).
 *
 * Position:  SOUTH-ROW / SOUTH-STORE / NORTH-ROW / NORTH-STORE / TO-MOVE
 *   e.g. the Kalah(6,4) start:  4,4,4,4,4,4/0/4,4,4,4,4,4/0/s
 * Each row lists its owner's pits 1..m in her own numbering, separated by
 * commas; TO-MOVE is `s` or `n`. In Toguz a pit that is a tuzdik is written
 * `x`: it lies in one player's row and belongs to the other.
 * Moves: pit numbers separated by commas, `3,1,6`; a Toguz claim is `7x`.
 */
#ifndef SOW_NOTATION_H
#define SOW_NOTATION_H

#include <stddef.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"

/* Longest position text, terminating NUL included. */
#define SOW_POS_TEXT_MAX 96

/* Number of pits in the South row of a position text, or -1 if it has no
 * well-formed row (lets a caller infer m before parsing). */
int sow_pos_text_pits(const char *text);

/* Parses `text` into `out` for game `g` and checks it (sow_position_check).
 * On error returns SOW_E_POSITION and, if `why` is not NULL, writes a short
 * reason into why[0..why_size). */
sow_err sow_pos_parse(const sow_game *g, const char *text, sow_pos *out,
                      char *why, size_t why_size);

/* Writes the notation of `p` into buf (at least SOW_POS_TEXT_MAX bytes). */
void sow_pos_format(const sow_game *g, const sow_pos *p, char *buf, size_t size);

/* Writes a move ("7", "7x") into buf (at least 4 bytes). */
void sow_move_format(sow_move mv, char *buf, size_t size);

/* Parses a comma-separated move list into out[0..*n), at most cap moves.
 * Each move is "7", or "7x" for a Toguz claim; only syntax and the pit
 * range are checked here, legality is for sow_play.
 * An empty string is an empty list. On error, *n is the index of the bad
 * move and the result is SOW_E_MOVE (or SOW_E_LIMIT past cap). */
sow_err sow_moves_parse(const sow_game *g, const char *text, sow_move *out,
                        int cap, int *n);

#endif
