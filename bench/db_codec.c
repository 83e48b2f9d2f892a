/* db_codec.c - what a database level costs under a 4-bit code, measured on
 * real tables: the distribution of the values, the size of a candidate
 * code with one memory access a probe, and its random probe rate against
 * today's one byte a position (issue "Databases of at most 4 bits a
 * position"; doc/experiments.md, "4-bit databases: the values measured").
 *
 * The candidate, L4 (a prototype here, not the file format), w = 4 bits
 * by default (--bits 3 and 5 for comparison):
 *
 *   one 64-byte line per N = 504/w consecutive ranks (126 for w = 4)
 *   +--------+------------------------------------------------+
 *   | base 8 | N codes of w bits (rank r: code r%N, from bit 8) |
 *   +--------+------------------------------------------------+
 *   code c < 2^w-1: value = dict[base + c] (dict: the level's distinct
 *                                          values, sorted)
 *   code 2^w-1:     escape, value in a hash table keyed by rank
 *                   (8 bytes an entry, at most half full)
 *
 * so a probe reads one line, like today's byte, and an escape one more.
 * Probe rates: independent random ranks (throughput: misses overlap), and
 * ns a probe when each rank depends on the value before (latency).
 * Entropies are the bounds of any code: H0 of the values alone, H|ctx given
 * the mover's seeds sA, the pits that reach the store exactly, and the
 * empty pits of each row, and H|prev given the value of the rank before
 * (an entropy coder conditioned on those could not do better); H|sA and
 * H|block given sA alone and given the block (sA, B) (B the other row: a
 * block is a run of ranks), with the share outside the best window of
 * 2^w - 1 values of each sA and of each block.
 *
 * A second candidate, A4 (below, "the additive code"): a 4-bit code
 * relative to g[B] + f[A], two small tables a level, probed from
 * positions (ranking included) against sow_db_probe; its residual's
 * entropy given the block and its escapes with windows of 8, 12, 13 and
 * 15 values; and G4, A4's nibbles four at a time as one 15-bit code of a
 * per-level codebook (3.75 bits a position plus escapes), probed the same
 * way. The codes are checked on every board of every level.
 *
 * usage: db_codec --game G --pits M --max-seeds K [--variant V] [--dir D]
 *                 [--from K0] [--probes N] [--reps R] [--bits W]
 * Loads seed counts 0..K from D (no build; without D builds them in
 * memory) and prints one JSON object a level from K0 on.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "sow/db.h"
#include "sow/retro.h"

enum { LINE_BYTES = 64, LINE_CODE_BITS = 8 * LINE_BYTES - 8 };

/* Ranks a line holds with w-bit codes (w = 3, 4, 5: 168, 126, 100). */
#define LINE_RANKS(w) (LINE_CODE_BITS / (w))

typedef struct l4 {
    int w;              /* bits a code */
    uint8_t *line;      /* LINE_BYTES per line */
    int8_t dict[256];
    uint64_t *hash;     /* (rank + 1) | value << 56; 0 empty */
    uint64_t hmask;
    int hbits;
    uint64_t nesc;
} l4;

/* CPU seconds of this (one-threaded) process: on a shared machine the
 * wall clock also counts the time other processes hold the core. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Zeroed memory in huge pages where the kernel grants them, as the
 * database's own tables are (a fair race: TLB misses otherwise dominate). */
static void *huge_zalloc(size_t bytes)
{
    size_t two = (size_t)2 << 20, size = (bytes + two - 1) / two * two;
    void *p = aligned_alloc(two, size);
    if (!p)
        return NULL;
    madvise(p, size, MADV_HUGEPAGE);
    memset(p, 0, size);
    return p;
}

static inline uint64_t hslot(const l4 *c, uint64_t r)
{
    return (r * 0x9E3779B97F4A7C15ull) >> (64 - c->hbits);
}

static void hput(l4 *c, uint64_t r, int8_t v)
{
    uint64_t s = hslot(c, r);
    while (c->hash[s])
        s = (s + 1) & c->hmask;
    c->hash[s] = (r + 1) | (uint64_t)(uint8_t)v << 56;
}

static inline int hget(const l4 *c, uint64_t r)
{
    uint64_t s = hslot(c, r);
    while ((c->hash[s] & ((1ull << 56) - 1)) != r + 1)
        s = (s + 1) & c->hmask;
    return (int8_t)(c->hash[s] >> 56);
}

/* Code i of a line: bits 8 + i*w .. of the line, little-endian. */
static inline unsigned line_code(const uint8_t *ln, unsigned i, int w)
{
    unsigned bit = 8 + i * (unsigned)w;
    unsigned two = ln[bit / 8] | (unsigned)ln[bit / 8 + 1] << 8;
    return (two >> (bit % 8)) & ((1u << w) - 1);
}

static inline __attribute__((always_inline)) int l4_get_w(const l4 *c, uint64_t r, int w)
{
    const uint8_t *ln = c->line + (r / LINE_RANKS(w)) * LINE_BYTES;
    unsigned code = line_code(ln, (unsigned)(r % LINE_RANKS(w)), w);
    if (__builtin_expect(code == (1u << w) - 1, 0))
        return hget(c, r);
    return c->dict[ln[0] + code];
}

/* The width as a constant in each branch: divisions by a constant. */
static inline int l4_get(const l4 *c, uint64_t r)
{
    switch (c->w) {
    case 3: return l4_get_w(c, r, 3);
    case 5: return l4_get_w(c, r, 5);
    default: return l4_get_w(c, r, 4);
    }
}

