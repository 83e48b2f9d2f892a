/* index.c - the combinatorial ranking of boards (see sow/index.h and
 * doc/retrograde.md). */
#include <pthread.h>
#include <string.h>

#include "sow/index.h"

#define NMAX (SOW_MAX_TOTAL + SOW_IDX_MAX_PARTS)

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* Pascal's triangle, saturated: binom[n][r] for r < SOW_IDX_MAX_PARTS. */
static void pascal(uint64_t binom[NMAX + 1][SOW_IDX_MAX_PARTS])
{
    for (int n = 0; n <= NMAX; n++) {
        binom[n][0] = 1;
        for (int r = 1; r < SOW_IDX_MAX_PARTS; r++)
            binom[n][r] = n == 0 ? 0 : sat_add(binom[n - 1][r - 1], binom[n - 1][r]);
    }
}

/* Filled once for the process (pthread_once: concurrent first calls, a
 * match's games starting side by side, must not write it together). */
static uint64_t binom[NMAX + 1][SOW_IDX_MAX_PARTS];
static pthread_once_t binom_once = PTHREAD_ONCE_INIT;

static void binom_fill(void)
{
    pascal(binom);
}

void sow_index_init(sow_index *ix, int parts)
{
    pthread_once(&binom_once, binom_fill);
    memset(ix, 0, sizeof *ix);
    ix->parts = parts;
    for (int j = 0; j < parts - 1; j++)
        for (int s = 0; s <= SOW_MAX_TOTAL; s++)
            ix->term[j][s] = binom[s + j][j + 1];
    int m = parts / 2;
    if (m <= 8)
        for (int s = 0; s <= SOW_MAX_TOTAL; s++)
            for (int j = 0; j < m; j++) {
                ix->cell[s][j] = ix->term[j][s];
                if (j < m - 1)
                    ix->cell[s][8 + j] = ix->term[m + j][s];
            }
    ix->below[0] = 0;
    for (int k = 1; k <= SOW_MAX_TOTAL + 1; k++)
        ix->below[k] = sow_index_codes(parts, k - 1);
}

uint64_t sow_index_count(int parts, int k)
{
    /* C(k+parts-1, parts-1) by the product formula, exact while it fits:
     * each partial product is itself a binomial coefficient. */
    if (k < 0 || parts < 1)
        return 0;
    unsigned __int128 c = 1;
    for (int i = 1; i < parts; i++) {
        c = c * (unsigned)(k + i) / (unsigned)i;
        if (c > UINT64_MAX)
            return UINT64_MAX;
    }
    return (uint64_t)c;
}

uint64_t sow_index_codes(int parts, int k)
{
    return sow_index_count(parts + 1, k);
}

void sow_index_unrank(const sow_index *ix, int k, uint64_t r, uint8_t *c)
{
    int P = ix->parts;
    unsigned above = (unsigned)k; /* S_{j+1} */
    for (int j = P - 2; j >= 0; j--) {
        unsigned s = above;
        while (ix->term[j][s] > r)
            s--;
        r -= ix->term[j][s];
        c[j + 1] = (uint8_t)(above - s);
        above = s;
    }
    c[0] = (uint8_t)above;
}

void sow_index_to_pos(int m, const uint8_t *c, sow_pos *p)
{
    memset(p, 0, sizeof *p);
    memcpy(p->b, c, (size_t)m);
    memcpy(p->b + SOW_HALF, c + m, (size_t)m);
    p->b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
}

void sow_index_from_pos(int m, const sow_pos *p, uint8_t *c)
{
    memcpy(c, p->b, (size_t)m);
    memcpy(c + m, p->b + SOW_HALF, (size_t)m);
}

uint64_t sow_toguz_level_count(int m, bool tuzdik, int k)
{
    uint64_t c0 = sow_index_count(2 * m, k);
    if (!tuzdik || c0 == UINT64_MAX)
        return c0;
    unsigned __int128 t = (unsigned __int128)c0 +
        (unsigned __int128)(2 * (m - 1)) * sow_index_count(2 * m - 1, k) +
        (unsigned __int128)((m - 1) * (m - 2)) * sow_index_count(2 * m - 2, k);
    return t > UINT64_MAX ? UINT64_MAX : (uint64_t)t;
}
