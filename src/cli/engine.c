/* engine.c - the computer player: see engine.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "engine.h"
#include "sow/plan.h"
#include "sow/search.h"

/* The depth search's table: small, since it only orders moves of a
 * time-limited estimate. */
#define DEPTH_TT_MB 16
/* What an estimate gets when the exact search used the whole budget
 * without finding a move: a fraction of the budget, at least this. */
#define FALLBACK_SECONDS 0.2

static void set_why(engine_eval *out, const char *why)
{
    snprintf(out->why, sizeof out->why, "%s", why);
}

/* Iterative deepening over the root moves, each child scored by
 * sow_search_depth: the deepest complete iteration within `seconds` wins
 * (the first always completes, so there is always a move). */
static sow_err depth_eval(const sow_game *g, const sow_pos *p, double seconds, int threads,
                          engine_eval *out)
{
    double t0 = sow_now();
    sow_search_options o = {.threads = threads > 0 ? threads : 1, .tt_mb = DEPTH_TT_MB};
    sow_search *s;
    sow_err e = sow_search_new(g, &o, &s);
    if (e) {
        set_why(out, "not enough memory for the search table");
        return e;
    }
    sow_solution *sol = &out->sol;
    sol->nmoves = sow_moves(g, p, sol->moves);
    int scores[SOW_MAX_MOVES];
    int mover = sow_pos_to_move(p);
    for (int depth = 1; depth < 256; depth++) {
        bool done = true, cut = false;
        for (int k = 0; k < sol->nmoves && !cut; k++) {
            sow_pos c = *p;
            sow_make(g, &c, sol->moves[k]);
            int sc;
            if (sow_over(g, &c)) {
                sc = sow_terminal_score(g, &c);
            } else {
                done = false;
                double left = seconds - (sow_now() - t0);
                /* The first iteration runs to the end: it is what makes
                 * an answer possible at all, and it is one ply. */
                sow_search_set_time_limit(s, depth == 1 ? 0 : (left > 0.001 ? left : 0.001));
                uint64_t nodes;
                e = sow_search_depth(s, &c, depth - 1 > 0 ? depth - 1 : 1, &sc, &nodes);
                sol->nodes += nodes;
                if (e == SOW_E_INTERRUPTED) {
                    cut = true;
                    break;
                }
                if (e) {
                    sow_search_free(s);
                    set_why(out, "the depth search failed");
                    return e;
                }
            }
            scores[k] = sow_pos_to_move(&c) == mover ? sc : -sc;
        }
        if (cut)
            break;
        memcpy(sol->move_scores, scores, sizeof scores);
        out->depth = depth;
        if (done || sow_now() - t0 >= seconds)
            break;
    }
    sow_search_free(s);
    sol->best = 0;
    for (int k = 1; k < sol->nmoves; k++)
        if (sol->move_scores[k] > sol->move_scores[sol->best])
            sol->best = k;
    sol->score = sol->move_scores[sol->best];
    out->how = ENGINE_DEPTH;
    out->lower = -(1 << 20);
    out->upper = 1 << 20;
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
        .stop = lim->stop,
    };
    sow_plan plan;
    sow_err e = sow_plan_make(g, p, &L, &plan);
    if (e == SOW_E_LIMIT && !sow_search_exact(g, p)) {
        e = depth_eval(g, p, lim->seconds, lim->threads, out);
        if (!e)
            finish(g, out, t0);
        return e;
    }
    if (e) {
        set_why(out, plan.error);
        return e;
    }
    sow_plan_result *res = malloc(sizeof *res);
    if (!res) {
        set_why(out, "out of memory");
        return SOW_E_NOMEM;
    }
    e = sow_plan_solve(g, p, &plan, NULL, res);
    const sow_search_result *r = &res->search;
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
        if (sol->best < 0) { /* nothing found yet: a quick estimate picks one */
            double t = lim->seconds / 4 > FALLBACK_SECONDS ? lim->seconds / 4 : FALLBACK_SECONDS;
            engine_eval est;
            memset(&est, 0, sizeof est);
            e = depth_eval(g, p, t, lim->threads, &est);
            if (e) {
                set_why(out, est.why);
                free(res);
                return e;
            }
            sol->best = est.sol.best;
            out->depth = est.depth;
        }
        /* The value is only known to lie in [lower, upper]: callers print
         * the bounds for ENGINE_CUT, never sol.value. */
        sol->score = 0;
        out->how = ENGINE_CUT;
        e = SOW_OK;
    } else {
        set_why(out, res->error);
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
