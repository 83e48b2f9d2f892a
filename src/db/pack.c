/* pack.c - A4, a database level in about 4 bits a position: each entry a
 * nibble relative to a cheap bound of both rows, the rare wide ones
 * escaped (doc/experiments.md, "4-bit databases: a code relative to both
 * rows", measured the code; doc/db-format.md specifies the blob).
 *
 * The entry of board (A, B) of rank r (A the mover's row, B the other's):
 *
 *     dict[g[code(B)] + f[code(A)] + c]     c = nibble r, 0 .. window-1
 *     esc[] by rank                         c = 15
 *
 * code(row): the row's rank among rows of m pits with at most k seeds
 * (sum_{j<m} C(S_j + j, j + 1), S the row's prefix sums); the rank of the
 * board is code(A) + base(sA, B), so the boards of one B (a block; sA =
 * k - sB) are a run of ranks with consecutive code(A). dict places count
 * the level's distinct values (Kalah's parity: no wasted code).
 *
 * The blob, one allocation (and a version 2 file's payload), every field
 * little-endian:
 *
 *   off        size       field
 *     0        8          n, entries of the level
 *     8        8          rows = C(k+m, m), the size of g and f
 *    16        8          nesc, escapes
 *    24        4          values in dict (1 .. 256)
 *    28        4          window (codes 0 .. window-1; 15 escapes)
 *    32        32         zero
 *    64        256        dict: the values (int8), increasing; zero after
 *   320        rows       g (int8), by code(B)
 *   320+rows   rows       f (int8), by code(A)
 *              0..7       zero, to a multiple of 8
 *   E          8*nesc     esc: rank << 8 | (uint8)value, increasing rank
 *   E+8*nesc   (n+1)/2    nib: rank r at bits 4*(r%2) .. +3 of byte r/2
 *
 *   nib byte:  | 7 6 5 4 | 3 2 1 0 |
 *              | rank 2i+1| rank 2i |
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "msg.h"
#include "pack.h"

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
               "packed levels are read in place as little-endian words");

/* Rounds of fitting g then f: one packs within 0.02% of three
 * (doc/experiments.md, "Packing faster"). */
enum { FIT_ROUNDS = 1 };

uint64_t sow_pack_rows(int m, int k)
{
    return sow_index_count(m + 1, k);
}

static size_t esc_offset(uint64_t rows)
{
    return (SOW_PACK_HEAD + 2 * (size_t)rows + 7) / 8 * 8;
}

size_t sow_pack_bytes(uint64_t n, uint64_t rows, uint64_t nesc)
{
    return esc_offset(rows) + 8 * (size_t)nesc + (size_t)(n + 1) / 2;
}

size_t sow_pack_scratch_bytes(int m, int k)
{
    /* g, f and the sums of sow_pack_encode, and esc_at */
    return (size_t)sow_pack_rows(m, k) * (2 * sizeof(int) + sizeof(int64_t)) +
           ((size_t)k + 2) * sizeof(uint64_t);
}

double sow_pack_escape_share(int game, unsigned variant, int m, int k)
{
    for (int i = 0; i < sow_pack_escapes_fitted_count; i++) {
        const sow_pack_escapes *e = &sow_pack_escapes_fitted[i];
        if (e->game != game || e->variant != variant || e->m != m)
            continue;
        double d = k > e->seeds ? (double)(k - e->seeds) : 0.0;
        double share = e->share + e->slope * d + e->curve * d * (d + 1) / 2;
        return share < 1.0 ? share : 1.0;
    }
    return SOW_PACK_ESCAPES_DEFAULT;
}

size_t sow_pack_bound(int game, unsigned variant, int m, int k)
{
    uint64_t n = sow_index_count(2 * m, k);
    double share = sow_pack_escape_share(game, variant, m, k);
    uint64_t nesc = (uint64_t)ceil((double)n * share) + 64;
    return sow_pack_bytes(n, sow_pack_rows(m, k), nesc < n ? nesc : n);
}

/* ---- Blocks ---------------------------------------------------------- */

/* The blocks of one sA in turn: B over the rows of m pits with k - sA
 * seeds. Different sA own disjoint rows of f and of g (B fixes sA), so the
 * encoder's passes run one sA a thread. */
