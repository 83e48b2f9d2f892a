/* plan.c - the solve plan (sow/plan.h): the decisions. The cost model
 * (model.c) decides the table, the database and the trial once;
 * sow_plan_solve (run.c) runs them.
 *
 * Each constant keeps its one-line reason here; the measurements behind
 * them are in doc/experiments.md ("Solve plan cost model"), the policy in
 * doc/search.md.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "msg.h"
#include "internal.h"
#include "sow/rules.h"

/* A trial without a database is at least this share of the modelled
 * build of what the store lacks, per unit of the ratio of that build to
 * the modelled search without a database (doc/search.md, "the trial"). */
#define TRIAL_MODEL_SLACK 3.0
/* ... times this at most: a trial then costs at most half the build
 * where the build was right (a plan within 1.5 times the best fixed
 * choice), and a search that needs less ends in it. A trial as long as the
 * build, plus 0.3 s, cost Kalah 4x5 three times its best choice (0.80 s
 * CPU against 0.25 s with 19 seeds; doc/experiments.md). */
#define TRIAL_BUILD_SHARE 0.5
/* ... and at least this, up to TRIAL_SECONDS: a process's start, and the
 * small boards solved in it. */
#define TRIAL_FLOOR_SECONDS 0.05
/* Toguz (cycles): where the complete database does not fit, the longest
 * build the plan chooses by itself: above the database a search with
 * cycles shares little, so the biggest database within this time is the
 * plan. */
#define CYCLE_BUILD_SECONDS 20.0
/* ... and tries the search without a database first for this share of
 * the build (plan_trial). */
#define CYCLE_TRIAL_SHARE 0.25
#define CYCLE_TRIAL_SECONDS 0.3
/* With a time limit, a trial search takes at most this share of the time
 * left. */
#define TRIAL_TIME_SHARE 0.5
/* A smaller budget is worth a warning when the model expects the solve to
 * take this many times longer than with the default budget. */
#define DEGRADED_RATIO 1.5

/* The database sizes a board of `board` seeds can use are those its
 * seeds reach (sow_db_level_in): board - j * g->level_step. The smallest
 * of them above 0, and the largest up to `k`. */
static int db_first(const sow_game *g, int board)
{
    int k = 1;
    while (!sow_game_levels_meet(g, board, k))
        k++;
    return k;
}

static int db_below(const sow_game *g, int board, int k)
{
    while (k > 0 && !sow_game_levels_meet(g, board, k))
        k--;
    return k;
}

/* The default database size within lim->memory: the k that minimises the
 * modelled build (of what the folder lacks: it holds 0..have) plus search
 * with the game's fitted constants, among those whose build takes at most
 * `build_max` seconds and less than the modelled search without any
 * database (a build that costs more than the search it spares is never
 * worth starting). */
static int choose_db_seeds(const sow_game *g, const sow_limits *lim, int board, int have,
                           double build_max)
{
    int kmax = sow_retro_max_seeds(g);
    if (kmax > board)
        kmax = board;
    int best = 0;
    double best_cost = plan_search_cost(g, board, 0, lim->threads, lim->value_only);
    double no_db = best_cost;
    for (int k = db_first(g, board); k <= kmax; k += g->level_step) {
        uint64_t bytes = plan_db_hold(g, lim, k);
        if (bytes == UINT64_MAX || bytes > lim->memory)
            break;
        double build = plan_missing_build_seconds(g, lim->threads, lim->memory, k, have);
        if (build > build_max || build >= no_db)
            break;
        if (!plan_fits(g, lim, board, k))
            continue;
        double cost = build + plan_opened_search(plan_copy_seconds(g, lim, k, have),
                                                 plan_search_cost(g, board, k, lim->threads,
                                                                  lim->value_only));
        if (cost < best_cost) {
            best_cost = cost;
            best = k;
        }
    }
    return best;
}

/* The biggest database the search may grow to from a k-seed one: the
 * largest that fits (with its builder's scratch) beside the table sized
 * for k, short of the whole
 * board (the model's guess is only a guess: Chungkala, with no capture,
 * descends to a database far slower than Kalah, its fit: doc/
 * experiments.md, "The database grows"). 0: none bigger fits. */
