/* refsolve.c - exhaustive negamax with memoisation (see sow/refsolve.h). */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "rules_inline.h"
#include "sow/refsolve.h"

typedef struct entry {
    sow_pos pos;
    int32_t score;
    int32_t used;
} entry;

#define MAX_PATH 4096

typedef struct ctx {
    const sow_game *g;
    entry *tab;
    size_t cap, count, max_count; /* cap is a power of two */
    uint64_t nodes;
    sow_err err;
    int depth;
    sow_pos path[MAX_PATH];
} ctx;

static size_t slot_of(const ctx *c, const sow_pos *p)
{
    return (size_t)XXH3_64bits(p, sizeof *p) & (c->cap - 1);
}

static entry *find(ctx *c, const sow_pos *p)
{
    for (size_t i = slot_of(c, p);; i = (i + 1) & (c->cap - 1)) {
        if (!c->tab[i].used)
            return NULL;
        if (sow_pos_eq(&c->tab[i].pos, p))
            return &c->tab[i];
    }
}

static bool grow(ctx *c)
{
    size_t ncap = c->cap * 2;
    if (ncap / 2 > c->max_count)
        return false;
    entry *nt = calloc(ncap, sizeof *nt);
    if (!nt)
        return false;
    entry *old = c->tab;
    size_t ocap = c->cap;
    c->tab = nt;
    c->cap = ncap;
    for (size_t k = 0; k < ocap; k++)
        if (old[k].used) {
            size_t i = slot_of(c, &old[k].pos);
            while (nt[i].used)
                i = (i + 1) & (ncap - 1);
            nt[i] = old[k];
        }
    free(old);
    return true;
}

static void store(ctx *c, const sow_pos *p, int score)
{
    if ((c->count + 1) * 2 > c->cap && !grow(c)) {
        c->err = SOW_E_LIMIT;
        return;
    }
    size_t i = slot_of(c, p);
    while (c->tab[i].used)
        i = (i + 1) & (c->cap - 1);
    c->tab[i].pos = *p;
    c->tab[i].score = score;
    c->tab[i].used = 1;
    c->count++;
}

static int kazan_sum(const sow_pos *p)
{
    return p->b[SOW_B_STORE] + p->b[SOW_HALF + SOW_B_STORE];
}

/* Negamax. *rep is set when a repetition was scored somewhere below. */
static int solve(ctx *c, const sow_pos *p, bool *rep)
{
    const sow_game *g = c->g;
    *rep = false;
    if (sow_i_over(g, p))
        return sow_i_terminal_score(g, p);
    if (g->cycles) {
        /* Stores never decrease, so only the path since the store sum last
         * changed can hold a repetition. */
        int ks = kazan_sum(p);
        for (int d = c->depth - 1; d >= 0 && kazan_sum(&c->path[d]) == ks; d--)
            if (sow_pos_eq(&c->path[d], p)) {
                *rep = true;
                return sow_perpetual_score(g, p);
            }
    }
    entry *e = find(c, p);
    if (e)
        return e->score;
    if (c->err)
        return 0;
    if (c->depth >= MAX_PATH) {
        c->err = SOW_E_LIMIT;
        return 0;
    }
    c->nodes++;
    c->path[c->depth++] = *p;
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(g, p, ms);
    int best = -1000000;
    bool any_rep = false;
    for (int k = 0; k < n; k++) {
        sow_pos q = *p;
        sow_i_make(g, &q, ms[k]);
        bool r;
        int s = solve(c, &q, &r);
        if (sow_pos_to_move(&q) != sow_pos_to_move(p))
            s = -s;
        any_rep |= r;
        if (s > best)
            best = s;
    }
    c->depth--;
    if (!any_rep && !c->err)
        store(c, p, best);
    *rep = any_rep;
    return best;
}

/* Score, for the mover of p, of the child q (made from p). */
static int child_score(ctx *c, const sow_pos *p, const sow_pos *q)
{
    bool r;
    c->path[c->depth++] = *p;
    int s = solve(c, q, &r);
    c->depth--;
    return sow_pos_to_move(q) != sow_pos_to_move(p) ? -s : s;
}

/* Pie rule: the best, for South, over completions of her opening turn from
 * q (South to move in it) of -|v| at the end of that turn. */
static int pie_turn(ctx *c, const sow_pos *q)
{
    bool r;
    if (sow_i_over(c->g, q) || sow_pos_to_move(q) != SOW_SOUTH) {
        int v = solve(c, q, &r);
        return v < 0 ? v : -v;
    }
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_i_moves(c->g, q, ms), best = -1000000;
    for (int k = 0; k < n; k++) {
        sow_pos t = *q;
        sow_i_make(c->g, &t, ms[k]);
        int s = pie_turn(c, &t);
        if (s > best)
            best = s;
    }
    return best;
}

sow_err sow_ref_solve(const sow_game *g, const sow_pos *p, bool pie_opening,
                      size_t memory_mb, sow_solution *out)
{
    if (pie_opening && (!g->pie || sow_pos_to_move(p) != SOW_SOUTH))
        return SOW_E_ARG;
    ctx *c = calloc(1, sizeof *c);
    if (!c)
        return SOW_E_NOMEM;
    c->g = g;
    c->cap = 1024;
    c->max_count = memory_mb * 1024 * 1024 / sizeof(entry) / 2;
    c->tab = calloc(c->cap, sizeof(entry));
    if (!c->tab || c->max_count < 512) {
        sow_err e = c->tab ? SOW_E_LIMIT : SOW_E_NOMEM;
        free(c->tab);
        free(c);
        return e;
    }
    memset(out, 0, sizeof *out);
    out->best = -1;
    out->nmoves = sow_i_moves(g, p, out->moves);
    if (out->nmoves == 0) {
        out->score = sow_i_terminal_score(g, p);
    } else {
        int best = -1000000;
        for (int k = 0; k < out->nmoves && !c->err; k++) {
            sow_pos q = *p;
            sow_i_make(g, &q, out->moves[k]);
            int s = pie_opening ? pie_turn(c, &q) : child_score(c, p, &q);
            out->move_scores[k] = s;
            if (s > best) {
                best = s;
                out->best = k;
            }
        }
        out->score = best;
        c->nodes++;
    }
    out->value = sow_score_margin(g, out->score);
    out->outcome = sow_outcome_of(out->score);
    out->nodes = c->nodes;
    sow_err e = c->err;
    free(c->tab);
    free(c);
    return e;
}
