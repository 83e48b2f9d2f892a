/* serve_engines.c - `sow serve`'s engines: see serve_engines.h.
 *
 * Each board's entry has a lock that a request holds while its engine
 * answers, and a count of the requests that hold or wait for it (only an
 * entry nobody holds or waits for may be evicted). The pool's mutex
 * guards the list, the counts and the eviction; an engine's bytes are
 * read without its lock (sow_engine_bytes is atomic). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serve_engines.h"

/* Boards kept at most, however little they hold: a bound on the list
 * that the memory does not give for engines that hold nothing. */
#define MAX_BOARDS 64

typedef struct entry {
    sow_config cfg;
    sow_engine *e;
    pthread_mutex_t lock;
    int refs;          /* requests holding or waiting for it */
    uint64_t used;     /* the pool's clock at its last use */
    struct entry *next;
} entry;

struct serve_engines {
    pthread_mutex_t mu;
    entry *list;
    uint64_t total, each, clock;
    const char *db_dir;
    const sow_stop_flag *stop;
};

serve_engines *serve_engines_new(uint64_t total, uint64_t each, const char *db_dir,
                                 const sow_stop_flag *stop)
{
    serve_engines *se = calloc(1, sizeof *se);
    if (!se)
        return NULL;
    pthread_mutex_init(&se->mu, NULL);
    se->total = total;
    se->each = each;
    se->db_dir = db_dir;
    se->stop = stop;
    return se;
}

static bool same_board(const sow_config *a, const sow_config *b)
{
    return a->game == b->game && a->pits == b->pits && a->seeds == b->seeds &&
           a->variant == b->variant;
}

static void entry_free(entry *x)
{
    sow_engine_free(x->e);
    pthread_mutex_destroy(&x->lock);
    free(x);
}

void serve_engines_free(serve_engines *se)
{
    if (!se)
        return;
    while (se->list) {
        entry *x = se->list;
        se->list = x->next;
        entry_free(x);
    }
    pthread_mutex_destroy(&se->mu);
    free(se);
}

/* Removes the least recently used entry nobody holds (not `keep`):
 * false when there is none. Under se->mu. */
static bool evict_one(serve_engines *se, const entry *keep)
{
    entry **victim = NULL;
    for (entry **p = &se->list; *p; p = &(*p)->next)
        if (*p != keep && (*p)->refs == 0 && (!victim || (*p)->used < (*victim)->used))
            victim = p;
    if (!victim)
        return false;
    entry *x = *victim;
    *victim = x->next;
    entry_free(x);
    return true;
}

/* What the engines may hold while `self` answers: the others' bytes
 * (one held or awaited may grow to its bound) and self's bound. Under
 * se->mu. */
static uint64_t committed(const serve_engines *se, const entry *self, int *count)
{
    uint64_t sum = se->each;
    *count = 0;
    for (const entry *x = se->list; x; x = x->next) {
        ++*count;
        if (x != self)
            sum += x->refs > 0 ? se->each : sow_engine_bytes(x->e);
    }
    return sum;
}

/* cg's entry, made if missing, counted as held (refs). Under se->mu. */
static entry *find_or_add(serve_engines *se, const cli_game *cg, char *why, size_t why_size)
{
    for (entry *x = se->list; x; x = x->next)
        if (same_board(&x->cfg, &cg->cfg)) {
            x->refs++;
            return x;
        }
    entry *x = calloc(1, sizeof *x);
    if (!x) {
        snprintf(why, why_size, "out of memory");
        return NULL;
    }
    sow_limits lim = {.memory = se->each, .threads = 1, .stop = se->stop,
                      /* a game that repeats has no databases */
                      .db_dir = cg->g.cycles ? NULL : se->db_dir};
    if (sow_engine_new(&cg->g, &lim, &x->e, why, why_size) != SOW_OK) {
        free(x);
        return NULL;
    }
    pthread_mutex_init(&x->lock, NULL);
    x->cfg = cg->cfg;
    x->refs = 1;
    x->next = se->list;
    se->list = x;
    return x;
}

/* Waits for x's lock until `deadline` (cli_now's clock). */
static bool lock_by(entry *x, double deadline)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double left = deadline - cli_now();
    double end = (double)ts.tv_sec + ts.tv_nsec / 1e9 + (left > 0 ? left : 0);
    ts.tv_sec = (time_t)end;
    ts.tv_nsec = (long)((end - (double)ts.tv_sec) * 1e9);
    int r;
    while ((r = pthread_mutex_timedlock(&x->lock, &ts)) == EINTR)
        ;
    return r == 0;
}

sow_engine *serve_engine_take(serve_engines *se, const cli_game *cg, double deadline,
                              char *why, size_t why_size)
{
    pthread_mutex_lock(&se->mu);
    entry *x = find_or_add(se, cg, why, why_size);
    pthread_mutex_unlock(&se->mu);
    if (!x)
        return NULL;
    if (!lock_by(x, deadline)) {
        pthread_mutex_lock(&se->mu);
        x->refs--;
        pthread_mutex_unlock(&se->mu);
        snprintf(why, why_size, "another request on this board held its engine past the "
                 "time limit");
        return NULL;
    }
    pthread_mutex_lock(&se->mu);
    int count;
    while ((committed(se, x, &count) > se->total || count > MAX_BOARDS) && evict_one(se, x))
        ;
    x->used = ++se->clock;
    pthread_mutex_unlock(&se->mu);
    return x->e;
}

void serve_engine_give(serve_engines *se, sow_engine *e)
{
    pthread_mutex_lock(&se->mu);
    for (entry *x = se->list; x; x = x->next)
        if (x->e == e) {
            x->used = ++se->clock;
            x->refs--;
            pthread_mutex_unlock(&x->lock);
            break;
        }
    pthread_mutex_unlock(&se->mu);
}