typedef struct block {
    const sow_index *ix;
    int m, k, sa;
    uint8_t row[SOW_MAX_PITS];
    bool started;
    uint64_t cb;   /* code(B) */
    uint64_t a0;   /* code(A) of the block's first board */
    uint64_t r0;   /* its rank */
    uint64_t len;  /* boards: rows of m pits with sA seeds */
} block;

static block block_of_sa(const sow_index *ix, int m, int k, int sa)
{
    block b = {.ix = ix, .m = m, .k = k, .sa = sa};
    b.row[m - 1] = (uint8_t)(k - sa);
    b.a0 = ix->term[m - 1][sa];
    b.len = sow_index_count(m, sa);
    return b;
}

/* Steps to the next block of b's sA; false after the last. */
static bool block_next(block *b)
{
    if (b->started && !sow_index_next(b->m, b->row))
        return false;
    b->started = true;
    const sow_index *ix = b->ix;
    uint64_t cb = 0, base = 0;
    unsigned t = 0;
    for (int j = 0; j < b->m; j++) {
        t += b->row[j];
        cb += ix->term[j][t];
        if (j < b->m - 1)
            base += ix->term[b->m + j][(unsigned)b->sa + t];
    }
    b->cb = cb;
    b->r0 = base + b->a0;
    return true;
}

/* ---- Encoding -------------------------------------------------------- */

/* What encoding needs besides the blob. */
typedef struct coder {
    const sow_index *ix;
    int m, k, window, threads;
    const int8_t *t;
    uint64_t n, rows, nesc;
    int place[256];   /* value + 128 -> its dict place */
    int8_t dict[256];
    int values;
    int *g, *f;       /* the fit, before it is narrowed to int8 */
    uint64_t *esc_at; /* per sA: its first escape's slot (k + 2 of them) */
} coder;

static void make_dict(coder *c)
{
    bool seen[256] = {false};
    for (uint64_t r = 0; r < c->n; r++)
        seen[(uint8_t)(c->t[r] + 128)] = true;
    c->values = 0;
    memset(c->dict, 0, sizeof c->dict);
    for (int v = 0; v < 256; v++)
        if (seen[v]) {
            c->dict[c->values] = (int8_t)(v - 128);
            c->place[v] = c->values++;
        }
}

static inline int place_of(const coder *c, uint64_t r)
{
    return c->place[(uint8_t)(c->t[r] + 128)];
}

/* g (fit_g: each block's) or f (sum: rows of sA's range) as the rounded
 * mean of place - the other. Every block of one sA holds every row A of
 * sA seeds once, so f's count is the number of blocks. Integer sums: a
 * chain of double adds was the pass's bottleneck. */
static int rounded_mean(int64_t s, uint64_t n)
{
    return (int)lround((double)s / (double)n);
}

static void fit_sa(coder *c, int sa, bool fit_g, int64_t *sum)
{
    block b = block_of_sa(c->ix, c->m, c->k, sa);
    const int *f = c->f + b.a0;
    int64_t *fsum = sum + b.a0;
    if (!fit_g)
        memset(fsum, 0, b.len * sizeof *fsum);
    uint64_t blocks = 0;
    while (block_next(&b)) {
        const int8_t *t = c->t + b.r0;
        if (fit_g) {
            int64_t s = 0;
            for (uint64_t i = 0; i < b.len; i++)
                s += c->place[(uint8_t)(t[i] + 128)] - f[i];
            c->g[b.cb] = rounded_mean(s, b.len);
        } else {
            int gb = c->g[b.cb];
            for (uint64_t i = 0; i < b.len; i++)
                fsum[i] += c->place[(uint8_t)(t[i] + 128)] - gb;
        }
        blocks++;
    }
    if (!fit_g)
        for (uint64_t i = 0; i < b.len; i++)
            c->f[b.a0 + i] = blocks ? rounded_mean(fsum[i], blocks) : 0;
}

/* Moves g[B] to the start of its block's best window of c->window places
 * of the residual place - g - f; returns the block's escapes (the entries
 * outside the window: counted again only if a residual was clamped into
 * the histogram's span, which the window might then wrongly cover). */
enum { SPAN = 1024 };

