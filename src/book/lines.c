/* lines.c - a game's first plies as lines from the start (sow/book.h):
 * every unfinished position within K plies, each board once, with the
 * line that first reaches it; and a book's balanced openings among them.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "msg.h"
#include "sow/rules.h"

static bool push(sow_book_lines *l, uint64_t *cap, const sow_pos *p, uint64_t parent,
                 sow_move mv, int ply)
{
    if (l->n == *cap) {
        uint64_t c = *cap ? 2 * *cap : 1024;
        sow_pos *np = realloc(l->pos, c * sizeof *np);
        if (np)
            l->pos = np;
        uint64_t *pa = np ? realloc(l->parent, c * sizeof *pa) : NULL;
        if (pa)
            l->parent = pa;
        sow_move *mo = pa ? realloc(l->move, c * sizeof *mo) : NULL;
        if (mo)
            l->move = mo;
        uint8_t *pl = mo ? realloc(l->ply, c) : NULL;
        if (!pl)
            return false;
        l->ply = pl;
        *cap = c;
    }
    l->pos[l->n] = *p;
    l->parent[l->n] = parent;
    l->move[l->n] = mv;
    l->ply[l->n++] = (uint8_t)ply;
    return true;
}

sow_err sow_book_lines_make(const sow_game *g, int plies, sow_book_lines *out, char *why,
                            size_t why_size)
{
    memset(out, 0, sizeof *out);
    sow_book *seen; /* a scratch book: the set of boards met */
    sow_err err = sow_book_new(g, plies, &seen, why, why_size);
    if (err)
        return err;
    uint64_t cap = 0;
    sow_pos start;
    sow_game_start(g, &start);
    sow_book_entry mark = {.exact = true, .move = -1};
    err = sow_book_put(seen, &start, &mark, why, why_size);
    if (!err && !push(out, &cap, &start, 0, 0, 0))
        err = sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    /* out is its own queue: positions of ply d are expanded into ply d+1. */
    for (uint64_t i = 0; !err && i < out->n && out->ply[i] < plies; i++) {
        sow_move mv[SOW_MAX_MOVES];
        int n = sow_moves(g, &out->pos[i], mv);
        for (int k = 0; !err && k < n; k++) {
            sow_pos c = out->pos[i];
            sow_make(g, &c, mv[k]);
            sow_book_entry had;
            if (sow_over(g, &c) || sow_book_find(seen, &c, &had))
                continue;
            err = sow_book_put(seen, &c, &mark, why, why_size);
            if (!err && !push(out, &cap, &c, i, mv[k], out->ply[i] + 1))
                err = sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
        }
    }
    sow_book_free(seen);
    if (err)
        sow_book_lines_free(out);
    return err;
}

void sow_book_lines_free(sow_book_lines *l)
{
    free(l->pos);
    free(l->parent);
    free(l->move);
    free(l->ply);
    memset(l, 0, sizeof *l);
}

int sow_book_line_moves(const sow_book_lines *l, uint64_t i, sow_move *moves)
{
    int n = l->ply[i];
    for (int k = n; k > 0; k--, i = l->parent[i])
        moves[k - 1] = l->move[i];
    return n;
}

sow_err sow_book_count(const sow_game *g, int plies, uint64_t *per_ply, char *why,
                       size_t why_size)
{
    sow_book_lines l;
    sow_err err = sow_book_lines_make(g, plies, &l, why, why_size);
    if (err)
        return err;
    for (int d = 0; d <= plies; d++)
        per_ply[d] = 0;
    for (uint64_t i = 0; i < l.n; i++)
        per_ply[l.ply[i]]++;
    sow_book_lines_free(&l);
    return SOW_OK;
}

/* Most balanced first, then the order the lines were met in. */
static int cmp_opening(const void *x, const void *y)
{
    const sow_book_opening *a = x, *b = y;
    int da = abs(a->margin), db = abs(b->margin);
    if (da != db)
        return da < db ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

sow_err sow_book_openings(const sow_book *b, int ply, int within, sow_book_opening **out,
                          uint64_t *n, uint64_t *positions, uint64_t *missing, char *why,
                          size_t why_size)
{
    *out = NULL;
    *n = *positions = *missing = 0;
    if (ply < 0 || ply > b->plies)
        return sow_fail(why, why_size, SOW_E_ARG, "ply %d: the book reaches 0..%d", ply,
                        b->plies);
    if (within < 0)
        return sow_fail(why, why_size, SOW_E_ARG, "within %d: expected a margin >= 0", within);
    const sow_game *g = &b->g;
    sow_book_lines l;
    sow_err err = sow_book_lines_make(g, ply, &l, why, why_size);
    if (err)
        return err;
    uint64_t cap = 0;
    for (uint64_t i = 0; i < l.n && !err; i++) {
        if (l.ply[i] != ply)
            continue;
        (*positions)++;
        sow_book_entry en;
        if (!sow_book_find(b, &l.pos[i], &en)) {
            (*missing)++;
            continue;
        }
        int margin = sow_score_margin(g, sow_book_score(g, &l.pos[i], &en));
        if (sow_pos_to_move(&l.pos[i]) != SOW_SOUTH)
            margin = -margin;
        if (abs(margin) > within)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            sow_book_opening *o = realloc(*out, cap * sizeof *o);
            if (!o) {
                err = sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
                break;
            }
            *out = o;
        }
        sow_book_opening *o = &(*out)[(*n)++];
        o->index = i;
        o->plies = sow_book_line_moves(&l, i, o->moves);
        o->margin = margin;
        o->exact = en.exact;
        o->depth = en.depth;
    }
    sow_book_lines_free(&l);
    if (err) {
        free(*out);
        *out = NULL;
        *n = 0;
        return err;
    }
    if (*n)
        qsort(*out, (size_t)*n, sizeof **out, cmp_opening);
    return SOW_OK;
}
