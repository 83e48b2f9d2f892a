/* book_build.c - an opening book built with the resident engine
 * (sow/book_build.h): the positions of the first plies, then each one's
 * value on one engine, whose table and database serve them all. */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "internal.h"
#include "msg.h"
#include "sow/book_build.h"
#include "sow/rules.h"

/* Seconds before the build's deadline at which a cut search means the
 * deadline (not the time per position) cut it. */
#define UP_SLACK 0.1

/* The time left before the deadline (<= 0: none), or `cap` if sooner. */
static double time_for(const sow_book_build_options *o, double cap)
{
    double left = o->deadline > 0 ? o->deadline - sow_now() : 0;
    if (o->deadline > 0 && left <= 0)
        return -1;
    if (cap > 0 && (left <= 0 || cap < left))
        return cap;
    return left;
}

/* p solved exactly within `seconds` (0: no limit) into *en;
 * SOW_E_INTERRUPTED when the time ran out first. */
static sow_err solve_one(sow_engine *e, const sow_pos *p, double seconds, sow_book_entry *en,
                         char *why, size_t why_size)
{
    sow_limits q = {.value_only = true, .time_limit = seconds};
    sow_plan plan;
    sow_plan_result *res = malloc(sizeof *res);
    if (!res)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    sow_err err = sow_engine_solve(e, p, &q, &plan, res, why, why_size);
    if (!err) {
        const sow_solution *s = &res->search.sol;
        sow_book_entry zero = {0};
        en->exact = true;
        en->depth = 0;
        en->future = s->score - sow_book_score(&e->g, p, &zero);
        en->move = s->best >= 0 ? s->moves[s->best] : -1;
    }
    free(res);
    return err;
}

/* p analysed for `seconds` into *en (exact when the analysis proved it). */
static sow_err analyse_one(sow_engine *e, const sow_pos *p, double seconds, sow_book_entry *en,
                           char *why, size_t why_size)
{
    sow_eval_params ep;
    sow_eval_default(&e->g, &ep);
    sow_analyse_options ao = {.eval = &ep, .multipv = 1};
    sow_analyse_info *in = malloc(sizeof *in);
    if (!in)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    sow_err err = sow_engine_analyse(e, p, sow_now() + seconds, &ao, in, why, why_size);
    if ((err == SOW_OK || err == SOW_E_INTERRUPTED) && in->best >= 0) {
        sow_book_entry zero = {0};
        en->exact = in->exact;
        en->depth = in->exact ? 0 : in->depth > UINT8_MAX ? UINT8_MAX : in->depth;
        en->future = in->score - sow_book_score(&e->g, p, &zero);
        en->move = in->moves[in->best];
        err = SOW_OK;
    } else if (err == SOW_OK) {
        err = SOW_E_INTERRUPTED; /* no depth completed */
    }
    free(in);
    return err;
}

/* Has b what this build would give p? */
static bool held(const sow_book *b, const sow_pos *p, bool exact)
{
    sow_book_entry en;
    return sow_book_find(b, p, &en) && (en.exact || !exact);
}

static bool stopped(const sow_engine *e)
{
    return e->lim.stop && __atomic_load_n(e->lim.stop, __ATOMIC_RELAXED);
}

/* One position: judged and put, or left out (*left), or the build's
 * time is up (*up). */
static sow_err judge_one(sow_engine *e, sow_book *b, const sow_pos *p,
                         const sow_book_build_options *o, bool *left, bool *up, char *why,
                         size_t why_size)
{
    *left = *up = false;
    double t = time_for(o, o->exact ? o->seconds : 0);
    if (t < 0 || stopped(e)) {
        *up = true;
        return SOW_OK;
    }
    if (!o->exact && (t <= 0 || t > o->seconds))
        t = o->seconds;
    sow_book_entry en;
    sow_err err = o->exact ? solve_one(e, p, t, &en, why, why_size)
                           : analyse_one(e, p, t, &en, why, why_size);
    if (err == SOW_E_INTERRUPTED) {
        /* A search stops a moment before its deadline: the build's too. */
        *up = (o->deadline > 0 && o->deadline - sow_now() < UP_SLACK) || stopped(e);
        *left = !*up;
        return SOW_OK;
    }
    return err ? err : sow_book_put(b, p, &en, why, why_size);
}

static sow_err check(sow_engine *e, sow_book *b, const sow_book_build_options *o, char *why,
                     size_t why_size)
{
    if (memcmp(&sow_book_game(b)->cfg, &e->g.cfg, sizeof e->g.cfg) != 0)
        return sow_fail(why, why_size, SOW_E_MISMATCH, "the book is another game's");
    if (!o->exact && !(o->seconds > 0))
        return sow_fail(why, why_size, SOW_E_ARG, "an analysis book needs a time per position");
    if (o->seconds < 0 || (o->save_path && !(o->save_every > 0)))
        return sow_fail(why, why_size, SOW_E_ARG, "bad build options");
    sow_pos start;
    sow_game_start(&e->g, &start);
    if (o->exact && !sow_search_exact(&e->g, &start))
        return sow_fail(why, why_size, SOW_E_LIMIT,
                        "the exact solver cannot take this board: build an analysis book "
                        "(a time per position) instead");
    return SOW_OK;
}

/* One position's turn: judged unless held; the result's counts. */
static sow_err step(sow_engine *e, sow_book *b, const sow_book_lines *f, uint64_t i,
                    const sow_book_build_options *o, sow_book_build_result *out, char *why,
                    size_t why_size)
{
    double t1 = sow_now(), c1 = sow_cpu_now();
    bool left = false, judged = false;
    sow_err err = SOW_OK;
    if (!held(b, &f->pos[i], o->exact)) {
        err = judge_one(e, b, &f->pos[i], o, &left, &out->stopped, why, why_size);
        judged = !err && !left && !out->stopped;
    }
    bool done = !err && !left && !out->stopped;
    int d = f->ply[i];
    sow_book_progress *pr = &out->last;
    out->solved += judged;
    out->ply_solved[d] += judged;
    out->ply_done[d] += done;
    pr->done += done;
    pr->left_out += left;
    pr->ply = d;
    pr->last = sow_now() - t1;
    out->ply_seconds[d] += pr->last;
    out->ply_cpu[d] += sow_cpu_now() - c1;
    return err;
}

sow_err sow_book_build(sow_engine *e, sow_book *b, const sow_book_build_options *o,
                       sow_book_build_result *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    sow_err err = check(e, b, o, why, why_size);
    if (err)
        return err;
    sow_engine_set_book(e, NULL);
    double t0 = sow_now(), saved = t0;
    sow_book_lines f = {0};
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    err = sow_book_lines_make(&e->g, bi.plies, &f, why, why_size);
    sow_book_progress *pr = &out->last;
    pr->total = f.n;
    for (uint64_t i = 0; !err && i < f.n; i++)
        out->ply_total[f.ply[i]]++;
    for (uint64_t i = 0; !err && i < f.n && !out->stopped; i++) {
        err = step(e, b, &f, i, o, out, why, why_size);
        pr->seconds = sow_now() - t0;
        if (!err && o->progress && !out->stopped)
            o->progress(o->ctx, pr);
        if (!err && o->save_path && sow_now() - saved >= o->save_every) {
            sow_book_add_seconds(b, sow_now() - saved);
            saved = sow_now();
            err = sow_book_save(b, o->save_path, why, why_size);
        }
    }
    sow_book_add_seconds(b, sow_now() - saved);
    sow_book_set_complete(b, !err && pr->done == f.n);
    sow_book_lines_free(&f);
    return err;
}
