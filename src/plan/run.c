/* run.c - running a solve plan (sow_plan_solve): the trial, the
 * database, the search and the database's growth while the search
 * outlasts the next step's build; and the oracle glue between a database
 * and the search.
 *
 * Each constant keeps its one-line reason here; the measurements behind
 * them are in doc/experiments.md ("Solve plan cost model"), the policy in
 * doc/search.md.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "msg.h"
#include "internal.h"
#include "sow/refsolve.h"
#include "sow/rules.h"

/* A database that may grow steps up (GROW_STEP) not before its search has
 * run this many times the model's guess: growth mends a model that is
 * wrong (Chungkala), not one that is noisy (Kalah, its fit: 0.6-2.6 times
 * in results/kalah.md, loaded). */
#define GROW_MODEL_SLACK 3.0
/* The load a build measures (its seconds over the model's) scales the
 * search's modelled time only from a build this long (a shorter one is
 * mostly files and locks), and at most by this much. */
#define LOAD_MIN_BUILD 0.5
#define LOAD_MAX_SLOWDOWN 10.0
/* Nor from a build (or load) the model puts under this many seconds, and
 * no rate is measured on one: its time is files, fsync and page faults,
 * whatever the load (a CI run took an 8-seed Chungkala(6) open, a few ms
 * of work, for a machine 10 times slower and never grew: test_db_grows). */
#define LOAD_MIN_MODELLED 0.2
/* A trial cut by its wall seconds with less than this share of its CPU
 * seconds spent (a loaded machine) runs on for the rest. */
#define TRIAL_CPU_SHARE 0.9
/* A build the model misjudged is cut at its last complete seed count once
 * it has taken this many times its share of the time left ... */
#define BUILD_OVERRUN 1.5
/* ... leaving the search at least this share. */
#define SEARCH_MIN_SHARE 0.2
/* Where the game cycles, the search above a database that may grow runs
 * for this share of the next step's build (CYCLE_STEP_SEEDS more): a
 * board that needs the complete database pays at most this share of the
 * steps' builds more (Toguz 5x2: about 1.25 times; internal.h,
 * CYCLE_SHORT_SEEDS). */
#define CYCLE_GROW_SHARE 0.25

static int db_probe(const void *ctx, const sow_pos *p)
{
    return sow_db_probe(ctx, p);
}

static void db_prefetch(const void *ctx, const sow_pos *p)
{
    sow_db_prefetch(ctx, p);
}

static const int8_t *db_entry(const void *ctx, const sow_pos *p)
{
    return sow_db_entry(ctx, p);
}

static void db_locate(const void *ctx, const sow_pos *p, sow_oracle_loc *loc)
{
    _Static_assert(sizeof(sow_db_loc) <= sizeof *loc, "a database's place fits the oracle's");
    sow_db_loc l;
    sow_db_locate(ctx, p, &l);
    memcpy(loc, &l, sizeof l); /* copied, not aliased: the two types differ */
}

static int db_read(const void *ctx, const sow_oracle_loc *loc)
{
    sow_db_loc l;
    memcpy(&l, loc, sizeof l);
    return sow_db_read(ctx, &l);
}

/* The root's answer from the database, as a search result: every move
 * exact, and a principal variation read move by move (South's opening
 * turn under the pie rule scored as the root scores it). */
static sow_err answer_from_db(const sow_db *db, const sow_game *g, const sow_pos *pos,
                              bool pie_opening, sow_search_result *r)
{
    sow_err e = sow_db_probe_root(db, g, pos, pie_opening, &r->sol);
    if (e)
        return e;
    for (int i = 0; i < r->sol.nmoves; i++)
        r->move_exact[i] = true;
    r->lower = r->upper = r->sol.score;
    r->oracle_probes = r->sol.nodes;
    r->pv_len = 0;
    sow_pos p = *pos;
    int best = r->sol.best;
    sow_move mv = best >= 0 ? r->sol.moves[best] : 0;
    while (best >= 0 && r->pv_len < SOW_PV_MAX) {
        r->pv[r->pv_len++] = mv;
        sow_make(g, &p, mv);
        pie_opening = pie_opening && sow_pos_to_move(&p) == SOW_SOUTH;
        if (sow_over(g, &p))
            break;
        sow_solution s;
        e = sow_db_probe_root(db, g, &p, pie_opening, &s);
        if (e)
            return e;
        r->sol.nodes += s.nodes;
        best = s.best;
        mv = best >= 0 ? s.moves[best] : 0;
    }
    return SOW_OK;
}

