/* refsolve.c - the reference solver (see sow/refsolve.h): exhaustive
 * negamax with memoisation, and for games that can cycle the fixpoint
 * method. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "clock.h"
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

static sow_err path_solve(const sow_game *g, const sow_pos *p, bool pie_opening,
                          size_t memory_mb, sow_solution *out)
{
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

/* ---- The fixpoint method (games whose positions can come back) ----------
 *
 * The graph: every position reachable from the root with both stores set
 * to 0. No rule reads a store, so a position's moves, its children and what
 * each move banks depend only on its pits, tuzdiks and side to move; the
 * stores add a constant. A position's *future* is its value minus the
 * stores' difference (doc/search.md), the same for every store split.
 *
 * Levels: the seeds in the pits never increase, and they decrease exactly
 * when a store changes (seeds are only ever moved, and a store only
 * grows). So a move either leaves the level (the seeds on the board) and
 * may bank something, or stays in it and banks nothing; every cycle lies
 * within one level and banks nothing. Levels are solved from the fewest
 * seeds up: when a level is solved, every move leaving it leads to a
 * solved position or ends the game, and is an *exit* with a known value.
 *
 * Within a level, in South's terms, every play either leaves by an exit
 * (worth the exit's value) or stays in the level forever (worth 0: doc/
 * rules.md, Toguz 6, endless play scores the kazans' difference, i.e. no
 * future). For a threshold t, "South gets >= t" is a reachability game:
 * - t > 0: endless play loses for South, so she must reach an exit worth
 *   >= t; her winning set is the attractor of those exits: the least set
 *   W containing each South-to-move position with some move into W or to
 *   such an exit, and each North-to-move position all of whose moves go
 *   into W or to such exits;
 * - t <= 0: endless play wins for South; North must reach an exit worth
 *   < t; South wins exactly outside North's attractor of those exits.
 * Each attractor is computed by plain iteration: sweep the level, add every
 * position the definition admits, until a sweep adds nothing. The value of
 * a position is the largest t that South can force; it is an exit value or
 * 0 (some play reaches it), so only those t are tried, smallest first.
 * Nothing here is shared with the fast solver: only the rules. */

#define NONE UINT32_MAX

/* A move of a graph position x. Its value for x's mover is
 * base + sign * future(child), future(NONE) = 0. */
typedef struct edge {
    uint32_t child; /* the child with its stores zeroed; NONE: the game is over there */
    int16_t base;   /* what the move banks (or the final score), for x's mover */
    int16_t sign;   /* +1: the child has x's mover to move (extra turn); -1 */
} edge;

typedef struct graph {
    const sow_game *g;
    const sow_oracle *oracle; /* NULL, or exact futures of the positions it holds */
    size_t budget;   /* bytes */
    sow_pos *pos;    /* the positions, the root's first */
    size_t n, cap;
    uint32_t *first; /* edges of i: edges[first[i] .. first[i + 1]) */
    edge *edges;
    size_t nedges, ecap;
    uint32_t *slot;  /* hash set of positions: index + 1, 0 = empty */
    size_t nslots;   /* a power of two */
    uint8_t *seeds; /* the level of each position */
    int32_t *fut;    /* the future of each solved position, for its mover */
    uint8_t *in;     /* attractor membership while a level is solved */
    /* Above an oracle only (sow_ref_solve_above): the attractors by
     * worklist, each internal edge's source listed under its child
     * (pred[pfirst[y] .. pfirst[y + 1])), need[x] the moves x still lacks,
     * work the worklist. */
    uint32_t *pfirst, *pred, *work;
    int16_t *need;
    double end; /* sow_now() past which it stops (SOW_E_INTERRUPTED); 0: never */
} graph;

/* Has the graph's time run out? */
static bool graph_late(const graph *G)
{
    return G->end > 0 && sow_now() >= G->end;
}

/* Bytes the graph would hold with these capacities; the level pass adds
 * seeds, fut, in and the order (10 bytes a position) and the candidate
 * thresholds (4 bytes an edge at most). */
static size_t graph_bytes(size_t cap, size_t ecap, size_t nslots)
{
    return cap * (sizeof(sow_pos) + sizeof(uint32_t) + 10) + (cap + 1) * sizeof(uint32_t) +
           ecap * (sizeof(edge) + sizeof(int32_t)) + nslots * sizeof(uint32_t);
}

static void graph_free(graph *G)
{
    free(G->pos);
    free(G->first);
    free(G->edges);
    free(G->slot);
    free(G->seeds);
    free(G->fut);
    free(G->in);
    free(G->pfirst);
    free(G->pred);
    free(G->work);
    free(G->need);
}

