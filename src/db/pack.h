/* pack.h - a database level in about 4 bits a position (A4): encode a
 * finished int8 level, view a packed one, decode it whole. The probe of one
 * entry is inline in sow/db.h (sow_db_pack_get). */
#ifndef SOW_DB_PACK_H
#define SOW_DB_PACK_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "sow/db.h"

/* Codes a block's window holds (nibbles 0..14; 15 is the escape). */
#define SOW_PACK_WINDOW 15
/* Bytes of a packed level before g (its fixed header and dict). */
#define SOW_PACK_HEAD 320

/* Rows of m pits with at most k seeds, C(k+m, m): the size of g and f. */
uint64_t sow_pack_rows(int m, int k);

/* Bytes of level k packed with nesc escapes (n entries, rows rows). */
size_t sow_pack_bytes(uint64_t n, uint64_t rows, uint64_t nesc);

/* Bytes sow_pack_encode takes beside the level and its blob, for level k
 * of m pits a side: the fit's arrays, by row. */
size_t sow_pack_scratch_bytes(int m, int k);

/* The escapes of one game family's levels, measured (escapes.c, written
 * by scripts/db-escapes from the files of a build; results/db-escapes.md).
 * Its shares are fractions of a level's entries. */
typedef struct sow_pack_escapes {
    int game;         /* sow_game_id */
    unsigned variant; /* sow_db_variant's flags */
    int m;            /* pits a side */
    int seeds;        /* the highest level measured */
    double share;     /* the largest share escaped of any level measured */
    double slope;     /* the share's growth from the level below the top */
    double curve;     /* the slope's growth a seed (0 if it shrinks) */
} sow_pack_escapes;

extern const sow_pack_escapes sow_pack_escapes_fitted[];
extern const int sow_pack_escapes_fitted_count;

/* Escapes allowed for where nothing was measured: 1% of the entries
 * (Kalah(6) escapes 0.15% at 24 seeds, Chungkala(6) 0.5% at 12). */
#define SOW_PACK_ESCAPES_DEFAULT 0.01

/* The share of level k's entries that the family (game, variant, m) is
 * expected to escape: the measured share up to the levels measured, beyond
 * them that share grown by the measured slope and curve (a quadratic
 * extrapolation, which overshoots Kalah(6)'s measured 30 and 33 seeds);
 * SOW_PACK_ESCAPES_DEFAULT for a family not measured. An estimate, not a
 * proof: the build checks each level against its budget with what was
 * really written before building the next. */
double sow_pack_escape_share(int game, unsigned variant, int m, int k);

/* The bytes level k of the family (game, variant, m) is expected to take
 * packed, at most: its share of escapes (sow_pack_escape_share) and 64
 * more. A database keeps a level whose packed form is larger in int8, so
 * min(this, n) bounds every level that does not escape more. */
size_t sow_pack_bound(int game, unsigned variant, int m, int k);

/* Packs level k of t (n entries, combinadic index ix of 2m parts, m <= 8)
 * into a new blob (*mem, *size bytes; the layout in pack.c) with windows
 * of `window` codes (SOW_PACK_WINDOW; tests pass fewer to force escapes),
 * on `threads` OpenMP threads (<= 0: OpenMP's default); the blob does not depend on
 * them.
 * SOW_E_LIMIT if the level cannot be packed (over 256 values, g or f out
 * of int8) or its blob would take more than max_size bytes (nothing is
 * allocated then), SOW_E_NOMEM. */
sow_err sow_pack_encode(const sow_index *ix, int m, int k, const int8_t *t, uint64_t n,
                        int window, int threads, size_t max_size, sow_huge *mem, size_t *size,
                        char *why, size_t why_size);

/* Fills *pk with the view of the blob data[0..size) of level k (m pits a
 * side, n entries): SOW_E_FORMAT with a reason if its sizes do not agree. */
sow_err sow_pack_view(const void *data, size_t size, int m, int k, uint64_t n, sow_db_pack *pk,
                      char *why, size_t why_size);

/* Decodes the whole level (n entries) into out. */
void sow_pack_decode(const sow_db_pack *pk, const sow_index *ix, int m, int k, int8_t *out);

#endif
