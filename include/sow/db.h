/* sow/db.h - endgame databases for Kalah, Chungkala and Congkak: build in
 * memory, save to and load from files (doc/db-format.md), probe.
 *
 * A database for game g (its rules, variant flags and m; the seeds per pit
 * do not matter) holds, for every board with at most max_seeds seeds in
 * the pits, the *future* score of the player to move: the score (rules.h,
 * margin*scale + tie-break) of the final result minus what the stores
 * already say, (own store - opp store) * scale. It does not depend on the
 * stores (doc/retrograde.md). So for any position p of g with few enough
 * seeds on the board:
 *
 *     score(p) = (own store - opp store) * g->score_scale + sow_db_probe(db, p)
 *
 * The pie variant does not change any position's value (only how the
 * opening is scored), so a Kalah database with or without `pie` is the
 * same database. Toguz (which can cycle) has one too: the future is its
 * exact value with endless play scoring 0 (doc/retrograde.md, "Toguz"), and
 * the tuzdik state is part of the key.
 *
 * Thread safety: a sow_db is read-only once sow_db_open returns; probes
 * may run concurrently from any number of threads.
 */
#ifndef SOW_DB_H
#define SOW_DB_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/packed.h"
#include "sow/position.h"
#include "sow/progress.h"
#include "sow/retro.h"
#include "sow/solution.h"

/* Highest seed count a database can have (the int8 entry encoding bounds
 * it further per game: sow_retro_max_seeds). */
#define SOW_DB_MAX_SEEDS 127

/* Called when the file of a seed count sow_db_open needs is being built by
 * another process (sow_db_open with a dir), once per file, before waiting
 * for it: file is its path, holder the pid written in its lock file (0 if
 * it cannot be read). Called from the calling thread. */
typedef void (*sow_db_wait_fn)(void *ctx, const char *file, long holder);

/* Called when the file of a seed count sow_db_open is to build is damaged
 * (truncated, corrupt, another seed count's or game's), once, before it
 * is rebuilt: why names the file and what is wrong with it. Called from
 * the calling thread. */
typedef void (*sow_db_damaged_fn)(void *ctx, const char *why);

/* Sets the damaged callback of every sow_db_open whose options give none
 * (such as the opens the plan makes), so that a program is told of each
 * file rebuilt wherever it is opened. Call it before any open starts; it
 * is read, not locked, by each open. fn NULL: none. */
void sow_db_set_damaged_hook(sow_db_damaged_fn fn, void *ctx);

/* A seed count's file FILE is built under the lock of FILE.lock (see
 * sow_db_open). */
#define SOW_DB_LOCK_SUFFIX ".lock"

typedef struct sow_db_options {
    int threads;               /* OpenMP threads for building; 0 = default */
    uint64_t memory;           /* budget in bytes for the tables; 0 = none */
    sow_progress_fn progress;  /* build progress, may be NULL */
    void *progress_ctx;
    bool no_build;             /* with a dir: only load; a missing seed count
                                  is SOW_E_MISSING instead of being built */
    bool no_verify;            /* skip the payload checksum when loading */
    bool in_place;             /* probe loaded files where they are mapped
                                  (4 KB pages) instead of copying them into
                                  huge pages: for a few probes only */
    bool read_ahead;           /* levels probed where they are mapped
                                  (in_place, or past copy_deadline): ask
                                  the kernel to read their files into the
                                  page cache behind the probes
                                  (MADV_WILLNEED, asynchronous) */
    const sow_stop_flag *stop; /* if set while building or waiting for a
                                  file's lock: SOW_E_INTERRUPTED */
    bool make_dir;             /* with a dir: create it (one level) if it is
                                  missing, once every other check has passed;
                                  removed again if the open then fails before
                                  saving a file */
    sow_db_wait_fn wait;       /* told when a file's lock is held by
                                  another process; may be NULL */
    void *wait_ctx;
    sow_db_damaged_fn damaged; /* told of a damaged file it rebuilds; may
                                  be NULL */
    void *damaged_ctx;
    double deadline;           /* > 0: a time on sow_retro_clock()'s clock
                                  past which no build of a seed count starts
                                  or goes on (it stops as on *stop), nor a
                                  wait for another process's build; nor does
                                  a build start that the rate of the last
                                  seed count this open built (if it had at
                                  least SOW_DB_RATE_MIN positions, else
                                  SOW_DB_START_RATE) says cannot end by then.
                                  0: none. Loading files is not cut:
                                  copy_deadline says how long they may
                                  take. */
    double copy_deadline;      /* > 0: a time on sow_retro_clock()'s clock
                                  past which no loaded file is copied (a
                                  copy under way is dropped): that level
                                  and the later ones are probed in place,
                                  where they are mapped (as in_place).
                                  0: none */
    bool unpacked;             /* keep every level at one byte a position
                                  (sow_db_entry usable; twice the memory)
                                  instead of packing those that pack
                                  smaller */
    bool keep_partial;         /* a build cut by the deadline or *stop
                                  returns SOW_OK with the database up to the
                                  last seed count it holds complete
                                  (db->max_seeds lower than asked,
                                  sow_db_cut true), or SOW_E_INTERRUPTED if
                                  it holds not even seed count 0; without
                                  it, any such cut is SOW_E_INTERRUPTED */
} sow_db_options;