static int store_diff(const sow_pos *p, int player)
{
    return sow_pos_store(p, player) - sow_pos_store(p, 1 - player);
}

static void zero_stores(sow_pos *p)
{
    p->b[SOW_B_STORE] = 0;
    p->b[SOW_HALF + SOW_B_STORE] = 0;
}

static size_t hslot(const graph *G, const sow_pos *p)
{
    return (size_t)XXH3_64bits(p, sizeof *p) & (G->nslots - 1);
}

static sow_err rehash(graph *G, size_t nslots)
{
    uint32_t *s = calloc(nslots, sizeof *s);
    if (!s)
        return SOW_E_NOMEM;
    free(G->slot);
    G->slot = s;
    G->nslots = nslots;
    for (size_t i = 0; i < G->n; i++) {
        size_t h = hslot(G, &G->pos[i]);
        while (s[h])
            h = (h + 1) & (nslots - 1);
        s[h] = (uint32_t)i + 1;
    }
    return SOW_OK;
}

/* The index of p (stores zeroed), which must be in the graph. */
static uint32_t lookup(const graph *G, const sow_pos *p)
{
    size_t h = hslot(G, p);
    while (!sow_pos_eq(&G->pos[G->slot[h] - 1], p))
        h = (h + 1) & (G->nslots - 1);
    return G->slot[h] - 1;
}

/* The index of p (stores zeroed), added at the end if new. */
static sow_err intern(graph *G, const sow_pos *p, uint32_t *idx)
{
    size_t h = hslot(G, p);
    for (; G->slot[h]; h = (h + 1) & (G->nslots - 1))
        if (sow_pos_eq(&G->pos[G->slot[h] - 1], p)) {
            *idx = G->slot[h] - 1;
            return SOW_OK;
        }
    if (G->n == G->cap) {
        size_t cap = G->cap * 2;
        if (cap >= NONE || graph_bytes(cap, G->ecap, G->nslots) > G->budget)
            return SOW_E_LIMIT;
        sow_pos *np = realloc(G->pos, cap * sizeof *np);
        if (!np)
            return SOW_E_NOMEM;
        G->pos = np;
        uint32_t *nf = realloc(G->first, (cap + 1) * sizeof *nf);
        if (!nf)
            return SOW_E_NOMEM;
        G->first = nf;
        G->cap = cap;
    }
    G->pos[G->n] = *p;
    G->slot[h] = (uint32_t)G->n + 1;
    *idx = (uint32_t)G->n++;
    if (G->n * 2 > G->nslots) {
        if (graph_bytes(G->cap, G->ecap, G->nslots * 2) > G->budget)
            return SOW_E_LIMIT;
        return rehash(G, G->nslots * 2);
    }
    return SOW_OK;
}

static sow_err add_edge(graph *G, edge e)
{
    if (G->nedges == G->ecap) {
        size_t ecap = G->ecap * 2;
        if (graph_bytes(G->cap, ecap, G->nslots) > G->budget)
            return SOW_E_LIMIT;
        edge *ne = realloc(G->edges, ecap * sizeof *ne);
        if (!ne)
            return SOW_E_NOMEM;
        G->edges = ne;
        G->ecap = ecap;
    }
    G->edges[G->nedges++] = e;
    return SOW_OK;
}

/* Every position reachable from `root` (stores zeroed) and its moves, in
 * breadth-first order, so that the edges of position i are made while i is
 * the position being expanded. */

/* Is q answered by the oracle (exact, path-free: doc/search.md)? */
static bool in_oracle(const graph *G, const sow_pos *q)
{
    int k = sow_i_seeds_on_board(G->g, q);
    return G->oracle && k <= G->oracle->max_seeds &&
           sow_game_levels_meet(G->g, G->oracle->max_seeds, k);
}

