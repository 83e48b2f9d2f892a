/* build.c - one seed count of a database from the smaller ones
 * (doc/retrograde.md).
 *
 * Within a seed count k, a move that stores nothing keeps every seed in the
 * mover's row and moves each one it touches forward, so the potential
 * sum(pit number * seeds) strictly grows, and a same-k successor can never
 * lead back. The positions of level k are visited in rank order, split into
 * chunks that the threads take dynamically; a same-k successor that is not
 * computed yet is computed first, recursively (the potential bounds the
 * depth). Tables of smaller k are complete and read-only.
 *
 * Sharing between threads: out[] starts as SOW_RETRO_UNSET and each entry
 * goes once from UNSET to its value, written and read with relaxed atomic
 * byte accesses. Two threads may compute the same entry concurrently; both
 * write the same value (it is a function of the position and the complete
 * smaller tables), so the table, and the file, do not depend on the thread
 * count or the schedule.
 */
#include <limits.h>
#include <omp.h>
#include <string.h>
#include <time.h>

#include "rules/rules_inline.h"
#include "sow/retro.h"

/* scripts/sanitize runs TSan with clang and libomp, whose Archer tool
 * tells TSan about OpenMP's fork, barriers and join. gcc's libgomp is not
 * instrumented, so under gcc's TSan (__SANITIZE_THREAD__) these points are
 * described to it by hand: a release by every thread before each of them
 * and an acquire after. They are real synchronisation points, so no race
 * inside a work-sharing loop is hidden. (gcc's TSan still reports the
 * fork's own argument block, written by the pragma itself.) No code at
 * all in other builds. */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define OMP_SYNC_RELEASE(a) __tsan_release(a)
#define OMP_SYNC_ACQUIRE(a) __tsan_acquire(a)
#else
#define OMP_SYNC_RELEASE(a) ((void)(a))
#define OMP_SYNC_ACQUIRE(a) ((void)(a))
#endif

enum { CHUNK = 1 << 16 };

typedef struct bctx {
    const sow_game *g;
    const sow_index *ix;
    int k, m, scale;
    const int8_t *const *tab;
    int8_t *out;
} bctx;

static inline int load8(const int8_t *a, uint64_t r)
{
    return __atomic_load_n(&a[r], __ATOMIC_RELAXED);
}

static inline void store8(int8_t *a, uint64_t r, int v)
{
    __atomic_store_n(&a[r], (int8_t)v, __ATOMIC_RELAXED);
}

double sow_retro_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int sow_retro_max_seeds(const sow_game *g)
{
    int k = (INT8_MAX - (g->tiebreak ? 1 : 0)) / g->score_scale;
    return k < SOW_MAX_TOTAL ? k : SOW_MAX_TOTAL;
}

sow_err sow_retro_supported(const sow_game *g)
{
    return g->cycles || g->landing == SOW_LAND_TOGUZ ? SOW_E_ARG : SOW_OK;
}

typedef int (*solve_fn)(const bctx *c, const sow_pos *p, uint64_t r);

#define HOT static inline __attribute__((always_inline))

/* Future of p (stores 0, South to move, not over), rank r in level k;
 * stores it and returns it. `land` is g->landing as a compile-time
 * constant (one copy per landing rule: the make loses the other games'
 * branches); `self` is that copy, for the recursion. */
HOT int solve_impl(const bctx *c, const sow_pos *p, uint64_t r, sow_landing land, solve_fn self)
{
    const sow_game *g = c->g;
    int best = INT_MIN;
    for (int i = 0; i < c->m; i++) {
        if (!p->b[i])
            continue;
        sow_pos q = *p;
        sow_i_make_as(g, &q, (sow_move)i, land);
        bool swapped = q.b[SOW_B_FLAGS] & SOW_FLAG_NORTH;
        int s;
        if (sow_i_over(g, &q)) {
            /* p's stores were 0: q's final score is p's future via q. */
            s = sow_i_terminal_score(g, &q);
        } else {
            unsigned kq;
            uint64_t rq = sow_index_rank_pos(c->ix, &q, &kq);
            if ((int)kq < c->k) {
                int d = q.b[SOW_B_STORE] - q.b[SOW_HALF + SOW_B_STORE];
                s = d * c->scale + c->tab[kq][rq];
            } else {
                /* Nothing stored: a same-level successor, of higher
                 * potential, so the recursion ends. */
                s = load8(c->out, rq);
                if (s == SOW_RETRO_UNSET) {
                    q.b[SOW_B_FLAGS] = 0;
                    q.b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
                    s = self(c, &q, rq);
                }
            }
        }
        if (swapped)
            s = -s;
        if (s > best)
            best = s;
    }
    assert(best != INT_MIN && best > SOW_RETRO_UNSET && best <= INT8_MAX);
    store8(c->out, r, best);
    return best;
}

