/* pool.c - several work units answered at once in this process, one
 * thread each over one table (units/internal.h).
 *
 * The solver's thread hands questions out (submit) and takes answers
 * back (wait); `threads` threads take the questions in order, each on its
 * own worker of the search (sow_search_test_on). Both queues hold at most
 * `threads` units, since no more are ever in flight. Nobody spins: the
 * threads sleep on `work`, the solver on `done`, with a timeout for its
 * progress ticks and the deadline.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "internal.h"

typedef struct answer {
    sow_unit u;
    sow_err e;
} answer;

typedef struct thread_arg {
    units_pool *p;
    int k;
} thread_arg;

struct units_pool {
    sow_units_worker *w;
    sow_search *s;
    int threads, started;
    pthread_t *th;
    thread_arg *args;
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    sow_unit *todo; /* FIFO: todo[0 .. ntodo) */
    int ntodo;
    int running;    /* taken by a thread, not answered yet */
    answer *ans;    /* answers not yet waited for */
    int nans;
    bool quit, cancelled;
    sow_err *err;
    double deadline, every;
    void (*tick)(void *ctx);
    void *ctx;
};

static void *thread_main(void *arg)
{
    const thread_arg *a = arg;
    units_pool *p = a->p;
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->quit && p->ntodo == 0)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->quit)
            break;
        answer r = {.u = p->todo[0]};
        memmove(p->todo, p->todo + 1, (size_t)--p->ntodo * sizeof *p->todo);
        p->running++;
        bool cancelled = p->cancelled;
        pthread_mutex_unlock(&p->mu);
        r.e = cancelled ? SOW_E_INTERRUPTED : units_worker_answer_on(p->w, a->k, &r.u);
        if (cancelled)
            r.u.done = r.u.split = false;
        pthread_mutex_lock(&p->mu);
        p->running--;
        p->ans[p->nans++] = r;
        pthread_cond_signal(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static sow_err pool_submit(void *ctx, sow_unit *u)
{
    units_pool *p = ctx;
    u->worker = 0;
    pthread_mutex_lock(&p->mu);
    /* More in flight than slots: a bug. */
    sow_err e = p->ntodo + p->running + p->nans < p->threads ? SOW_OK : SOW_E_ARG;
    if (!e) {
        p->todo[p->ntodo++] = *u;
        pthread_cond_signal(&p->work);
    }
    pthread_mutex_unlock(&p->mu);
    return e;
}

/* Cancels what is in flight (p->mu held). */
static void cancel_locked(units_pool *p)
{
    p->cancelled = true;
    sow_search_tests_cancel(p->s);
}

static void pool_cancel(void *ctx)
{
    units_pool *p = ctx;
    pthread_mutex_lock(&p->mu);
    cancel_locked(p);
    pthread_mutex_unlock(&p->mu);
}

static sow_err pool_wait(void *ctx, sow_unit *u)
{
    units_pool *p = ctx;
    pthread_mutex_lock(&p->mu);
    while (p->nans == 0) {
        double now = sow_now();
        if (p->deadline > 0 && now >= p->deadline && !p->cancelled)
            cancel_locked(p);
        double until = now + p->every;
        if (p->deadline > 0 && !p->cancelled && p->deadline < until)
            until = p->deadline;
        struct timespec ts = {(time_t)until, (long)((until - (double)(time_t)until) * 1e9)};
        if (pthread_cond_timedwait(&p->done, &p->mu, &ts) != 0 && p->nans == 0 && p->tick) {
            pthread_mutex_unlock(&p->mu);
            p->tick(p->ctx);
            pthread_mutex_lock(&p->mu);
        }
    }
    answer r = p->ans[0];
    memmove(p->ans, p->ans + 1, (size_t)--p->nans * sizeof *p->ans);
    pthread_mutex_unlock(&p->mu);
    *u = r.u;
    /* Stopped (the cancel, the stop flag, the deadline) is no failure: the
     * solver asks again if it still matters, or stops. */
    if (r.e && r.e != SOW_E_INTERRUPTED && !*p->err)
        *p->err = r.e;
    return SOW_OK;
}

bool units_pool_take(units_pool *p, sow_unit *u, sow_err *e)
{
    pthread_mutex_lock(&p->mu);
    bool got = p->nans > 0;
    if (got) {
        *u = p->ans[0].u;
        *e = p->ans[0].e;
        memmove(p->ans, p->ans + 1, (size_t)--p->nans * sizeof *p->ans);
    }
    pthread_mutex_unlock(&p->mu);
    return got;
}

sow_err units_pool_new(sow_units_worker *w, int threads, sow_err *err, double deadline,
                       void (*tick)(void *ctx), void *ctx, double every, sow_units_pool *iface,
                       units_pool **out)
{
    *out = NULL;
    units_pool *p = calloc(1, sizeof *p);
    if (!p)
        return SOW_E_NOMEM;
    *p = (units_pool){.w = w, .s = units_worker_search(w), .threads = threads, .err = err,
                      .deadline = deadline, .every = every > 0 ? every : 1.0, .tick = tick,
                      .ctx = ctx};
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    /* The solver's timed waits count on the monotonic clock. */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->done, &ca);
    pthread_condattr_destroy(&ca);
    p->th = calloc((size_t)threads, sizeof *p->th);
    p->args = calloc((size_t)threads, sizeof *p->args);
    p->todo = calloc((size_t)threads, sizeof *p->todo);
    p->ans = calloc((size_t)threads, sizeof *p->ans);
    if (!p->th || !p->args || !p->todo || !p->ans) {
        units_pool_free(p);
        return SOW_E_NOMEM;
    }
    for (int k = 0; k < threads; k++) {
        p->args[k] = (thread_arg){p, k};
        if (pthread_create(&p->th[k], NULL, thread_main, &p->args[k]) != 0)
            break;
        p->started++;
    }
    if (p->started < threads) {
        units_pool_free(p);
        return SOW_E_NOMEM;
    }
    *iface = (sow_units_pool){threads, pool_submit, pool_wait, pool_cancel, p};
    *out = p;
    return SOW_OK;
}

void units_pool_free(units_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    cancel_locked(p);
    p->quit = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (int k = 0; k < p->started; k++)
        pthread_join(p->th[k], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p->th);
    free(p->args);
    free(p->todo);
    free(p->ans);
    free(p);
}
