/* engine.c - the computer player: see engine.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "sow/analyse.h"
#include "sow/db.h"
#include "sow/plan.h"
#include "sow/search.h"

/* The analysis's table when the board is too big to solve. */
#define ANALYSE_TT_MB 64
/* The share of the budget kept back from the exact search for an
 * estimate, should the search be cut before it finds a move. */
#define FALLBACK_SHARE 0.1
/* The same for a hint (every move's value): a cut search then leaves
 * every move to the estimate, which needs time for its table and a few
 * plies (a tenth overran a 1 s limit by a second on a loaded machine). */
#define HINT_SHARE 0.3
/* An analysis's time when none is left: its one ply regardless. */
#define MIN_SECONDS 0.001

static void set_why(engine_eval *out, const char *why)
{
    snprintf(out->why, sizeof out->why, "%s", why);
}

/* The endgame database sow_plan_analysis picks for an analysis of p
 * ending at `end` (built in memory, or loaded from and saved to
 * lim->db_dir), as the search's oracle: NULL *db when none fits the time
 * (out->db_cut when a build was cut). */
static sow_err analysis_db(const sow_game *g, const sow_pos *p, const engine_limits *lim,
                           double end, sow_db **db, sow_oracle *oracle, engine_eval *out)
{
    *db = NULL;
    sow_limits L = {.memory = lim->memory, .threads = lim->threads, .db_dir = lim->db_dir,
                    .deadline = end, .tt_mb = ANALYSE_TT_MB, .stop = lim->stop};
    sow_plan plan;
    if (sow_plan_analysis(g, p, &L, &plan, NULL, 0) != SOW_OK || plan.db_seeds == 0)
        return SOW_OK; /* no database: the analysis runs on its own */
    sow_err e = sow_plan_open_db(g, &plan, NULL, db, oracle, out->why, sizeof out->why);
    if (e == SOW_E_INTERRUPTED) {
        *db = NULL;
        return SOW_OK; /* stopped: the analysis below stops at once too */
    }
    if (e)
        return e;
    out->db_cut = out->db_cut || !*db || (*db)->max_seeds < plan.db_seeds;
    return SOW_OK;
}

/* sow_analyse ending at `end` with the default evaluation and the
 * database that builds within a quarter of the time: every move scored
 * (all_moves: each to its value, else the best and bounds for the rest),
 * exact where the analysis proved it. When no depth completes in time,
 * one ply is searched regardless: a move must come out. */
static sow_err analyse_eval(const sow_game *g, const sow_pos *p, double end, bool all_moves,
                            const engine_limits *lim, engine_eval *out)
{
    sow_db *db;
    sow_oracle oracle;
    sow_err e = analysis_db(g, p, lim, end, &db, &oracle, out);
    if (e)
        return e;
    double seconds = end - sow_now();
    if (seconds < MIN_SECONDS)
        seconds = MIN_SECONDS;
    sow_search_options o = {.threads = lim->threads > 0 ? lim->threads : 1,
                            .tt_mb = ANALYSE_TT_MB, .stop = lim->stop,
                            .oracle = db ? &oracle : NULL};
    sow_search *s;
    e = sow_search_new(g, &o, &s);
    if (e) {
        sow_db_close(db);
        set_why(out, "not enough memory for the search table");
        return e;
    }
    sow_analyse_info *in = malloc(sizeof *in);
    if (!in) {
        sow_search_free(s);
        sow_db_close(db);
        set_why(out, "out of memory");
        return SOW_E_NOMEM;
    }
    sow_eval_params ep;
    sow_eval_default(g, &ep);
    sow_analyse_options ao = {.time_limit = seconds, .eval = &ep,
                              .multipv = all_moves ? SOW_MAX_MOVES : 1};
    e = sow_analyse(s, p, &ao, in);
    if ((e == SOW_OK || e == SOW_E_INTERRUPTED) && in->best < 0 && !(lim->stop && __atomic_load_n(lim->stop, __ATOMIC_RELAXED))) {
        ao.time_limit = 0;
        ao.max_depth = 1;
        e = sow_analyse(s, p, &ao, in);
    }
    sow_search_free(s);
    sow_db_close(db);
    if (e == SOW_E_INTERRUPTED && in->best >= 0)
        e = SOW_OK;
    if (e) {
        set_why(out, e == SOW_E_INTERRUPTED ? "interrupted" : sow_err_name(e));
        free(in);
        return e;
    }
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
    out->how = all_exact ? ENGINE_EXACT : ENGINE_DEPTH;
    out->lower = all_exact ? in->score : -(1 << 20);
    out->upper = all_exact ? in->score : 1 << 20;
    free(in);
    return SOW_OK;
}