static inline unsigned code_of(const coder *c, const block *b, uint64_t i);

static uint64_t narrow(coder *c, const block *b, uint32_t *h)
{
    int lo = SPAN, hi = -1;
    const int8_t *t = c->t + b->r0;
    const int *f = c->f + b->a0;
    int gb = c->g[b->cb];
    for (uint64_t i = 0; i < b->len; i++) {
        int d = c->place[(uint8_t)(t[i] + 128)] - gb - f[i] + SPAN / 2;
        d = d < 0 ? 0 : d >= SPAN ? SPAN - 1 : d;
        h[d]++;
        lo = d < lo ? d : lo;
        hi = d > hi ? d : hi;
    }
    uint64_t cover = 0, best = 0;
    int at = lo;
    for (int x = lo; x <= hi; x++) {
        cover += h[x];
        if (x - c->window >= lo)
            cover -= h[x - c->window];
        if (cover > best)
            best = cover, at = x - c->window + 1;
    }
    for (int x = lo; x <= hi; x++)
        h[x] = 0;
    c->g[b->cb] += at - SPAN / 2;
    if (lo > 0 && hi < SPAN - 1)
        return b->len - best;
    uint64_t nesc = 0;
    for (uint64_t i = 0; i < b->len; i++)
        nesc += code_of(c, b, i) == 15;
    return nesc;
}

/* The nibble of rank a0+i's entry of block b, 15 if escaped. */
static inline unsigned code_of(const coder *c, const block *b, uint64_t i)
{
    int d = place_of(c, b->r0 + i) - c->g[b->cb] - c->f[b->a0 + i];
    return d >= 0 && d < c->window ? (unsigned)d : 15u;
}

/* Fits g and f, narrows g to each block's window, counts the escapes of
 * each sA (esc_at[sa + 1]). */
static void fit(coder *c, int64_t *sum)
{
    int K = c->k;
    for (int i = 0; i < 2 * FIT_ROUNDS; i++) {
#pragma omp parallel for schedule(dynamic, 1) num_threads(c->threads)
        for (int sa = 0; sa <= K; sa++)
            fit_sa(c, sa, i % 2 == 0, sum);
    }
#pragma omp parallel for schedule(dynamic, 1) num_threads(c->threads)
    for (int sa = 0; sa <= K; sa++) {
        uint32_t h[SPAN] = {0};
        uint64_t nesc = 0;
        block b = block_of_sa(c->ix, c->m, K, sa);
        while (block_next(&b))
            nesc += narrow(c, &b, h);
        c->esc_at[sa + 1] = nesc;
    }
    for (int sa = 0; sa <= K; sa++)
        c->esc_at[sa + 1] += c->esc_at[sa];
    c->nesc = c->esc_at[K + 1];
}

static sow_err check_range(const coder *c, char *why, size_t why_size)
{
    for (uint64_t i = 0; i < c->rows; i++)
        if (c->g[i] < INT8_MIN || c->g[i] > INT8_MAX || c->f[i] < INT8_MIN || c->f[i] > INT8_MAX)
            return sow_fail(why, why_size, SOW_E_LIMIT,
                            "seed count %d cannot be packed: its bounds leave int8", c->k);
    return SOW_OK;
}

static void swap_u64(uint64_t *a, uint64_t *b)
{
    uint64_t t = *a;
    *a = *b;
    *b = t;
}

/* Sorts a[0..n) in place, ascending (distinct keys): quicksort with a
 * median of three, the smaller side first so the stack stays under 64
 * frames, insertion sort below 16. Not qsort: glibc's sorts through a
 * copy of the array (8 bytes an escape, 0.3 GB at Kalah(6)'s 33 seeds)
 * that the memory budget does not count. */