static int grow_limit(const sow_game *g, const sow_limits *lim, int board, int k)
{
    int kmax = sow_retro_max_seeds(g) < board - 1 ? sow_retro_max_seeds(g) : board - 1;
    uint64_t room = plan_room_beside(g, lim, plan_table_mb(g, lim, board, k));
    int best = 0;
    for (int j = k + g->level_step; j <= kmax; j += g->level_step) {
        /* Building it takes its scratch too (a faster build rate made the
         * growth jump to the limit, where the scratch did not fit): the
         * build's peak, the levels below j as the folder will hold them. */
        size_t bytes = sow_db_build_bytes(g, j, lim->db_dir, false);
        if (bytes == SIZE_MAX || bytes > room)
            break;
        best = j;
    }
    return best;
}

/* A memory need of `mib` MiB as advice: an option to pass while a
 * machine could hold it (under a tebibyte), else the size alone
 * ("5.0 EiB"): a --memory of millions of MB is no advice. */
static void need_text(double mib, char *buf, size_t size)
{
    static const char *big[] = {"TiB", "PiB", "EiB"};
    if (mib < 1024)
        snprintf(buf, size, "--memory %.0fM", ceil(mib));
    else if (mib < 1024.0 * 1024)
        snprintf(buf, size, "--memory %.0fG", ceil(mib / 1024));
    else {
        int u = 0;
        double v = mib / (1024.0 * 1024);
        while (v >= 1024 && u < 2) {
            v /= 1024;
            u++;
        }
        snprintf(buf, size, "%.1f %s of memory, out of reach", v, big[u]);
    }
}

/* Games that cycle. Above the database a search shares little between
 * captures and can blow up (Toguz 5x2: over 2.4e9 nodes in ten minutes
 * above an 18-seed database, 33 s with all 20: doc/experiments.md,
 * "Toguz: the complete database"), so the plan aims at the complete
 * database (every seed on the board; the root is then one probe) whenever
 * it fits the memory, however long it builds (its progress is shown; a
 * time limit still bounds it): it starts CYCLE_SHORT_SEEDS short (a
 * board of no more seeds than that: one step short) and grows while the
 * search above outlasts its share (run.c), since most boards end sooner
 * above less (Toguz 5x1 took the complete database at once: twice its
 * best fixed choice, results/plan-last-c.md). Levels the --db folder
 * holds cost no build and no scratch. Otherwise the biggest that fits and builds within
 * CYCLE_BUILD_SECONDS by the model, and the reason says what the complete
 * one would need. */
static sow_err plan_cycle_db(const sow_game *g, const sow_limits *lim, double build_max,
                             sow_plan *out)
{
    int board = out->board_seeds, best = 0, have = out->db_files;
    int kmax = db_below(g, board, sow_retro_max_seeds(g) < board ? sow_retro_max_seeds(g) : board);
    uint64_t need = plan_cycle_need(g, lim, board, kmax);
    double t_all = need == UINT64_MAX
                       ? INFINITY
                       : plan_missing_build_seconds(g, lim->threads, lim->memory, kmax, have);
    if (kmax == board && board > 0 && need <= lim->memory &&
        t_all <= build_max) {
        int start = board - CYCLE_SHORT_SEEDS;
        if (start <= 0) /* a small board: one step short */
            start = board - CYCLE_STEP_SEEDS;
        if (start < have)
            start = have;
        if (!lim->fixed_db && start > 0 && start < board) {
            out->db_seeds = start;
            out->db_grow_seeds = board;
            snprintf(out->why_db, sizeof out->why_db,
                     "database up to %d seeds (%.1f s modelled), %d short of the complete "
                     "one (%.0f MB, %.0f s): with cycles a search above a database can blow "
                     "up, but it often ends sooner", start,
                     plan_missing_build_seconds(g, lim->threads, lim->memory, start, have),
                     board - start,
                     plan_mib(sow_db_bytes(g, board)), t_all);
            snprintf(out->why_grow, sizeof out->why_grow,
                     "the database grows %d seeds at a time up to the complete one (%d) while "
                     "the search above it outlasts a quarter of the next step's build",
                     CYCLE_STEP_SEEDS, board);
            return SOW_OK;
        }
        out->db_seeds = board;
        snprintf(out->why_db, sizeof out->why_db,
                 "complete database, all %d seeds (%.0f MB, %.0f s modelled%s): with cycles "
                 "a search above a database can blow up", board, plan_mib(sow_db_bytes(g, board)),
                 t_all, have >= board ? ", from the folder's files" : "");
        return SOW_OK;
    }
    double secs = 0;
    for (int k = db_first(g, board); k <= kmax; k += g->level_step) {
        if (plan_cycle_need(g, lim, board, k) > lim->memory)
            break;
        double t = plan_missing_build_seconds(g, lim->threads, lim->memory, k, have);
        if (t > CYCLE_BUILD_SECONDS || t > build_max)
            break;
        best = k;
        secs = t;
    }
    out->db_seeds = best;
    char whole[96] = "";
    if (kmax == board && need != UINT64_MAX) {
        char size[48];
        need_text(plan_mib(need), size, sizeof size);
        snprintf(whole, sizeof whole, "; the complete one (%d) needs %s", board, size);
        out->db_degraded = true; /* worth saying unasked: the search may not finish */
    }
    if (board == 0)
        snprintf(out->why_db, sizeof out->why_db, "no database: no seeds on the board");
    else if (best == 0)
        snprintf(out->why_db, sizeof out->why_db,
                 "no database: the memory leaves no room for one%s", whole);
    else
        snprintf(out->why_db, sizeof out->why_db,
                 "database up to %d seeds (%.0f MB of tables, %.1f s modelled): with cycles "
                 "the biggest that fits the memory and builds within %.1f s%s", best,
                 plan_mib(sow_db_bytes(g, best)), secs,
                 build_max < CYCLE_BUILD_SECONDS ? build_max : CYCLE_BUILD_SECONDS, whole);
    return SOW_OK;
}