static bool stopped(const sow_limits *L)
{
    return L->stop && __atomic_load_n(L->stop, __ATOMIC_RELAXED);
}

/* Bounds on the root score before any search: the banked stores plus or
 * minus every seed left (and a tie-break). */
static void wide_bounds(const sow_game *g, const sow_pos *pos, int board, sow_search_result *r)
{
    int banked = (pos->b[SOW_B_STORE] - pos->b[SOW_HALF + SOW_B_STORE]) * g->score_scale;
    r->lower = banked - board * g->score_scale - 1;
    r->upper = banked + board * g->score_scale + 1;
    r->sol.nmoves = sow_moves(g, pos, r->sol.moves);
    r->sol.best = -1;
}

/* Where the game cycles and a line above the database outgrew the path
 * search's stack: the fixpoint of every position above the database
 * reachable from pos (sow_ref_solve_above), within the memory the table
 * and database leave, within `seconds` (0: no limit). Every move's value;
 * the principal variation is the best move only. SOW_E_LIMIT if that
 * graph does not fit either, SOW_E_INTERRUPTED (with the reason) if the
 * time runs out. */
static sow_err solve_above_db(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                              const sow_db *db, double seconds, sow_plan_result *out, char *why,
                              size_t why_size)
{
    uint64_t used = (uint64_t)plan->tt_mb * MB + out->db_bytes;
    if (used >= plan->limits.memory)
        return SOW_E_LIMIT;
    sow_oracle oracle;
    sow_plan_oracle(db, out->db_seeds, &oracle);
    double t0 = sow_now();
    sow_search_result *r = &out->search;
    /* Into a copy: a fixpoint that fails leaves the search's answer. */
    sow_solution sol;
    sow_err e = sow_ref_solve_above(g, pos, &oracle, (plan->limits.memory - used) / MB, seconds,
                                    &sol);
    if (e) {
        const char *what = e == SOW_E_LIMIT ? "do not fit the memory"
                                            : "were not solved in the time left";
        /* Within a time limit the bounds the search proved are the answer. */
        if (e == SOW_E_LIMIT && seconds > 0)
            e = SOW_E_INTERRUPTED;
        if (e == SOW_E_LIMIT || e == SOW_E_INTERRUPTED)
            sow_fail(why, why_size, e, "a line of play is longer than the search stack, and the "
                     "positions above the database %s", what);
        return e;
    }
    r->sol = sol;
    for (int k = 0; k < r->sol.nmoves; k++)
        r->move_exact[k] = true;
    r->pv_len = r->sol.best >= 0 ? 1 : 0;
    if (r->pv_len)
        r->pv[0] = r->sol.moves[r->sol.best];
    r->lower = r->upper = r->sol.score;
    r->mtd_probes = 0;
    r->seconds = r->seconds_value = sow_now() - t0;
    return SOW_OK;
}

/* Seconds to build a j-seed database: the model's, or at the rate the
 * last build measured where that is slower (a loaded machine). */
static double build_guess(const sow_game *g, const sow_plan *plan, const sow_plan_result *r,
                          int j)
{
    const sow_limits *L = &plan->limits;
    double t = plan_build_seconds(g, j, L->threads, L->memory);
    if (r->db_last_seconds >= 1.0 &&
        plan_build_seconds(g, r->db_seeds, L->threads, L->memory) >= LOAD_MIN_MODELLED) {
        double measured = (double)sow_db_bytes(g, j) * r->db_last_seconds / (double)r->db_bytes;
        if (measured > t)
            t = measured;
    }
    return t;
}

/* The search's time above a database that may grow: as long as the next
 * step would take to build, at least the trial's and GROW_MODEL_SLACK
 * times the model's guess for the search. Then the database
 * grows to the biggest whose build takes no longer than the search did:
 * building and searching then take turns of about equal length, each
 * step at least GROW_STEP times the last, so the waste stays within a
 * small factor of the best size in hindsight. */
