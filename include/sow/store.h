/* sow/store.h - the database store of a machine: one folder per user in
 * which every command finds the databases built before and leaves those it
 * builds, so that a seed count is built once per machine.
 *
 * A store is a folder holding the file SOW_STORE_MARK and one subfolder
 * per database family (sow_store_family: game, pits and value-changing
 * variants, everything that defines the files), each laid out as any
 * database folder (doc/db-format.md). sow_db_open and sow_db_dir_levels
 * given a store use the family's subfolder (created on first use), and
 * after a build in a store remove the least recently used seed counts of
 * other families while it is over its budget (sow_store_prune).
 *
 * Thread safety: the functions are reentrant; the store itself is shared
 * between processes through the database layer's per-file locks.
 */
#ifndef SOW_STORE_H
#define SOW_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"

/* The file that makes a folder a store; it holds the budget (text:
 * "sow database store\nmax_bytes N\n", N = 0: the default budget). */
#define SOW_STORE_MARK ".sow-store"

/* Largest default budget (the default is a quarter of the filesystem). */
#define SOW_STORE_DEFAULT_CAP (64ull << 30)

/* The store of this user, not created: $SOW_DB if set and not empty, else
 * $XDG_CACHE_HOME/sow, else $HOME/.cache/sow. SOW_E_IO with why if none
 * can be named (no HOME) or the name does not fit buf. */
sow_err sow_store_default(char *buf, size_t size, char *why, size_t why_size);

/* Makes root a store if it is not one: creates it (and its missing
 * parents; root itself mode 0700) and its mark. SOW_E_IO with why. */
sow_err sow_store_init(const char *root, char *why, size_t why_size);

/* Is dir a store (does it hold SOW_STORE_MARK)? */
bool sow_store_is(const char *dir);

/* Name of g's family in a store, e.g. "kalah-m6-empty-capture" (its files
 * are named FAMILY-kK.sowdb). */
void sow_store_family(const sow_game *g, char *buf, size_t size);

/* The game, pits and variant flags of a family's name (sow_store_family's
 * inverse; seeds 1): SOW_E_ARG if fam is not one it writes. */
sow_err sow_store_family_config(const char *fam, sow_config *out);

/* The folder whose files g's database uses: dir/FAMILY if dir is a store,
 * else dir itself. */
void sow_store_resolve(const sow_game *g, const char *dir, char *buf, size_t size);

/* One seed count's file in a store. */
typedef struct sow_store_level {
    char family[96];
    int seeds;
    uint64_t bytes;
    double last_use;    /* seconds since the epoch: the file's access time,
                           which every open of it sets */
} sow_store_level;

/* Every database file of the store's families (temporaries and lock files
 * left out), sorted by family then seed count; *out is malloc'd (free it;
 * NULL when *n is 0). SOW_E_IO with why if root cannot be read. */
sow_err sow_store_list(const char *root, sow_store_level **out, size_t *n, char *why,
                       size_t why_size);

/* The budget of the store: its mark's max_bytes, or if that is 0 the
 * default: a quarter of root's filesystem, at most SOW_STORE_DEFAULT_CAP,
 * and at most what the store holds plus half the free space. */
uint64_t sow_store_budget(const char *root);

/* Sets the budget kept in root's mark (0: the default). SOW_E_IO with why. */
sow_err sow_store_set_budget(const char *root, uint64_t max_bytes, char *why, size_t why_size);

/* Called for each file sow_store_prune removes. */
typedef void (*sow_store_removed_fn)(void *ctx, const sow_store_level *l);

/* While the store holds more than max_bytes, removes the highest seed
 * count of the family least recently used (a family's last use is its
 * files' latest; its lower seed counts are what its higher ones are built
 * from, so they go last). The family `spare` (may be NULL: none) is never
 * touched: it is the one just opened. Also removes the temporaries and
 * lock files of builds whose process is gone. *freed (may be NULL) gets the bytes
 * removed. SOW_E_IO with why if root cannot be read. */
sow_err sow_store_prune(const char *root, uint64_t max_bytes, const char *spare,
                        sow_store_removed_fn removed, void *ctx, uint64_t *freed, char *why,
                        size_t why_size);

#endif