static void sort_u64(uint64_t *a, size_t n)
{
    size_t lo_st[64], hi_st[64];
    int top = 0;
    size_t lo = 0, hi = n;
    for (;;) {
        while (hi - lo > 16) {
            size_t mid = lo + (hi - lo) / 2, last = hi - 1;
            if (a[mid] < a[lo])
                swap_u64(&a[mid], &a[lo]);
            if (a[last] < a[lo])
                swap_u64(&a[last], &a[lo]);
            if (a[last] < a[mid])
                swap_u64(&a[last], &a[mid]);
            uint64_t pivot = a[mid];
            size_t i = lo, j = last;
            for (;;) { /* Hoare's partition: a[lo..j] <= pivot <= a[j+1..hi) */
                while (a[i] < pivot)
                    i++;
                while (a[j] > pivot)
                    j--;
                if (i >= j)
                    break;
                swap_u64(&a[i], &a[j]);
                i++, j--;
            }
            size_t cut = j + 1;
            if (cut - lo < hi - cut) {
                lo_st[top] = cut, hi_st[top++] = hi;
                hi = cut;
            } else {
                lo_st[top] = lo, hi_st[top++] = cut;
                lo = cut;
            }
        }
        for (size_t i = lo + 1; i < hi; i++)
            for (size_t j = i; j > lo && a[j - 1] > a[j]; j--)
                swap_u64(&a[j - 1], &a[j]);
        if (top == 0)
            return;
        top--;
        lo = lo_st[top], hi = hi_st[top];
    }
}

/* The code of entry i of block b; an escape's (rank, value) goes to
 * esc[(*ne)++]. */
static inline unsigned put(const coder *c, const block *b, uint64_t i, uint64_t *esc,
                           uint64_t *ne)
{
    unsigned code = code_of(c, b, i);
    if (code == 15)
        esc[(*ne)++] = (b->r0 + i) << 8 | (uint8_t)c->t[b->r0 + i];
    return code;
}

/* Writes the header, g, f, the nibbles and the escapes into blob (zeroed).
 * A block's ranks are one run: the bytes inside it are its own, written
 * two nibbles at once; a byte at either end may be shared with another
 * block (of another sA, another thread), written by OR, atomically (an
 * atomic OR an entry cost as much as the six fitting passes together). */
static void write_blob(const coder *c, uint8_t *blob)
{
    uint64_t head[3] = {c->n, c->rows, c->nesc};
    uint32_t vw[2] = {(uint32_t)c->values, (uint32_t)c->window};
    memcpy(blob, head, sizeof head);
    memcpy(blob + 24, vw, sizeof vw);
    memcpy(blob + 64, c->dict, 256);
    int8_t *g = (int8_t *)blob + SOW_PACK_HEAD, *f = g + c->rows;
    for (uint64_t i = 0; i < c->rows; i++)
        g[i] = (int8_t)c->g[i], f[i] = (int8_t)c->f[i];
    uint64_t *esc = (uint64_t *)(blob + esc_offset(c->rows));
    uint8_t *nib = (uint8_t *)(esc + c->nesc);
#pragma omp parallel for schedule(dynamic, 1) num_threads(c->threads)
    for (int sa = 0; sa <= c->k; sa++) {
        uint64_t ne = c->esc_at[sa];
        block b = block_of_sa(c->ix, c->m, c->k, sa);
        while (block_next(&b)) {
            uint64_t i = 0;
            if (b.r0 & 1) /* the run starts on a byte's high nibble */
                __atomic_fetch_or(&nib[b.r0 >> 1], (uint8_t)(put(c, &b, 0, esc, &ne) << 4),
                                  __ATOMIC_RELAXED), i = 1;
            for (; i + 1 < b.len; i += 2) {
                unsigned lo = put(c, &b, i, esc, &ne);
                nib[(b.r0 + i) >> 1] = (uint8_t)(lo | put(c, &b, i + 1, esc, &ne) << 4);
            }
            if (i < b.len) /* ... or ends on a byte's low nibble */
                __atomic_fetch_or(&nib[(b.r0 + i) >> 1], (uint8_t)put(c, &b, i, esc, &ne),
                                  __ATOMIC_RELAXED);
        }
    }
    sort_u64(esc, c->nesc);
}