/* The database --db-seeds forces (no bigger than the board). */
static sow_err plan_forced_db(const sow_game *g, const sow_limits *lim, sow_plan *out,
                              char *why, size_t why_size)
{
    int board = out->board_seeds;
    int k = lim->db_seeds;
    if (k > board) {
        k = board;
        out->db_degraded = true;
    }
    /* A size the board's seeds never reach answers nothing: the one
     * below that they do, said (Toguz without tuzdik: --db-seeds 29 for
     * a board of 32 seeds holds only odd seed counts). */
    bool step_down = db_below(g, board, k) != k;
    if (step_down) {
        k = db_below(g, board, k);
        out->db_degraded = true;
    }
    if (k > sow_retro_max_seeds(g))
        return sow_fail(why, why_size, SOW_E_LIMIT,
                        "a database up to %d seeds is beyond what its entries can hold for "
                        "this game (at most %d)",
                        k, sow_retro_max_seeds(g));
    size_t tt = plan_table_mb(g, lim, board, k);
    if (!plan_fits(g, lim, board, k)) {
        uint64_t need = plan_db_hold(g, lim, k);
        return sow_fail(why, why_size, SOW_E_NOMEM,
                        "a database up to %d seeds takes %.0f MB, more than the memory "
                        "(%.0f MB) minus the %zu MB table",
                        k, need == UINT64_MAX ? INFINITY : plan_mib(need), plan_mib(lim->memory), tt);
    }
    out->db_seeds = k;
    if (step_down)
        snprintf(out->why_db, sizeof out->why_db,
                 "--db-seeds %d: this board's %d seeds leave it only %d at a time, and a "
                 "database holds only the seed counts its top reaches so: using %d",
                 lim->db_seeds, board, g->level_step, k);
    else if (out->db_degraded)
        snprintf(out->why_db, sizeof out->why_db,
                 "--db-seeds %d exceeds the %d seed%s on this board: using %d",
                 lim->db_seeds, board, board == 1 ? "" : "s", k);
    else
        snprintf(out->why_db, sizeof out->why_db, "database up to %d seeds: as asked", k);
    return SOW_OK;
}

/* The reason for the default database (out->db_seeds): the cost model's
 * choice, or what a smaller memory budget or the time limit held back. */
