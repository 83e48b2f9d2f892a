/* perft_measure.c - timing sow_perft (see perft_measure.h). */
#include <stdlib.h>
#include <time.h>

#include "sow/rules.h"

#include "perft_measure.h"

static double seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of v[0..n), n >= 1; sorts v. */
static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

sow_err perft_measure_run(const sow_game *g, const sow_pos *p, int depth, int reps,
                          perft_measure *out)
{
    if (depth < 1 || depth > 64 || reps < 1 || reps > PERFT_MEASURE_MAX_REPS)
        return SOW_E_ARG;
    double wall[PERFT_MEASURE_MAX_REPS], cpu[PERFT_MEASURE_MAX_REPS];
    uint64_t leaves = 0;
    for (int r = 0; r < reps; r++) {
        double w0 = seconds(CLOCK_MONOTONIC), c0 = seconds(CLOCK_THREAD_CPUTIME_ID);
        uint64_t n = sow_perft(g, p, depth);
        cpu[r] = seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
        wall[r] = seconds(CLOCK_MONOTONIC) - w0;
        if (r > 0 && n != leaves)
            return SOW_E_MISMATCH;
        leaves = n;
    }
    uint64_t makes = leaves;
    for (int d = 1; d < depth; d++)
        makes += sow_perft(g, p, d);

    out->depth = depth;
    out->reps = reps;
    out->leaves = leaves;
    out->makes = makes;
    out->median_cpu_s = median(cpu, reps);
    out->median_s = median(wall, reps);
    out->min_s = wall[0]; /* sorted by median() */
    out->mmakes_per_s = out->median_s > 0 ? (double)makes / out->median_s / 1e6 : 0.0;
    out->mmakes_per_cpu_s =
        out->median_cpu_s > 0 ? (double)makes / out->median_cpu_s / 1e6 : 0.0;
    return SOW_OK;
}
