/* play.h - `sow play --interactive`: a game at the terminal against the
 * computer (engine.h), and the pieces `sow serve` shares with it. */
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

/* The game record of moves[0..n): for now the `--moves` list ("3,1,6"),
 * written by this one function so that a record notation (the Toguz
 * two-digit records) can replace it in one place. Returns false if buf
 * (size bytes) is too small. */
bool record_format(const sow_game *g, const sow_move *moves, int n, char *buf, size_t size);

/* Writes the record to `path` atomically (a temporary file in the same
 * folder, flushed, then renamed over it). Returns 0, or an errno value. */
int record_save(const char *path, const sow_game *g, const sow_move *moves, int n);

/* The end of a finished game in words: who won, by how much and why,
 * the tie-break included ("south wins 13 to 11"). */
void play_describe_end(const sow_game *g, const sow_pos *p, char *buf, size_t size);

#endif