static void why_default_db(const sow_game *g, const sow_limits *lim, double build_max,
                           sow_plan *out)
{
    int board = out->board_seeds, k = out->db_seeds;
    double cost = plan_missing_build_seconds(g, lim->threads, lim->memory, k, out->db_files) +
                  plan_search_cost(g, board, k, lim->threads, lim->value_only);
    /* Would the default budget have planned a bigger database, and does
     * the model expect that to matter? */
    sow_limits dflt = *lim;
    dflt.memory = sow_plan_default_memory();
    int kd = dflt.memory > lim->memory ? choose_db_seeds(g, &dflt, board, out->db_files, build_max)
                                       : k;
    /* Would more time have planned a bigger one? */
    int kt = isfinite(build_max) ? choose_db_seeds(g, lim, board, out->db_files, INFINITY) : k;
    double cost_d = plan_total_cost(g, board, kd, lim->threads, lim->memory, lim->value_only);
    if (kd > k && cost > TRIAL_SECONDS && cost > DEGRADED_RATIO * cost_d) {
        out->db_degraded = true;
        if (k == 0)
            snprintf(out->why_db, sizeof out->why_db,
                     "--memory %.0f MB leaves no room for a database: searching without one "
                     "(the default %.0f MB gives a %d-seed database; expect a slower solve)",
                     plan_mib(lim->memory), plan_mib(dflt.memory), kd);
        else
            snprintf(out->why_db, sizeof out->why_db,
                     "--memory %.0f MB leaves room for a database of %d seeds only (the "
                     "default %.0f MB gives %d; expect a slower solve)",
                     plan_mib(lim->memory), k, plan_mib(dflt.memory), kd);
    } else if (kt > k) {
        snprintf(out->why_db, sizeof out->why_db,
                 "%s%d seeds: the time limit leaves %.1f s to build (half the time left); "
                 "without it the plan would take %d", k ? "database up to " : "no database, not ",
                 k ? k : kt, build_max, kt);
    } else if (k == 0) {
        snprintf(out->why_db, sizeof out->why_db,
                 board == 0 ? "no database: no seeds on the board"
                 : plan_fits(g, lim, board, 1)
                     ? "no database: by the cost model none is faster (the search without "
                       "one: %.2f s modelled)"
                     : "no database: the memory leaves no room for one",
                 plan_search_cost(g, board, 0, lim->threads, lim->value_only));
    } else {
        snprintf(out->why_db, sizeof out->why_db,
                 "database up to %d seeds (%.0f MB): the fastest by the cost model that fits "
                 "the memory beside its table (%.1f s modelled, %.1f s without a database)",
                 k, plan_mib(plan_db_hold(g, lim, k)), cost,
                 plan_search_cost(g, board, 0, lim->threads, lim->value_only));
    }
}

/* The database decision: out->db_seeds and its reason. */
static sow_err plan_db(const sow_game *g, const sow_limits *lim, double build_max,
                       sow_plan *out, char *why, size_t why_size)
{
    int board = out->board_seeds;
    if (lim->no_db || lim->db_seeds < 0) {
        snprintf(out->why_db, sizeof out->why_db, "no database: none asked for");
        return SOW_OK;
    }
    if (lim->db_seeds > 0)
        return plan_forced_db(g, lim, out, why, why_size);
    if (g->cycles)
        return plan_cycle_db(g, lim, build_max, out);
    int k = choose_db_seeds(g, lim, board, out->db_files, build_max);
    out->db_seeds = k;
    why_default_db(g, lim, build_max, out);
    if (k > 0 && !lim->fixed_db)
        out->db_grow_seeds = grow_limit(g, lim, board, k);
    if (out->db_grow_seeds)
        snprintf(out->why_grow, sizeof out->why_grow,
                 "the database grows, up to %d seeds, while the search above it outlasts the "
                 "next step's build (about %.0f times the bytes)", out->db_grow_seeds,
                 GROW_STEP);
    return SOW_OK;
}

/* The limits' defaults (threads, memory) filled in, and the checks every
 * plan needs. */
