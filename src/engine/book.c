/* book.c - the engine's opening book (sow/book.h): found in its database
 * folder on the first question, it answers the positions it holds at
 * once, before any plan, database or search. */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "internal.h"
#include "sow/rules.h"

sow_err sow_engine_set_book(sow_engine *e, sow_book *b)
{
    sow_book_free(e->book);
    e->book = NULL;
    e->book_state = -1;
    if (b && memcmp(&sow_book_game(b)->cfg, &e->g.cfg, sizeof e->g.cfg) != 0) {
        sow_book_free(b);
        return SOW_E_MISMATCH;
    }
    e->book = b;
    e->book_state = b ? 1 : -1;
    return SOW_OK;
}

bool sow_engine_from_book(const sow_engine *e)
{
    return e->book_hit;
}

/* The book, looked for once: g's file in the engine's database folder.
 * A missing, damaged or foreign file is no book (the search answers). */
static const sow_book *engine_book(sow_engine *e)
{
    if (e->book_state == 0) {
        e->book_state = -1;
        char path[4400];
        if (e->dir) {
            sow_book_path(&e->g, e->dir, path, sizeof path);
            if (sow_book_load(path, &e->g, &e->book, NULL, 0) == SOW_OK)
                e->book_state = 1;
        }
    }
    return e->book_state > 0 ? e->book : NULL;
}

/* p's entry with a legal move (its index in mv[0..*n) as *best). An
 * estimate serves only a board the exact solver refuses: elsewhere the
 * question's own search proves more. */
static bool find(sow_engine *e, const sow_pos *p, sow_book_entry *en, sow_move *mv, int *n,
                 int *best)
{
    const sow_book *b = engine_book(e);
    if (!b || !sow_book_find(b, p, en) || en->move < 0)
        return false;
    if (!en->exact && sow_search_exact(&e->g, p))
        return false;
    *n = sow_moves(&e->g, p, mv);
    *best = -1;
    for (int k = 0; k < *n; k++)
        if (mv[k] == en->move)
            *best = k;
    return *best >= 0;
}

/* Every move's score from the children's entries (a finished child
 * scores as it ends); false if one is missing. */
static bool children(sow_engine *e, const sow_pos *p, sow_engine_answer *out)
{
    const sow_solution *s = &out->sol;
    bool all_exact = true;
    for (int k = 0; k < s->nmoves; k++) {
        sow_pos c = *p;
        sow_make(&e->g, &c, s->moves[k]);
        sow_book_entry ce = {.exact = true};
        int v;
        if (sow_over(&e->g, &c))
            v = sow_terminal_score(&e->g, &c);
        else if (sow_book_find(e->book, &c, &ce))
            v = sow_book_score(&e->g, &c, &ce);
        else
            return false;
        out->sol.move_scores[k] = sow_pos_to_move(&c) == sow_pos_to_move(p) ? v : -v;
        out->move_exact[k] = ce.exact;
        all_exact = all_exact && ce.exact;
    }
    out->how = all_exact && out->how == SOW_ENGINE_EXACT ? SOW_ENGINE_EXACT : SOW_ENGINE_ESTIMATE;
    return true;
}

bool engine_book_answer(sow_engine *e, const sow_pos *p, bool all_moves,
                        sow_engine_answer *out)
{
    e->book_hit = false;
    sow_book_entry en;
    sow_solution *s = &out->sol;
    if (!find(e, p, &en, s->moves, &s->nmoves, &s->best))
        return false;
    s->score = sow_book_score(&e->g, p, &en);
    out->how = en.exact ? SOW_ENGINE_EXACT : SOW_ENGINE_ESTIMATE;
    out->lower = en.exact ? s->score : -(1 << 20);
    out->upper = en.exact ? s->score : 1 << 20;
    out->depth = en.exact ? 0 : en.depth;
    if (all_moves) {
        if (!children(e, p, out))
            return false;
    } else {
        /* Only the best move's value: the others are at most the value. */
        for (int k = 0; k < s->nmoves; k++) {
            s->move_scores[k] = s->score;
            out->move_exact[k] = k == s->best && en.exact;
        }
    }
    out->book = true;
    e->book_hit = true;
    return true;
}

bool engine_book_analyse(sow_engine *e, const sow_pos *p, const sow_analyse_options *opt,
                         sow_analyse_info *out)
{
    e->book_hit = false;
    sow_book_entry en;
    if ((opt->multipv > 1 || opt->score_move) ||
        !find(e, p, &en, out->moves, &out->nmoves, &out->best))
        return false;
    double t0 = sow_now();
    out->score = sow_book_score(&e->g, p, &en);
    out->exact = en.exact;
    /* An exact value is as good as the deepest search; an estimate says
     * its depth. */
    out->depth = out->seldepth = en.exact ? 1 : en.depth;
    for (int k = 0; k < out->nmoves; k++) {
        out->move_scores[k] = out->score;
        out->move_bound[k] = k != out->best;
        out->move_exact[k] = en.exact;
    }
    out->nlines = 1;
    out->lines[0] = out->best;
    out->pv_len = 1;
    out->pv[0] = out->moves[out->best];
    out->nodes = 0;
    out->seconds = sow_now() - t0;
    e->book_hit = true;
    if (opt->on_depth)
        opt->on_depth(opt->ctx, out);
    return true;
}
