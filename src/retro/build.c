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

/* Future of p (stores 0, South to move, not over), rank r in level k;
 * stores it and returns it. */
static int solve(const bctx *c, const sow_pos *p, uint64_t r)
{
    const sow_game *g = c->g;
    int best = INT_MIN;
    for (int i = 0; i < c->m; i++) {
        if (!p->b[i])
            continue;
        sow_pos q = *p;
        sow_i_make(g, &q, (sow_move)i);
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
                    s = solve(c, &q, rq);
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

static void build_chunk(const bctx *c, uint64_t lo, uint64_t hi)
{
    uint8_t cb[SOW_IDX_MAX_PARTS];
    int P = 2 * c->m;
    sow_index_unrank(c->ix, c->k, lo, cb);
    for (uint64_t r = lo; r < hi; r++) {
        if (load8(c->out, r) == SOW_RETRO_UNSET) {
            sow_pos p;
            sow_index_to_pos(c->m, cb, &p);
            if (sow_i_over(c->g, &p))
                store8(c->out, r, sow_i_terminal_score(c->g, &p));
            else
                solve(c, &p, r);
        }
        sow_index_next(P, cb);
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

#pragma omp parallel num_threads(threads)
    {
        /* First touch by the threads that will use the pages. */
#pragma omp for schedule(static)
        for (uint64_t ch = 0; ch < nchunks; ch++) {
            uint64_t lo = ch * CHUNK, hi = lo + CHUNK < n ? lo + CHUNK : n;
            memset(job->out + lo, SOW_RETRO_UNSET, hi - lo);
        }
#pragma omp for schedule(dynamic, 1)
        for (uint64_t ch = 0; ch < nchunks; ch++) {
            if (job->stop && *job->stop) {
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
    }
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
