/* db_probe.c - the probe's cost, packed levels against int8 ones: opens
 * one database twice from the files of a folder (no build), once as the
 * library holds it by default (levels packed where that is smaller) and
 * once unpacked (a byte a position), and times sow_db_probe on the same
 * random positions, uniform over the boards with at most K seeds,
 * alternating the two in R rounds (CPU time of this one thread). Prints
 * one JSON object: each round's probes/s and the median ratio.
 *
 * usage: db_probe --dir D [--game G] [--pits M] [--max-seeds K]
 *                 [--variant V] [--probes N] [--reps R]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sow/db.h"
#include "sow/retro.h"

enum { NPOS = 1 << 21, MAXR = 15 };

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    return *x;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Random boards, uniform over the levels' boards. */
static sow_pos *positions(const sow_game *g, const sow_db *db, int K)
{
    sow_pos *pos = calloc(NPOS, sizeof *pos);
    uint64_t total = 0, x = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k <= K; k++)
        total += sow_retro_level_size(g, k);
    for (int i = 0; pos && i < NPOS; i++) {
        uint64_t r = next(&x) % total;
        int k = 0;
        while (r >= sow_retro_level_size(g, k))
            r -= sow_retro_level_size(g, k++);
        uint8_t c[SOW_IDX_MAX_PARTS];
        sow_index_unrank(&db->ix, k, r, c);
        for (int j = 0; j < g->m; j++) {
            pos[i].b[j] = c[j];
            pos[i].b[SOW_HALF + j] = c[g->m + j];
        }
    }
    return pos;
}

/* probes/s of n probes over pos; *sum gets their values' sum. */
static double rate(const sow_db *db, const sow_pos *pos, uint64_t n, long *sum)
{
    long acc = 0;
    double t0 = cpu_now();
    for (uint64_t i = 0; i < n; i++)
        acc += sow_db_probe(db, &pos[i % NPOS]);
    double t = cpu_now() - t0;
    *sum = acc;
    return (double)n / t;
}

int main(int argc, char **argv)
{
    const char *game = "kalah", *variant = "", *dir = NULL;
    int m = 6, K = 22, reps = 5;
    uint64_t n = 20000000;
    for (int i = 1; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help")) {
            puts("usage: db_probe --dir D [--game G] [--pits M] [--max-seeds K] [--variant V]\n"
                 "                [--probes N] [--reps R]\n"
                 "Times sow_db_probe on random boards of D's database held packed (the\n"
                 "default) and unpacked, in alternated rounds; one JSON object.");
            return 0;
        }
        if (!v) {
            fprintf(stderr, "db_probe: %s needs a value\n", a);
            return 2;
        }
        if (!strcmp(a, "--dir"))
            dir = v;
        else if (!strcmp(a, "--game"))
            game = v;
        else if (!strcmp(a, "--pits"))
            m = atoi(v);
        else if (!strcmp(a, "--max-seeds"))
            K = atoi(v);
        else if (!strcmp(a, "--variant"))
            variant = v;
        else if (!strcmp(a, "--probes"))
            n = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--reps"))
            reps = atoi(v);
        else {
            fprintf(stderr, "db_probe: unknown option %s (--help)\n", a);
            return 2;
        }
    }
    if (!dir || reps < 1 || reps > MAXR || n < 1) {
        fprintf(stderr, "db_probe: --dir is needed, --reps 1..%d, --probes >= 1\n", MAXR);
        return 2;
    }
    sow_config cfg = {.pits = m, .seeds = 1};
    sow_game g;
    if (sow_game_parse(game, &cfg.game) || sow_variant_parse(cfg.game, variant, &cfg.variant) ||
        sow_game_init(&g, &cfg)) {
        fprintf(stderr, "db_probe: bad game, variant or pits\n");
        return 2;
    }
    char why[512];
    sow_db *packed, *bytes;
    sow_db_options o = {.no_build = true};
    double t0 = cpu_now();
    if (sow_db_open(&g, K, dir, &o, &packed, why, sizeof why)) {
        fprintf(stderr, "db_probe: %s\n", why);
        return 2;
    }
    double open_s = cpu_now() - t0;
    if (!packed->packed) { /* version 1 files are held as they are: int8 */
        fprintf(stderr, "db_probe: no level of %s is packed (files of version 1, or too small): "
                "build the folder with this sow\n", dir);
        sow_db_close(packed);
        return 2;
    }
    o.unpacked = true;
    if (sow_db_open(&g, K, dir, &o, &bytes, why, sizeof why)) {
        fprintf(stderr, "db_probe: %s\n", why);
        return 2;
    }
    sow_pos *pos = positions(&g, bytes, K);
    if (!pos) {
        fprintf(stderr, "db_probe: out of memory\n");
        return 1;
    }
    double r8[MAXR], rp[MAXR], ratio[MAXR];
    printf("{\"game\":\"%s\",\"pits\":%d,\"max_seeds\":%d,\"probes\":%llu,\"open_cpu_s\":%.2f,"
           "\"int8_bytes\":%zu,\"packed_bytes\":%zu,\"rounds\":[",
           game, m, K, (unsigned long long)n, open_s, sow_db_size(bytes), sow_db_size(packed));
    int bad = 0;
    for (int r = 0; r < reps; r++) {
        long s8, sp;
        r8[r] = rate(bytes, pos, n, &s8);
        rp[r] = rate(packed, pos, n, &sp);
        bad |= s8 != sp;
        ratio[r] = r8[r] / rp[r];
        printf("%s{\"int8_mprobes\":%.2f,\"packed_mprobes\":%.2f,\"int8_over_packed\":%.3f}",
               r ? "," : "", r8[r] / 1e6, rp[r] / 1e6, ratio[r]);
    }
    qsort(ratio, (size_t)reps, sizeof *ratio, cmp_double);
    printf("],\"median_int8_over_packed\":%.3f,\"same_values\":%s}\n", ratio[reps / 2],
           bad ? "false" : "true");
    free(pos);
    sow_db_close(packed);
    sow_db_close(bytes);
    return bad;
}
