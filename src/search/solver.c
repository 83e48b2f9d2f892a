/* solver.c - the solver's life (new, free, clear, oracle, limits) and the
 * start of every call (search_call_begin), the one place a call's state is
 * reset (solver.h).
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "solver.h"

/* ABDADA marks and defers only nodes with at least this many seeds more
 * than the oracle knows: below that the bookkeeping costs more than the
 * spreading saves (doc/experiments.md, "Search"). */
#define DEFER_EXCESS 6

/* ---- a call ------------------------------------------------------------------ */

void search_call_begin(sow_search *s, const char *phase)
{
    search_call *c = &s->c;
    memset(c, 0, sizeof *c);
    atomic_init(&c->stop, 0);
    atomic_init(&c->err, 0);
    atomic_init(&c->nodes, 0);
    atomic_init(&c->moves_done, 0);
    atomic_init(&c->have_result, false);
    c->use_oracle = s->has_oracle;
    c->t0 = c->last_report = sow_now();
    c->pr.phase = phase;
    for (int i = 0; i < s->opt.threads; i++) {
        worker *w = s->w[i];
        w->nodes = w->published = 0;
        w->probes = w->hits = w->stores = w->oprobes = w->inexact = 0;
        w->abort = false; /* a stopped call's mark must not stop the next */
        w->seldepth = 0;
        w->extra = 0;
        w->tstop = NULL;
        w->solo_end = 0;
    }
}

void search_oracle_root(sow_search *s, int seeds)
{
    s->c.use_oracle = s->has_oracle && sow_game_levels_meet(s->g, seeds, s->oracle.max_seeds);
}

/* Picks the key for a search whose root has `seeds` seeds (they never grow
 * below it): packed if it holds them, else the code, else the hash, which
 * only depth-limited searches accept; true if exact. The table's exact
 * entries were all made under one exact kind: a search under the other
 * clears it first, since keys of two kinds can be equal for different
 * positions. */
bool search_key_use(sow_search *s, int seeds)
{
    search_key *k = &s->key;
    k->mode = seeds <= k->packed_seeds ? KEY_PACKED
              : seeds <= k->max_seeds  ? KEY_CODE
                                       : KEY_HASH;
    k->exact = k->mode != KEY_HASH;
    if (k->exact && s->table_mode != k->mode) {
        if (s->table_mode != KEY_HASH)
            sow_search_clear(s);
        s->table_mode = k->mode;
    }
    return k->exact;
}

sow_err search_error(const sow_search *s)
{
    return (sow_err)atomic_load(&s->c.err);
}

void search_clear_error(sow_search *s)
{
    atomic_store(&s->c.err, 0);
    atomic_store(&s->c.stop, 0);
    for (int i = 0; i < s->opt.threads; i++)
        s->w[i]->abort = false;
}

sow_err search_stopped(const sow_search *s)
{
    sow_err e = search_error(s);
    return e ? e : SOW_E_LIMIT;
}

uint64_t search_nodes(const sow_search *s)
{
    uint64_t n = 0;
    for (int i = 0; i < s->opt.threads; i++)
        n += s->w[i]->nodes;
    return n;
}

/* ---- sizes ----------------------------------------------------------------------- */

bool sow_search_exact(const sow_game *g, const sow_pos *p)
{
    int seeds = 0;
    for (int pl = 0; pl < 2; pl++)
        for (int i = 1; i <= g->m; i++)
            seeds += sow_pos_pit(p, pl, i);
    return seeds <= key_max_seeds(g);
}

/* Bytes of table a given tt_mb allocates (whole buckets). */
static size_t tt_bytes(size_t tt_mb)
{
    return tt_mb * 1024 * 1024 / sizeof(tt_bucket) * sizeof(tt_bucket);
}

size_t sow_search_thread_bytes(const sow_game *g)
{
    return sizeof(worker) + (g->cycles ? ((size_t)1 << HINT_BITS) * sizeof(hint) : 0);
}

/* ---- life ------------------------------------------------------------------------ */

/* The node sizes from which the table's cut-offs and ABDADA pay, in seeds
 * above the oracle's reach. */
static void set_limits(sow_search *s)
{
    int base = s->has_oracle ? s->oracle.max_seeds : 0;
    s->etc_min = base + 6;
    s->defer_min = base + DEFER_EXCESS;
}

static void hints_clear(hint *h)
{
    for (size_t i = 0; i < (size_t)1 << HINT_BITS; i++)
        h[i] = (hint){0, TT_NO_MOVE};
}

