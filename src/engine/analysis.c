/* analysis.c - the engine's estimate: sow_analyse on a table of its own
 * (heuristic bounds never meet the exact search's entries), over the
 * database that builds within a quarter of the time (sow_plan_analysis),
 * the resident one when it holds at least as many seeds. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "internal.h"
#include "msg.h"

/* The analysis's table: where the board is too big to solve, depth, not
 * the table, limits an analysis within seconds. */
#define ANALYSE_TT_MB 64
/* An analysis's time when none is left: its one ply regardless. */
#define MIN_SECONDS 0.001

/* The analysis's table size within the engine's memory: at most half. */
static size_t analysis_tt_mb(const sow_engine *e)
{
    size_t half = (size_t)(e->lim.memory / MB / 2);
    return half < 1 ? 1 : half < ANALYSE_TT_MB ? half : ANALYSE_TT_MB;
}

/* The database of the analysis's plan ending at `end`, as *oracle (NULL
 * *use when none): the resident one if it holds the seeds planned and
 * fits beside the table, else the plan's, opened (out->db_cut when a
 * build was cut). */
static sow_err analysis_db(sow_engine *e, const sow_pos *p, double end, size_t tt_mb,
                           sow_oracle *oracle, bool *use, sow_engine_answer *out, char *why,
                           size_t why_size)
{
    *use = false;
    sow_limits L = e->lim;
    L.deadline = end;
    L.tt_mb = tt_mb;
    sow_plan plan;
    if (sow_plan_analysis(&e->g, p, &L, &plan, NULL, 0) != SOW_OK)
        plan.db_seeds = 0; /* no database: the analysis runs on its own */
    uint64_t beside = engine_search_bytes(e, tt_mb);
    if (e->db && (e->db->max_seeds < plan.db_seeds || L.no_db ||
                  !sow_db_covers(e->db, &e->g, sow_seeds_on_board(&e->g, p)) ||
                  engine_db_bytes(e) + beside > e->lim.memory))
        engine_drop_db(e);
    if (!e->db && plan.db_seeds > 0) {
        /* Resident: copied once, probed by every question (later ones
         * may not be in it, even when this one is), if the copy fits this
         * question's share of its time (a first move of 0.5 s took 5.2 s
         * copying a 2.9 GB store: doc/experiments.md, "In place or
         * copied"); else probed in place for as long as it is held. */
        double left = end > 0 ? end - sow_now() : INFINITY;
        plan.root_in_db = false;
        plan.db_in_place = !(isfinite(left) && plan.db_copy_seconds <= plan.build_share * left);
        sow_err err = sow_plan_open_db(&e->g, &plan, NULL, &e->db, oracle, why, why_size);
        if (err == SOW_E_INTERRUPTED)
            return SOW_OK; /* stopped: the analysis below stops at once too */
        if (err)
            return err;
        if (e->db) {
            e->db_opens++;
            out->db_opens++;
        }
        out->db_cut = out->db_cut || !e->db || e->db->max_seeds < plan.db_seeds;
        engine_account(e);
    }
    if (e->db) {
        sow_plan_oracle(e->db, e->db->max_seeds, oracle);
        out->db_seeds = e->db->max_seeds;
        *use = true;
    }
    return SOW_OK;
}

/* The resident analysis search (the exact one let go first). */
static sow_err analysis_search(sow_engine *e, size_t tt_mb, char *why, size_t why_size)
{
    if (e->search && e->analysis && e->tt_mb == tt_mb)
        return SOW_OK;
    engine_drop_search(e);
    sow_search_options o = {.threads = e->lim.threads, .tt_mb = tt_mb, .stop = e->lim.stop};
    sow_err err = sow_search_new(&e->g, &o, &e->search);
    if (err)
        return sow_fail(why, why_size, err, "not enough memory for the search table");
    e->analysis = true;
    e->tt_mb = tt_mb;
    engine_account(e);
    return SOW_OK;
}

/* sow_analyse until `end`; when no depth completes in time, one ply
 * regardless: a move must come out. */
