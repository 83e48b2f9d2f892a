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

/* Game records as players write them (doc/notation.md, "Game records").
 *
 * Tokens are separated by blanks (spaces, tabs, line ends) or one comma;
 * `#` starts a comment that runs to the end of its line. A token is
 *   - a move number, `K.` before South's turn K or `K...` before North's
 *     (a turn pair shares a number, as players number their moves; the
 *     sowings of an extra turn share their turn's number). Optional, but
 *     checked where written;
 *   - a move: the pit number `P` (1..m) as in a plain list, or, in Toguz
 *     only, two digits `PL`: pit P sown and the last seed landing in pit
 *     L of the row where it fell, numbered by that row's owner (1..m). One
 *     digit is always a pit number, two digits always the record form
 *     (boards have at most 9 pits, so the two never collide). A tuzdik
 *     claim is marked by x, X or the Cyrillic х / Х (UTF-8) after either.
 * So `3,1,6`, `7x,9` and `1. 76 98 2. 66 87 3. 12 76x` are all records. */

/* Bytes of record text per move that sow_record_format may write, at most
 * ("4096. 99x "); a record of n moves fits n * SOW_RECORD_MOVE_MAX + 8. */
#define SOW_RECORD_MOVE_MAX 10

/* Reads the record `text` and replays it from `start`, which checks every
 * move's legality, the landing digits and the move numbers. Fills
 * out[0..*n), at most cap moves. On error *n is the count of moves read
 * before the bad token and the result is SOW_E_MOVE (malformed, illegal or
 * inconsistent), SOW_E_OVER (a move after the end of the game) or
 * SOW_E_LIMIT (more than cap moves); `why` (if not NULL) gets one line
 * naming the place, e.g. "move 7 (N) '25': the last seed lands in south's
 * pit 4, not 5", with " (line L)" when the text has several lines. */
sow_err sow_record_parse(const sow_game *g, const sow_pos *start, const char *text,
                         sow_move *out, int cap, int *n, char *why, size_t why_size);

/* Writes the record of moves[0..n) played from `start`: in Toguz the
 * players' form with move numbers ("1. 76 98 2. 66 87", "1... 98" when
 * North moves first), in the other games the plain list ("3,1,6"). The
 * text is always NUL-terminated within size; *len (if not NULL) gets the
 * length the whole record needs. SOW_E_MOVE / SOW_E_OVER if a move is not
 * legal where it is played (nothing useful is written then), SOW_E_LIMIT
 * if buf is too small (the text is cut). */
sow_err sow_record_format(const sow_game *g, const sow_pos *start, const sow_move *moves,
                          int n, char *buf, size_t size, size_t *len);

#endif
