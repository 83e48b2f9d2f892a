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

/* Upper bound of the bytes of any packable level k of m pits a side that
 * the database keeps packed (sow_db_open keeps a level whose packed form
 * is larger in int8, so min(this, n) bounds every level). */
size_t sow_pack_bound(int m, int k);

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
