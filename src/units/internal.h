/* units/internal.h - what the parts of src/units share: a worker's tests
 * on one of its threads, and the local pool that answers several units at
 * once in this process (pool.c).
 */
#ifndef SOW_UNITS_INTERNAL_H
#define SOW_UNITS_INTERNAL_H

#include "sow/units.h"

/* The worker's search (for sow_search_tests_begin and friends). */
sow_search *units_worker_search(sow_units_worker *w);

/* sow_units_worker_answer on the worker's thread k alone, beside the
 * others (between sow_search_tests_begin and _end on its search); CPU
 * seconds are this thread's. */
sow_err units_worker_answer_on(sow_units_worker *w, int k, sow_unit *u);

/* A pool of `threads` threads, each answering one unit at a time on its
 * own thread of w's search, all over its one table: several units at
 * once, where sow_units_worker_answer gives every thread to one unit (a
 * small unit keeps two threads busy badly: doc/experiments.md, "Work
 * units side by side"). iface gets the pool's calls (slots = threads).
 * wait gives a unit back not done when it was cancelled or stopped; one
 * that failed otherwise also sets *err (read on the waiting thread).
 * While it waits it calls tick(ctx) every `every` seconds, and cancels
 * what is in flight once `deadline` (sow_now(); 0: none) has passed. */
typedef struct units_pool units_pool;
sow_err units_pool_new(sow_units_worker *w, int threads, sow_err *err, double deadline,
                       void (*tick)(void *ctx), void *ctx, double every, sow_units_pool *iface,
                       units_pool **out);
/* Without waiting: an answer if one is ready (true), with the error of
 * its test (SOW_E_INTERRUPTED: cancelled or stopped); the pool's *err is
 * not touched. For a caller that has other things to watch (an MPI
 * worker's messages). */
bool units_pool_take(units_pool *p, sow_unit *u, sow_err *e);

/* Stops the threads (cancelling what runs) and frees the pool. */
void units_pool_free(units_pool *p);

#endif