/* Codes the level t of n entries; idx maps a value (+128) to its place in
 * dict. Returns false if out of memory. */
static bool l4_make(l4 *c, const int8_t *t, uint64_t n, const int *idx)
{
    const int w = c->w;
    const unsigned esc = (1u << w) - 1, N = LINE_RANKS(w);
    uint64_t lines = (n + N - 1) / N;
    /* + 1: the last code's second byte */
    c->line = huge_zalloc(lines * LINE_BYTES + 1);
    if (!c->line)
        return false;
    c->nesc = 0;
    uint8_t *base = c->line;
    for (uint64_t l = 0; l < lines; l++, base += LINE_BYTES) {
        uint64_t r0 = l * N, r1 = r0 + N < n ? r0 + N : n;
        int h[256] = {0};
        for (uint64_t r = r0; r < r1; r++)
            h[idx[(uint8_t)(t[r] + 128)]]++;
        int best = -1, at = 0;
        for (int b = 0; b < 256; b++) {
            int cov = 0;
            for (int j = b; j < b + (int)esc && j < 256; j++)
                cov += h[j];
            if (cov > best) {
                best = cov;
                at = b;
            }
        }
        base[0] = (uint8_t)at;
        for (uint64_t r = r0; r < r1; r++) {
            int x = idx[(uint8_t)(t[r] + 128)] - at;
            unsigned code = x >= 0 && x < (int)esc ? (unsigned)x : esc;
            c->nesc += code == esc;
            unsigned bit = 8 + (unsigned)(r - r0) * (unsigned)w;
            base[bit / 8] |= (uint8_t)(code << (bit % 8));
            base[bit / 8 + 1] |= (uint8_t)(code >> (8 - bit % 8));
        }
    }
    c->hbits = 4;
    while ((1ull << c->hbits) < 2 * c->nesc)
        c->hbits++;
    c->hmask = (1ull << c->hbits) - 1;
    c->hash = huge_zalloc((c->hmask + 1) * sizeof *c->hash);
    if (!c->hash)
        return false;
    for (uint64_t r = 0; r < n; r++) {
        const uint8_t *ln = c->line + (r / N) * LINE_BYTES;
        if (line_code(ln, (unsigned)(r % N), w) == esc)
            hput(c, r, t[r]);
    }
    return true;
}

/* Entropy (bits) of the values given the context the table t counts. */
static double entropy(const uint64_t *t, size_t nctx, uint64_t n)
{
    double h = 0;
    for (size_t c = 0; c < nctx; c++) {
        uint64_t tot = 0;
        for (int v = 0; v < 256; v++)
            tot += t[c * 256 + v];
        for (int v = 0; v < 256; v++)
            if (t[c * 256 + v])
                h -= (double)t[c * 256 + v] / (double)n *
                     log2((double)t[c * 256 + v] / (double)tot);
    }
    return h;
}

/* Best window of W consecutive dict places in the histogram h[0..nv):
 * how many it covers. */
static uint64_t window_cover(const uint64_t *h, int nv, int W)
{
    uint64_t best = 0;
    for (int b = 0; b < nv; b++) {
        uint64_t cov = 0;
        for (int j = b; j < b + W && j < nv; j++)
            cov += h[j];
        best = cov > best ? cov : best;
    }
    return best;
}

/* -sum h log2(h / n) over a histogram of n entries. */
static double info(const uint64_t *h, int nv, uint64_t n)
{
    double s = 0;
    for (int v = 0; v < nv; v++)
        if (h[v])
            s -= (double)h[v] * log2((double)h[v] / (double)n);
    return s;
}

/* Contexts that a one-access code could carry at no cost: the mover's
 * seeds sA (a table per level), and the block of ranks sharing (sA, B),
 * contiguous since rank = idx(A) + base(sA, B) (a byte a block: C(k+m, m)
 * blocks). Entropy given each, and the share outside the best window of
 * W = 2^w - 1 dict places (the codes left once one is the escape). */
typedef struct ctxstats {
    double hsa, hblk, esc_sa, esc_blk;
    uint64_t blocks;
} ctxstats;

static ctxstats ctx_stats(const int8_t *t, uint64_t n, int m, int k, const int *idx, int nv, int W)
{
    uint64_t *hs = calloc((size_t)(k + 1) * 256, sizeof *hs), hb[256] = {0};
    uint8_t c[SOW_IDX_MAX_PARTS] = {0}, prevB[SOW_IDX_MAX_PARTS] = {0};
    c[2 * m - 1] = (uint8_t)k;
    double sblk = 0;
    uint64_t cover_blk = 0, run = 0, blocks = 0;
    int prev_sa = -1;
    for (uint64_t r = 0; r <= n; r++) {
        int sA = 0;
        for (int j = 0; j < m; j++)
            sA += c[j];
        bool end = r == n || sA != prev_sa || memcmp(prevB, c + m, (size_t)m);
        if (end && run) {
            sblk += info(hb, nv, run);
            cover_blk += window_cover(hb, nv, W);
            memset(hb, 0, sizeof hb);
            run = 0;
            blocks++;
        }
        if (r == n)
            break;
        prev_sa = sA;
        memcpy(prevB, c + m, (size_t)m);
        int v = idx[(uint8_t)(t[r] + 128)];
        hb[v]++;
        run++;
        hs[(size_t)sA * 256 + (size_t)v]++;
        sow_index_next(2 * m, c);
    }
    double ssa = 0;
    uint64_t cover_sa = 0;
    for (int s = 0; s <= k; s++) {
        uint64_t tot = 0;
        for (int v = 0; v < nv; v++)
            tot += hs[(size_t)s * 256 + (size_t)v];
        ssa += info(hs + (size_t)s * 256, nv, tot);
        cover_sa += window_cover(hs + (size_t)s * 256, nv, W);
    }
    free(hs);
    return (ctxstats){ssa / (double)n, sblk / (double)n, 1 - (double)cover_sa / (double)n,
                      1 - (double)cover_blk / (double)n, blocks};
}