static sow_err plan_limits(const sow_game *g, const sow_pos *pos, sow_limits *L, char *why,
                           size_t why_size)
{
    if (L->threads < 0)
        return sow_fail(why, why_size, SOW_E_ARG, "threads: %d is negative",
                        L->threads);
    if (L->threads == 0)
        L->threads = sow_plan_default_threads();
    if (L->memory == 0)
        L->memory = sow_plan_default_memory();
    /* A pie opening's value is every move's (src/search/root.c, solve_pie
     * solves each one exactly): costed as a value, Kalah 5x6 with pie
     * started 3 seeds short of its best database (doc/experiments.md, "The
     * pie rule costed"). */
    if (L->pie_opening)
        L->value_only = false;
    if (L->memory < MB)
        return sow_fail(why, why_size, SOW_E_ARG,
                        "the memory budget is under 1 MB");
    if (sow_position_check(g, pos) != SOW_OK)
        return sow_fail(why, why_size, SOW_E_POSITION,
                        "not a position of this game");
    if (L->no_db && (L->db_dir || L->db_seeds > 0))
        return sow_fail(why, why_size, SOW_E_ARG,
                        "--no-db excludes --db and --db-seeds");
    if ((uint64_t)L->tt_mb * MB > L->memory)
        return sow_fail(why, why_size, SOW_E_ARG,
                        "--tt-mb %zu exceeds the memory (%.0f MB)", L->tt_mb, plan_mib(L->memory));
    return SOW_OK;
}

/* The reasons for the table and, where it does not grow, the database's
 * growth. */
static void why_table_and_growth(const sow_game *g, const sow_limits *L, sow_plan *out)
{
    int k = out->db_seeds;
    if (L->tt_mb)
        snprintf(out->why_tt, sizeof out->why_tt, "table %zu MB: as asked", out->tt_mb);
    else
        snprintf(out->why_tt, sizeof out->why_tt,
                 "table %zu MB: %d seed%s above the database; %d MB%s up to %d, doubling per "
                 "seed more, at most a quarter of the memory and %d MB%s",
                 out->tt_mb, out->board_seeds - k, out->board_seeds - k == 1 ? "" : "s",
                 L->value_only ? 4 : 16, L->value_only ? "" : " (every move's value)",
                 TT_BASE_EXCESS, TT_MAX_MB,
                 L->deadline > 0 ? " (and what the time left can fill)" : "");

    if (!out->db_grow_seeds)
        snprintf(out->why_grow, sizeof out->why_grow, "the database does not grow: %s",
                 k == 0 ? "none planned"
                 : L->db_seeds > 0 ? "its size is forced"
                 : L->fixed_db ? "kept fixed, as asked (the work units of a ledger all search above one)"
                 : g->cycles ? "with cycles the plan is the biggest that builds in time"
                 : out->root_in_db ? "it holds the position"
                                   : "no bigger one fits the memory short of the whole board");
}

/* The trial decision: a search without a database first, where one is
 * planned and the folder lacks some of it. It lasts a share of the
 * modelled build of what is missing: half of it when the model finds the
 * build barely worth it (build near the search without a database), less
 * the surer it is, at least TRIAL_FLOOR_SECONDS up to TRIAL_SECONDS. So
 * the plan has no cliff: a search the model misjudged ends in the trial
 * unless the build it gave way to is short beside the trial or the
 * model's case is strong (doc/search.md, "the trial"). */
static void plan_trial(const sow_game *g, const sow_limits *L, double left, sow_plan *out)
{
    int k = out->db_seeds, board = out->board_seeds;
    double build = plan_missing_build_seconds(g, L->threads, L->memory, k, out->db_files);
    if (k == 0) {
        snprintf(out->why_trial, sizeof out->why_trial, "no trial: no database planned");
        return;
    }
    if (L->db_seeds > 0 || build <= 0) {
        snprintf(out->why_trial, sizeof out->why_trial, "no trial: %s",
                 L->db_seeds > 0 ? "the database size is forced"
                                 : "the database folder holds the database");
        return;
    }
    if (g->cycles) {
        /* A small board's search may end sooner than the first build
         * (Toguz 3x3: 0.04 s without one, 0.15 s with), or never (Toguz
         * 4x1 without tuzdik: over 0.6 s, the database 0.06 s;
         * results/plan.md): a trial of a quarter of the modelled build,
         * up to CYCLE_TRIAL_SECONDS, costs at most a quarter of it (half
         * was a third of the plan's time on boards of a second:
         * doc/experiments.md, "Growth for games that cycle"). */
        double t = CYCLE_TRIAL_SHARE * build;
        if (t > CYCLE_TRIAL_SECONDS)
            t = CYCLE_TRIAL_SECONDS;
        if (t > TRIAL_TIME_SHARE * left)
            t = TRIAL_TIME_SHARE * left;
        out->trial_seconds = t;
        snprintf(out->why_trial, sizeof out->why_trial,
                 "a %.2g s search without a database first: with cycles the plan aims at "
                 "the complete database, but a small board may be solved sooner without one", t);
        return;
    }
    double no_db = plan_search_cost(g, board, 0, L->threads, L->value_only);
    double share = TRIAL_MODEL_SLACK * build / no_db;
    double t = TRIAL_BUILD_SHARE * build * (share < 1 ? share : 1);
    if (t < TRIAL_FLOOR_SECONDS)
        t = TRIAL_FLOOR_SECONDS;
    if (t > TRIAL_SECONDS)
        t = TRIAL_SECONDS;
    if (TRIAL_TIME_SHARE * left < t)
        t = TRIAL_TIME_SHARE * left;
    out->trial_seconds = t;
    snprintf(out->why_trial, sizeof out->why_trial,
             "a %.2g s search without a database first: the build of what the folder lacks "
             "is %.2g s modelled, the search without one %.3g s", t, build, no_db);
}

