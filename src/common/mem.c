/* mem.c - huge-page tables (see common/mem.h). */
#include "mem.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *sow_huge_alloc(size_t bytes, sow_huge *h)
{
    h->map = NULL;
    h->len = 0;
    /* One huge page more than needed, to align the start. */
    size_t len = (bytes + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE + HUGE_PAGE;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *t = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
#ifdef MADV_HUGEPAGE
    /* Only the whole huge pages of the table: advising the rounded-up
     * length made every small database level a 2 MB page of its own, 40 MB
     * more memory (all zeroed) for a Kalah 6-pit database of 22 seeds
     * (doc/experiments.md, "Exact table keys: speed"). */
    madvise(t, bytes, MADV_HUGEPAGE);
#endif
    h->map = p;
    h->len = len;
    return t;
}

void sow_huge_zero(sow_huge *h)
{
    /* Dropped pages of a private anonymous mapping read as zeros. */
    if (h->map && madvise(h->map, h->len, MADV_DONTNEED) != 0)
        memset(h->map, 0, h->len);
}

void sow_huge_free(sow_huge *h)
{
    if (h->map)
        munmap(h->map, h->len);
    h->map = NULL;
    h->len = 0;
}
