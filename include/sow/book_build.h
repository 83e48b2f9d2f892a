/* sow/book_build.h - building an opening book (sow/book.h) with the
 * resident engine (sow/engine.h): every position within the first plies,
 * each solved exactly or analysed, one engine (its table and database)
 * kept across all of them.
 *
 * Order. Ply by ply from the start (shallow positions first: a build cut
 * by its time still holds the positions nearest the start), in the order
 * the moves reach them; a position met again (by transposition: same
 * pits and tuzdiks, whatever the stores) once. Finished positions have
 * no entry (the rules score them). Positions the book already holds
 * (exact, or any entry for an analysis build) are kept and skipped: a
 * build resumes from the file a cut or killed one saved.
 */
#ifndef SOW_BOOK_BUILD_H
#define SOW_BOOK_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/book.h"
#include "sow/engine.h"

/* Where a build is, reported after each position. */
typedef struct sow_book_progress {
    uint64_t done;       /* positions with an entry (kept ones included) */
    uint64_t total;      /* positions within the plies */
    uint64_t left_out;   /* not solved within the time per position */
    int ply;             /* the current position's ply */
    double seconds;      /* since the build began */
    double last;         /* the last position's seconds */
} sow_book_progress;

typedef struct sow_book_build_options {
    bool exact;          /* solve each position (else analyse it) */
    double seconds;      /* per position: the analysis's time (> 0); with
                            exact a cap (0: none), a position not solved
                            within it left out */
    double deadline;     /* > 0: the time (sow_retro_clock's clock, as
                            sow_now) at which the build stops, the book
                            so far kept */
    const char *save_path; /* NULL, or where to save the book ... */
    double save_every;   /* ... every this many seconds (> 0) */
    void (*progress)(void *ctx, const sow_book_progress *pr);
    void *ctx;
} sow_book_build_options;

typedef struct sow_book_build_result {
    sow_book_progress last;
    bool stopped;        /* the deadline (or the engine's stop flag) came first */
    uint64_t solved;     /* positions this run added */
    /* Per ply d (0..the book's plies): positions within it, those with an
     * entry, those this run judged, and this run's wall and CPU (the
     * process's) seconds on them. */
    uint64_t ply_total[SOW_BOOK_MAX_PLIES + 1], ply_done[SOW_BOOK_MAX_PLIES + 1];
    uint64_t ply_solved[SOW_BOOK_MAX_PLIES + 1];
    double ply_seconds[SOW_BOOK_MAX_PLIES + 1], ply_cpu[SOW_BOOK_MAX_PLIES + 1];
} sow_book_build_result;

/* Fills b (a book of e's game; its plies say how far) with e: exact
 * values (o->exact) or analyses of o->seconds each. Sets b complete when
 * every position within its plies has an entry. SOW_OK also when the
 * deadline stopped it (out->stopped); SOW_E_LIMIT with why when o->exact
 * and the exact solver refuses the board (an analysis book is what it
 * can have); SOW_E_ARG for bad options, SOW_E_MISMATCH for another
 * game's book; the engine's errors; SOW_E_IO from a save. The engine is
 * given no book (sow_engine_set_book NULL): it answers by its search. */
sow_err sow_book_build(sow_engine *e, sow_book *b, const sow_book_build_options *o,
                       sow_book_build_result *out, char *why, size_t why_size);

#endif
