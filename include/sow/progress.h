/* sow/progress.h - progress reports of long computations (database
 * builds), shared by retro, db, plan and units. */
#ifndef SOW_PROGRESS_H
#define SOW_PROGRESS_H

#include <stdint.h>

typedef struct sow_progress {
    int seeds;          /* seed count being built */
    int max_seeds;      /* the last seed count of this build */
    uint64_t done;      /* positions of this seed count done */
    uint64_t total;     /* positions of this seed count */
    uint64_t all_done;  /* positions built so far in this call (all counts) */
    uint64_t all_total; /* positions this call builds (all counts) */
    double seconds;     /* since the call began */
} sow_progress;

/* Progress report; called from one thread at a time, about twice a second
 * and once at the end of every seed count. Must not call back into sow. */
typedef void (*sow_progress_fn)(void *ctx, const sow_progress *p);

#endif
