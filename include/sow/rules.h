/* sow/rules.h - legal moves, making moves, the end of the game, scores.
 *
 * Moves. A sow_move is the mover's pit index (pit number - 1, 0..m-1) in
 * bits 0-3, plus SOW_MOVE_CLAIM (bit 4) for a Toguz move that also claims
 * the pit its last seed lands in as a tuzdik ("7x"). An extra turn is just
 * the same player moving again: the position says who is to move.
 *
 * Scores. Solvers compare integers: a *score* is
 *     margin * score_scale + tiebreak
 * from the point of view of the player to move, where margin is her final
 * total minus the opponent's and tiebreak is +1/0/-1 (Chungkala only,
 * score_scale 3; every other game has scale 1 and tiebreak 0). Because
 * |tiebreak| < scale, ordering scores is ordering (margin, tiebreak)
 * lexicographically, as doc/rules.md asks, and a score > 0 is a win.
 */
#ifndef SOW_RULES_H
#define SOW_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/position.h"

typedef uint8_t sow_move;

#define SOW_MOVE_CLAIM 0x10
#define SOW_MOVE_PIT_MASK 0x0f
#define SOW_MAX_MOVES (2 * SOW_MAX_PITS)

/* The legal moves, pits in increasing order; a Toguz claim right after the
 * plain move from the same pit. Returns the count, 0 iff the game is over. */
int sow_moves(const sow_game *g, const sow_pos *p, sow_move out[SOW_MAX_MOVES]);

/* Plays a legal move (precondition, checked only by assert). Ends the turn
 * unless the move earned an extra turn, and when the game is over performs
 * the final sweep (if the game has one), so a finished position shows the
 * final stores. */
void sow_make(const sow_game *g, sow_pos *p, sow_move mv);

/* Like sow_make but checked: SOW_E_OVER if the game is over, SOW_E_MOVE if
 * `mv` is not legal here; `p` is unchanged on error. */
sow_err sow_play(const sow_game *g, sow_pos *p, sow_move mv);

/* Seeds in the pits of both rows, stores (kazans) not counted: the level
 * of a position, which databases and the search's bounds go by. */
int sow_seeds_on_board(const sow_game *g, const sow_pos *p);

/* Is the game over (doc/rules.md end rule of the game, with its variants)? */
bool sow_over(const sow_game *g, const sow_pos *p);

/* Score of a finished position for the player to move (see above). The
 * final sweep is included whether or not it was already applied. */
int sow_terminal_score(const sow_game *g, const sow_pos *p);

/* Score of endless play from `p` (Toguz): the kazan difference for the
 * player to move, seeds in pits counting for nobody. */
int sow_perpetual_score(const sow_game *g, const sow_pos *p);

/* South's final total minus North's, for a finished position. */
int sow_final_margin(const sow_game *g, const sow_pos *p);

/* The margin part of a score: floor((score + 1) / scale) for scale 3. */
int sow_score_margin(const sow_game *g, int score);

/* How a game ended, in the terms of its end rule (doc/rules.md), for
 * telling the players. Sides are indexed SOW_SOUTH / SOW_NORTH. */
typedef struct sow_end {
    int to_move;        /* the player to move when it ended */
    bool empty[2];      /* her row was empty (before any sweep) */
    int left[2];        /* seeds left in her row at the end (before any sweep) */
    bool swept;         /* each took her row's seeds (else they count for nobody) */
    int total[2];       /* her final total: store, plus her row if swept */
    int winner;         /* SOW_SOUTH, SOW_NORTH, or -1 for a draw */
    bool tiebreak;      /* totals equal: decided by the tie-break */
} sow_end;

/* Why the game ended. With `last` NULL, `p` is the finished position (a
 * position read as given, swept or not); else `p` is the position before
 * the game's last move *last, which is played here (the sweep of sow_make
 * hides which row ran empty). SOW_E_OVER if p is over before *last;
 * SOW_E_MOVE if *last is not legal; SOW_E_POSITION if the game is not over
 * afterwards. Pure; thread-safe. */
sow_err sow_end_reason(const sow_game *g, const sow_pos *p, const sow_move *last,
                       sow_end *out);

/* The player whose store holds more than half of all the seeds of `p`
 * (stores and rows): she has won whatever follows, since stores never
 * give seeds back (Toguz 9x9: 82 of 162). -1 if neither does. */
int sow_decided(const sow_game *g, const sow_pos *p);

/* Checks that `p` is a well-formed position of `g`: counts within range,
 * total seeds <= SOW_MAX_TOTAL, zero bytes where the layout says zero,
 * tuzdiks legal (Toguz with claims only, empty, not the opponent's pit m,
 * not mirroring each other). */
sow_err sow_position_check(const sow_game *g, const sow_pos *p);

/* perft(depth) as doc/rules.md defines it. Every move is made, the last ply's
 * included (no bulk counting), so one call makes perft(1) + ... +
 * perft(depth) moves. */
uint64_t sow_perft(const sow_game *g, const sow_pos *p, int depth);

#endif
