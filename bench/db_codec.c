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
 * (an entropy coder conditioned on those could not do better).
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
    char hcs[32] = "null";
    if (ctx)
        snprintf(hcs, sizeof hcs, "%.3f", hc);
    long sink = 0;
    rates q = probe_rates(t, &c, n, probes, R, &sink);
    printf("{\"game\":\"%s\",\"m\":%d,\"k\":%d,\"entries\":%llu,\"values\":%d,"
           "\"h0_bits\":%.3f,\"hctx_bits\":%s,\"hprev_bits\":%.3f,"
           "\"l4_width\":%d,\"l4_escapes\":%.5f,\"l4_bits\":%.3f,"
           "\"int8_mprobes\":%.1f,\"l4_mprobes\":%.1f,\"int8_ns\":%.1f,\"l4_ns\":%.1f,"
           "\"check\":%ld}\n",
           game, g->m, k, (unsigned long long)n, nv, h0, hcs, hp, w, (double)c.nesc / (double)n,
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
    "on every rank, with its random probe rates against a byte's.\n";

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
