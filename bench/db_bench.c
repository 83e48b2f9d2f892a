/* db_bench.c - database build throughput: builds a database in memory
 * (no files) and prints, as one JSON object per run, the positions, the
 * seconds and positions per second (the levels' packing included) and the
 * bytes the tables take. scripts/bench-db runs it and writes
 * results/db-build.md.
 *
 * usage: db_bench [--game G] [--pits M] [--max-seeds K] [--variant V]
 *                 [--threads T] [--reps R] [--packed 0|1]
 * --packed 0: every level kept at a byte a position (sow_db_options
 * unpacked); 1 (the default): the library's default.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sow/db.h"
#include "sow/retro.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *game = "kalah", *variant = "";
    int m = 6, K = 18, T = 1, reps = 1, packed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--game"))
            game = argv[i + 1];
        else if (!strcmp(argv[i], "--pits"))
            m = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--max-seeds"))
            K = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--variant"))
            variant = argv[i + 1];
        else if (!strcmp(argv[i], "--threads"))
            T = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--reps"))
            reps = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--packed"))
            packed = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "db_bench: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    sow_config c = {0};
    if (sow_game_parse(game, &c.game) || sow_variant_parse(c.game, variant, &c.variant)) {
        fprintf(stderr, "db_bench: bad game or variant\n");
        return 2;
    }
    c.pits = m;
    c.seeds = 1;
    sow_game g;
    if (sow_game_init(&g, &c)) {
        fprintf(stderr, "db_bench: bad board\n");
        return 2;
    }
    /* Every entry of the tables (Toguz: every tuzdik state's boards). */
    uint64_t positions = 0;
    for (int k = 0; k <= K; k++)
        positions += sow_retro_level_size(&g, k);
    for (int r = 0; r < reps; r++) {
        sow_db_options o = {.threads = T, .memory = 14000000000ull, .unpacked = !packed};
        sow_db *db;
        char why[256];
        double t0 = sow_retro_clock(), c0 = cpu_now();
        if (sow_db_open(&g, K, NULL, &o, &db, why, sizeof why)) {
            fprintf(stderr, "db_bench: %s\n", why);
            return 1;
        }
        double s = sow_retro_clock() - t0, cpu = cpu_now() - c0;
        /* A checksum of the tables: equal across thread counts. */
        uint64_t h = 0;
        for (int k = 0; k <= K; k++)
            for (uint64_t i = 0, n = sow_retro_level_size(&g, k); i < n; i += 4099)
                h = h * 31 + (uint8_t)sow_db_at(db, k, i);
        printf("{\"game\":\"%s\",\"variant\":\"%s\",\"pits\":%d,\"max_seeds\":%d,\"threads\":%d,"
               "\"positions\":%llu,\"seconds\":%.3f,\"cpu_seconds\":%.3f,\"positions_per_s\":%.0f,"
               "\"positions_per_cpu_s\":%.0f,\"packed\":%s,\"db_bytes\":%zu,"
               "\"sample_hash\":\"%016llx\"}\n",
               game, variant, m, K, T, (unsigned long long)positions, s, cpu, (double)positions / s, (double)positions / cpu,
               db->packed ? "true" : "false", sow_db_size(db), (unsigned long long)h);
        fflush(stdout);
        sow_db_close(db);
    }
    return 0;
}
