/* common/clock.h - the monotonic clock every part of sow times itself by. */
#ifndef SOW_COMMON_CLOCK_H
#define SOW_COMMON_CLOCK_H

#include <time.h>

/* Seconds on a monotonic clock (only differences mean anything). */
static inline double sow_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of the process, all threads: on a loaded machine a fairer
 * measure of a search than wall-clock. */
static inline double sow_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU seconds of the calling thread: one unit's cost when several run at
 * once (src/units/pool.c). */
static inline double sow_thread_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
