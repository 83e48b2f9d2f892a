/* common/mem.h - large tables that are read at random: the search's
 * transposition table and the databases' levels. */
#ifndef SOW_COMMON_MEM_H
#define SOW_COMMON_MEM_H

#include <stddef.h>

/* What sow_huge_free needs to give a table back. */
typedef struct sow_huge {
    void *map;
    size_t len;
} sow_huge;

/* `bytes` of zeroed memory, 2 MB aligned and advised as huge pages (every
 * access is random: with 4 KB pages most would also miss the TLB). An
 * anonymous mapping: the kernel supplies a page on first touch, so a table
 * that is mostly unused costs little. NULL if the mapping fails; *h is then
 * empty. */
void *sow_huge_alloc(size_t bytes, sow_huge *h);

/* Makes the whole table read as zeros again without writing it (its pages
 * are dropped). */
void sow_huge_zero(sow_huge *h);

/* Unmaps; an empty handle is ignored. */
void sow_huge_free(sow_huge *h);

#endif