static double grow_budget(const sow_game *g, const sow_plan *plan, const sow_plan_result *r)
{
    int step = plan_grow_step(g, r->db_seeds, plan->db_grow_seeds);
    double t = build_guess(g, plan, r, step);
    /* With cycles a share of what the next step adds, and no floor (the
     * model has no search law there). What it adds is the model's, or at
     * the last open's seconds over the bytes it holds where that is slower
     * (after a growth step, an underestimate): small builds are mostly
     * files and fsync (Toguz 5x1: 8 seeds in 0.10 s, modelled 0.02 s). */
    if (g->cycles) {
        double next = (double)sow_db_bytes(g, step) - (double)r->db_bytes;
        double rest = t - build_guess(g, plan, r, r->db_seeds);
        if (r->db_bytes > 0 && r->db_last_seconds * next / (double)r->db_bytes > rest)
            rest = r->db_last_seconds * next / (double)r->db_bytes;
        return CYCLE_GROW_SHARE * fmax(rest, 0);
    }
    double model = GROW_MODEL_SLACK * plan_search_cost(g, plan->board_seeds, r->db_seeds,
                                                  plan->limits.threads, plan->limits.value_only);
    /* The model counts a quiet machine's seconds; on a loaded one the
     * last build measured how much slower the clock runs, and the search
     * runs as much slower (without this, Congkak 7x7 at load 15 on two
     * cores grew its database for a search that needed no more time than
     * the load gave it: results/plan.md). */
    double modelled = plan_build_seconds(g, r->db_seeds, plan->limits.threads, plan->limits.memory);
    if (modelled >= LOAD_MIN_MODELLED && r->db_last_seconds >= LOAD_MIN_BUILD &&
        r->db_last_seconds > modelled)
        model *= fmin(r->db_last_seconds / modelled, LOAD_MAX_SLOWDOWN);
    t = t > model ? t : model;
    return t > TRIAL_SECONDS ? t : TRIAL_SECONDS;
}

static int grow_to(const sow_game *g, const sow_plan *plan, const sow_plan_result *r,
                   double searched, double build_max)
{
    int j = plan_grow_step(g, r->db_seeds, plan->db_grow_seeds);
    int d = g->level_step;
    while (j < plan->db_grow_seeds && build_guess(g, plan, r, j + d) <= searched &&
           build_guess(g, plan, r, j + d) <= build_max)
        j += d;
    return j;
}

/* Opens the database of `step` (step->db_seeds) and records in *r what it
 * holds: fewer seeds when the time limit cut its build (r->db_cut; *db
 * NULL when not one seed count was complete). */
static sow_err open_step(const sow_game *g, const sow_plan *step, const sow_plan_callbacks *cb,
                         sow_db **db, sow_oracle *oracle, sow_plan_result *r, char *why,
                         size_t why_size)
{
    if (cb->phase)
        cb->phase(cb->ctx, "database");
    double d0 = sow_now();
    sow_err e = sow_plan_open_db(g, step, cb, db, oracle, why, why_size);
    r->db_last_seconds = sow_now() - d0;
    r->db_seconds += r->db_last_seconds;
    if (e)
        return e;
    if (*db)
        r->db_opens++;
    int k = *db ? (*db)->max_seeds : 0;
    if (k < step->db_seeds)
        r->db_cut = true;
    r->db_seeds = k;
    r->db_bytes = k > 0 ? sow_db_bytes(g, k) : 0;
    r->db_held_bytes = *db ? sow_db_size(*db) : 0;
    return SOW_OK;
}

/* Opens the next step's database (closed the last one first: the two are
 * never held together) and records it in *r. */
static sow_err grow_db(const sow_game *g, const sow_plan *plan, const sow_plan_callbacks *cb,
                       int next, sow_db **db, sow_oracle *oracle, sow_plan_result *r,
                       char *why, size_t why_size)
{
    sow_plan step = *plan;
    step.db_seeds = next;
    step.db_bytes = sow_db_bytes(g, next);
    step.db_budget = plan_room_beside(g, &plan->limits, plan->tt_mb);
    step.root_in_db = false; /* the search above it goes on: copied */
    return open_step(g, &step, cb, db, oracle, r, why, why_size);
}

/* The biggest database up to k seeds whose modelled build (of what the
 * folder lacks) fits the plan's share of `left` seconds: k without a time
 * limit. The model may have been made with more time than is left now (a
 * trial ran, or the caller waited). */