static sow_err run(sow_engine *e, const sow_pos *p, double end, bool all_moves,
                   sow_analyse_info *in)
{
    double seconds = end - sow_now();
    sow_eval_params ep;
    sow_eval_default(&e->g, &ep);
    sow_analyse_options ao = {.time_limit = seconds < MIN_SECONDS ? MIN_SECONDS : seconds,
                              .eval = &ep, .multipv = all_moves ? SOW_MAX_MOVES : 1};
    sow_err err = sow_analyse(e->search, p, &ao, in);
    bool stopped = e->lim.stop && __atomic_load_n(e->lim.stop, __ATOMIC_RELAXED);
    if ((err == SOW_OK || err == SOW_E_INTERRUPTED) && in->best < 0 && !stopped) {
        ao.time_limit = 0;
        ao.max_depth = 1;
        err = sow_analyse(e->search, p, &ao, in);
    }
    if (err == SOW_E_INTERRUPTED && in->best >= 0)
        err = SOW_OK;
    return err;
}

static void fill(const sow_analyse_info *in, bool all_moves, sow_engine_answer *out)
{
    sow_solution *sol = &out->sol;
    sol->nmoves = in->nmoves;
    memcpy(sol->moves, in->moves, sizeof sol->moves);
    memcpy(sol->move_scores, in->move_scores, sizeof sol->move_scores);
    for (int k = 0; k < in->nmoves; k++)
        out->move_exact[k] = in->move_exact[k] && !in->move_bound[k];
    sol->best = in->best;
    sol->score = in->score;
    sol->nodes += in->nodes;
    out->depth = in->depth;
    bool all_exact = in->exact;
    for (int k = 0; all_moves && k < in->nmoves; k++)
        all_exact = all_exact && !in->move_bound[k];
    out->how = all_exact ? SOW_ENGINE_EXACT : SOW_ENGINE_ESTIMATE;
    out->lower = all_exact ? in->score : -(1 << 20);
    out->upper = all_exact ? in->score : 1 << 20;
}

sow_err engine_estimate(sow_engine *e, const sow_pos *p, double end, bool all_moves,
                        sow_engine_answer *out, char *why, size_t why_size)
{
    size_t tt_mb = analysis_tt_mb(e);
    if (e->search && !e->analysis)
        engine_drop_search(e); /* exact entries never meet heuristic ones */
    sow_oracle oracle;
    bool use;
    sow_err err = analysis_db(e, p, end, tt_mb, &oracle, &use, out, why, why_size);
    if (err)
        return err;
    if ((err = analysis_search(e, tt_mb, why, why_size)) != SOW_OK)
        return err;
    sow_search_set_oracle(e->search, use ? &oracle : NULL);
    sow_analyse_info *in = malloc(sizeof *in);
    if (!in)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    err = run(e, p, end, all_moves, in);
    if (err)
        sow_fail(why, why_size, err, "%s",
                 err == SOW_E_INTERRUPTED ? "interrupted" : sow_err_name(err));
    else
        fill(in, all_moves, out);
    free(in);
    return err;
}

sow_err sow_engine_analyse(sow_engine *e, const sow_pos *p, double end,
                           const sow_analyse_options *opt, sow_analyse_info *out, char *why,
                           size_t why_size)
{
    char msg[SOW_WHY];
    why = sow_why_or(why, &why_size, msg);
    e->book_hit = false;
    if (sow_position_check(&e->g, p) != SOW_OK)
        return sow_fail(why, why_size, SOW_E_POSITION, "not a position of this game");
    if (!sow_over(&e->g, p) && engine_book_analyse(e, p, opt, out)) {
        e->questions++;
        return SOW_OK;
    }
    size_t tt_mb = analysis_tt_mb(e);
    if (e->search && !e->analysis)
        engine_drop_search(e); /* exact entries never meet heuristic ones */
    sow_engine_answer scratch;
    memset(&scratch, 0, sizeof scratch);
    sow_oracle oracle;
    bool use;
    sow_err err = analysis_db(e, p, end, tt_mb, &oracle, &use, &scratch, why, why_size);
    if (err)
        return err;
    if ((err = analysis_search(e, tt_mb, why, why_size)) != SOW_OK)
        return err;
    sow_search_set_oracle(e->search, use ? &oracle : NULL);
    sow_analyse_options ao = *opt;
    if (end > 0) { /* what the database left of the time, at least a moment */
        double left = end - sow_now();
        if (left < MIN_SECONDS)
            left = MIN_SECONDS;
        if (!(ao.time_limit > 0) || ao.time_limit > left)
            ao.time_limit = left;
    }
    e->questions++;
    err = sow_analyse(e->search, p, &ao, out);
    if (err && err != SOW_E_INTERRUPTED)
        sow_fail(why, why_size, err, "%s", sow_err_name(err));
    return err;
}