/* Positions per second a build is assumed to reach before it has built a
 * seed count of its own to measure: below one thread's rate for Toguz,
 * the slowest game, on a loaded machine, so that a deadline cuts few
 * builds it let start. */
#define SOW_DB_START_RATE 1e6
/* Smallest seed count (in positions) whose build rate is measured: a
 * smaller one's time is mostly fixed costs (threads, tables). */
#define SOW_DB_RATE_MIN 65536

/* The layout is public so that sow_db_probe can be inline; treat it as
 * read-only. A caller may read m, max_seeds (the largest seed count held)
 * and score_scale; the rest is the probe's:
 *
 *   table[k]  the entries of the boards with exactly k seeds, indexed by
 *             sow_index_rank (retro.h); one int8 future score each; NULL
 *             if level k is packed
 *   pack[k]   level k packed (sow_db_pack), or NULL if table[k] holds it
 *   ix        the ranking tables for 2m parts
 */
typedef struct sow_db {
    int m;
    int max_seeds;
    int level_step;  /* the game's: the levels held are max_seeds - j * it */
    int score_scale;
    bool toguz;      /* Toguz: entries indexed by sow_toguz_rank_pos */
    bool packed;     /* some level is packed: sow_db_entry is not usable */
    const int8_t *table[SOW_DB_MAX_SEEDS + 1];
    const sow_db_pack *pack[SOW_DB_MAX_SEEDS + 1];
    sow_index ix;
    struct sow_db_priv *priv;
} sow_db;

/* Where sow_db_probe(db, p) reads: the level k and rank r, and for a
 * packed level its rows' codes a (own) and b (other), which fit 32 bits
 * on every level packed (sow_pack_rows < 2^32). sow_db_locate finds it
 * once and starts loading the entry; sow_db_read reads it later: one
 * ranking where a prefetch and a probe would take two. */
typedef struct sow_db_loc {
    uint64_t rk; /* r | k << 56 */
    uint32_t a, b;
} sow_db_loc;

static inline unsigned sow_db_loc_k_(const sow_db_loc *l) { return (unsigned)(l->rk >> 56); }
static inline uint64_t sow_db_loc_r_(const sow_db_loc *l) { return l->rk & ((1ull << 56) - 1); }

/* The place of a combinadic level's entry for m <= 8 pits a side (m
 * constant once inlined): the rank with code(A) and code(B)
 * (sow_index_rank_parts_m_), taken before the level is known so that
 * they overlap the entry's miss. */
static inline __attribute__((always_inline)) void
sow_db_place_m_(const sow_db *db, const sow_pos *p, sow_db_loc *l, int m)
{
    unsigned k;
    uint64_t a, b;
    uint64_t r = sow_index_rank_parts_m_(&db->ix, p, &k, &a, &b, m);
    assert((int)k <= db->max_seeds);
    l->rk = r | (uint64_t)k << 56;
    l->a = (uint32_t)a;
    l->b = (uint32_t)b;
}

