/* book.c - an opening book in memory: keys, entries, lookup (sow/book.h). */
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "internal.h"
#include "msg.h"

/* A tail longer than this is merged into the sorted part: a put scans
 * the tail, so it stays short, and a merge costs a sort of the tail. */
#define TAIL_MAX 4096

bool book_keys_init(sow_book *b)
{
    const sow_game *g = &b->g;
    b->tz = g->tuzdik ? (uint64_t)g->m : 1;
    /* The game's boards hold at most its 2mn seeds: their codes run up
     * to sow_index_codes(2m, 2mn) (times the tuzdik states). */
    uint64_t codes = sow_index_codes(2 * g->m, 2 * g->m * g->cfg.seeds);
    b->hashed = codes == UINT64_MAX || codes > UINT64_MAX / (b->tz * b->tz);
    if (b->hashed)
        return true;
    b->ix = malloc(sizeof *b->ix);
    if (!b->ix)
        return false;
    sow_index_init(b->ix, 2 * g->m);
    return true;
}

static book_rec key_of(const sow_book *b, const sow_pos *p)
{
    book_rec r = {0};
    if (!b->hashed) {
        uint64_t c = sow_index_code_pos(b->ix, p);
        r.lo = (c * b->tz + p->b[SOW_B_TUZDIK]) * b->tz + p->b[SOW_HALF + SOW_B_TUZDIK];
        return r;
    }
    /* The pits and tuzdiks, nothing else (not the stores, not the flags). */
    uint8_t k[2 * SOW_MAX_PITS + 2];
    int m = b->g.m;
    memcpy(k, p->b, (size_t)m);
    memcpy(k + m, p->b + SOW_HALF, (size_t)m);
    k[2 * m] = p->b[SOW_B_TUZDIK];
    k[2 * m + 1] = p->b[SOW_HALF + SOW_B_TUZDIK];
    XXH128_hash_t h = XXH3_128bits(k, (size_t)(2 * m + 2));
    r.hi = h.high64;
    r.lo = h.low64;
    return r;
}

sow_err sow_book_new(const sow_game *g, int plies, sow_book **out, char *why, size_t why_size)
{
    *out = NULL;
    if (g->pie)
        return sow_fail(why, why_size, SOW_E_ARG,
                        "the pie rule changes the opening's values: no book for it");
    if (plies < 0 || plies > SOW_BOOK_MAX_PLIES)
        return sow_fail(why, why_size, SOW_E_ARG, "plies %d: expected 0..%d", plies,
                        SOW_BOOK_MAX_PLIES);
    sow_book *b = calloc(1, sizeof *b);
    if (b) {
        b->g = *g;
        b->plies = plies;
    }
    if (!b || !book_keys_init(b)) {
        sow_book_free(b);
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    }
    *out = b;
    return SOW_OK;
}

void sow_book_free(sow_book *b)
{
    if (!b)
        return;
    free(b->ix);
    free(b->recs);
    free(b);
}

const sow_game *sow_book_game(const sow_book *b)
{
    return &b->g;
}

void sow_book_info_get(const sow_book *b, sow_book_info *out)
{
    *out = (sow_book_info){.cfg = b->g.cfg, .version = SOW_BOOK_VERSION, .plies = b->plies,
                           .complete = b->complete, .hashed = b->hashed, .positions = b->n,
                           .build_seconds = b->seconds};
    for (uint64_t i = 0; i < b->n; i++)
        out->exact += (b->recs[i].flags & REC_EXACT) != 0;
}

sow_err sow_book_set_plies(sow_book *b, int plies, char *why, size_t why_size)
{
    if (plies < 0 || plies > SOW_BOOK_MAX_PLIES)
        return sow_fail(why, why_size, SOW_E_ARG, "plies %d: expected 0..%d", plies,
                        SOW_BOOK_MAX_PLIES);
    b->plies = plies;
    return SOW_OK;
}

void sow_book_set_complete(sow_book *b, bool complete)
{
    b->complete = complete;
}

void sow_book_add_seconds(sow_book *b, double seconds)
{
    b->seconds += seconds;
}

static int cmp_rec(const void *x, const void *y)
{
    return book_key_cmp(x, y);
}

void book_merge(sow_book *b)
{
    if (b->sorted == b->n)
        return;
    /* Each key is once in the whole array, so a sort of all of it is the
     * merge (the sorted part makes it cheap enough at these sizes). */
    qsort(b->recs, b->n, sizeof *b->recs, cmp_rec);
    b->sorted = b->n;
}

/* The record of key k, or NULL. */
static book_rec *lookup(const sow_book *b, const book_rec *k)
{
    uint64_t lo = 0, hi = b->sorted;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        int c = book_key_cmp(&b->recs[mid], k);
        if (c == 0)
            return &b->recs[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (uint64_t i = b->sorted; i < b->n; i++)
        if (book_key_cmp(&b->recs[i], k) == 0)
            return &b->recs[i];
    return NULL;
}

static void entry_of(const book_rec *r, sow_book_entry *out)
{
    *out = (sow_book_entry){.future = r->future,
                            .move = r->move == REC_NO_MOVE ? -1 : r->move,
                            .exact = (r->flags & REC_EXACT) != 0,
                            .depth = r->depth};
}

bool sow_book_find(const sow_book *b, const sow_pos *p, sow_book_entry *out)
{
    book_rec k = key_of(b, p);
    const book_rec *r = lookup(b, &k);
    if (r)
        entry_of(r, out);
    return r != NULL;
}

void sow_book_at(const sow_book *b, uint64_t i, sow_book_entry *out, uint64_t *key_hi,
                 uint64_t *key_lo)
{
    entry_of(&b->recs[i], out);
    *key_hi = b->recs[i].hi;
    *key_lo = b->recs[i].lo;
}

int sow_book_score(const sow_game *g, const sow_pos *p, const sow_book_entry *e)
{
    return (p->b[SOW_B_STORE] - p->b[SOW_HALF + SOW_B_STORE]) * g->score_scale + e->future;
}

static bool grow(sow_book *b)
{
    if (b->n < b->cap)
        return true;
    uint64_t cap = b->cap ? 2 * b->cap : 256;
    book_rec *r = realloc(b->recs, cap * sizeof *r);
    if (!r)
        return false;
    b->recs = r;
    b->cap = cap;
    return true;
}

sow_err sow_book_put(sow_book *b, const sow_pos *p, const sow_book_entry *e, char *why,
                     size_t why_size)
{
    if (sow_position_check(&b->g, p) != SOW_OK)
        return sow_fail(why, why_size, SOW_E_POSITION, "not a position of the book's game");
    if (e->future < INT16_MIN || e->future > INT16_MAX || e->move < -1 ||
        e->move >= REC_NO_MOVE || e->depth < 0 || e->depth > UINT8_MAX)
        return sow_fail(why, why_size, SOW_E_ARG, "a book entry out of range");
    book_rec r = key_of(b, p);
    r.future = (int16_t)e->future;
    r.move = e->move < 0 ? REC_NO_MOVE : (uint8_t)e->move;
    r.depth = e->exact ? 0 : (uint8_t)e->depth;
    r.flags = e->exact ? REC_EXACT : 0;
    book_rec *old = lookup(b, &r);
    if (old) {
        if (!(old->flags & REC_EXACT) || e->exact)
            *old = r;
        return SOW_OK;
    }
    if (!grow(b))
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    b->recs[b->n++] = r;
    if (b->n - b->sorted > TAIL_MAX)
        book_merge(b);
    return SOW_OK;
}