/* H0, H given (sA, exact-store pits, empty pits of each row) and H given
 * the previous rank's value (what a sequential block code could use). */
static void entropies(const int8_t *t, uint64_t n, int m, int k, bool ctx, double *h0,
                      double *hc, double *hp)
{
    size_t nctx = (size_t)(k + 1) * 8 * 8 * 8;
    uint64_t *c0 = calloc(256, sizeof *c0), *cc = calloc(nctx * 256, sizeof *cc);
    uint64_t *cp = calloc(256 * 256, sizeof *cp);
    uint8_t c[SOW_IDX_MAX_PARTS] = {0};
    c[2 * m - 1] = (uint8_t)k;
    for (uint64_t r = 0; r < n; r++) {
        int v = (uint8_t)(t[r] + 128), sA = 0, direct = 0, ea = 0, eb = 0;
        c0[v]++;
        if (r > 0)
            cp[(size_t)(uint8_t)(t[r - 1] + 128) * 256 + (size_t)v]++;
        if (!ctx)
            continue; /* Toguz: its ranks are not the plain boards' */
        for (int j = 0; j < m; j++) {
            sA += c[j];
            direct += c[j] == m - j;
            ea += !c[j];
            eb += !c[m + j];
        }
        direct = direct > 7 ? 7 : direct;
        ea = ea > 7 ? 7 : ea;
        eb = eb > 7 ? 7 : eb;
        cc[(((size_t)sA * 8 + (size_t)direct) * 8 + (size_t)ea) * 8 * 256 + (size_t)eb * 256 + (size_t)v]++;
        sow_index_next(2 * m, c);
    }
    *h0 = entropy(c0, 1, n);
    *hc = entropy(cc, nctx, n);
    *hp = n > 1 ? entropy(cp, 256, n - 1) : 0;
    free(c0);
    free(cc);
    free(cp);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median rates of R rounds on the same random ranks, alternated: a byte
 * against the code, independent ranks (M probes/s) and dependent ones
 * (ns a probe). *sink stays 0 when both read the same values. */
typedef struct rates {
    double r8, r4, l8, l4;
} rates;

static double median(double *x, int n)
{
    qsort(x, (size_t)n, sizeof *x, cmp_double);
    return x[n / 2];
}

static void lcg(uint64_t *x)
{
    *x = *x * 6364136223846793005ull + 1442695040888963407ull;
}

static rates probe_rates(const int8_t *t, const l4 *c, uint64_t n, uint64_t probes, int R,
                         long *sink)
{
    double r8[16], r4[16], l8[16], l4n[16];
    uint64_t lp = probes / 8 + 1;
    for (int rep = 0; rep < R; rep++) {
        const uint64_t seed = 0x12345678u + (uint64_t)rep;
        uint64_t x = seed;
        double t0 = now();
        for (uint64_t i = 0; i < probes; i++, lcg(&x))
            *sink += t[(x >> 11) % n];
        double t1 = now();
        x = seed;
        for (uint64_t i = 0; i < probes; i++, lcg(&x))
            *sink -= l4_get(c, (x >> 11) % n);
        double t2 = now();
        r8[rep] = (double)probes / (t1 - t0) / 1e6;
        r4[rep] = (double)probes / (t2 - t1) / 1e6;
        /* Latency: each rank depends on the value read before it. */
        int v = 0;
        x = seed;
        t0 = now();
        for (uint64_t i = 0; i < lp; i++, x += (uint64_t)(v & 1), lcg(&x))
            v = t[(x >> 11) % n];
        t1 = now();
        *sink += v;
        v = 0;
        x = seed;
        for (uint64_t i = 0; i < lp; i++, x += (uint64_t)(v & 1), lcg(&x))
            v = l4_get(c, (x >> 11) % n);
        t2 = now();
        *sink -= v;
        l8[rep] = (t1 - t0) / (double)lp * 1e9;
        l4n[rep] = (t2 - t1) / (double)lp * 1e9;
    }
    return (rates){median(r8, R), median(r4, R), median(l8, R), median(l4n, R)};
}

/* ---- A4: the additive code, probed from positions -------------------
 *
 * A level's entry of board (A, B) (A: the mover's row, B: the other's) is
 * the dict place g[code(B)] + f[code(A)] + c, c the rank's 4-bit code
 * (c = 15: escape, in the hash by rank). code(row) = its rank among the
 * rows of m pits with at most k seeds; the probe gets code(A) free (the
 * own row's share of the rank) and code(B) with m more lookups. g and f
 * are C(k+m, m) bytes each; g holds each block's (sA, B) best window.
 *
 *   nib[r / 2] bits 4*(r % 2) .. +3 = c
 */
typedef struct a4 {
    uint8_t *nib;
    int8_t *g, *f;
    int8_t dict[256];
    l4 esc; /* its hash only */
    uint64_t rows;
    /* Grouped (G4): the nibbles of ranks 4q .. 4q+3 as one 15-bit code q
     * at bit 15q of `q`, naming book[code] (their four nibbles, the first
     * rank's highest), code 0x7fff: escape, all four in qesc. */
    bool grouped;
    uint8_t *q;
    uint16_t *book;
    l4 qesc;
} a4;

/* code(row) of the m counts in c: sum_{j<m} term[j][S_j] (term[m-1][s] is
 * the number of rows with fewer than s seeds). */
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

static inline __attribute__((always_inline)) int a4_probe_m(const a4 *c, const sow_index *ix,
                                                             const sow_pos *p, int m)
{
    uint64_t own = sow_index_prefix_(p->w[0]);
    uint64_t s_own = (own >> (8 * (m - 1))) & 0xff;
    uint64_t bt = sow_index_prefix_(p->w[2]);
    uint64_t opp = bt + s_own * 0x0101010101010101ull;
    uint64_t a = 0, b = 0, r = 0;
    for (int j = 0; j < m; j++) {
        a += ix->cell[(own >> (8 * j)) & 0xff][j];
        b += ix->cell[(bt >> (8 * j)) & 0xff][j];
    }
    for (int j = 0; j < m - 1; j++)
        r += ix->cell[(opp >> (8 * j)) & 0xff][8 + j];
    r += a;
    unsigned code;
    if (c->grouped) {
        uint64_t bit = (r >> 2) * 15;
        uint32_t word;
        memcpy(&word, c->q + (bit >> 3), sizeof word);
        unsigned g4 = (word >> (bit & 7)) & 0x7fff;
        if (__builtin_expect(g4 == 0x7fff, 0))
            return hget(&c->qesc, r);
        code = (c->book[g4] >> (4 * (3 - (r & 3)))) & 15;
    } else {
        code = (c->nib[r >> 1] >> (4 * (r & 1))) & 15;
        if (__builtin_expect(code == 15, 0))
            return hget(&c->esc, r);
    }
    return c->dict[c->g[b] + c->f[a] + (int)code];
}

static inline int a4_probe(const a4 *c, const sow_index *ix, const sow_pos *p)
{
    return ix->parts == 12 ? a4_probe_m(c, ix, p, 6) : a4_probe_m(c, ix, p, ix->parts / 2);
}

static void board_pos(const uint8_t *c, int m, sow_pos *p)
{
    memset(p, 0, sizeof *p);
    for (int j = 0; j < m; j++) {
        p->b[j] = c[j];
        p->b[SOW_HALF + j] = c[m + j];
    }
}

/* The first board of level k (rank 0: every seed in the last pit). */
static void first_board(uint8_t *b, int m, int k)
{
    memset(b, 0, SOW_IDX_MAX_PARTS);
    b[2 * m - 1] = (uint8_t)k;
}

/* Fits g (by code(B)) and f (by code(A)) to the dict places of level t:
 * alternating rounded means, three rounds each. */
static bool a4_fit(const sow_index *ix, const int8_t *t, uint64_t n, int m, int k,
                   const int *idx, uint64_t rows, int *g, int *f)
{
    double *sum = malloc(rows * sizeof *sum);
    uint64_t *cnt = malloc(rows * sizeof *cnt);
    if (!sum || !cnt)
        return free(sum), free(cnt), false;
    uint8_t b[SOW_IDX_MAX_PARTS];
    for (int it = 0; it < 6; it++) {
        bool fit_g = it % 2 == 0;
        memset(sum, 0, rows * sizeof *sum);
        memset(cnt, 0, rows * sizeof *cnt);
        first_board(b, m, k);
        for (uint64_t r = 0; r < n; r++, sow_index_next(2 * m, b)) {
            uint64_t ca = row_code(ix, b, m), cb = row_code(ix, b + m, m);
            int v = idx[(uint8_t)(t[r] + 128)];
            uint64_t at = fit_g ? cb : ca;
            sum[at] += v - (fit_g ? f[ca] : g[cb]);
            cnt[at]++;
        }
        int *out = fit_g ? g : f;
        for (uint64_t i = 0; i < rows; i++)
            out[i] = cnt[i] ? (int)lround(sum[i] / (double)cnt[i]) : 0;
    }
    free(sum), free(cnt);
    return true;
}

/* What the residual place - g - f says, block by block (a block: the run
 * of ranks of one B, so of one sA): its entropy given the block, and the
 * share outside each block's best window of windows[i] places. */
enum { NWIN = 4 };
static const int windows[NWIN] = {8, 12, 13, 15};

typedef struct a4stats {
    double hres, esc[NWIN];
} a4stats;

/* Moves g[B] to the start of its block's best window of 15 places (the
 * codes 0..14) and measures the residual (a4stats). false: g out of int8
 * range. */
static bool a4_windows(const sow_index *ix, const int8_t *t, uint64_t n, int m, int k,
                       const int *idx, int *g, const int *f, a4stats *st)
{
    uint64_t h[512] = {0}, run = 0, cb_prev = UINT64_MAX, cover[NWIN] = {0};
    double s = 0;
    uint8_t b[SOW_IDX_MAX_PARTS];
    first_board(b, m, k);
    for (uint64_t r = 0; r <= n; r++) {
        uint64_t cb = r < n ? row_code(ix, b + m, m) : UINT64_MAX;
        if (cb != cb_prev && run) {
            s += info(h, 512, run);
            for (int i = 0; i < NWIN; i++)
                cover[i] += window_cover(h, 512, windows[i]);
            int lo = 0;
            for (uint64_t best = 0, x = 0; x < 512; x++) {
                uint64_t cov = 0;
                for (uint64_t j = x; j < x + 15 && j < 512; j++)
                    cov += h[j];
                if (cov > best)
                    best = cov, lo = (int)x - 256;
            }
            g[cb_prev] += lo;
            if (g[cb_prev] < -128 || g[cb_prev] > 127)
                return false;
            memset(h, 0, sizeof h);
            run = 0;
        }
        if (r == n)
            break;
        cb_prev = cb;
        int d = idx[(uint8_t)(t[r] + 128)] - g[cb] - f[row_code(ix, b, m)] + 256;
        h[d < 0 ? 0 : d > 511 ? 511 : d]++;
        run++;
        sow_index_next(2 * m, b);
    }
    st->hres = s / (double)n;
    for (int i = 0; i < NWIN; i++)
        st->esc[i] = 1 - (double)cover[i] / (double)n;
    return true;
}

/* Writes the 4-bit codes of level t and its escapes' hash. */
static bool a4_codes(a4 *c, const sow_index *ix, const int8_t *t, uint64_t n, int m, int k,
                     const int *idx)
{
    uint8_t b[SOW_IDX_MAX_PARTS];
    first_board(b, m, k);
    c->esc.nesc = 0;
    for (uint64_t r = 0; r < n; r++, sow_index_next(2 * m, b)) {
        int d = idx[(uint8_t)(t[r] + 128)] - c->g[row_code(ix, b + m, m)] -
                c->f[row_code(ix, b, m)];
        unsigned code = d >= 0 && d < 15 ? (unsigned)d : 15;
        c->nib[r >> 1] |= (uint8_t)(code << (4 * (r & 1)));
        c->esc.nesc += code == 15;
    }
    c->esc.hbits = 4;
    while ((1ull << c->esc.hbits) < 2 * c->esc.nesc)
        c->esc.hbits++;
    c->esc.hmask = (1ull << c->esc.hbits) - 1;
    c->esc.hash = huge_zalloc((c->esc.hmask + 1) * sizeof *c->esc.hash);
    if (!c->esc.hash)
        return false;
    for (uint64_t r = 0; r < n; r++)
        if (((c->nib[r >> 1] >> (4 * (r & 1))) & 15) == 15)
            hput(&c->esc, r, t[r]);
    return true;
}

/* Codes level t as A4 (fit, windows, codes); false: out of memory or a
 * table out of int8 range. */
static bool a4_make(a4 *c, const sow_index *ix, const int8_t *t, uint64_t n, int m, int k,
                    const int *idx, a4stats *st)
{
    c->rows = sow_index_count(m + 1, k); /* rows of m pits with <= k seeds */
    int *g = calloc(c->rows, sizeof *g), *f = calloc(c->rows, sizeof *f);
    c->nib = huge_zalloc(n / 2 + 1);
    c->g = calloc(c->rows, 1);
    c->f = calloc(c->rows, 1);
    bool ok = g && f && c->nib && c->g && c->f && a4_fit(ix, t, n, m, k, idx, c->rows, g, f) &&
              a4_windows(ix, t, n, m, k, idx, g, f, st);
    for (uint64_t i = 0; ok && i < c->rows; i++) {
        ok = f[i] >= -128 && f[i] <= 127;
        c->g[i] = (int8_t)g[i];
        c->f[i] = (int8_t)f[i];
    }
    free(g), free(f);
    return ok && a4_codes(c, ix, t, n, m, k, idx);
}

/* Checks every board's A4 probe against the table (false: one differs). */
static bool a4_check(const a4 *c, const sow_index *ix, const int8_t *t, uint64_t n, int m, int k)
{
    uint8_t b[SOW_IDX_MAX_PARTS] = {0};
    b[2 * m - 1] = (uint8_t)k;
    for (uint64_t r = 0; r < n; r++, sow_index_next(2 * m, b)) {
        sow_pos p;
        board_pos(b, m, &p);
        if (a4_probe(c, ix, &p) != t[r])
            return false;
    }
    return true;
}

/* Probe rates from positions (ranking included, as sow_db_probe does):
 * NPOS random boards of level k, read in order (the boards are random,
 * their array streams), R alternated rounds of `probes` probes,
 * independent (M probes/s) and dependent: the next board is 1 or 2 on
 * as the value read is even or odd (ns a probe). */
enum { NPOS = 1 << 20 };

static rates a4_rates(const a4 *c, const sow_db *db, int k, uint64_t n, uint64_t probes, int R,
                      long *sink)
{
    sow_pos *pos = malloc(NPOS * sizeof *pos);
    int m = db->m;
    uint64_t x = 0x9876543u;
    for (int i = 0; i < NPOS; i++, lcg(&x)) {
        uint8_t b[SOW_IDX_MAX_PARTS];
        sow_index_unrank(&db->ix, k, (x >> 11) % n, b);
        board_pos(b, m, &pos[i]);
    }
    double r8[16], r4[16], l8[16], l4n[16];
    uint64_t lp = probes / 8 + 1;
    for (int rep = 0; rep < R; rep++) {
        long acc = 0; /* a local: *sink might alias the boards */
        double t0 = now();
        for (uint64_t i = 0; i < probes; i++)
            acc += sow_db_probe(db, &pos[i % NPOS]);
        double t1 = now();
        for (uint64_t i = 0; i < probes; i++)
            acc -= a4_probe(c, &db->ix, &pos[i % NPOS]);
        double t2 = now();
        *sink += acc;
        r8[rep] = (double)probes / (t1 - t0) / 1e6;
        r4[rep] = (double)probes / (t2 - t1) / 1e6;
        int v = 0;
        uint64_t j = 0;
        t0 = now();
        for (uint64_t i = 0; i < lp; i++, j += 1 + (uint64_t)(v & 1))
            v = sow_db_probe(db, &pos[j % NPOS]);
        t1 = now();
        *sink += v;
        v = 0;
        j = 0;
        for (uint64_t i = 0; i < lp; i++, j += 1 + (uint64_t)(v & 1))
            v = a4_probe(c, &db->ix, &pos[j % NPOS]);
        t2 = now();
        *sink -= v;
        l8[rep] = (t1 - t0) / (double)lp * 1e9;
        l4n[rep] = (t2 - t1) / (double)lp * 1e9;
    }
    free(pos);
    return (rates){median(r8, R), median(r4, R), median(l8, R), median(l4n, R)};
}

/* Fixed-rate codes of groups of A4's nibbles: G consecutive ranks (r =
 * G*i ..) share one code of `bits` bits naming one of the 2^bits - 1
 * likeliest G-tuples of the level (the last code: escape), so bits/G a
 * position plus the escapes and a codebook of 2^bits tuples; still one
 * access a probe. Share of the groups whose tuple is not in the
 * codebook (a tuple with an escaped nibble never is). */
typedef struct groupcode {
    int G, bits;
} groupcode;

enum { NGROUP = 5 };
static const groupcode groupcodes[NGROUP] = {{2, 7}, {3, 10}, {3, 11}, {4, 14}, {4, 15}};

static int cmp_desc_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x < y) - (x > y);
}