static int solve_plain(const bctx *c, const sow_pos *p, uint64_t r)
{
    return solve_impl(c, p, r, SOW_LAND_PLAIN, solve_plain);
}

static int solve_capture(const bctx *c, const sow_pos *p, uint64_t r)
{
    return solve_impl(c, p, r, SOW_LAND_CAPTURE, solve_capture);
}

static int solve_relay(const bctx *c, const sow_pos *p, uint64_t r)
{
    return solve_impl(c, p, r, SOW_LAND_RELAY, solve_relay);
}

/* One successor of a batch position, to be resolved after its table
 * entry was prefetched: score = sign * (add + *ptr). */
typedef struct child {
    const int8_t *ptr; /* the entry; `zero` for a finished game */
    int16_t add;       /* store difference * scale, or the final score */
    int8_t neg;        /* the turn passed: negate */
    int8_t same;       /* a same-level entry: may still be unset */
    int8_t move;
} child;

static const int8_t zero_entry = 0;

enum { BATCH = 32 };

/* A batch of positions of a chunk, with their successors. */
typedef struct batch {
    int n;
    sow_pos pos[BATCH];
    uint64_t rank[BATCH];
    int nch[BATCH];
    child ch[BATCH][SOW_MAX_PITS];
} batch;

/* Phase 1 for one position: make every move, find its entry, prefetch it.
 * Finished positions are stored at once and not added. */
HOT void batch_add(const bctx *c, batch *bt, const uint8_t *cb, uint64_t r, sow_landing land)
{
    const sow_game *g = c->g;
    int m = c->m;
    sow_pos *p = &bt->pos[bt->n];
    sow_index_to_pos(m, cb, p);
    if (sow_i_over(g, p)) {
        store8(c->out, r, sow_i_terminal_score(g, p));
        return;
    }
    int n = 0;
    for (int i = 0; i < m; i++) {
        if (!p->b[i])
            continue;
        sow_pos q = *p;
        sow_i_make_as(g, &q, (sow_move)i, land);
        child *x = &bt->ch[bt->n][n++];
        x->move = (int8_t)i;
        x->neg = q.b[SOW_B_FLAGS] & SOW_FLAG_NORTH;
        x->same = 0;
        if (sow_i_over(g, &q)) {
            x->ptr = &zero_entry;
            x->add = (int16_t)sow_i_terminal_score(g, &q);
            continue;
        }
        unsigned kq;
        uint64_t rq = sow_index_rank_pos(c->ix, &q, &kq);
        if ((int)kq < c->k) {
            x->ptr = c->tab[kq] + rq;
            x->add = (int16_t)((q.b[SOW_B_STORE] - q.b[SOW_HALF + SOW_B_STORE]) * c->scale);
        } else {
            x->ptr = c->out + rq;
            x->add = 0;
            x->same = 1;
        }
        __builtin_prefetch(x->ptr);
    }
    bt->nch[bt->n] = n;
    bt->rank[bt->n] = r;
    bt->n++;
}

/* Phase 2: read the entries and store each position's value. A same-level
 * successor that is not computed yet is computed first, by recursion.
 * (Deferring such positions to later passes over the chunk was tried and
 * does not pay: their successors mostly lie in other chunks.) */
HOT void batch_finish(const bctx *c, batch *bt, sow_landing land, solve_fn solve)
{
    for (int b = 0; b < bt->n; b++) {
        int best = INT_MIN;
        for (int j = 0; j < bt->nch[b]; j++) {
            const child *x = &bt->ch[b][j];
            int v;
            if (x->same) {
                v = __atomic_load_n(x->ptr, __ATOMIC_RELAXED);
                if (v == SOW_RETRO_UNSET) {
                    sow_pos q = bt->pos[b];
                    sow_i_make_as(c->g, &q, (sow_move)x->move, land);
                    q.b[SOW_B_FLAGS] = 0;
                    q.b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
                    v = solve(c, &q, (uint64_t)(x->ptr - c->out));
                }
            } else {
                v = *x->ptr;
            }
            v += x->add;
            if (x->neg)
                v = -v;
            if (v > best)
                best = v;
        }
        store8(c->out, bt->rank[b], best);
    }
    bt->n = 0;
}