static int fit_time(const sow_game *g, const sow_plan *plan, int k, double left)
{
    if (!isfinite(left))
        return k;
    while (k > 0 && plan_missing_build_seconds(g, plan->limits.threads, plan->limits.memory, k,
                                                 plan->db_files) >
                        plan->build_share * left)
        k -= g->level_step;
    return k > 0 ? k : 0;
}

/* The run's solver: the one the caller lends (*lent, then NULL), its
 * question options set from the plan, or a new one. */
static sow_err new_search(const sow_game *g, const sow_plan *plan, const sow_plan_callbacks *cb,
                          sow_search **lent, sow_search **s, char *why, size_t why_size)
{
    const sow_limits *L = &plan->limits;
    sow_search_options so = {
        .threads = L->threads,
        .tt_mb = plan->tt_mb,
        .pie_opening = L->pie_opening,
        .value_only = L->value_only,
        .pv_max = SOW_PV_MAX,
        .progress = cb->search_progress,
        .progress_ctx = cb->ctx,
        .progress_every = cb->progress_every,
        .stop = L->stop,
    };
    if (lent && *lent) {
        *s = *lent;
        *lent = NULL;
        sow_search_set_oracle(*s, NULL); /* its last oracle may be closed */
        return sow_search_set_question(*s, &so);
    }
    sow_err e = sow_search_new(g, &so, s);
    if (e == SOW_E_NOMEM)
        return sow_fail(why, why_size, e, "cannot allocate a %zu MB transposition table",
                        plan->tt_mb);
    if (e)
        return sow_fail(why, why_size, e, "%s", sow_err_name(e));
    return SOW_OK;
}

/* One run of a plan: what its phases share. */
typedef struct {
    const sow_game *g;
    const sow_pos *pos;
    const sow_plan *plan;
    const sow_plan_callbacks *cb;
    sow_plan_result *out;
    char *why;
    size_t why_size;
    /* Every phase, the database's build included, ends by `end`. */
    double end;
    sow_plan run; /* the plan, with the database the time left allows */
    sow_search *s;
    sow_db *db;
    sow_oracle oracle;
    sow_plan_held *held; /* the caller's, or NULL */
} plan_run;

/* The trial: a search without a database for plan->trial_seconds of its
 * threads' CPU (R->s made). The search's limit is wall clock; on a loaded
 * machine the same wall seconds hold less of the search the model
 * counts, so a trial cut with less than TRIAL_CPU_SHARE of its CPU spent
 * runs again (its table kept) for what it lacks, within
 * LOAD_MAX_SLOWDOWN times its wall seconds (doc/search.md, "the trial").
 * True when it ends the run (*e: solved, stopped or failed). */
static bool run_trial(plan_run *R, sow_err *e)
{
    sow_plan_result *out = R->out;
    if (R->cb->phase)
        R->cb->phase(R->cb->ctx, "trial");
    double want = R->plan->trial_seconds, threads = R->plan->limits.threads;
    double c0 = sow_cpu_now(), w0 = sow_now(), got = 0;
    uint64_t nodes = 0;
    for (;;) {
        double t = plan_time_left(R->end, sow_now());
        double wall = LOAD_MAX_SLOWDOWN * want - (sow_now() - w0);
        double step = want - got;
        step = step < wall ? step : wall;
        sow_search_set_time_limit(R->s, t < step ? t : step);
        *e = t > 0 && step > 0 ? sow_search_solve(R->s, R->pos, &out->search) : SOW_E_INTERRUPTED;
        nodes += out->search.sol.nodes;
        got = (sow_cpu_now() - c0) / threads;
        if (*e != SOW_E_INTERRUPTED || stopped(&R->plan->limits) || t <= step ||
            got >= TRIAL_CPU_SHARE * want || sow_now() - w0 >= LOAD_MAX_SLOWDOWN * want)
            break;
    }
    out->cpu_seconds += sow_cpu_now() - c0;
    out->search.sol.nodes = nodes;
    if (*e == SOW_OK) {
        out->trial_solved = true;
        return true;
    }
    out->trial_nodes = nodes;
    /* With cycles a line may outgrow the search's stack without a
     * database: the database's path (and its fixpoint) answers that. */
    if (*e == SOW_E_LIMIT && R->g->cycles && !stopped(&R->plan->limits)) {
        *e = SOW_OK;
        return false;
    }
    if (*e != SOW_E_INTERRUPTED || stopped(&R->plan->limits))
        return true;
    *e = SOW_OK;
    return false;
}

