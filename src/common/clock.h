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

/* CPU seconds of the whole process, every thread (only differences mean
 * anything). */
static inline double sow_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