/* p's place (sow_db_probe's precondition), without loading anything. */
static inline __attribute__((always_inline)) void sow_db_place_(const sow_db *db,
                                                                const sow_pos *p, sow_db_loc *l)
{
    if (!db->packed) {
        unsigned k;
        uint64_t r = db->toguz ? sow_toguz_rank_pos(&db->ix, p, &k)
                               : sow_index_rank_pos(&db->ix, p, &k);
        assert((int)k <= db->max_seeds && db->table[k]);
        l->rk = r | (uint64_t)k << 56;
        l->a = l->b = 0;
        return;
    }
    switch (db->m) {
    case 2: sow_db_place_m_(db, p, l, 2); break;
    case 3: sow_db_place_m_(db, p, l, 3); break;
    case 4: sow_db_place_m_(db, p, l, 4); break;
    case 5: sow_db_place_m_(db, p, l, 5); break;
    case 6: sow_db_place_m_(db, p, l, 6); break;
    case 7: sow_db_place_m_(db, p, l, 7); break;
    case 8: sow_db_place_m_(db, p, l, 8); break;
    default: sow_db_place_m_(db, p, l, 1); break;
    }
}

/* Where the entry of p lies, p's pits holding at most db->max_seeds seeds
 * in total (precondition checked by assert only), for a database without
 * packed levels (!db->packed): lets a caller prefetch it and read it later
 * without ranking p twice. */
static inline const int8_t *sow_db_entry(const sow_db *db, const sow_pos *p)
{
    assert(!db->packed);
    sow_db_loc l;
    sow_db_place_(db, p, &l);
    return &db->table[sow_db_loc_k_(&l)][sow_db_loc_r_(&l)];
}

/* The entry at a place: sow_db_probe's value. */
static inline int sow_db_read(const sow_db *db, const sow_db_loc *l)
{
    unsigned k = sow_db_loc_k_(l);
    uint64_t r = sow_db_loc_r_(l);
    const int8_t *t = db->table[k];
    if (t)
        return t[r];
    return sow_db_pack_get(db->pack[k], r, l->a, l->b);
}

/* Future score (score units) for the player to move of p (same
 * precondition). Stores, flags and side to move are ignored (the board is
 * mover-relative). Thread-safe, non-allocating. */
static inline int sow_db_probe(const sow_db *db, const sow_pos *p)
{
    if (!db->packed)
        return *sow_db_entry(db, p);
    sow_db_loc l;
    sow_db_place_(db, p, &l);
    return sow_db_read(db, &l);
}

/* Finds p's entry (same precondition), keeps its place and starts loading
 * it: its byte, or for a packed level its nibble (g and f are small). */
static inline void sow_db_locate(const sow_db *db, const sow_pos *p, sow_db_loc *l)
{
    sow_db_place_(db, p, l);
    unsigned k = sow_db_loc_k_(l);
    uint64_t r = sow_db_loc_r_(l);
    if (db->table[k])
        __builtin_prefetch(&db->table[k][r]);
    else
        __builtin_prefetch(&db->pack[k]->nib[r >> 1]);
}

/* Starts loading the entry sow_db_probe(db, p) will read (same
 * precondition); lets a caller overlap the memory latency of several
 * probes. */
static inline void sow_db_prefetch(const sow_db *db, const sow_pos *p)
{
    sow_db_loc l;
    sow_db_locate(db, p, &l);
}

/* Does a database of g up to max_seeds hold seed count k? Every one up
 * to max_seeds where g->level_step is 1; else only max_seeds - j *
 * level_step: a board's seeds never reach the others (Toguz without
 * tuzdik keeps their parity), so they are neither built nor loaded, and a
 * board of the other parity is not covered (sow_db_covers). */
static inline bool sow_db_level_in(const sow_game *g, int max_seeds, int k)
{
    return k >= 0 && k <= max_seeds && sow_game_levels_meet(g, max_seeds, k);
}

/* The lowest seed count a database of g up to max_seeds holds. */
static inline int sow_db_level_first(const sow_game *g, int max_seeds)
{
    return max_seeds % g->level_step;
}

/* Can db (open, for g) answer the positions a search from a board of
 * `seeds` seeds reaches that hold at most db->max_seeds? Those have seeds
 * - j * level_step seeds, so: unless the steps miss every level it holds. */
static inline bool sow_db_covers(const sow_db *db, const sow_game *g, int seeds)
{
    return sow_game_levels_meet(g, seeds, db->max_seeds);
}

/* Bytes the tables of a database up to max_seeds take at one byte a
 * position, SIZE_MAX if that does not fit: an upper bound of its memory
 * once open (a level is packed only where that is smaller; sow_db_size
 * tells what an open database takes). */