/* The database: the plan's, or the biggest the time left builds. True
 * when it ends the run (*e: no time left, or it failed). */
static bool run_database(plan_run *R, sow_err *e)
{
    const sow_plan *plan = R->plan;
    if (plan_time_left(R->end, sow_now()) <= 0) {
        *e = SOW_E_INTERRUPTED;
        return true;
    }
    R->run.db_seeds = fit_time(R->g, plan, plan->db_seeds, plan_time_left(R->end, sow_now()));
    if (R->run.db_seeds < plan->db_seeds)
        R->out->db_cut = true;
    if (R->run.db_seeds > 0) {
        R->run.db_bytes = sow_db_bytes(R->g, R->run.db_seeds);
        R->run.root_in_db = R->run.db_seeds >= plan->board_seeds;
        *e = open_step(R->g, &R->run, R->cb, &R->db, &R->oracle, R->out, R->why, R->why_size);
        if (*e != SOW_OK)
            return true;
        R->out->db_first_seeds = R->out->db_seeds;
    }
    return false;
}

/* The caller's database, when it holds what the plan asks for: taken
 * into the run (true). Else it is closed, so that the run never holds
 * two. */
static bool take_held_db(plan_run *R)
{
    sow_plan_held *h = R->held;
    if (!h || !h->db)
        return false;
    if (h->db->max_seeds < R->plan->db_seeds) {
        sow_db_close(h->db);
        h->db = NULL;
        return false;
    }
    R->db = h->db;
    h->db = NULL;
    int k = R->db->max_seeds;
    sow_plan_oracle(R->db, k, &R->oracle);
    R->run.db_seeds = k;
    R->run.db_bytes = sow_db_bytes(R->g, k);
    R->out->db_seeds = R->out->db_first_seeds = k;
    R->out->db_bytes = R->run.db_bytes;
    R->out->db_held_bytes = sow_db_size(R->db);
    return true;
}

/* The answer where the database holds the root: probed, not searched. */
static sow_err run_probe(plan_run *R)
{
    sow_plan_result *out = R->out;
    if (R->cb->phase)
        R->cb->phase(R->cb->ctx, "probe");
    uint64_t trial = out->trial_nodes;
    double p0 = sow_now();
    memset(&out->search, 0, sizeof out->search);
    sow_err e = answer_from_db(R->db, R->g, R->pos, R->plan->limits.pie_opening, &out->search);
    if (e)
        return sow_fail(R->why, R->why_size, e, "probing the root: %s", sow_err_name(e));
    out->search.seconds = out->search.seconds_value = sow_now() - p0;
    out->search.sol.nodes += trial;
    return SOW_OK;
}

/* One search above the database as it stands, cut (*cut) after the grow
 * budget when the next step's build fits the time left; *w0 when it
 * started. */
static sow_err search_once(plan_run *R, bool *cut, double *w0)
{
    const sow_game *g = R->g;
    const sow_plan *plan = R->plan;
    const sow_limits *L = &plan->limits;
    sow_plan_result *out = R->out;
    *cut = false;
    if (R->cb->phase)
        R->cb->phase(R->cb->ctx, "search");
    sow_search_set_oracle(R->s, R->db ? &R->oracle : NULL);
    /* What is left of the time limit. */
    double left = plan_time_left(R->end, sow_now());
    if (left <= 0)
        return SOW_E_INTERRUPTED;
    double build_max = plan->build_share * left;
    bool grows = R->db && !out->db_cut && out->db_seeds < plan->db_grow_seeds &&
                 build_guess(g, plan, out, plan_grow_step(g, out->db_seeds, plan->db_grow_seeds)) <=
                     build_max;
    double budget = grows ? grow_budget(g, plan, out) : 0;
    *cut = grows && budget < left;
    sow_search_set_time_limit(R->s, *cut ? budget : isfinite(left) ? left : 0);
    double c0 = sow_cpu_now();
    *w0 = sow_now();
    sow_err e = sow_search_solve(R->s, R->pos, &out->search);
    /* With cycles a line may outgrow the search's stack above a database
     * that can still grow: the complete one answers that. */
    if (e == SOW_E_LIMIT && g->cycles && grows && !stopped(L)) {
        *cut = true;
        e = SOW_E_INTERRUPTED;
    }
    /* The fixpoint above the database, within what is left of the time
     * (the bounds the search proved are the answer if it runs out). */
    if (e == SOW_E_LIMIT && g->cycles && R->db && !L->pie_opening) {
        double t = R->end > 0 ? plan_time_left(R->end, sow_now()) : 0;
        if (R->end > 0 && t <= 0)
            e = sow_fail(R->why, R->why_size, SOW_E_INTERRUPTED,
                         "a line of play is longer than the search stack, and the time limit "
                         "leaves no time for the positions above the database");
        else
            e = solve_above_db(g, R->pos, plan, R->db, t, out, R->why, R->why_size);
    }
    out->cpu_seconds += sow_cpu_now() - c0;
    return e;
}