static void group_stats(const a4 *c, uint64_t n, double *esc)
{
    uint64_t *h = malloc(((size_t)1 << 16) * sizeof *h);
    for (int i = 0; i < NGROUP; i++) {
        int G = groupcodes[i].G;
        memset(h, 0, ((size_t)1 << 16) * sizeof *h);
        uint64_t groups = n / (uint64_t)G;
        for (uint64_t q = 0; q < groups; q++) {
            unsigned key = 0;
            bool escaped = false;
            for (int j = 0; j < G; j++) {
                uint64_t r = q * (uint64_t)G + (uint64_t)j;
                unsigned code = (c->nib[r >> 1] >> (4 * (r & 1))) & 15;
                escaped |= code == 15;
                key = key << 4 | code;
            }
            h[key] += !escaped;
        }
        qsort(h, (size_t)1 << (4 * G), sizeof *h, cmp_desc_u64);
        uint64_t cover = 0;
        for (uint64_t j = 0; j < ((uint64_t)1 << groupcodes[i].bits) - 1; j++)
            cover += h[j];
        esc[i] = groups ? 1 - (double)cover / (double)groups : 0;
    }
    free(h);
}

/* The four nibbles of group q (ranks past n: 0). */
static unsigned group_key(const a4 *c, uint64_t q, uint64_t n)
{
    unsigned key = 0;
    for (uint64_t r = 4 * q; r < 4 * q + 4; r++)
        key = key << 4 | (r < n ? (c->nib[r >> 1] >> (4 * (r & 1))) & 15u : 0u);
    return key;
}