size_t sow_db_bytes(const sow_game *g, int max_seeds);

/* The least memory a build up to max_seeds takes, SIZE_MAX if that does
 * not fit: the levels below the top held as the build holds them (those
 * whose files dir holds, if dir is not NULL, at their files' size (dir a
 * folder or a store: its folder for g's family); the
 * others packed where that is smaller, with the escapes measured for g's
 * family (1% of the entries where none were measured; results/db-escapes.md);
 * every one at a byte if unpacked), the top at a byte, and beside it the
 * larger of its builder's least scratch (sow_retro_scratch_least: a
 * build with more room takes the faster way) and its packed form.
 * sow_db_open checks
 * it; each level is checked again before its build with what is really
 * held (a level that escapes more than measured is packed into the room
 * the budget has). A build with more room reads copies of the levels
 * below at a byte (faster), within the budget. */
size_t sow_db_build_bytes(const sow_game *g, int max_seeds, const char *dir, bool unpacked);

/* What sow_db_open up to max_seeds checks against its budget, SIZE_MAX if
 * that does not fit: when dir (a folder or a store) holds every level,
 * what the files hold (packed levels at their size; every level at a
 * byte if unpacked), else the build's least (sow_db_build_bytes). */
size_t sow_db_open_bytes(const sow_game *g, int max_seeds, const char *dir, bool unpacked);

/* Bytes the tables of db take now: its int8 levels and packed ones. */
size_t sow_db_size(const sow_db *db);

/* Opens the database of g up to max_seeds seeds.
 * dir == NULL: builds it in memory.
 * dir != NULL: loads the files of dir that it needs (mmap, checked: magic,
 *   version, parameters, checksum) and builds and saves the missing seed
 *   counts (unless opt->no_build), each file written to a temporary name,
 *   fsynced and renamed, so an interrupted build resumes at the first seed
 *   count without a file. A damaged file (truncated, bad checksum or
 *   header, another seed count's or game's: SOW_E_FORMAT, SOW_E_CHECKSUM,
 *   SOW_E_MISMATCH when only loading) is rebuilt like a missing one, and
 *   opt->damaged told; a file that cannot be read (SOW_E_IO) fails.
 *   Building a seed count takes its file's lock first: flock(2) on
 *   FILE.lock (SOW_DB_LOCK_SUFFIX), which holds the holder's pid and is
 *   unlinked when that file is saved. A second process that needs the same
 *   file waits for its lock (telling opt->wait, polling opt->stop and
 *   opt->deadline), then loads it instead of building it; the files
 *   finished before are loaded at once. Opening without building anything
 *   (every file there, or no_build) takes no lock, so a read-only folder
 *   works.
 * dir a store (sow/store.h): the same in its folder for g's family,
 *   created if missing; after saving a file there, the store is pruned to
 *   its budget, sparing g's family.
 * opt may be NULL (defaults). On error, *out is NULL and a one-line reason
 * is written to why[0..why_size) (if why is not NULL).
 * Errors: SOW_E_ARG (bad max_seeds), SOW_E_LIMIT (max_seeds beyond
 * the entry encoding), SOW_E_NOMEM (over opt->memory, or out of memory),
 * SOW_E_IO (dir missing or not a folder, cannot lock or write), SOW_E_FORMAT, SOW_E_CHECKSUM, SOW_E_MISMATCH, SOW_E_MISSING,
 * SOW_E_INTERRUPTED. */
sow_err sow_db_open(const sow_game *g, int max_seeds, const char *dir,
                    const sow_db_options *opt, sow_db **out, char *why, size_t why_size);

void sow_db_close(sow_db *db);

/* The root `pos` of game `g` from database `db` (opened for g, with at
 * least as many seeds as pos has on its board; may be NULL if the game is
 * over at pos): fills *out with the score, value, outcome, every legal
 * move and its exact score, a best move (the first of the best score) and
 * in `nodes` the number of database probes. `pie_opening`: pos lies within
 * South's opening turn of a pie game, so each move scores the best over
 * the completions t of South's turn of -|v(t)| (doc/rules.md, as
 * sow_ref_solve). SOW_E_POSITION if pos is malformed, SOW_E_ARG if the
 * database does not cover pos (other m or scale, too few seeds, seed
 * counts pos never reaches: sow_db_covers) or
 * pie_opening is set when South is not to move in a pie game. Thread-safe:
 * reads only. */