/* After a search cut at w0 + its budget: the database grows to the
 * biggest step whose build takes no longer than that search did. */
static sow_err grow_after(plan_run *R, double w0)
{
    const sow_plan *plan = R->plan;
    sow_plan_result *out = R->out;
    double searched = sow_now() - w0;
    int next = grow_to(R->g, plan, out, searched,
                       plan->build_share * plan_time_left(R->end, sow_now()));
    if (R->cb->db_grow)
        R->cb->db_grow(R->cb->ctx, out->db_seeds, next, searched);
    sow_db_close(R->db);
    R->db = NULL;
    /* On failure (stopped while building) out->search keeps the bounds
     * and the nodes of the search just cut. */
    return grow_db(R->g, &R->run, R->cb, next, &R->db, &R->oracle, out, R->why, R->why_size);
}

/* The search, and while it outlasts the next step's build, the
 * database's growth (plan->db_grow_seeds). */
static sow_err run_search(plan_run *R)
{
    sow_plan_result *out = R->out;
    /* The time cut the database that held the root: the search goes on
     * where the exact solver can, else the bounds are all there is. */
    if (!sow_search_exact(R->g, R->pos))
        return SOW_E_INTERRUPTED;
    sow_err e;
    if (!R->s && (e = new_search(R->g, R->plan, R->cb, R->held ? &R->held->search : NULL, &R->s,
                                     R->why, R->why_size)) != SOW_OK)
        return e;
    uint64_t spent = out->trial_nodes; /* nodes of the searches cut short */
    for (;;) {
        bool cut;
        double w0;
        e = search_once(R, &cut, &w0);
        if (e != SOW_E_INTERRUPTED || !cut || stopped(&R->plan->limits))
            break;
        if ((e = grow_after(R, w0)) != SOW_OK)
            break;
        spent += out->search.sol.nodes;
    }
    out->search.sol.nodes += spent;
    return e;
}

/* Every run ends here: the message its error lacks, and the search and
 * database freed. */
static sow_err run_finish(plan_run *R, sow_err e, double t0)
{
    const sow_limits *L = &R->plan->limits;
    if (e == SOW_E_LIMIT && !R->why[0])
        sow_fail(R->why, R->why_size, e,
                 "a line of play is longer than the search stack");
    else if (e && !R->why[0])
        sow_fail(R->why, R->why_size, e, "%s",
                 e == SOW_E_INTERRUPTED ? (stopped(L) ? "interrupted" : "time limit")
                                        : sow_err_name(e));
    if (R->held) {
        sow_db_close(R->held->db); /* set only if the run never took it */
        R->held->db = R->db;
        if (!R->held->search)
            R->held->search = R->s;
        else if (R->s)
            sow_search_free(R->s);
    } else {
        if (R->s)
            sow_search_free(R->s);
        sow_db_close(R->db);
    }
    R->out->seconds = sow_now() - t0;
    return e;
}

sow_err sow_plan_solve(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                       const sow_plan_callbacks *cb, sow_plan_result *out, char *why,
                       size_t why_size)
{
    return sow_plan_solve_held(g, pos, plan, cb, NULL, out, why, why_size);
}