static uint64_t *sort_counts; /* for cmp_by_count */

static int cmp_by_count(const void *a, const void *b)
{
    uint64_t x = sort_counts[*(const uint32_t *)a], y = sort_counts[*(const uint32_t *)b];
    return (x < y) - (x > y);
}

/* Builds G4 from A4's nibbles: the codebook of the 32767 likeliest
 * tuples without an escaped nibble, the 15-bit codes, the escapes'
 * hash. false: out of memory. */
static bool g4_make(a4 *c, const int8_t *t, uint64_t n)
{
    uint64_t groups = (n + 3) / 4;
    uint64_t *cnt = calloc(1 << 16, sizeof *cnt);
    uint32_t *order = malloc((1 << 16) * sizeof *order);
    int32_t *code_of = malloc((1 << 16) * sizeof *code_of);
    c->book = calloc(1 << 15, sizeof *c->book);
    c->q = huge_zalloc(groups * 15 / 8 + 8);
    if (!cnt || !order || !code_of || !c->book || !c->q)
        return false;
    for (uint64_t q = 0; q < groups; q++) {
        unsigned key = group_key(c, q, n);
        bool esc = (key & 0xf) == 15 || (key >> 4 & 0xf) == 15 || (key >> 8 & 0xf) == 15 ||
                   key >> 12 == 15;
        cnt[key] += !esc;
    }
    for (uint32_t i = 0; i < 1 << 16; i++)
        order[i] = i, code_of[i] = 0x7fff;
    sort_counts = cnt;
    qsort(order, 1 << 16, sizeof *order, cmp_by_count);
    for (int i = 0; i < 0x7fff && cnt[order[i]]; i++) {
        c->book[i] = (uint16_t)order[i];
        code_of[order[i]] = i;
    }
    c->qesc.nesc = 0;
    for (uint64_t q = 0; q < groups; q++) {
        uint64_t code = (uint64_t)code_of[group_key(c, q, n)], bit = q * 15;
        for (int j = 0; j < 3; j++)
            c->q[(bit >> 3) + (uint64_t)j] |= (uint8_t)((code << (bit & 7)) >> (8 * j));
        c->qesc.nesc += code == 0x7fff ? 4 : 0;
    }
    c->qesc.hbits = 4;
    while ((1ull << c->qesc.hbits) < 2 * c->qesc.nesc)
        c->qesc.hbits++;
    c->qesc.hmask = (1ull << c->qesc.hbits) - 1;
    c->qesc.hash = huge_zalloc((c->qesc.hmask + 1) * sizeof *c->qesc.hash);
    if (!c->qesc.hash)
        return false;
    for (uint64_t q = 0; q < groups; q++)
        if (code_of[group_key(c, q, n)] == 0x7fff)
            for (uint64_t r = 4 * q; r < 4 * q + 4 && r < n; r++)
                hput(&c->qesc, r, t[r]);
    free(cnt), free(order), free(code_of);
    return true;
}