sow_err sow_db_probe_root(const sow_db *db, const sow_game *g, const sow_pos *pos,
                          bool pie_opening, sow_solution *out);

/* Was seed count k computed by the sow_db_open that returned db (true), or
 * loaded from its file (false)? */
bool sow_db_built(const sow_db *db, int k);

/* Did the deadline or the stop flag cut db's open short (keep_partial), so
 * that db->max_seeds is below the seed count asked for? */
bool sow_db_cut(const sow_db *db);

/* ---- Files (doc/db-format.md) --------------------------------------- */

/* What a file's header says. */
typedef struct sow_db_header {
    uint32_t version;
    sow_game_id game;
    int m;
    unsigned variant;     /* value-changing SOW_VAR_* flags */
    int seeds;            /* k: the file holds the boards with exactly k seeds */
    int encoding;         /* SOW_DB_ENC_* */
    int index;            /* SOW_DB_IDX_* */
    int score_scale;
    uint64_t entries;     /* sow_retro_level_size */
    uint64_t checksum;    /* XXH64 of the payload, seed 0 */
    uint64_t payload;     /* bytes after the header */
} sow_db_header;

/* 1: one int8 future score a position; 2 (version 2 on): the level packed
 * (sow_db_pack; doc/db-format.md, "Packed levels"). */
enum { SOW_DB_ENC_INT8_FUTURE = 1, SOW_DB_ENC_PACKED = 2 };
/* 1: sow_index_rank of the 2m pits; 2 (Toguz): the tuzdik states' blocks,
 * each ranked without its tuzdik pits (sow_toguz_rank_pos). */
enum { SOW_DB_IDX_COMBINADIC = 1, SOW_DB_IDX_TOGUZ = 2 };
/* Files of version 1 (int8 levels only) are read too; a newer version is
 * refused (SOW_E_LIMIT), never rebuilt over. */
#define SOW_DB_VERSION 2
#define SOW_DB_HEADER_SIZE 64

/* The variant flags that change values (all of g's but pie). */
unsigned sow_db_variant(const sow_game *g);

/* File name (no directory) of seed count k of g's database, e.g.
 * "kalah-m6-empty-capture-k24.sowdb". */
void sow_db_file_name(const sow_game *g, int k, char *buf, size_t size);

/* The largest K of the seed counts a board of `like` seeds reaches
 * (like - j * g->level_step; any K where the step is 1) such that dir
 * holds a file for every seed count of g's database up to K
 * (sow_db_level_in; by name only: a file is checked when it is loaded);
 * -1 if none (or dir is not a readable folder). */
int sow_db_dir_levels(const sow_game *g, const char *dir, int like);

/* The memory the seed counts of g's database up to k (sow_db_level_in)
 * take once loaded from dir as
 * its files hold them (a packed level at its packed size, a byte a
 * position otherwise: the files' sizes, a header each over); 0 if dir
 * lacks one of them. A build of a higher seed count reads them as they
 * are held (sow_db_build_bytes). */
uint64_t sow_db_dir_bytes(const sow_game *g, const char *dir, int k);

/* Reads and checks a file: header (magic, version, sizes, header checksum)
 * and, unless skip_payload, the payload checksum, always computed (a file
 * found right is stamped as checked: doc/db-format.md, "Reading"; loading
 * skips the checksum of a file so stamped). Fills *h. SOW_E_LIMIT for a
 * file of a newer format version than SOW_DB_VERSION. */
sow_err sow_db_file_check(const char *path, bool skip_payload, sow_db_header *h,
                          char *why, size_t why_size);

/* ---- Experimental: for tests and tools; may change without notice -----
 * (seen with SOW_EXPERIMENTAL defined: sow/version.h, "API tiers") */
#ifdef SOW_EXPERIMENTAL

/* The entry of rank r of level k (k <= db->max_seeds, r below its size),
 * packed or not. */
int sow_db_at(const sow_db *db, int k, uint64_t r);

/* Level k's entries (sow_retro_level_size of them) into out, as int8. */
void sow_db_level_copy(const sow_db *db, int k, int8_t *out);

#endif /* SOW_EXPERIMENTAL */

#endif
