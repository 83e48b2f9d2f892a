/* play.h - `sow play --interactive`: a game at the terminal against the
 * computer (sow/engine.h), and the pieces `sow serve` shares with it. */
#ifndef SOW_CLI_PLAY_H
#define SOW_CLI_PLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"
#include "sow/engine.h"
#include "sow/rules.h"

/* The interactive options, as typed (NULL: not given). */
typedef struct play_options {
    const char *human, *level, *time, *seed, *db, *threads;
    const char *save; /* --save FILE: where Ctrl-C and a bare `save` write */
} play_options;

/* Draws the board of cg->pos as `sow play` does (cmd_play.c): the rows,
 * then who is to move (or the result) and the position's text. */
void cli_draw_board(const cli_game *cg);

/* The rows, stores and tuzdiks alone (the interactive game's board). */
void cli_draw_rows(const cli_game *cg);

/* Plays from cg->pos until the game ends or the human quits; reads
 * commands from stdin. Returns the exit status: 0, or 130 after Ctrl-C
 * (the record saved unless the player said no). */
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

/* --- What the game says, in words (play_words.c) --- */

/* Who a value is told about: `me`, the player whose view the score is
 * (the one to move), and the `other`: "I" and "you" (the computer speaks),
 * "you" and "I" (a hint), or "South" and "North" (two humans). */
typedef struct play_voice {
    const char *me, *other;
} play_voice;

/* When the game was decided (sow_decided): side -1 if it was not before
 * its end; else her store then, of `all` seeds. */
typedef struct play_decision {
    int side, store, all;
} play_decision;

/* "South" / "North". */
const char *play_side_name(int side);

/* An exact score (the mover's view) in words: "I win by 6 with best play",
 * "you win on the tie-break with best play", "a draw with best play". */
void play_words_exact(const sow_game *g, const play_voice *v, int score, char *buf,
                      size_t size);

/* An estimated score: "I expect to win by about 6", "I expect you to win
 * by about 3", "I expect an even game". */
void play_words_estimate(const sow_game *g, const play_voice *v, int score, char *buf,
                         size_t size);

/* Proven bounds lower..upper on the score, never as an interval: "I win by
 * at least 2", "you cannot lose: a draw at worst", "somewhere between you
 * winning by 4 and me winning by 2". `total`: the seeds in play, the
 * largest margin (a bound beyond it says nothing). */
void play_words_bounds(const sow_game *g, const play_voice *v, int lower, int upper,
                       int total, char *buf, size_t size);

/* The engine's answer in words, as exact, estimate or unfinished search
 * it is: play_words_exact, "... (an estimate, 9 moves ahead)" or "I have
 * not finished: " and the bounds. */
void play_words_eval(const sow_game *g, const play_voice *v, const sow_engine_answer *ev, int total,
                     char *buf, size_t size);

/* One move's value in a hint's table: "you win by 3", "I win by 1", "a
 * draw", "you should win by about 2 (estimate)". */
void play_words_move(const sow_game *g, const play_voice *v, int score, bool exact,
                     char *buf, size_t size);

/* The one game-over line: who won, by how much, and the true reason from
 * the rules (sow_end_reason): which row ran empty, who took the seeds left,
 * and (d, may be NULL) when more than half the seeds had decided it. */
void play_words_end(const sow_game *g, const sow_end *e, const play_decision *d, char *buf,
                    size_t size);

/* The moment a store passes half the seeds: "South's kazan holds 82 of the
 * 162 seeds, more than half: South has won. Play goes on ..." */
void play_words_decided(const sow_game *g, const play_decision *d, char *buf, size_t size);

#endif
