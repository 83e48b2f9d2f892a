/* sow/retro.h - retrograde analysis (Kalah, Chungkala, Congkak; Toguz
 * with cycles): the computation of one seed count's table from the smaller
 * ones, over the perfect index of the boards with k seeds (sow/index.h).
 */
#ifndef SOW_RETRO_H
#define SOW_RETRO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/index.h"
#include "sow/packed.h"
#include "sow/position.h"
#include "sow/progress.h"

/* ---- Building one seed count ---------------------------------------- */

/* The future score (score units, rules.h) of a position is stored in one
 * signed byte; this value is never a future (debug builds fill a level
 * with it first and assert that no entry is read before it is written). */
#define SOW_RETRO_UNSET INT8_MIN

/* Largest seed count whose futures fit an int8 for game g: the future
 * margin is within [-k, k], so |score| <= k*scale + 1. */
int sow_retro_max_seeds(const sow_game *g);

/* Can g have a database at all? Every game can (Toguz, which cycles, by
 * its own builder: doc/retrograde.md "Toguz"); SOW_E_ARG for a malformed g. */
sow_err sow_retro_supported(const sow_game *g);

/* Entries of level k (the boards with exactly k seeds): C(k+2m-1, 2m-1),
 * and for Toguz every tuzdik state's boards (sow_toguz_level_count);
 * UINT64_MAX if that does not fit. */
uint64_t sow_retro_level_size(const sow_game *g, int k);

typedef struct sow_retro_job {
    const sow_game *g;
    const sow_index *ix;       /* for 2m parts */
    int k;                     /* the seed count to build */
    const int8_t *const *tab;  /* tab[0..k-1]: complete tables, one byte an entry */
    /* If not NULL: pack[j], where not NULL, holds level j packed instead
     * of tab[j] (m <= 8 pits a side, not Toguz): the build then reads
     * the same values there, and writes the same bytes. */
    const sow_db_pack *const *pack;
    int8_t *out;               /* sow_index_count(2m, k) entries, any content */
    int threads;               /* 0: OpenMP's default */
    sow_progress_fn progress;  /* may be NULL */
    void *progress_ctx;
    sow_progress base;         /* all_done/all_total/max_seeds/seconds offset for reports */
    double t0;                 /* clock origin of `seconds` (sow_retro_clock) */
    const sow_stop_flag *stop; /* if not NULL and set: stop, SOW_E_INTERRUPTED */
    double deadline;           /* > 0: stop the same way once sow_retro_clock() reaches it */
    /* > 0: the scratch the build may take. Toguz's builder then keeps its
     * move lists only if they fit, else builds lean (about a sixth of the
     * memory, more time: doc/retrograde.md, "The lean builder"); it must
     * be at least sow_retro_scratch_least. 0: the fastest way. */
    size_t scratch_max;
    /* Experimental: for tests and tools; may change without notice. A level
     * with fewer positions per potential is built by one thread; 0: 16384
     * (tests set 1, to run the threaded path on small levels). A field
     * cannot be hidden behind SOW_EXPERIMENTAL like a function: the struct
     * would then have two layouts, one for the library and one for a
     * program built without the macro. So it stays, documented here; leave
     * it 0. */
    uint64_t serial_below;
} sow_retro_job;

/* Bytes of scratch memory (row lists and move tables) that building seed
 * count k takes besides the tables themselves, the fastest way
 * (scratch_max 0); freed when it returns. */
size_t sow_retro_scratch_bytes(const sow_game *g, int k);

/* ... the least it can take (a job's scratch_max down to this). */
size_t sow_retro_scratch_least(const sow_game *g, int k);

/* Does building seed count k within scratch_max bytes of scratch (0: no
 * limit) take the lean way (Toguz: no move lists, where they do not fit
 * the scratch or their 32-bit indices)? It then takes about
 * SOW_RETRO_LEAN_SLOWDOWN times as long (Toguz 5x2 without tuzdik, 0..24
 * seeds, one thread: doc/experiments.md, "The lean builder"). */
bool sow_retro_lean(const sow_game *g, int k, size_t scratch_max);
#define SOW_RETRO_LEAN_SLOWDOWN 2.0

/* Fills job->out with the future of every position with job->k seeds.
 * The result does not depend on the thread count (byte-identical). */
sow_err sow_retro_build(const sow_retro_job *job);

/* Monotonic seconds, the clock of sow_progress. */
double sow_retro_clock(void);

#endif
