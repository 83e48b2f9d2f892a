/* sow/book.h - an opening book: the positions of a game's first plies,
 * each with its value (exact, or an analysis's estimate at a depth) and a
 * best move, so that a program plays them at once and, where the values
 * are exact, perfectly at any time control.
 *
 * What is stored. A position's value is its future gain (sow/search.h:
 * the score less the store difference banked), so a position is keyed by
 * its pits and tuzdiks alone, as the exact solver's table and the
 * databases key it: two positions that differ only in their stores or in
 * who is North share one entry (their future is the same game). The key
 * is the board's code (sow/index.h, sow_index_code_pos, times the tuzdik
 * states) where the codes of the game's boards fit 64 bits, which holds
 * for every board the exact solver can take; else (Toguz 9x9, Congkak 7x7:
 * analysis books only) a 128-bit hash of the pits and tuzdiks.
 *
 * Plies. Every move is a ply, an extra turn's included: a book of K plies
 * holds the positions reached by at most K moves from the start (those
 * the same by transposition once).
 *
 * The file (doc/book-format.md): a versioned header naming the game,
 * pits, seeds and variant, the records sorted by key, an XXH64 checksum;
 * written to a temporary name, flushed and renamed into place. A damaged
 * or foreign file is refused with one line. Books live in the database
 * store beside the databases (sow_book_path), where every process finds
 * them; the resident engine (sow/engine.h) answers from its game's book.
 *
 * Games with the pie rule have no book (the rule changes the values of
 * South's opening turn: sow_book_new refuses them).
 *
 * Thread safety: a book is read-only once loaded (sow_book_find may be
 * called from any thread); building one (sow_book_put) is one thread's.
 */
#ifndef SOW_BOOK_H
#define SOW_BOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/position.h"
#include "sow/rules.h"

#define SOW_BOOK_VERSION 1

typedef struct sow_book sow_book;

/* One position's entry. */
typedef struct sow_book_entry {
    int future;   /* future gain, score units, the mover's view */
    int move;     /* a best move (sow_move), -1: none recorded */
    bool exact;   /* proven; else an analysis's estimate ... */
    int depth;    /* ... at this depth, plies (0 when exact) */
} sow_book_entry;

/* What a book is. */
typedef struct sow_book_info {
    sow_config cfg;        /* game, pits, seeds, variant */
    int version;           /* the file format's */
    int plies;             /* the build's reach, plies from the start */
    bool complete;         /* every position within plies is in it */
    bool hashed;           /* keyed by a 128-bit hash (no exact code) */
    uint64_t positions;    /* entries */
    uint64_t exact;        /* ... of them exact */
    double build_seconds;  /* the build's wall time, resumed runs added */
} sow_book_info;

/* An empty book of game g, of `plies` plies. SOW_E_ARG for the pie rule
 * or plies outside 0..SOW_BOOK_MAX_PLIES, SOW_E_NOMEM; with why. */
#define SOW_BOOK_MAX_PLIES 64
sow_err sow_book_new(const sow_game *g, int plies, sow_book **out, char *why, size_t why_size);

/* Frees b (NULL: nothing). */
void sow_book_free(sow_book *b);

/* The book's game (its own copy) and description. */
const sow_game *sow_book_game(const sow_book *b);
void sow_book_info_get(const sow_book *b, sow_book_info *out);

/* Records p's entry (replacing one of the same key: an exact value is
 * never replaced by an estimate). SOW_E_POSITION for a position not of
 * the book's game, SOW_E_ARG for a value out of range, SOW_E_NOMEM. */
sow_err sow_book_put(sow_book *b, const sow_pos *p, const sow_book_entry *e, char *why,
                     size_t why_size);

/* Sets the plies a build reaches (a resumed build may go deeper or
 * stop shallower; the entries stay). SOW_E_ARG as sow_book_new. */
sow_err sow_book_set_plies(sow_book *b, int plies, char *why, size_t why_size);

/* Marks the book complete (every position within its plies is in it) or
 * not, and adds the seconds of a build run. */
void sow_book_set_complete(sow_book *b, bool complete);
void sow_book_add_seconds(sow_book *b, double seconds);

