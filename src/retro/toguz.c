/* toguz.c - one level (k stones on the board) of a Toguz Kumalak database
 * from the smaller ones, with cycles (doc/retrograde.md, "Toguz").
 *
 * Within a level the only moves that stay in it are sowings that neither
 * capture nor drop a stone into a tuzdik nor claim: they take no stone off
 * the board, gain nothing, and keep the tuzdik state, seen from the other
 * side (the state (t0, t1) goes to (t1, t0)). So a level splits into
 * components, one per unordered pair of states, independent of each other.
 * In a component every position has
 *
 *   E(p)     the best exit: max over the moves that leave the level (or end
 *            the game) of gain + the child's value, from the complete lower
 *            levels; NO_EXIT if none
 *   succ(p)  the children in the level (at most m)
 *
 * and the values are the least fixpoint of, for every threshold t >= 1,
 * "the mover can force a future >= t" (W_t) and "<= -t" (L_t), computed
 * for all t at once as two counters per position:
 *
 *   a(p) = max(0, E(p), max_q b(q))         (p in W_t iff a(p) >= t)
 *   b(p) = max(0, min(-E(p), min_q a(q)))   (p in L_t iff b(p) >= t)
 *
 * from a = b = 0, by sweeps until one changes nothing. Both maps are
 * monotone, so the sweeps rise to the least fixpoint whatever the order of
 * the updates: the result is the same for any thread count, and the
 * threads may read each other's entries while they change (relaxed
 * atomics: a value only grows and any value read is a valid lower bound).
 * The value is a if a > 0, -b if b > 0, else 0 (best play cycles, or gains
 * nothing more). doc/retrograde.md says why that is exact.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "rules_inline.h"
#include "toguz.h"

#define NO_EXIT INT8_MIN
#define NO_SUCC UINT32_MAX
#define CHUNK 4096

/* One component: one or two state blocks of n0 positions each. */
typedef struct comp {
    const sow_game *g;
    const sow_index *ix;
    int k, m, P, nb;
    int t[2][2];       /* the blocks' states (t0, t1) */
    uint64_t off[2];   /* where they start in the level */
    uint64_t n0, n;    /* positions per block, in all */
    int8_t *E, *a, *b;
    uint32_t *succ;    /* m per position */
    const int8_t *const *tab;
} comp;

/* The position of compact board c in state (t0, t1): stores 0. */
static void comp_pos(int m, const uint8_t *c, int t0, int t1, sow_pos *p)
{
    memset(p, 0, sizeof *p);
    int n = 0;
    for (int j = 0; j < m; j++)
        p->b[j] = j == t1 - 1 ? 0 : c[n++];
    for (int j = 0; j < m; j++)
        p->b[SOW_HALF + j] = j == t0 - 1 ? 0 : c[n++];
    p->b[SOW_B_TUZDIK] = (uint8_t)t0;
    p->b[SOW_HALF + SOW_B_TUZDIK] = (uint8_t)t1;
    p->b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
}

static int board_stones(int m, const sow_pos *p)
{
    int s = 0;
    for (int j = 0; j < m; j++)
        s += p->b[j] + p->b[SOW_HALF + j];
    return s;
}

