/* book/internal.h - the book in memory, shared by its parts:
 *   book.c  keys, entries, lookup (sow/book.h)
 *   file.c  the file: save, load, checks (doc/book-format.md)
 *   lines.c the first plies as lines from the start; balanced openings
 */
#ifndef SOW_BOOK_INTERNAL_H
#define SOW_BOOK_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/book.h"
#include "sow/index.h"

/* A record's flags. */
enum { REC_EXACT = 1 };
#define REC_NO_MOVE 0xff

typedef struct book_rec {
    uint64_t hi, lo;   /* the key: (0, code) or a 128-bit hash */
    int16_t future;
    uint8_t move;      /* sow_move, REC_NO_MOVE: none */
    uint8_t depth;
    uint8_t flags;
} book_rec;

/* File flags. */
enum { BOOK_COMPLETE = 1, BOOK_HASHED = 2 };

struct sow_book {
    sow_game g;
    int plies;
    bool complete, hashed;
    double seconds;
    sow_index *ix;       /* the board codes (not hashed) */
    uint64_t tz;         /* tuzdik states per side (1: none) */
    /* recs[0..sorted) in key order, then recs[sorted..n) as put, each key
     * once: puts append, and a long tail is merged in (book_merge). */
    book_rec *recs;
    uint64_t n, sorted, cap;
};

/* Sets up b's keys for g (b->g set). false: out of memory. */
bool book_keys_init(sow_book *b);

/* Sorts the tail into the sorted part. */
void book_merge(sow_book *b);

/* Key order. */
static inline int book_key_cmp(const book_rec *x, const book_rec *y)
{
    if (x->hi != y->hi)
        return x->hi < y->hi ? -1 : 1;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

#endif
