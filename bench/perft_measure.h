/* perft_measure.h - times sow_perft on one position: the measuring core of
 * bench/perft_bench.c, kept apart so other drivers (`sow bench`) can reuse
 * it. It never prints.
 *
 * What is counted. perft(d) makes every move of the tree (no bulk counting
 * at the leaves), so one run performs  makes = perft(1) + ... + perft(d)
 * make-moves: one per move sequence of length 1..d. perft(d) itself is only
 * the last ply (the leaves). Speeds are make-moves per second.
 */
#ifndef SOW_BENCH_PERFT_MEASURE_H
#define SOW_BENCH_PERFT_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/position.h"

#define PERFT_MEASURE_MAX_REPS 101

typedef struct perft_measure {
    int depth;
    int reps;
    uint64_t leaves;     /* perft(depth) */
    uint64_t makes;      /* make-moves per run: sum of perft(1..depth) */
    double median_s;     /* wall clock (CLOCK_MONOTONIC), median of reps */
    double min_s;        /* fastest rep, wall clock */
    double median_cpu_s; /* this thread's CPU time, median of reps */
    double mmakes_per_s; /* makes / median_s / 1e6 */
    double mmakes_per_cpu_s; /* makes / median_cpu_s / 1e6: less disturbed
                                * by other processes on a shared machine */
} perft_measure;

/* Runs perft(depth) from `p` `reps` times (1..PERFT_MEASURE_MAX_REPS) on the
 * calling thread and fills `out`. The make count comes from one untimed
 * extra pass of perft(1..depth-1). SOW_E_ARG for a bad depth or reps;
 * SOW_E_MISMATCH if two reps disagree on perft(depth) (never expected: it
 * would mean the move generator is not deterministic). */
sow_err perft_measure_run(const sow_game *g, const sow_pos *p, int depth, int reps,
                          perft_measure *out);

#endif