/* E and succ of position i of the component. */
static void expand(const comp *c, uint64_t i, const sow_pos *p)
{
    const sow_game *g = c->g;
    int8_t best = NO_EXIT;
    uint32_t *sc = c->succ + i * (uint64_t)c->m;
    int ns = 0;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, mv);
    if (n == 0)
        best = (int8_t)sow_i_terminal_score(g, p); /* stores 0: the future */
    for (int j = 0; j < n; j++) {
        sow_pos q = *p;
        sow_i_make(g, &q, mv[j]);
        int gain = q.b[SOW_HALF + SOW_B_STORE] - q.b[SOW_B_STORE]; /* half 1 is the mover */
        int kq = board_stones(c->m, &q);
        int v;
        if (sow_i_over(g, &q)) {
            v = -sow_i_terminal_score(g, &q);
        } else if (kq < c->k) {
            unsigned kk;
            uint64_t r = sow_toguz_rank_pos(c->ix, &q, &kk);
            v = gain - c->tab[kq][r];
        } else {
            /* gain 0, state (t1, t0): the other block (or this one) */
            unsigned kk;
            uint64_t r = sow_toguz_rank_pos(c->ix, &q, &kk);
            int blk = c->nb == 2 && q.b[SOW_B_TUZDIK] == c->t[1][0] &&
                      q.b[SOW_HALF + SOW_B_TUZDIK] == c->t[1][1];
            assert(gain == 0 && kk == (unsigned)c->k && r >= c->off[blk]);
            sc[ns++] = (uint32_t)((uint64_t)blk * c->n0 + (r - c->off[blk]));
            continue;
        }
        if (v > best)
            best = (int8_t)v;
    }
    c->E[i] = best;
    while (ns < c->m)
        sc[ns++] = NO_SUCC;
}

static void comp_expand(const comp *c, int threads)
{
    sow_index ixp;
    sow_index_init(&ixp, c->P);
    uint64_t chunks = (c->n + CHUNK - 1) / CHUNK;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (uint64_t ch = 0; ch < chunks; ch++) {
        uint64_t i0 = ch * CHUNK, i1 = i0 + CHUNK < c->n ? i0 + CHUNK : c->n;
        uint8_t cb[SOW_IDX_MAX_PARTS];
        int blk = (int)(i0 / c->n0);
        sow_index_unrank(&ixp, c->k, i0 - (uint64_t)blk * c->n0, cb);
        for (uint64_t i = i0; i < i1; i++) {
            if (i > i0 && i == (uint64_t)(blk + 1) * c->n0) {
                blk++;
                sow_index_unrank(&ixp, c->k, 0, cb);
            }
            sow_pos p;
            comp_pos(c->m, cb, c->t[blk][0], c->t[blk][1], &p);
            expand(c, i, &p);
            c->a[i] = 0;
            c->b[i] = 0;
            sow_index_next(c->P, cb);
        }
    }
}

/* One sweep; true if an entry changed. */
static bool comp_sweep(const comp *c, int threads)
{
    int changed = 0;
    uint64_t chunks = (c->n + CHUNK - 1) / CHUNK;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(| : changed)
    for (uint64_t ch = 0; ch < chunks; ch++) {
        uint64_t i0 = ch * CHUNK, i1 = i0 + CHUNK < c->n ? i0 + CHUNK : c->n;
        for (uint64_t i = i0; i < i1; i++) {
            int e = c->E[i];
            int na = e == NO_EXIT ? 0 : (e > 0 ? e : 0);
            int nb = e == NO_EXIT ? INT8_MAX : -e;
            const uint32_t *sc = c->succ + i * (uint64_t)c->m;
            for (int j = 0; j < c->m && sc[j] != NO_SUCC; j++) {
                int qa = __atomic_load_n(&c->a[sc[j]], __ATOMIC_RELAXED);
                int qb = __atomic_load_n(&c->b[sc[j]], __ATOMIC_RELAXED);
                if (qb > na)
                    na = qb;
                if (qa < nb)
                    nb = qa;
            }
            if (nb < 0)
                nb = 0;
            if (na != __atomic_load_n(&c->a[i], __ATOMIC_RELAXED)) {
                __atomic_store_n(&c->a[i], (int8_t)na, __ATOMIC_RELAXED);
                changed = 1;
            }
            if (nb != __atomic_load_n(&c->b[i], __ATOMIC_RELAXED)) {
                __atomic_store_n(&c->b[i], (int8_t)nb, __ATOMIC_RELAXED);
                changed = 1;
            }
        }
    }
    return changed;
}

