/* play.h - `sow play --interactive`: a game at the terminal against the
 * computer (sow/engine.h), and the pieces `sow serve` shares with it. */
#ifndef SOW_CLI_PLAY_H
#define SOW_CLI_PLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* The interactive options, as typed (NULL: not given). */
typedef struct play_options {
    const char *human, *level, *time, *seed, *db, *threads;
} play_options;

/* Draws the board of cg->pos as `sow play` does (cmd_play.c). */
void cli_draw_board(const cli_game *cg);

/* Plays from cg->pos until the game ends or the human quits; reads
 * commands from stdin. Returns the exit status (0). */
int play_interactive(cli_game *cg, const play_options *po);

/* The record of moves[0..n) played from `start`, in the players' notation
 * (sow_record_format: Toguz's numbered two-digit moves, the plain list for
 * the other games), as a string to free; NULL if out of memory. The moves
 * must be legal (they were played). */
char *record_text(const sow_game *g, const sow_pos *start, const sow_move *moves, int n);

/* Writes `text` and a newline to `path` atomically (a temporary file in the
 * same folder, flushed, then renamed over it). Returns 0, or an errno
 * value. */
int record_save(const char *path, const char *text);

/* The end of a finished game in words: who won, by how much and why,
 * the tie-break included ("south wins 13 to 11"). */
void play_describe_end(const sow_game *g, const sow_pos *p, char *buf, size_t size);

#endif