static void finish(const sow_game *g, engine_eval *out, double t0)
{
    sow_solution *sol = &out->sol;
    sol->value = sow_score_margin(g, sol->score);
    sol->outcome = sow_outcome_of(sol->score);
    out->seconds = sow_now() - t0;
}

sow_err engine_evaluate(const sow_game *g, const sow_pos *p, bool pie, bool all_moves,
                        const engine_limits *lim, engine_eval *out)
{
    double t0 = sow_now();
    double end = lim->deadline > 0 ? lim->deadline : t0 + lim->seconds;
    memset(out, 0, sizeof *out);
    out->all_moves = all_moves;
    out->sol.best = -1;
    if (sow_over(g, p)) {
        out->sol.score = out->lower = out->upper = sow_terminal_score(g, p);
        out->how = ENGINE_EXACT;
        finish(g, out, t0);
        return SOW_OK;
    }
    sow_limits L = {
        .memory = lim->memory,
        .threads = lim->threads,
        .db_dir = lim->db_dir,
        .value_only = !all_moves,
        .pie_opening = pie,
        .time_limit = lim->seconds,
        /* A reserve for the estimate that picks a move should the search
         * be cut before it finds one. */
        .deadline = end - (all_moves ? HINT_SHARE : FALLBACK_SHARE) * lim->seconds,
        .stop = lim->stop,
    };
    sow_plan plan;
    sow_err e = sow_plan_make(g, p, &L, &plan, out->why, sizeof out->why);
    if (e == SOW_E_LIMIT && !sow_search_exact(g, p)) {
        e = analyse_eval(g, p, end, all_moves, lim, out);
        if (!e)
            finish(g, out, t0);
        return e;
    }
    if (e)
        return e;
    sow_plan_result *res = malloc(sizeof *res);
    if (!res) {
        set_why(out, "out of memory");
        return SOW_E_NOMEM;
    }
    e = sow_plan_solve(g, p, &plan, NULL, res, out->why, sizeof out->why);
    const sow_search_result *r = &res->search;
    out->db_cut = res->db_cut;
    if (e == SOW_OK) {
        out->sol = r->sol;
        memcpy(out->move_exact, r->move_exact, sizeof out->move_exact);
        out->how = ENGINE_EXACT;
        out->lower = out->upper = r->sol.score;
    } else if (e == SOW_E_INTERRUPTED) {
        /* Cut by the time limit (or stop): the proven bounds and the best
         * move so far; the moves' own values are unknown. */
        sow_solution *sol = &out->sol;
        sol->nmoves = sow_moves(g, p, sol->moves);
        sol->best = -1;
        if (r->sol.best >= 0 && r->sol.best < r->sol.nmoves)
            for (int k = 0; k < sol->nmoves; k++)
                if (sol->moves[k] == r->sol.moves[r->sol.best])
                    sol->best = k;
        sol->nodes = r->sol.nodes;
        out->lower = r->lower;
        out->upper = r->upper;
        /* Nothing found yet, or every move's value asked for (a hint): a
         * quick estimate picks the move and, for a hint, scores every move
         * (marked as estimates) rather than leaving them all unknown. */
        if (sol->best < 0 || all_moves) {
            engine_eval est;
            memset(&est, 0, sizeof est);
            e = analyse_eval(g, p, end, all_moves, lim, &est);
            if (e) {
                set_why(out, est.why);
                free(res);
                return e;
            }
            if (all_moves && est.sol.nmoves == sol->nmoves) {
                *sol = est.sol;
                out->estimates = true;
            }
            sol->best = est.sol.best;
            out->depth = est.depth;
            out->db_cut = out->db_cut || est.db_cut;
        }
        /* The value is only known to lie in [lower, upper]: callers print
         * the bounds for ENGINE_CUT, never sol.value. */
        sol->score = 0;
        out->how = ENGINE_CUT;
        e = SOW_OK;
    }
    free(res);
    if (!e)
        finish(g, out, t0);
    return e;
}

int engine_random_percent(int level)
{
    static const int pct[ENGINE_LEVELS + 1] = {100, 75, 50, 20, 0};
    return level >= 1 && level <= ENGINE_LEVELS ? pct[level] : 0;
}

static uint64_t next_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

sow_err engine_choose(const sow_game *g, const sow_pos *p, bool pie, int level,
                      uint64_t *rng, const engine_limits *lim, sow_move *move,
                      engine_eval *out, bool *searched)
{
    *searched = false;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(g, p, mv);
    if (n == 0)
        return SOW_E_OVER;
    if ((int)(next_rand(rng) % 100) < engine_random_percent(level)) {
        *move = mv[next_rand(rng) % (uint64_t)n];
        return SOW_OK;
    }
    sow_err e = engine_evaluate(g, p, pie, false, lim, out);
    if (e)
        return e;
    *searched = true;
    *move = out->sol.moves[out->sol.best];
    return SOW_OK;
}