sow_err sow_plan_solve_held(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                            const sow_plan_callbacks *cb, sow_plan_held *held,
                            sow_plan_result *out, char *why, size_t why_size)
{
    static const sow_plan_callbacks none = {0};
    if (!cb)
        cb = &none;
    char msg[SOW_WHY]; /* errors below add a message unless one was given */
    why = sow_why_or(why, &why_size, msg);
    const sow_limits *L = &plan->limits;
    double t0 = sow_now();
    plan_run R = {
        .g = g, .pos = pos, .plan = plan, .cb = cb, .out = out,
        .why = why, .why_size = why_size,
        .end = L->deadline > 0 ? L->deadline : L->time_limit > 0 ? t0 + L->time_limit : 0,
        .run = *plan,
        .held = held,
    };
    R.run.limits.deadline = R.end;
    memset(out, 0, sizeof *out);
    wide_bounds(g, pos, plan->board_seeds, &out->search);
    sow_err e = SOW_OK;

    bool held_db = take_held_db(&R);
    if (plan->trial_seconds > 0 && !held_db) {
        if ((e = new_search(g, plan, cb, held ? &held->search : NULL, &R.s, why, why_size)) !=
            SOW_OK)
            return run_finish(&R, e, t0);
        if (run_trial(&R, &e))
            return run_finish(&R, e, t0);
    }
    if (!held_db && run_database(&R, &e))
        return run_finish(&R, e, t0);
    if (R.db && out->db_seeds >= plan->board_seeds)
        return run_finish(&R, run_probe(&R), t0);
    return run_finish(&R, run_search(&R), t0);
}

void sow_plan_oracle(const sow_db *db, int max_seeds, sow_oracle *out)
{
    /* A packed level has no byte to point at: locate and read then. */
    *out = (sow_oracle){max_seeds, db_probe, db, db_prefetch, db->packed ? NULL : db_entry,
                        db->packed ? db_locate : NULL, db->packed ? db_read : NULL};
}

sow_err sow_plan_open_db(const sow_game *g, const sow_plan *plan,
                         const sow_plan_callbacks *cb, sow_db **db, sow_oracle *oracle,
                         char *why, size_t why_size)
{
    static const sow_plan_callbacks none = {0};
    if (!cb)
        cb = &none;
    *db = NULL;
    if (plan->db_seeds <= 0)
        return sow_fail(why, why_size, SOW_E_ARG, "no database planned");
    const sow_limits *L = &plan->limits;
    /* With a time limit a build the model misjudged stops at its last
     * complete seed count, leaving the search its share: not for a fixed
     * database, whose every unit expects the seeds planned. */
    double now = sow_now(), left = plan_time_left(L->deadline, now);
    double cut = BUILD_OVERRUN * plan->build_share;
    if (cut > 1 - SEARCH_MIN_SHARE)
        cut = 1 - SEARCH_MIN_SHARE;
    bool partial = isfinite(left) && !L->fixed_db;
    sow_db_options o = {
        .threads = L->threads,
        .memory = plan->db_budget,
        .in_place = plan->root_in_db || plan->db_in_place,
        .read_ahead = !plan->root_in_db && isfinite(left) &&
                      (double)plan->db_bytes <= SOW_PLAN_READ_RATE * left,
        .progress = cb->db_progress,
        .progress_ctx = cb->ctx,
        .stop = L->stop,
        .make_dir = true,
        .wait = cb->db_wait,
        .wait_ctx = cb->ctx,
        .deadline = partial ? now + cut * left : 0,
        .keep_partial = partial,
        /* a copy the model misjudged (a cold disk) leaves the rest in place */
        .copy_deadline = isfinite(left) ? now + cut * left : 0,
    };
    char w[SOW_WHY];
    sow_err e = sow_db_open(g, plan->db_seeds, L->db_dir, &o, db, w, sizeof w);
    if (e == SOW_E_INTERRUPTED && partial && !stopped(L))
        return SOW_OK; /* the time cut it before its first seed count */
    if (e) {
        snprintf(why, why_size, "database up to %d seeds: %s", plan->db_seeds, w);
        return e;
    }
    if ((*db)->max_seeds < 1) { /* cut before its first seed count: no help */
        sow_db_close(*db);
        *db = NULL;
        return SOW_OK;
    }
    sow_plan_oracle(*db, (*db)->max_seeds, oracle);
    return SOW_OK;
}