sow_err sow_plan_make(const sow_game *g, const sow_pos *pos, const sow_limits *lim,
                      sow_plan *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->limits = *lim;
    sow_limits *L = &out->limits;
    sow_err e = plan_limits(g, pos, L, why, why_size);
    if (e)
        return e;
    out->board_seeds = sow_seeds_on_board(g, pos);
    out->db_files =
        L->db_dir && !L->no_db ? sow_db_dir_levels(g, L->db_dir, out->board_seeds) : -1;
    double now = sow_now();
    if (L->deadline <= 0 && L->time_limit > 0)
        L->deadline = now + L->time_limit;
    double left = plan_time_left(L->deadline, now);
    out->build_share = SOLVE_BUILD_SHARE;

    e = plan_db(g, L, plan_build_allowance(left), out, why, why_size);
    if (e)
        return e;
    int k = out->db_seeds;
    out->tt_mb = plan_table_mb(g, L, out->board_seeds, k);
    if (k > 0) {
        out->db_bytes = plan_db_hold(g, L, k);
        out->db_budget = plan_db_room(g, L, out->board_seeds, k);
        out->root_in_db = k >= out->board_seeds;
        /* The search the copy would serve: the model's, at most the time. */
        double search = plan_search_cost(g, out->board_seeds, k, L->threads, L->value_only);
        out->db_copy_seconds = plan_copy_seconds(g, L, k, out->db_files);
        out->db_in_place = !sow_plan_copy_pays(out->db_copy_seconds, fmin(search, left),
                                               SOW_PLAN_IN_PLACE_SLOWDOWN);
    }
    if (!out->root_in_db && !sow_search_exact(g, pos))
        return sow_fail(why, why_size, SOW_E_LIMIT,
                        "%d seeds on %d pits are too many for the exact solver: its table keys "
                        "are an exact 64-bit code of the board, and this board has more codes",
                        out->board_seeds, 2 * g->m);
    why_table_and_growth(g, L, out);
    plan_trial(g, L, left, out);
    return SOW_OK;
}

/* The share of an analysis's time its database may take to build. */
#define ANALYSIS_BUILD_SHARE 0.25

/* An analysis's default database: the biggest that builds within its
 * share of the time left (TRIAL_SECONDS without a limit) beside the
 * table, the folder holding 0..have; its reason in out->why_db. */