static hint *hints_new(void)
{
    hint *h = malloc(((size_t)1 << HINT_BITS) * sizeof *h);
    if (h)
        hints_clear(h);
    return h;
}

/* The table of tt_mb megabytes, shaped for the key (false: no memory). */
static bool table_new(sow_search *s, size_t tt_mb)
{
    size_t bytes = tt_bytes(tt_mb);
    /* The packed key needs the table in groups of 2^split buckets (tt.h):
     * only where that wastes at most 1/16 of it. */
    uint64_t nb = bytes / sizeof(tt_bucket);
    if (s->key.packed_seeds >= 0 && nb >> s->key.split >= 16)
        tt_shape(&s->tt, nb, (unsigned)s->key.split);
    else {
        s->key.packed_seeds = -1;
        tt_shape(&s->tt, nb, 0);
    }
    s->tt.b = sow_huge_alloc(bytes, &s->map);
    s->tt.shared = s->opt.threads > 1;
    return s->tt.b != NULL;
}

/* The workers and ABDADA's busy table (false: no memory). */
static bool workers_new(sow_search *s)
{
    s->w = calloc((size_t)s->opt.threads, sizeof *s->w);
    s->busy = calloc((size_t)1 << BUSY_BITS, sizeof *s->busy);
    if (!s->w || !s->busy)
        return false;
    for (int i = 0; i < s->opt.threads; i++) {
        worker *w = s->w[i] = calloc(1, sizeof(worker));
        if (!w)
            return false;
        w->s = s;
        w->g = s->g;
        w->id = i;
        if (s->g->cycles && !(w->hints = hints_new()))
            return false;
    }
    return true;
}

sow_err sow_search_new(const sow_game *g, const sow_search_options *opt, sow_search **out)
{
    *out = NULL;
    if (opt->threads < 1 || opt->threads > SOW_MAX_THREADS || opt->tt_mb < 1 ||
        opt->tt_mb > ((size_t)1 << 30) || opt->pv_max < 0)
        return SOW_E_ARG;
    if (opt->oracle && (!opt->oracle->probe || opt->oracle->max_seeds < 0))
        return SOW_E_ARG;
    sow_search *s = calloc(1, sizeof *s);
    if (!s)
        return SOW_E_NOMEM;
    s->g = g;
    s->opt = *opt;
    if (s->opt.progress_every <= 0)
        s->opt.progress_every = 1.0;
    /* With cycles too: the oracle's entries are path-free exact values, and
     * no node it answers can have an ancestor with its stores (doc/search.md). */
    s->opt.oracle = NULL;
    sow_search_set_oracle(s, opt->oracle);
    s->tb = g->tiebreak ? 1 : 0;
    s->solo_nodes = SOLO_NODES;
    key_init(&s->key, g);
    if (!table_new(s, opt->tt_mb) || !workers_new(s)) {
        sow_search_free(s);
        return SOW_E_NOMEM;
    }
    *out = s;
    return SOW_OK;
}

void sow_search_set_oracle(sow_search *s, const sow_oracle *oracle)
{
    s->has_oracle = oracle != NULL;
    if (s->has_oracle)
        s->oracle = *oracle;
    s->c.use_oracle = s->has_oracle;
    set_limits(s);
}

void sow_search_set_time_limit(sow_search *s, double seconds)
{
    s->opt.time_limit = seconds;
}

sow_err sow_search_set_question(sow_search *s, const sow_search_options *opt)
{
    if (opt->pv_max < 0)
        return SOW_E_ARG;
    s->opt.pie_opening = opt->pie_opening;
    s->opt.value_only = opt->value_only;
    s->opt.pv_max = opt->pv_max;
    s->opt.progress = opt->progress;
    s->opt.progress_ctx = opt->progress_ctx;
    s->opt.progress_every = opt->progress_every > 0 ? opt->progress_every : 1.0;
    s->opt.time_limit = opt->time_limit;
    s->opt.stop = opt->stop;
    return SOW_OK;
}

void sow_search_clear(sow_search *s)
{
    sow_huge_zero(&s->map);
    s->table_mode = KEY_HASH;
    for (int i = 0; i < s->opt.threads; i++)
        if (s->w[i]->hints)
            hints_clear(s->w[i]->hints);
}

void sow_search_free(sow_search *s)
{
    if (!s)
        return;
    if (s->w)
        for (int i = 0; i < s->opt.threads; i++) {
            if (s->w[i])
                free(s->w[i]->hints);
            free(s->w[i]);
        }
    free(s->w);
    free(s->busy);
    sow_huge_free(&s->map);
    free(s);
}