static sow_err enumerate(graph *G, const sow_pos *root)
{
    const sow_game *g = G->g;
    sow_pos r = *root;
    zero_stores(&r);
    uint32_t idx;
    sow_err e = intern(G, &r, &idx);
    for (size_t i = 0; i < G->n && !e; i++) {
        if ((i & 4095) == 4095 && graph_late(G))
            return SOW_E_INTERRUPTED;
        G->first[i] = (uint32_t)G->nedges;
        sow_pos x = G->pos[i];
        int me = sow_pos_to_move(&x);
        sow_move ms[SOW_MAX_MOVES];
        int k = sow_i_moves(g, &x, ms);
        for (int j = 0; j < k && !e; j++) {
            sow_pos q = x;
            sow_i_make(g, &q, ms[j]);
            edge ed;
            int same = sow_pos_to_move(&q) == me;
            if (sow_i_over(g, &q)) {
                int ts = sow_i_terminal_score(g, &q);
                ed = (edge){NONE, (int16_t)(same ? ts : -ts), 0};
            } else if (in_oracle(G, &q)) {
                /* an exit like the end: what it banks plus the oracle's future */
                int f = G->oracle->probe(G->oracle->ctx, &q);
                ed = (edge){NONE, (int16_t)(store_diff(&q, me) * g->score_scale +
                                            (same ? f : -f)), 0};
            } else {
                ed.base = (int16_t)(store_diff(&q, me) * g->score_scale);
                ed.sign = same ? 1 : -1;
                zero_stores(&q);
                e = intern(G, &q, &ed.child);
            }
            if (!e)
                e = add_edge(G, ed);
        }
    }
    if (!e)
        G->first[G->n] = (uint32_t)G->nedges;
    return e;
}


static bool internal(const graph *G, uint32_t x, const edge *ed)
{
    return ed->child != NONE && G->seeds[ed->child] == G->seeds[x];
}

/* An exit's value in South's terms (its child is solved). */
static int exit_value(const graph *G, uint32_t x, const edge *ed)
{
    int v = ed->base + (ed->child == NONE ? 0 : ed->sign * G->fut[ed->child]);
    return sow_pos_to_move(&G->pos[x]) == SOW_SOUTH ? v : -v;
}

/* Is exit ed of x one that `who` wants at threshold t (South: worth >= t;
 * North: worth < t, in South's terms)? */
static bool wanted(const graph *G, uint32_t x, const edge *ed, int who, int t)
{
    int v = exit_value(G, x, ed);
    return who == SOW_SOUTH ? v >= t : v < t;
}

/* Sets in[x] for the positions x of the level from which `who` can force
 * the play to an exit she wants: worth >= t for South, < t for North. */
static void attractor(graph *G, const uint32_t *lv, size_t cnt, int who, int t)
{
    for (size_t k = 0; k < cnt; k++)
        G->in[lv[k]] = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        for (size_t k = 0; k < cnt; k++) {
            uint32_t x = lv[k];
            if (G->in[x])
                continue;
            bool any = false, all = true;
            for (uint32_t j = G->first[x]; j < G->first[x + 1]; j++) {
                const edge *ed = &G->edges[j];
                bool ok;
                if (internal(G, x, ed)) {
                    ok = G->in[ed->child];
                } else {
                    ok = wanted(G, x, ed, who, t);
                }
                any |= ok;
                all &= ok;
            }
            if (sow_pos_to_move(&G->pos[x]) == who ? any : all) {
                G->in[x] = 1;
                changed = true;
            }
        }
    }
}

/* The same attractor as above by a worklist: a position joins when its
 * last needed move (or, for `who` to move, its first) leads into the set,
 * found through the predecessor lists, so each edge is looked at a bounded
 * number of times instead of once per sweep. Used above an oracle, where
 * the levels are big; the sweep stays the reference's own method. */
static void attractor_worklist(graph *G, const uint32_t *lv, size_t cnt, int who, int t)
{
    size_t nw = 0;
    for (size_t k = 0; k < cnt; k++) {
        uint32_t x = lv[k];
        G->in[x] = 0;
        bool mine = sow_pos_to_move(&G->pos[x]) == who, any = false;
        int need = 0;
        for (uint32_t j = G->first[x]; j < G->first[x + 1]; j++) {
            const edge *ed = &G->edges[j];
            if (internal(G, x, ed)) {
                need++;
                continue;
            }
            bool ok = wanted(G, x, ed, who, t);
            any |= ok;
            if (!ok)
                need += 1000; /* an exit she does not want: never all */
        }
        G->need[x] = (int16_t)(need > 1000 ? 1000 : need);
        if (mine ? any : need == 0) {
            G->in[x] = 1;
            G->work[nw++] = x;
        }
    }
    while (nw > 0) {
        uint32_t y = G->work[--nw];
        for (uint32_t j = G->pfirst[y]; j < G->pfirst[y + 1]; j++) {
            uint32_t x = G->pred[j];
            if (G->in[x])
                continue;
            if (sow_pos_to_move(&G->pos[x]) == who || --G->need[x] == 0) {
                G->in[x] = 1;
                G->work[nw++] = x;
            }
        }
    }
}