static int analysis_db(const sow_game *g, double left, int have, sow_plan *out)
{
    int board = out->board_seeds, k = 0;
    const sow_limits *P = &out->limits;
    /* Without a time (a depth or node limit) the search's length is
     * unknown and may be a blink: only what the folder holds (builds: 0 s). */
    double budget = isfinite(left) ? ANALYSIS_BUILD_SHARE * left : 0;
    int kmax = db_below(g, board, sow_retro_max_seeds(g) < board ? sow_retro_max_seeds(g) : board);
    uint64_t tt_and_search = (uint64_t)out->tt_mb * MB + plan_search_bytes(g, P);
    uint64_t room = P->memory > tt_and_search ? P->memory - tt_and_search : 0;
    /* Levels the folder holds cost no build and no scratch. */
    for (int j = db_first(g, board); j <= kmax; j += g->level_step) {
        uint64_t bytes = plan_db_hold(g, P, j);
        if (bytes == UINT64_MAX || bytes > room ||
            plan_missing_build_seconds(g, P->threads, P->memory, j, have) > budget)
            break;
        k = j;
    }
    if (k == 0)
        snprintf(out->why_db, sizeof out->why_db,
                 board == 0 ? "no database: no seeds on the board"
                 : !isfinite(left) ? "no database: none in the folder fits beside the table "
                                     "(no time given: an analysis builds none)"
                                   : "no database: none builds within %.2f s (a quarter of "
                                     "the time left) beside the table",
                 budget);
    else
        snprintf(out->why_db, sizeof out->why_db,
                 isfinite(left) ? "database up to %d seeds (%.0f MB, %.1f s modelled): the "
                                  "biggest that builds within %.2f s (a quarter of the time "
                                  "left) beside the table"
                                : "database up to %d seeds (%.0f MB, %.1f s modelled): the "
                                  "biggest the folder holds that fits beside the table "
                                  "(no time given: an analysis builds none)", k,
                 plan_mib(plan_db_hold(g, P, k)),
                 plan_missing_build_seconds(g, P->threads, P->memory, k, have),
                 budget);
    return k;
}

sow_err sow_plan_analysis(const sow_game *g, const sow_pos *pos, const sow_limits *lim,
                          sow_plan *out, char *why, size_t why_size)
{
    sow_limits L = *lim;
    L.time_limit = 0;
    L.tt_mb = lim->tt_mb ? lim->tt_mb : 1;
    sow_plan probe;
    /* The checks and the forced and no-database cases are sow_plan_make's. */
    sow_err e = sow_plan_make(g, pos, &L, &probe, why, why_size);
    /* SOW_E_LIMIT for the board comes after the database decision
     * (db_seeds set, or none asked for); before it, a forced size beyond
     * the entries. */
    bool forced = L.db_seeds > 0;
    if (e && (e != SOW_E_LIMIT || (forced && probe.db_seeds == 0))) {
        *out = probe;
        return e;
    }
    memset(out, 0, sizeof *out);
    out->limits = probe.limits;
    out->limits.time_limit = lim->time_limit;
    out->limits.tt_mb = lim->tt_mb;
    double now = sow_now();
    if (out->limits.deadline <= 0 && lim->time_limit > 0)
        out->limits.deadline = now + lim->time_limit;
    double left = plan_time_left(out->limits.deadline, now);
    out->build_share = ANALYSIS_BUILD_SHARE;
    out->board_seeds = probe.board_seeds;
    out->db_files = -1;
    out->tt_mb = L.tt_mb;
    snprintf(out->why_trial, sizeof out->why_trial, "no trial: an analysis");
    snprintf(out->why_grow, sizeof out->why_grow, "the database does not grow: an analysis");
    snprintf(out->why_tt, sizeof out->why_tt, "table %zu MB: the analysis's", out->tt_mb);
    int board = out->board_seeds, k = 0;
    if (L.no_db || L.db_seeds != 0) {
        k = probe.db_seeds;
        out->db_degraded = probe.db_degraded;
        snprintf(out->why_db, sizeof out->why_db, "%s", probe.why_db);
    } else {
        k = analysis_db(g, left, probe.db_files, out);
    }
    out->db_seeds = k;
    if (k > 0) {
        out->db_bytes = plan_db_hold(g, &out->limits, k);
        uint64_t used = (uint64_t)out->tt_mb * MB + plan_search_bytes(g, &out->limits);
        out->db_budget = out->limits.memory > used ? out->limits.memory - used : 0;
        out->root_in_db = k >= board;
        /* The analysis searches for its time; without one the question is
         * a depth or node limit, of unknown length: in place. */
        out->db_copy_seconds = plan_copy_seconds(g, &out->limits, k, probe.db_files);
        out->db_in_place = !sow_plan_copy_pays(out->db_copy_seconds, left,
                                               SOW_PLAN_ANALYSIS_IN_PLACE_SLOWDOWN);
    }
    return SOW_OK;
}