/* p's entry, if the book holds one. */
bool sow_book_find(const sow_book *b, const sow_pos *p, sow_book_entry *out);

/* p's score (rules.h: the mover's view, stores included) from its entry. */
int sow_book_score(const sow_game *g, const sow_pos *p, const sow_book_entry *e);

/* Entry i (0 .. positions-1): its entry, and the key's two halves (a
 * code has hi 0). In key order once the book was saved or loaded. For
 * listings and checks. */
void sow_book_at(const sow_book *b, uint64_t i, sow_book_entry *out, uint64_t *key_hi,
                 uint64_t *key_lo);

/* A game's first plies as lines from the start: every unfinished position
 * within `plies` plies, each board once (the first line to reach it, ply
 * by ply from the start, moves in the order sow_moves gives them: the
 * order a book build judges them in), with the move and the position it
 * came from. Entry 0 is the start. */
typedef struct sow_book_lines {
    sow_pos *pos;
    uint64_t *parent;    /* the position before (the start: 0) */
    sow_move *move;      /* the move from it */
    uint8_t *ply;        /* plies from the start */
    uint64_t n;
} sow_book_lines;

/* Fills out (free with sow_book_lines_free). SOW_E_ARG for plies outside
 * 0..SOW_BOOK_MAX_PLIES or the pie rule (as sow_book_new), SOW_E_NOMEM. */
sow_err sow_book_lines_make(const sow_game *g, int plies, sow_book_lines *out, char *why,
                            size_t why_size);
void sow_book_lines_free(sow_book_lines *l);

/* Line i's moves from the start into moves[0..ply); returns its ply. */
int sow_book_line_moves(const sow_book_lines *l, uint64_t i, sow_move *moves);

/* The positions a book of g within `plies` holds, per ply: per_ply[d]
 * for d = 0..plies (the start at 0); the lines above, counted. Errors as
 * sow_book_lines_make. */
sow_err sow_book_count(const sow_game *g, int plies, uint64_t *per_ply, char *why,
                       size_t why_size);

/* Balanced openings: of the positions exactly `ply` plies from the start
 * (the first line to each, as sow_book_lines_make), those whose value in
 * b is within `within` seeds of a draw (|South's final margin| <= within),
 * the most balanced first, then in line order. A match played from them
 * weighs the engines rather than the openings, on a game where most short
 * lines leave one side a won game (Congkak: results/strength.md). */
typedef struct sow_book_opening {
    sow_move moves[SOW_BOOK_MAX_PLIES];
    int plies;
    int margin;          /* South's final margin by the book's value */
    bool exact;          /* the value is proven (else an estimate ... */
    int depth;           /* ... at this analysis depth) */
    uint64_t index;      /* the line's index in sow_book_lines_make's order */
} sow_book_opening;

/* *out (malloc'd; free it) holds *n openings; *positions counts the
 * positions at that ply, *missing those the book holds no entry for (an
 * incomplete book). SOW_E_ARG for ply outside 0..the book's plies or
 * within < 0, SOW_E_NOMEM. */
sow_err sow_book_openings(const sow_book *b, int ply, int within, sow_book_opening **out,
                          uint64_t *n, uint64_t *positions, uint64_t *missing, char *why,
                          size_t why_size);

/* Writes b to path (through path.tmp.PID, flushed, renamed). SOW_E_IO. */
sow_err sow_book_save(const sow_book *b, const char *path, char *why, size_t why_size);

/* Reads path. With g not NULL the book must be g's (pits, seeds and the
 * variant flags): SOW_E_MISMATCH otherwise. SOW_E_MISSING (no such file),
 * SOW_E_IO, SOW_E_FORMAT (not a book, another format version, a bad
 * record), SOW_E_CHECKSUM, SOW_E_NOMEM; each with one line naming path. */
sow_err sow_book_load(const char *path, const sow_game *g, sow_book **out, char *why,
                      size_t why_size);

/* Where g's book lives in the database folder dir: in a store
 * (sow/store.h) the family's folder, FAMILY-nN.sowbook (N: seeds per
 * pit; the family names game, pits and variant). */
void sow_book_path(const sow_game *g, const char *dir, char *buf, size_t size);

#endif
