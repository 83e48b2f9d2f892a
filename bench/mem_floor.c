/* mem_floor.c - the memory side of a database build, without its
 * computation: random one-byte reads from a table as large as the build's,
 * issued the way the build issues them (a batch of addresses prefetched,
 * then read), on T threads. Its rate is the physical floor the build cannot
 * beat with this access pattern (doc/retrograde.md, "Speed"); scripts/
 * bench-db prints it next to the build's figures.
 *
 * usage: mem_floor [--mb SIZE] [--reads N] [--threads T] [--batch B]
 * Prints one JSON object: reads, seconds, reads per second.
 */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    uint64_t mb = 1250, reads = 2000000000ull;
    int threads = 1, batch = 128;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--mb"))
            mb = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--reads"))
            reads = strtoull(argv[i + 1], NULL, 10);
        else if (!strcmp(argv[i], "--threads"))
            threads = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--batch"))
            batch = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "mem_floor: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if (mb == 0 || threads < 1 || batch < 1 || batch > 4096) {
        fprintf(stderr, "mem_floor: bad arguments\n");
        return 2;
    }
    uint64_t n = mb * 1000000ull;
    /* The build's tables: anonymous, 2 MB aligned, huge pages. */
    size_t huge = 2u << 20, len = n + huge;
    char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
        fprintf(stderr, "mem_floor: cannot map %llu MB\n", (unsigned long long)mb);
        return 1;
    }
    int8_t *t = (int8_t *)(((uintptr_t)map + huge - 1) & ~(uintptr_t)(huge - 1));
#ifdef MADV_HUGEPAGE
    madvise(t, n, MADV_HUGEPAGE);
#endif
    memset(t, 1, n);

    long long sum = 0;
    double t0 = now();
#pragma omp parallel num_threads(threads) reduction(+ : sum)
    {
        uint64_t x = 0x9e3779b97f4a7c15ull * (uint64_t)(omp_get_thread_num() + 1);
        uint64_t mine = reads / (uint64_t)threads;
        const int8_t **p = malloc((size_t)batch * sizeof *p);
        for (uint64_t done = 0; p && done < mine; done += (uint64_t)batch) {
            for (int b = 0; b < batch; b++) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                p[b] = t + (uint64_t)(((unsigned __int128)x * n) >> 64);
                __builtin_prefetch(p[b]);
            }
            for (int b = 0; b < batch; b++)
                sum += *p[b];
        }
        free(p);
    }
    double s = now() - t0;
    printf("{\"mb\":%llu,\"threads\":%d,\"batch\":%d,\"reads\":%llu,\"seconds\":%.3f,"
           "\"reads_per_s\":%.0f,\"check\":%lld}\n",
           (unsigned long long)mb, threads, batch, (unsigned long long)reads, s,
           (double)reads / s, sum);
    munmap(map, len);
    return 0;
}