/* Measures A4 on level k and appends its fields to buf. 1 on failure. */
static int measure_a4(const sow_game *g, const sow_db *db, int k, const int *idx,
                      const int8_t *dict, uint64_t probes, int R, char *buf, size_t size)
{
    const int8_t *t = db->table[k];
    uint64_t n = sow_retro_level_size(g, k);
    a4 c = {0};
    a4stats st = {0};
    memcpy(c.dict, dict, sizeof c.dict);
    if (!a4_make(&c, &db->ix, t, n, g->m, k, idx, &st)) {
        fprintf(stderr, "db_codec: A4 cannot code k=%d (memory or range)\n", k);
        return 1;
    }
    if (!a4_check(&c, &db->ix, t, n, g->m, k)) {
        fprintf(stderr, "db_codec: A4 decodes a board of k=%d wrongly\n", k);
        return 1;
    }
    double gesc[NGROUP];
    group_stats(&c, n, gesc);
    long sink = 0;
    rates q = a4_rates(&c, db, k, n, probes, R, &sink);
    double bits = (double)((n / 2 + 1) + 2 * c.rows + (c.esc.hmask + 1) * 8) * 8 / (double)n;
    size_t l = (size_t)snprintf(buf, size, "\"hadd_bits\":%.3f,", st.hres);
    for (int i = 0; i < NWIN - 1; i++)
        l += (size_t)snprintf(buf + l, size - l, "\"esc_add%d\":%.5f,", windows[i], st.esc[i]);
    for (int i = 0; i < NGROUP; i++)
        l += (size_t)snprintf(buf + l, size - l, "\"esc_group%d_%d\":%.5f,", groupcodes[i].G,
                              groupcodes[i].bits, gesc[i]);
    snprintf(buf + l, size - l,
             "\"a4_escapes\":%.5f,\"a4_bits\":%.3f,\"pos_int8_mprobes\":%.1f,"
             "\"pos_a4_mprobes\":%.1f,\"pos_int8_ns\":%.1f,\"pos_a4_ns\":%.1f,\"a4_check\":%ld,",
             (double)c.esc.nesc / (double)n, bits, q.r8, q.r4, q.l8, q.l4, sink ? 1L : 0L);
    l = strlen(buf);
    c.grouped = true;
    if (!g4_make(&c, t, n) || !a4_check(&c, &db->ix, t, n, g->m, k)) {
        fprintf(stderr, "db_codec: G4 cannot code k=%d or decodes a board wrongly\n", k);
        return 1;
    }
    q = a4_rates(&c, db, k, n, probes, R, &sink);
    uint64_t gbytes = (n + 3) / 4 * 15 / 8 + 2 * c.rows + 2 * 0x8000 + (c.qesc.hmask + 1) * 8;
    snprintf(buf + l, size - l,
             "\"g4_escapes\":%.5f,\"g4_bits\":%.3f,\"g4_bits_list\":%.3f,"
             "\"pos_int8_mprobes_2\":%.1f,\"pos_g4_mprobes\":%.1f,\"pos_int8_ns_2\":%.1f,"
             "\"pos_g4_ns\":%.1f,\"g4_check\":%ld,",
             (double)c.qesc.nesc / (double)n, (double)gbytes * 8 / (double)n,
             ((double)(gbytes - (c.qesc.hmask + 1) * 8) * 8 + (double)c.qesc.nesc / 4 * 48) /
                 (double)n,
             q.r8, q.r4, q.l8, q.l4, sink ? 1L : 0L);
    free(c.nib), free(c.g), free(c.f), free(c.esc.hash), free(c.q), free(c.book), free(c.qesc.hash);
    return sink != 0;
}

