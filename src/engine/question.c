/* question.c - sow_engine_evaluate: how a position is judged within its
 * time (sow/engine.h): the plan, the bounds and best move of a cut
 * search, the estimate where the exact solver cannot go. */
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "internal.h"
#include "msg.h"
#include "sow/rules.h"

/* The share of the time kept back from the exact search for an estimate,
 * should the search be cut before it finds a move. */
#define RESERVE_SHARE 0.1
/* The same for every move's value (a hint): a cut search then leaves every
 * move to the estimate, which needs time for its table and a few plies (a
 * tenth overran a 1 s limit by a second on a loaded machine). */
#define HINT_RESERVE_SHARE 0.3

static void finish(const sow_engine *e, sow_engine_answer *out, double t0)
{
    sow_solution *sol = &out->sol;
    sol->value = sow_score_margin(&e->g, sol->score);
    sol->outcome = sow_outcome_of(sol->score);
    out->seconds = sow_now() - t0;
}

/* A search cut by the time: the proven bounds and the best move so far
 * (the moves' own values are unknown); when it found none, or every move's
 * value was asked for (a hint), the estimate within the reserve picks the
 * move and, for a hint, scores every move (out->estimates) rather than
 * leaving them all unknown. */
static sow_err cut_answer(sow_engine *e, const sow_pos *p, double end, bool all_moves,
                          const sow_plan_result *res, sow_engine_answer *out, char *why,
                          size_t why_size)
{
    const sow_search_result *r = &res->search;
    sow_solution *sol = &out->sol;
    sol->nmoves = sow_moves(&e->g, p, sol->moves);
    sol->best = -1;
    if (r->sol.best >= 0 && r->sol.best < r->sol.nmoves)
        for (int k = 0; k < sol->nmoves; k++)
            if (sol->moves[k] == r->sol.moves[r->sol.best])
                sol->best = k;
    sol->nodes = r->sol.nodes;
    out->lower = r->lower;
    out->upper = r->upper;
    if (sol->best < 0 || all_moves) {
        sow_engine_answer est;
        memset(&est, 0, sizeof est);
        sow_err err = engine_estimate(e, p, end, all_moves, &est, why, why_size);
        if (err)
            return err;
        if (all_moves && est.sol.nmoves == sol->nmoves) {
            *sol = est.sol;
            out->estimates = true;
        }
        sol->best = est.sol.best;
        out->depth = est.depth;
        out->db_cut = out->db_cut || est.db_cut;
        out->db_opens += est.db_opens;
    }
    sol->score = 0; /* only [lower, upper] is known */
    out->how = SOW_ENGINE_CUT;
    return SOW_OK;
}

/* The exact question within the time less the reserve; the estimate for
 * a board the exact solver refuses. */
static sow_err judge(sow_engine *e, const sow_pos *p, const sow_engine_question *q, double seconds,
                     double end, sow_engine_answer *out, char *why, size_t why_size)
{
    sow_limits L = e->lim;
    L.value_only = !q->all_moves;
    L.pie_opening = q->pie_opening;
    L.time_limit = seconds;
    L.deadline = end - (q->all_moves ? HINT_RESERVE_SHARE : RESERVE_SHARE) * seconds;
    if (!sow_search_exact(&e->g, p))
        return engine_estimate(e, p, end, q->all_moves, out, why, why_size);
    sow_plan plan;
    sow_plan_result *res = malloc(sizeof *res);
    if (!res)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    sow_err err = engine_exact(e, p, &L, &plan, res, why, why_size);
    out->db_cut = res->db_cut;
    out->db_seeds = res->db_seeds;
    out->db_opens = res->db_opens;
    if (err == SOW_OK) {
        out->sol = res->search.sol;
        memcpy(out->move_exact, res->search.move_exact, sizeof out->move_exact);
        out->how = SOW_ENGINE_EXACT;
        out->lower = out->upper = res->search.sol.score;
    } else if (err == SOW_E_INTERRUPTED) {
        err = cut_answer(e, p, end, q->all_moves, res, out, why, why_size);
    }
    free(res);
    return err;
}

sow_err sow_engine_evaluate(sow_engine *e, const sow_pos *p, const sow_engine_question *q,
                            sow_engine_answer *out, char *why, size_t why_size)
{
    char msg[SOW_WHY];
    why = sow_why_or(why, &why_size, msg);
    double t0 = sow_now();
    memset(out, 0, sizeof *out);
    e->book_hit = false;
    out->all_moves = q->all_moves;
    out->sol.best = -1;
    double end = q->deadline > 0 ? q->deadline : t0 + q->seconds;
    double seconds = q->seconds > 0 ? q->seconds : end - t0;
    if (q->deadline <= 0 && !(q->seconds > 0))
        return sow_fail(why, why_size, SOW_E_ARG, "a question needs a time (seconds > 0)");
    if (sow_position_check(&e->g, p) != SOW_OK)
        return sow_fail(why, why_size, SOW_E_POSITION, "not a position of this game");
    e->questions++;
    if (sow_over(&e->g, p)) {
        out->sol.score = out->lower = out->upper = sow_terminal_score(&e->g, p);
        out->how = SOW_ENGINE_EXACT;
        finish(e, out, t0);
        return SOW_OK;
    }
    if (!q->pie_opening && engine_book_answer(e, p, q->all_moves, out)) {
        finish(e, out, t0);
        return SOW_OK;
    }
    sow_err err = judge(e, p, q, seconds, end, out, why, why_size);
    if (err == SOW_OK)
        finish(e, out, t0);
    return err;
}