/* The positions of a chunk are processed in batches: first every
 * successor of every position of the batch is made and its entry
 * prefetched, then the entries are read, so the loads of one batch
 * overlap and the random accesses to the big tables cost bandwidth rather
 * than one full latency each.
 *
 * Order: ascending rank. Neither order is a topological one (doc/
 * retrograde.md), but measured on Kalah m=6 up to 16 seeds, ascending rank
 * leaves 38% of the positions to the recursion and descending 80%. */
HOT void build_chunk_impl(const bctx *c, uint64_t lo, uint64_t hi, sow_landing land,
                          solve_fn solve)
{
    uint8_t cb[SOW_IDX_MAX_PARTS];
    int P = 2 * c->m;
    batch bt;
    bt.n = 0;
    sow_index_unrank(c->ix, c->k, lo, cb);
    for (uint64_t r = lo; r < hi; r++, sow_index_next(P, cb)) {
        if (load8(c->out, r) != SOW_RETRO_UNSET)
            continue; /* computed through a recursion already */
        batch_add(c, &bt, cb, r, land);
        if (bt.n == BATCH)
            batch_finish(c, &bt, land, solve);
    }
    batch_finish(c, &bt, land, solve);
}

static void build_chunk(const bctx *c, uint64_t lo, uint64_t hi)
{
    switch (c->g->landing) {
    case SOW_LAND_PLAIN:
        build_chunk_impl(c, lo, hi, SOW_LAND_PLAIN, solve_plain);
        break;
    case SOW_LAND_CAPTURE:
        build_chunk_impl(c, lo, hi, SOW_LAND_CAPTURE, solve_capture);
        break;
    default:
        assert(c->g->landing == SOW_LAND_RELAY);
        build_chunk_impl(c, lo, hi, SOW_LAND_RELAY, solve_relay);
        break;
    }
}

sow_err sow_retro_build(const sow_retro_job *job)
{
    const sow_game *g = job->g;
    if (sow_retro_supported(g) != SOW_OK)
        return SOW_E_ARG;
    if (job->k < 0 || job->k > sow_retro_max_seeds(g) || job->ix->parts != 2 * g->m)
        return SOW_E_ARG;
    bctx c = {.g = g, .ix = job->ix, .k = job->k, .m = g->m, .scale = g->score_scale,
              .tab = job->tab, .out = job->out};
    uint64_t n = sow_index_count(2 * g->m, job->k);
    uint64_t nchunks = (n + CHUNK - 1) / CHUNK;
    int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    uint64_t done = 0;
    int stopped = 0;
    double last = sow_retro_clock();
    sow_progress pr = job->base;
    pr.seeds = job->k;
    pr.total = n;
    static char fork_sync, barrier_sync, join_sync;

    OMP_SYNC_RELEASE(&fork_sync);
#pragma omp parallel num_threads(threads)
    {
        OMP_SYNC_ACQUIRE(&fork_sync);
        /* First touch by the threads that will use the pages. */
#pragma omp for schedule(static) nowait
        for (uint64_t ch = 0; ch < nchunks; ch++) {
            uint64_t lo = ch * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
            memset(job->out + lo, SOW_RETRO_UNSET, hi - lo);
        }
        OMP_SYNC_RELEASE(&barrier_sync);
#pragma omp barrier
        OMP_SYNC_ACQUIRE(&barrier_sync);
#pragma omp for schedule(dynamic, 1) nowait
        for (uint64_t ch = 0; ch < nchunks; ch++) {
            if (job->stop && __atomic_load_n(job->stop, __ATOMIC_RELAXED)) {
                __atomic_store_n(&stopped, 1, __ATOMIC_RELAXED);
                continue;
            }
            uint64_t lo = ch * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
            build_chunk(&c, lo, hi);
            uint64_t d = __atomic_add_fetch(&done, hi - lo, __ATOMIC_RELAXED);
            if (job->progress && omp_get_thread_num() == 0) {
                double now = sow_retro_clock();
                if (now - last >= 0.5) {
                    last = now;
                    pr.done = d;
                    pr.all_done = job->base.all_done + d;
                    pr.seconds = now - job->t0;
                    job->progress(job->progress_ctx, &pr);
                }
            }
        }
        OMP_SYNC_RELEASE(&join_sync);
    }
    OMP_SYNC_ACQUIRE(&join_sync);
    if (stopped)
        return SOW_E_INTERRUPTED;
    if (job->progress) {
        pr.done = n;
        pr.all_done = job->base.all_done + n;
        pr.seconds = sow_retro_clock() - job->t0;
        job->progress(job->progress_ctx, &pr);
    }
    return SOW_OK;
}