/* Measures level k of db and prints its JSON line; 1 on failure. */
static int measure(const sow_game *g, const sow_db *db, int k, int w, uint64_t probes, int R,
                   const char *game)
{
    const int8_t *t = db->table[k];
    uint64_t n = sow_retro_level_size(g, k);
    int idx[256] = {0}, nv = 0;
    l4 c = {.w = w};
    for (uint64_t r = 0; r < n; r++)
        idx[(uint8_t)(t[r] + 128)] = 1;
    for (int v = 0; v < 256; v++)
        if (idx[v]) {
            c.dict[nv] = (int8_t)(v - 128);
            idx[v] = nv++;
        }
    if (!l4_make(&c, t, n, idx)) {
        fprintf(stderr, "db_codec: out of memory\n");
        return 1;
    }
    for (uint64_t r = 0; r < n; r++)
        if (l4_get(&c, r) != t[r]) {
            fprintf(stderr, "db_codec: L4 decodes rank %llu of k=%d wrongly\n",
                    (unsigned long long)r, k);
            return 1;
        }
    uint64_t lines = (n + LINE_RANKS(w) - 1) / LINE_RANKS(w);
    double bits = (double)(lines * LINE_BYTES + (c.hmask + 1) * 8) * 8 / (double)n;
    double h0 = 0, hc = 0, hp = 0;
    bool ctx = g->landing != SOW_LAND_TOGUZ;
    entropies(t, n, g->m, k, ctx, &h0, &hc, &hp);
    char hcs[32] = "null", ctxs[2048] = "";
    if (ctx) {
        snprintf(hcs, sizeof hcs, "%.3f", hc);
        ctxstats cs = ctx_stats(t, n, g->m, k, idx, nv, (1 << w) - 1);
        snprintf(ctxs, sizeof ctxs,
                 "\"hsa_bits\":%.3f,\"hblock_bits\":%.3f,\"esc_sa\":%.5f,"
                 "\"esc_block\":%.5f,\"blocks\":%llu,",
                 cs.hsa, cs.hblk, cs.esc_sa, cs.esc_blk, (unsigned long long)cs.blocks);
        if (g->m <= 8 && measure_a4(g, db, k, idx, c.dict, probes, R, ctxs + strlen(ctxs),
                                    sizeof ctxs - strlen(ctxs)))
            return 1;
    }
    long sink = 0;
    rates q = probe_rates(t, &c, n, probes, R, &sink);
    printf("{\"game\":\"%s\",\"m\":%d,\"k\":%d,\"entries\":%llu,\"values\":%d,"
           "\"h0_bits\":%.3f,\"hctx_bits\":%s,\"hprev_bits\":%.3f,%s"
           "\"l4_width\":%d,\"l4_escapes\":%.5f,\"l4_bits\":%.3f,"
           "\"int8_mprobes\":%.1f,\"l4_mprobes\":%.1f,\"int8_ns\":%.1f,\"l4_ns\":%.1f,"
           "\"check\":%ld}\n",
           game, g->m, k, (unsigned long long)n, nv, h0, hcs, hp, ctxs, w, (double)c.nesc / (double)n,
           bits, q.r8, q.r4, q.l8, q.l4, sink == 0 ? 0L : 1L);
    fflush(stdout);
    free(c.line);
    free(c.hash);
    if (sink) {
        fprintf(stderr, "db_codec: the probes of k=%d read other values than the table's\n", k);
        return 1;
    }
    return 0;
}