/* The predecessor lists of the internal edges (attractor_worklist). */
static sow_err build_preds(graph *G)
{
    size_t n = G->n;
    G->pfirst = calloc(n + 1, sizeof *G->pfirst);
    G->work = malloc(n * sizeof *G->work);
    G->need = malloc(n * sizeof *G->need);
    if (!G->pfirst || !G->work || !G->need)
        return SOW_E_NOMEM;
    for (size_t x = 0; x < n; x++)
        for (uint32_t j = G->first[x]; j < G->first[x + 1]; j++)
            if (internal(G, (uint32_t)x, &G->edges[j]))
                G->pfirst[G->edges[j].child + 1]++;
    for (size_t y = 0; y < n; y++)
        G->pfirst[y + 1] += G->pfirst[y];
    G->pred = malloc((G->pfirst[n] + 1) * sizeof *G->pred);
    if (!G->pred)
        return SOW_E_NOMEM;
    uint32_t *fill = G->work; /* scratch: each child's next free slot */
    memcpy(fill, G->pfirst, n * sizeof *fill);
    for (size_t x = 0; x < n; x++)
        for (uint32_t j = G->first[x]; j < G->first[x + 1]; j++)
            if (internal(G, (uint32_t)x, &G->edges[j]))
                G->pred[fill[G->edges[j].child]++] = (uint32_t)x;
    return SOW_OK;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Solves one level, every lower one being solved. `cand` has room for the
 * level's edges plus one. SOW_E_INTERRUPTED if the time runs out. */
static sow_err solve_level(graph *G, const uint32_t *lv, size_t cnt, int *cand)
{
    size_t nc = 0;
    cand[nc++] = 0; /* endless play */
    for (size_t k = 0; k < cnt; k++)
        for (uint32_t j = G->first[lv[k]]; j < G->first[lv[k] + 1]; j++)
            if (!internal(G, lv[k], &G->edges[j]))
                cand[nc++] = exit_value(G, lv[k], &G->edges[j]);
    qsort(cand, nc, sizeof *cand, cmp_int);
    /* South's value, for now, in fut: only lower levels' fut is read. */
    for (size_t k = 0; k < cnt; k++)
        G->fut[lv[k]] = INT_MIN;
    for (size_t c = 0; c < nc; c++) {
        int t = cand[c];
        if (c > 0 && t == cand[c - 1])
            continue;
        if (graph_late(G))
            return SOW_E_INTERRUPTED;
        bool any = false;
        /* South gets >= t: see the method's comment above */
        if (G->pred)
            attractor_worklist(G, lv, cnt, t > 0 ? SOW_SOUTH : SOW_NORTH, t);
        else
            attractor(G, lv, cnt, t > 0 ? SOW_SOUTH : SOW_NORTH, t);
        for (size_t k = 0; k < cnt; k++)
            if (G->in[lv[k]] == (t > 0)) {
                G->fut[lv[k]] = t;
                any = true;
            }
        if (!any)
            break; /* the winning sets only shrink as t grows */
    }
    for (size_t k = 0; k < cnt; k++) {
        uint32_t x = lv[k];
        /* the smallest candidate is <= every exit and 0: all win it */
        assert(G->fut[x] != INT_MIN);
        if (sow_pos_to_move(&G->pos[x]) != SOW_SOUTH)
            G->fut[x] = -G->fut[x];
    }
    return SOW_OK;
}

/* The future of every position of the graph, level by level. */
static sow_err solve_levels(graph *G)
{
    size_t n = G->n;
    /* above an oracle, the worklist's lists: 14 bytes a position, 4 an edge */
    size_t extra = G->oracle ? n * 14 + G->nedges * 4 : 0;
    if (graph_bytes(G->n, G->nedges, G->nslots) + extra > G->budget)
        return SOW_E_LIMIT;
    G->seeds = malloc(n);
    G->fut = malloc(n * sizeof *G->fut);
    G->in = malloc(n);
    uint32_t *order = malloc(n * sizeof *order);
    int *cand = malloc((G->nedges + 1) * sizeof *cand);
    size_t start[SOW_MAX_TOTAL + 2] = {0};
    if (!G->seeds || !G->fut || !G->in || !order || !cand) {
        free(order);
        free(cand);
        return SOW_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        G->seeds[i] = (uint8_t)sow_i_seeds_on_board(G->g, &G->pos[i]);
        start[G->seeds[i] + 1]++;
    }
    sow_err e = G->oracle ? build_preds(G) : SOW_OK;
    if (e) {
        free(order);
        free(cand);
        return e;
    }
    for (int s = 0; s <= SOW_MAX_TOTAL; s++)
        start[s + 1] += start[s];
    size_t fill[SOW_MAX_TOTAL + 1];
    memcpy(fill, start, sizeof fill);
    for (size_t i = 0; i < n; i++)
        order[fill[G->seeds[i]]++] = (uint32_t)i;
    for (int s = 0; s <= SOW_MAX_TOTAL && !e; s++) {
        size_t cnt = start[s + 1] - start[s];
        if (cnt)
            e = solve_level(G, order + start[s], cnt, cand);
    }
    free(order);
    free(cand);
    return e;
}

static sow_err fixpoint_solve(const sow_game *g, const sow_pos *p, const sow_oracle *oracle,
                              size_t memory_mb, double seconds, sow_solution *out)
{
    memset(out, 0, sizeof *out);
    out->best = -1;
    out->nmoves = sow_i_moves(g, p, out->moves);
    if (out->nmoves == 0) {
        out->score = sow_i_terminal_score(g, p);
        out->value = sow_score_margin(g, out->score);
        out->outcome = sow_outcome_of(out->score);
        return SOW_OK;
    }
    graph G = {.g = g, .oracle = oracle, .budget = memory_mb * 1024 * 1024, .cap = 1024,
               .ecap = 4096, .end = seconds > 0 ? sow_now() + seconds : 0};
    if (graph_bytes(G.cap, G.ecap, 2048) > G.budget)
        return SOW_E_LIMIT;
    G.pos = malloc(G.cap * sizeof *G.pos);
    G.first = malloc((G.cap + 1) * sizeof *G.first);
    G.edges = malloc(G.ecap * sizeof *G.edges);
    sow_err e = G.pos && G.first && G.edges ? rehash(&G, 2048) : SOW_E_NOMEM;
    if (!e)
        e = enumerate(&G, p);
    if (!e)
        e = solve_levels(&G);
    if (!e) {
        int me = sow_pos_to_move(p);
        int best = INT_MIN;
        for (int k = 0; k < out->nmoves; k++) {
            sow_pos q = *p;
            sow_i_make(g, &q, out->moves[k]);
            int s;
            if (sow_i_over(g, &q)) {
                s = sow_i_terminal_score(g, &q);
            } else if (in_oracle(&G, &q)) {
                s = store_diff(&q, sow_pos_to_move(&q)) * g->score_scale +
                    oracle->probe(oracle->ctx, &q);
            } else {
                int d = store_diff(&q, sow_pos_to_move(&q)) * g->score_scale;
                zero_stores(&q);
                s = d + G.fut[lookup(&G, &q)]; /* the root's children were enumerated */
            }
            if (sow_pos_to_move(&q) != me)
                s = -s;
            out->move_scores[k] = s;
            if (s > best) {
                best = s;
                out->best = k;
            }
        }
        out->score = best;
        out->value = sow_score_margin(g, best);
        out->outcome = sow_outcome_of(best);
    }
    out->nodes = G.n;
    graph_free(&G);
    return e;
}

sow_err sow_ref_solve_with(const sow_game *g, const sow_pos *p, bool pie_opening,
                           size_t memory_mb, sow_ref_method method, sow_solution *out)
{
    if (pie_opening && (!g->pie || sow_pos_to_move(p) != SOW_SOUTH))
        return SOW_E_ARG;
    if (method == SOW_REF_AUTO)
        method = g->cycles && !pie_opening ? SOW_REF_FIXPOINT : SOW_REF_PATH;
    switch (method) {
    case SOW_REF_PATH:
        return path_solve(g, p, pie_opening, memory_mb, out);
    case SOW_REF_FIXPOINT:
        /* the pie rule's root is a game of its own (max over South's turns
         * of -|v|); only the path method plays it */
        return pie_opening ? SOW_E_ARG : fixpoint_solve(g, p, NULL, memory_mb, 0, out);
    default:
        return SOW_E_ARG;
    }
}

sow_err sow_ref_solve(const sow_game *g, const sow_pos *p, bool pie_opening,
                      size_t memory_mb, sow_solution *out)
{
    return sow_ref_solve_with(g, p, pie_opening, memory_mb, SOW_REF_AUTO, out);
}

sow_err sow_ref_solve_above(const sow_game *g, const sow_pos *p, const sow_oracle *oracle,
                            size_t memory_mb, double seconds, sow_solution *out)
{
    if (!oracle || !oracle->probe || oracle->max_seeds < 0 || !(seconds >= 0))
        return SOW_E_ARG;
    return fixpoint_solve(g, p, oracle, memory_mb, seconds, out);
}