sow_err sow_pack_encode(const sow_index *ix, int m, int k, const int8_t *t, uint64_t n,
                        int window, int threads, size_t max_size, sow_huge *mem, size_t *size,
                        char *why, size_t why_size)
{
    coder c = {.ix = ix, .m = m, .k = k, .window = window, .t = t, .n = n,
               .rows = sow_pack_rows(m, k), .threads = threads > 0 ? threads : omp_get_max_threads()};
    *mem = (sow_huge){0};
    if (m < 1 || m > 8 || window < 1 || window > 15 || n != sow_index_count(2 * m, k))
        return sow_fail(why, why_size, SOW_E_ARG, "seed count %d cannot be packed", k);
    make_dict(&c);
    c.g = calloc(c.rows, sizeof *c.g);
    c.f = calloc(c.rows, sizeof *c.f);
    c.esc_at = calloc((size_t)k + 2, sizeof *c.esc_at);
    int64_t *sum = calloc(c.rows, sizeof *sum);
    sow_err e = SOW_OK;
    if (!c.g || !c.f || !c.esc_at || !sum) {
        e = sow_fail(why, why_size, SOW_E_NOMEM, "out of memory packing seed count %d", k);
    } else {
        fit(&c, sum);
        e = check_range(&c, why, why_size);
    }
    if (!e) {
        *size = sow_pack_bytes(n, c.rows, c.nesc);
        uint8_t *blob = *size <= max_size ? sow_huge_alloc(*size, mem) : NULL;
        if (*size > max_size)
            e = sow_fail(why, why_size, SOW_E_LIMIT,
                         "seed count %d packs into %zu bytes, over %zu", k, *size, max_size);
        else if (blob)
            write_blob(&c, blob);
        else
            e = sow_fail(why, why_size, SOW_E_NOMEM, "out of memory packing seed count %d", k);
    }
    free(c.g), free(c.f), free(c.esc_at), free(sum);
    return e;
}

/* ---- Reading --------------------------------------------------------- */

sow_err sow_pack_view(const void *data, size_t size, int m, int k, uint64_t n, sow_db_pack *pk,
                      char *why, size_t why_size)
{
    const uint8_t *p = data;
    uint64_t head[3];
    uint32_t vw[2];
    uint64_t rows = sow_pack_rows(m, k);
    if (size < SOW_PACK_HEAD)
        return sow_fail(why, why_size, SOW_E_FORMAT, "packed seed count %d is truncated", k);
    memcpy(head, p, sizeof head);
    memcpy(vw, p + 24, sizeof vw);
    /* nesc is bounded first, so that the size below cannot wrap. */
    if (head[0] != n || head[1] != rows || head[2] > n || vw[0] < 1 || vw[0] > 256 ||
        vw[1] < 1 || vw[1] > 15 || sow_pack_bytes(n, rows, head[2]) != size)
        return sow_fail(why, why_size, SOW_E_FORMAT,
                        "packed seed count %d: its sizes do not agree", k);
    pk->g = (const int8_t *)p + SOW_PACK_HEAD;
    pk->f = pk->g + rows;
    pk->dict = (const int8_t *)p + 64;
    pk->esc = (const uint64_t *)(p + esc_offset(rows));
    pk->nesc = head[2];
    pk->nib = (const uint8_t *)(pk->esc + pk->nesc);
    return SOW_OK;
}

void sow_pack_decode(const sow_db_pack *pk, const sow_index *ix, int m, int k, int8_t *out)
{
    for (int sa = 0; sa <= k; sa++) {
        block b = block_of_sa(ix, m, k, sa);
        while (block_next(&b))
            for (uint64_t i = 0; i < b.len; i++)
                out[b.r0 + i] = (int8_t)sow_db_pack_get(pk, b.r0 + i, b.a0 + i, b.cb);
    }
}

/* code(row) of the m counts c (the rows of m pits with fewer seeds first). */
static uint64_t row_code(const sow_index *ix, const uint8_t *c, int m)
{
    uint64_t code = 0;
    unsigned s = 0;
    for (int j = 0; j < m; j++) {
        s += c[j];
        code += ix->term[j][s];
    }
    return code;
}

int sow_db_at(const sow_db *db, int k, uint64_t r)
{
    assert(k >= 0 && k <= db->max_seeds);
    if (db->table[k])
        return db->table[k][r];
    uint8_t c[SOW_IDX_MAX_PARTS];
    sow_index_unrank(&db->ix, k, r, c);
    return sow_db_pack_get(db->pack[k], r, row_code(&db->ix, c, db->m),
                           row_code(&db->ix, c + db->m, db->m));
}