static const char usage[] =
    "usage: db_codec [--game G] [--pits M] [--max-seeds K] [--variant V] [--dir D]\n"
    "                [--from K0] [--probes N] [--reps R] [--bits W]\n"
    "Loads seed counts 0..K of G's database from D (without D: builds them in\n"
    "memory) and prints one JSON object a level from K0 on: its values'\n"
    "entropies and a one-access code of W (3, 4, 5) bits a position, checked\n"
    "on every rank, with its random probe rates against a byte's; and (not\n"
    "Toguz) the additive 4-bit code A4 and its grouped form G4 (3.75 bits),\n"
    "checked on every board, with their probe rates from positions against\n"
    "sow_db_probe's.\n";

int main(int argc, char **argv)
{
    const char *game = "kalah", *variant = "", *dir = NULL;
    int m = 6, K = 16, from = 0, reps = 3, w = 4;
    uint64_t probes = 20000000;
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!v) {
            fprintf(stderr, "db_codec: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--pits"))
            m = atoi(v);
        else if (!strcmp(a, "--max-seeds"))
            K = atoi(v);
        else if (!strcmp(a, "--variant"))
            variant = v;
        else if (!strcmp(a, "--dir"))
            dir = v;
        else if (!strcmp(a, "--from"))
            from = atoi(v);
        else if (!strcmp(a, "--probes"))
            probes = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--bits"))
            w = atoi(v);
        else if (!strcmp(a, "--reps"))
            reps = atoi(v);
        else {
            fprintf(stderr, "db_codec: unknown option %s (--help)\n", a);
            return 2;
        }
    }
    if (w < 3 || w > 5 || reps < 1 || reps > 16 || probes < 1 || from < 0) {
        fprintf(stderr, "db_codec: --bits is 3, 4 or 5, --reps 1..16, --probes >= 1, "
                        "--from >= 0\n");
        return 2;
    }
    sow_config cfg = {0};
    sow_game g;
    char why[512];
    if (sow_game_parse(game, &cfg.game) || sow_variant_parse(cfg.game, variant, &cfg.variant)) {
        fprintf(stderr, "db_codec: bad game or variant\n");
        return 2;
    }
    cfg.pits = m;
    cfg.seeds = 1;
    if (sow_game_init(&g, &cfg)) {
        fprintf(stderr, "db_codec: bad board\n");
        return 2;
    }
    sow_db *db;
    sow_db_options o = {.no_build = dir != NULL};
    if (sow_db_open(&g, K, dir, &o, &db, why, sizeof why)) {
        fprintf(stderr, "db_codec: %s\n", why);
        return 2;
    }
    int rc = 0;
    for (int k = from; k <= K && !rc; k++)
        rc = measure(&g, db, k, w, probes, reps, game);
    sow_db_close(db);
    return rc;
}