/* The states of the level, one component per unordered pair. */
static int level_states(const sow_game *g, int st[][2])
{
    int n = 0, m = g->m;
    st[n][0] = 0, st[n][1] = 0, n++;
    if (!g->tuzdik)
        return n;
    for (int t0 = 0; t0 < m; t0++)
        for (int t1 = t0 + 1; t1 < m; t1++)
            st[n][0] = t0, st[n][1] = t1, n++;
    return n;
}

size_t sow_retro_toguz_scratch(const sow_game *g, int k)
{
    int m = g->m;
    uint64_t n = sow_index_count(2 * m, k);
    if (g->tuzdik) {
        uint64_t n1 = 2 * sow_index_count(2 * m - 1, k), n2 = 2 * sow_index_count(2 * m - 2, k);
        n = n > n1 ? n : n1;
        n = n > n2 ? n : n2;
    }
    return (size_t)(n * (3 + 4 * (uint64_t)m));
}

sow_err sow_retro_build_toguz(const sow_retro_job *job)
{
    const sow_game *g = job->g;
    int k = job->k, m = g->m;
    if (k < 0 || k > sow_retro_max_seeds(g) || job->ix->parts != 2 * m)
        return SOW_E_ARG;
    int threads = job->threads > 0 ? job->threads : omp_get_max_threads();
    uint64_t total = sow_toguz_level_count(m, g->tuzdik, k), done = 0;
    int st[1 + SOW_MAX_PITS * SOW_MAX_PITS][2];
    int ns = level_states(g, st);
    size_t scratch = sow_retro_toguz_scratch(g, k);
    uint64_t cap = scratch / (3 + 4 * (uint64_t)m);
    if (cap >= NO_SUCC)
        return SOW_E_LIMIT;
    comp c = {.g = g, .ix = job->ix, .k = k, .m = m, .tab = job->tab};
    c.E = malloc(cap ? cap : 1);
    c.a = malloc(cap ? cap : 1);
    c.b = malloc(cap ? cap : 1);
    c.succ = malloc((cap ? cap : 1) * (size_t)m * sizeof *c.succ);
    sow_err err = SOW_OK;
    if (!c.E || !c.a || !c.b || !c.succ)
        err = SOW_E_NOMEM;
    sow_progress pr = job->base;
    pr.seeds = k;
    pr.total = total;
    for (int s = 0; s < ns && !err; s++) {
        c.t[0][0] = st[s][0], c.t[0][1] = st[s][1];
        c.t[1][0] = st[s][1], c.t[1][1] = st[s][0];
        c.nb = st[s][0] == st[s][1] ? 1 : 2;
        c.P = 2 * m - (st[s][0] > 0) - (st[s][1] > 0);
        c.n0 = sow_index_count(c.P, k);
        c.n = c.n0 * (uint64_t)c.nb;
        for (int bk = 0; bk < c.nb; bk++)
            c.off[bk] = sow_toguz_block(job->ix, k, c.t[bk][0], c.t[bk][1]);
        /* a barrier per sweep: small components on one thread */
        int th = c.n < (job->serial_below ? job->serial_below : 8 * CHUNK) ? 1 : threads;
        comp_expand(&c, th);
        while (comp_sweep(&c, th)) {
            if (job->stop && *job->stop) {
                err = SOW_E_INTERRUPTED;
                break;
            }
        }
        for (int bk = 0; bk < c.nb && !err; bk++)
            for (uint64_t r = 0; r < c.n0; r++) {
                uint64_t i = (uint64_t)bk * c.n0 + r;
                job->out[c.off[bk] + r] = (int8_t)(c.a[i] > 0 ? c.a[i] : -c.b[i]);
            }
        done += c.n;
        if (job->progress) {
            pr.done = done;
            pr.all_done = job->base.all_done + done;
            pr.seconds = sow_retro_clock() - job->t0;
            job->progress(job->progress_ctx, &pr);
        }
    }
    free(c.E);
    free(c.a);
    free(c.b);
    free(c.succ);
    return err;
}
