/* plan.c - the solve plan (sow/plan.h): a cost model decides the table,
 * the database and the trial once; sow_plan_solve runs them.
 *
 * Each constant keeps its one-line reason here; the measurements behind
 * them are in doc/experiments.md ("Solve plan cost model"), the policy in
 * doc/search.md.
 */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "clock.h"
#include "msg.h"
#include "sow/plan.h"
#include "sow/refsolve.h"
#include "sow/rules.h"

/* Building: positions per second and thread (results/db-build.md). */
#define DB_BUILD_RATE 2.5e7
/* Value search, one thread, 24 board seeds above the database, on a
 * 48-seed board (Kalah(6,4)). */
#define SEARCH_SECONDS_AT_24 1.3
#define BOARD_REF_SEEDS 48
/* The search grows by this per seed above the database (fitted on
 * Kalah(6,4) with databases of 18 to 30 seeds) ... */
#define SEARCH_GROWTH 1.5
/* ... and by this per board seed at a fixed excess (Kalah(6,5)). */
#define BOARD_GROWTH 1.16
/* Each thread after the first adds this much of one thread's speed
 * (ABDADA, results/threads.md). */
#define THREAD_SEARCH_GAIN 0.65
/* Every move's value costs about this many times the value alone. */
#define ALL_MOVES_FACTOR 4.0
/* Boards with long games and few captures (Chungkala 6x2) gain from a
 * small database more than the model says: at least min(b/2, this). */
#define SMALL_DB_SEEDS 12
/* Without a forced database, search this long without one first: most
 * small boards are solved sooner than any database builds. */
#define TRIAL_SECONDS 2.0
/* A database that may grow steps up to at least this many times the
 * bytes of the last: the steps' builds add up to about twice the last. */
#define GROW_STEP 2.0
/* ... and not before its search has run this many times the model's
 * guess: growth mends a model that is wrong (Chungkala), not one that is
 * noisy (Kalah, its fit: 0.6-2.6 times in results/kalah.md, loaded). */
#define GROW_MODEL_SLACK 3.0
/* Toguz (cycles): its builder's positions per second per thread (results/
 * toguz.md), and the longest build the plan chooses by itself: above the
 * database a search with cycles shares little, so the biggest database
 * within this time is the plan. */
#define CYCLE_BUILD_RATE 3e6
#define CYCLE_BUILD_SECONDS 20.0
/* With a time limit, the database the plan chooses builds (what the
 * folder lacks of it) within this share of the time left: the search
 * above it needs the rest. */
#define SOLVE_BUILD_SHARE 0.5
/* ... and a trial search takes at most this share. */
#define TRIAL_TIME_SHARE 0.5
/* A build the model misjudged is cut at its last complete seed count once
 * it has taken this many times its share of the time left ... */
#define BUILD_OVERRUN 1.5
/* ... leaving the search at least this share. */
#define SEARCH_MIN_SHARE 0.2
/* Table: 4 MB (16 for every move's value, whose searches share more) up to
 * this excess, doubling per seed more; a bigger table than the search
 * needs is slower (its probes miss the caches). */
#define TT_BASE_EXCESS 24
#define TT_MAX_MB 1024
/* With a time limit, at most this many MB per second left and thread: a
 * bigger table than the search can fill is only page faults (a fresh
 * gigabyte slows the first seconds of a search many times over). */
#define TT_MB_PER_SECOND 32
/* The default budget: what Kalah(6,5) needs to solve in minutes. */
#define DEFAULT_MEMORY_MB 4096
#define MIN_DEFAULT_MEMORY_MB 256
/* A smaller budget is worth a warning when the model expects the solve to
 * take this many times longer than with the default budget. */
#define DEGRADED_RATIO 1.5

#define MB ((uint64_t)1 << 20)

uint64_t sow_plan_default_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    uint64_t mb = DEFAULT_MEMORY_MB;
    if (pages > 0 && size > 0) {
        uint64_t quarter = (uint64_t)pages * (uint64_t)size / 4 / MB;
        if (quarter < mb)
            mb = quarter < MIN_DEFAULT_MEMORY_MB ? MIN_DEFAULT_MEMORY_MB : quarter;
    }
    return mb * MB;
}

int sow_plan_default_threads(void)
{
    cpu_set_t set;
    int n = 0;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
    if (n < 1)
        n = omp_get_num_procs();
    return n < 1 ? 1 : n > SOW_MAX_THREADS ? SOW_MAX_THREADS : n;
}

/* Seconds from `now` to `end` (0 once past); INFINITY without an end (0). */
static double time_left(double end, double now)
{
    if (end <= 0)
        return INFINITY;
    return end > now ? end - now : 0;
}

/* The model's seconds for the search with a k-seed database (k = 0: none). */
static double search_cost(int board, int k, int threads, bool value_only)
{
    double f = (value_only ? 1.0 : ALL_MOVES_FACTOR) * pow(BOARD_GROWTH, board - BOARD_REF_SEEDS) /
               (1.0 + THREAD_SEARCH_GAIN * (threads - 1));
    return f * SEARCH_SECONDS_AT_24 * pow(SEARCH_GROWTH, board - k - TT_BASE_EXCESS);
}

/* Modelled seconds to build the levels of a k-seed database that a folder
 * holding 0..have lacks (have -1: all of them). */
static double missing_build_seconds(const sow_game *g, int threads, int k, int have)
{
    if (k <= have)
        return 0;
    double rate = g->cycles ? CYCLE_BUILD_RATE : DB_BUILD_RATE;
    double lacking = (double)sow_db_bytes(g, k) - (have >= 0 ? (double)sow_db_bytes(g, have) : 0);
    return lacking / (rate * threads);
}

/* Modelled seconds to build a k-seed database. */
static double build_seconds(const sow_game *g, int k, int threads)
{
    return missing_build_seconds(g, threads, k, -1);
}

/* The longest build a solve plan with `left` seconds chooses. */
static double build_allowance(double left)
{
    return SOLVE_BUILD_SHARE * left;
}

/* The model's seconds for building a k-seed database and searching with it. */
static double total_cost(const sow_game *g, int board, int k, int threads, bool value_only)
{
    return (k > 0 ? build_seconds(g, k, threads) : 0) + search_cost(board, k, threads, value_only);
}

/* The table for a database of k seeds (forced size, else by the excess,
 * and by the time left). */
static size_t table_mb(const sow_limits *lim, int board, int k)
{
    if (lim->tt_mb)
        return lim->tt_mb;
    size_t mb = lim->value_only ? 4 : 16;
    for (int e = TT_BASE_EXCESS; e < board - k && mb < TT_MAX_MB; e++)
        mb *= 2;
    double fill = TT_MB_PER_SECOND * lim->threads * time_left(lim->deadline, sow_now());
    while (mb > 4 && (double)mb > fill)
        mb /= 2;
    size_t quarter = (size_t)(lim->memory / MB / 4);
    if (mb > quarter)
        mb = quarter < 1 ? 1 : quarter;
    return mb;
}

/* The search's own memory beside its table (each thread's path and, with
 * cycles, move hints): it comes off the database's share. */
static uint64_t search_bytes(const sow_game *g, const sow_limits *lim)
{
    return (uint64_t)lim->threads * sow_search_thread_bytes(g);
}

/* What the table (sized for a k-seed database) and the search take beside
 * the database. */
static uint64_t beside_db(const sow_game *g, const sow_limits *lim, int board, int k)
{
    return (uint64_t)table_mb(lim, board, k) * MB + search_bytes(g, lim);
}

/* The memory a database may take beside a table of tt_mb and the search. */
static uint64_t room_beside(const sow_game *g, const sow_limits *lim, size_t tt_mb)
{
    uint64_t used = (uint64_t)tt_mb * MB + search_bytes(g, lim);
    return used < lim->memory ? lim->memory - used : 0;
}

/* The memory a k-seed database may take beside its table and the search. */
static uint64_t db_room(const sow_game *g, const sow_limits *lim, int board, int k)
{
    return room_beside(g, lim, table_mb(lim, board, k));
}

/* Does a k-seed database fit beside its table and the search? */
static bool fits(const sow_game *g, const sow_limits *lim, int board, int k)
{
    size_t bytes = sow_db_bytes(g, k);
    return bytes != SIZE_MAX && bytes <= db_room(g, lim, board, k);
}

/* The default database size within lim->memory: the k that minimises the
 * modelled build plus search, at least the small boards' minimum, among
 * those whose build of what the folder lacks (it holds 0..have) takes at
 * most `build_max` seconds. */
static int choose_db_seeds(const sow_game *g, const sow_limits *lim, int board, int have,
                           double build_max)
{
    int kmax = sow_retro_max_seeds(g);
    if (kmax > board)
        kmax = board;
    int small = board / 2 < SMALL_DB_SEEDS ? board / 2 : SMALL_DB_SEEDS;
    int best = 0;
    double best_cost = total_cost(g, board, 0, lim->threads, lim->value_only);
    for (int k = 1; k <= kmax; k++) {
        size_t bytes = sow_db_bytes(g, k);
        if (bytes == SIZE_MAX || bytes > lim->memory)
            break;
        if (missing_build_seconds(g, lim->threads, k, have) > build_max)
            break;
        if (!fits(g, lim, board, k))
            continue;
        double cost = total_cost(g, board, k, lim->threads, lim->value_only);
        if (cost < best_cost || k <= small) {
            best_cost = cost;
            best = k;
        }
    }
    return best;
}

/* The biggest database the search may grow to from a k-seed one: the
 * largest that fits beside the table sized for k, short of the whole
 * board (the model's guess is only a guess: Chungkala, with no capture,
 * descends to a database far slower than Kalah, its fit: doc/
 * experiments.md, "The database grows"). 0: none bigger fits. */
static int grow_limit(const sow_game *g, const sow_limits *lim, int board, int k)
{
    int kmax = sow_retro_max_seeds(g) < board - 1 ? sow_retro_max_seeds(g) : board - 1;
    uint64_t room = room_beside(g, lim, table_mb(lim, board, k));
    int best = 0;
    for (int j = k + 1; j <= kmax; j++) {
        size_t bytes = sow_db_bytes(g, j);
        if (bytes == SIZE_MAX || bytes > room)
            break;
        best = j;
    }
    return best;
}

/* The next step from a k-seed database towards `limit`: the smallest with
 * GROW_STEP times its bytes, or the limit. */
static int grow_step(const sow_game *g, int k, int limit)
{
    double want = GROW_STEP * (double)sow_db_bytes(g, k);
    int j = k + 1;
    while (j < limit && (double)sow_db_bytes(g, j) < want)
        j++;
    return j;
}

static double mib(uint64_t bytes)
{
    return (double)bytes / (double)MB;
}

/* The memory a k-seed database of a game that cycles needs in all: its
 * tables, the builder's scratch (unless the folder holds level k: `have`
 * is the largest seed count up to which it holds every file), the table
 * and the search. */
static uint64_t cycle_need(const sow_game *g, const sow_limits *lim, int board, int k, int have)
{
    size_t bytes = sow_db_bytes(g, k);
    if (bytes == SIZE_MAX)
        return UINT64_MAX;
    return (uint64_t)bytes + (k > have ? sow_retro_scratch_bytes(g, k) : 0) +
           beside_db(g, lim, board, k);
}

/* Games that cycle. Above the database a search shares little between
 * captures and can blow up (Toguz 5x2: over 2.4e9 nodes in ten minutes
 * above an 18-seed database, 33 s with all 20: doc/experiments.md,
 * "Toguz: the complete database"), so the complete database (every seed
 * on the board) is the plan whenever it fits the memory, however long it
 * builds (its progress is shown; a time limit still bounds it): the root
 * is then one probe. Levels the --db folder holds cost no build and no
 * scratch. Otherwise the biggest that fits and builds within
 * CYCLE_BUILD_SECONDS by the model, and the reason says what the complete
 * one would need. */
static sow_err plan_cycle_db(const sow_game *g, const sow_limits *lim, double build_max,
                             sow_plan *out)
{
    int board = out->board_seeds, best = 0, have = out->db_files;
    int kmax = sow_retro_max_seeds(g) < board ? sow_retro_max_seeds(g) : board;
    uint64_t need = cycle_need(g, lim, board, kmax, have);
    double t_all = need == UINT64_MAX ? INFINITY : missing_build_seconds(g, lim->threads, kmax, have);
    if (kmax == board && board > 0 && need <= lim->memory &&
        t_all <= build_max) {
        out->db_seeds = board;
        snprintf(out->why_db, sizeof out->why_db,
                 "complete database, all %d seeds (%.0f MB, %.0f s modelled%s): with cycles "
                 "a search above a database can blow up", board, mib(sow_db_bytes(g, board)),
                 t_all, have >= board ? ", from the folder's files" : "");
        return SOW_OK;
    }
    double secs = 0;
    for (int k = 1; k <= kmax; k++) {
        if (cycle_need(g, lim, board, k, have) > lim->memory)
            break;
        double t = missing_build_seconds(g, lim->threads, k, have);
        if (t > CYCLE_BUILD_SECONDS || t > build_max)
            break;
        best = k;
        secs = t;
    }
    out->db_seeds = best;
    char whole[96] = "";
    if (kmax == board && need != UINT64_MAX) {
        snprintf(whole, sizeof whole, "; the complete one (%d) needs --memory %.0fM", board,
                 ceil(mib(need)));
        out->db_degraded = true; /* worth saying unasked: the search may not finish */
    }
    if (board == 0)
        snprintf(out->why_db, sizeof out->why_db, "no database: no seeds on the board");
    else if (best == 0)
        snprintf(out->why_db, sizeof out->why_db,
                 "no database: the memory leaves no room for one%s", whole);
    else
        snprintf(out->why_db, sizeof out->why_db,
                 "database up to %d seeds (%.0f MB, %.1f s modelled): with cycles the "
                 "biggest that fits the memory and builds within %.1f s%s", best,
                 mib(sow_db_bytes(g, best)), secs,
                 build_max < CYCLE_BUILD_SECONDS ? build_max : CYCLE_BUILD_SECONDS, whole);
    return SOW_OK;
}

/* The database decision: out->db_seeds and its reason. */
static sow_err plan_db(const sow_game *g, const sow_limits *lim, double build_max,
                       sow_plan *out, char *why, size_t why_size)
{
    int board = out->board_seeds;
    bool forced = lim->db_seeds > 0;
    if (lim->no_db || lim->db_seeds < 0) {
        snprintf(out->why_db, sizeof out->why_db, "no database: none asked for");
        return SOW_OK;
    }
    if (forced) {
        int k = lim->db_seeds;
        if (k > board) {
            k = board;
            out->db_degraded = true;
        }
        if (k > sow_retro_max_seeds(g))
            return sow_fail(why, why_size, SOW_E_LIMIT,
                            "a database up to %d seeds is beyond what its entries can hold for "
                            "this game (at most %d)",
                            k, sow_retro_max_seeds(g));
        size_t tt = table_mb(lim, board, k);
        if (!fits(g, lim, board, k)) {
            size_t need = sow_db_bytes(g, k);
            return sow_fail(why, why_size, SOW_E_NOMEM,
                            "a database up to %d seeds takes %.0f MB, more than the memory "
                            "(%.0f MB) minus the %zu MB table",
                            k, need == SIZE_MAX ? INFINITY : mib(need), mib(lim->memory), tt);
        }
        out->db_seeds = k;
        if (out->db_degraded)
            snprintf(out->why_db, sizeof out->why_db,
                     "--db-seeds %d exceeds the %d seed%s on this board: using %d",
                     lim->db_seeds, board, board == 1 ? "" : "s", k);
        else
            snprintf(out->why_db, sizeof out->why_db, "database up to %d seeds: as asked", k);
        return SOW_OK;
    }
    if (g->cycles)
        return plan_cycle_db(g, lim, build_max, out);
    int k = choose_db_seeds(g, lim, board, out->db_files, build_max);
    out->db_seeds = k;
    double cost = total_cost(g, board, k, lim->threads, lim->value_only);
    /* Would the default budget have planned a bigger database, and does
     * the model expect that to matter? */
    sow_limits dflt = *lim;
    dflt.memory = sow_plan_default_memory();
    int kd = dflt.memory > lim->memory ? choose_db_seeds(g, &dflt, board, out->db_files, build_max)
                                       : k;
    /* Would more time have planned a bigger one? */
    int kt = isfinite(build_max) ? choose_db_seeds(g, lim, board, out->db_files, INFINITY) : k;
    double cost_d = total_cost(g, board, kd, lim->threads, lim->value_only);
    if (kd > k && cost > TRIAL_SECONDS && cost > DEGRADED_RATIO * cost_d) {
        out->db_degraded = true;
        if (k == 0)
            snprintf(out->why_db, sizeof out->why_db,
                     "--memory %.0f MB leaves no room for a database: searching without one "
                     "(the default %.0f MB gives a %d-seed database; expect a slower solve)",
                     mib(lim->memory), mib(dflt.memory), kd);
        else
            snprintf(out->why_db, sizeof out->why_db,
                     "--memory %.0f MB leaves room for a database of %d seeds only (the "
                     "default %.0f MB gives %d; expect a slower solve)",
                     mib(lim->memory), k, mib(dflt.memory), kd);
    } else if (kt > k) {
        snprintf(out->why_db, sizeof out->why_db,
                 "%s%d seeds: the time limit leaves %.1f s to build (half the time left); "
                 "without it the plan would take %d", k ? "database up to " : "no database, not ",
                 k ? k : kt, build_max, kt);
    } else if (k == 0) {
        snprintf(out->why_db, sizeof out->why_db,
                 board == 0 ? "no database: no seeds on the board"
                 : fits(g, lim, board, 1) ? "no database: the cost model expects none to be faster"
                                          : "no database: the memory leaves no room for one");
    } else {
        snprintf(out->why_db, sizeof out->why_db,
                 "database up to %d seeds (%.0f MB): the fastest by the cost model that fits "
                 "the memory beside its table (%.1f s modelled)",
                 k, mib(sow_db_bytes(g, k)), cost);
    }
    if (k > 0 && !lim->fixed_db)
        out->db_grow_seeds = grow_limit(g, lim, board, k);
    if (out->db_grow_seeds)
        snprintf(out->why_grow, sizeof out->why_grow,
                 "the database grows, up to %d seeds, while the search above it outlasts the "
                 "next step's build (about %.0f times the bytes)", out->db_grow_seeds,
                 GROW_STEP);
    return SOW_OK;
}

sow_err sow_plan_make(const sow_game *g, const sow_pos *pos, const sow_limits *lim,
                      sow_plan *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    out->limits = *lim;
    sow_limits *L = &out->limits;
    if (L->threads < 0)
        return sow_fail(why, why_size, SOW_E_ARG, "threads: %d is negative",
                        L->threads);
    if (L->threads == 0)
        L->threads = sow_plan_default_threads();
    if (L->memory == 0)
        L->memory = sow_plan_default_memory();
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
                        "--tt-mb %zu exceeds the memory (%.0f MB)", L->tt_mb, mib(L->memory));
    out->board_seeds = sow_seeds_on_board(g, pos);
    out->db_files = L->db_dir && !L->no_db ? sow_db_dir_levels(g, L->db_dir) : -1;
    double now = sow_now();
    if (L->deadline <= 0 && L->time_limit > 0)
        L->deadline = now + L->time_limit;
    double left = time_left(L->deadline, now);
    out->build_share = SOLVE_BUILD_SHARE;

    sow_err e = plan_db(g, L, build_allowance(left), out, why, why_size);
    if (e)
        return e;
    int k = out->db_seeds;
    out->tt_mb = table_mb(L, out->board_seeds, k);
    if (k > 0) {
        out->db_bytes = sow_db_bytes(g, k);
        out->db_budget = db_room(g, L, out->board_seeds, k);
        out->root_in_db = k >= out->board_seeds;
    }
    if (!out->root_in_db && !sow_search_exact(g, pos))
        return sow_fail(why, why_size, SOW_E_LIMIT,
                        "%d seeds on %d pits are too many for the exact solver: its table keys "
                        "are an exact 64-bit code of the board, and this board has more codes",
                        out->board_seeds, 2 * g->m);
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
    if (k == 0)
        snprintf(out->why_trial, sizeof out->why_trial, "no trial: no database planned");
    else if (L->db_seeds > 0)
        snprintf(out->why_trial, sizeof out->why_trial, "no trial: the database size is forced");
    else if (g->cycles)
        snprintf(out->why_trial, sizeof out->why_trial,
                 "no trial: with cycles a search above no database shares little");
    else if (L->db_dir)
        snprintf(out->why_trial, sizeof out->why_trial,
                 "no trial: the database folder may hold the files already");
    else {
        out->trial_seconds = TRIAL_SECONDS;
        if (TRIAL_TIME_SHARE * left < out->trial_seconds)
            out->trial_seconds = TRIAL_TIME_SHARE * left;
        snprintf(out->why_trial, sizeof out->why_trial,
                 "a %g s search without a database first: most small boards end there",
                 out->trial_seconds);
    }
    return SOW_OK;
}

/* The share of an analysis's time its database may take to build. */
#define ANALYSIS_BUILD_SHARE 0.25

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
    double left = time_left(out->limits.deadline, now);
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
        const sow_limits *P = &out->limits;
        double budget = isfinite(left) ? ANALYSIS_BUILD_SHARE * left : TRIAL_SECONDS;
        int kmax = sow_retro_max_seeds(g) < board ? sow_retro_max_seeds(g) : board;
        uint64_t tt_and_search = (uint64_t)out->tt_mb * MB + search_bytes(g, P);
        uint64_t room = P->memory > tt_and_search ? P->memory - tt_and_search : 0;
        /* Levels the folder holds cost no build and no scratch. */
        int have = probe.db_files;
        for (int j = 1; j <= kmax; j++) {
            size_t bytes = sow_db_bytes(g, j);
            if (bytes == SIZE_MAX ||
                bytes + (g->cycles && j > have ? sow_retro_scratch_bytes(g, j) : 0) > room ||
                missing_build_seconds(g, P->threads, j, have) > budget)
                break;
            k = j;
        }
        if (k == 0)
            snprintf(out->why_db, sizeof out->why_db,
                     board == 0 ? "no database: no seeds on the board"
                                : "no database: none builds within %.2f s (a quarter of the "
                                  "time left) beside the table",
                     budget);
        else
            snprintf(out->why_db, sizeof out->why_db,
                     "database up to %d seeds (%.0f MB, %.1f s modelled): the biggest that "
                     "builds within %.2f s (a quarter of the time left) beside the table", k,
                     mib(sow_db_bytes(g, k)), missing_build_seconds(g, P->threads, k, have),
                     budget);
    }
    out->db_seeds = k;
    if (k > 0) {
        out->db_bytes = sow_db_bytes(g, k);
        uint64_t used = (uint64_t)out->tt_mb * MB + search_bytes(g, &out->limits);
        out->db_budget = out->limits.memory > used ? out->limits.memory - used : 0;
        out->root_in_db = k >= board;
    }
    return SOW_OK;
}

/* ---- Running the plan -------------------------------------------------- */

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
 * and database leave. Every move's value; the principal variation is the
 * best move only. SOW_E_LIMIT if that graph does not fit either. */
static sow_err solve_above_db(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                              const sow_db *db, sow_plan_result *out, char *why, size_t why_size)
{
    uint64_t used = (uint64_t)plan->tt_mb * MB + out->db_bytes;
    if (used >= plan->limits.memory)
        return SOW_E_LIMIT;
    sow_oracle oracle;
    sow_plan_oracle(db, out->db_seeds, &oracle);
    double t0 = sow_now();
    sow_search_result *r = &out->search;
    sow_err e = sow_ref_solve_above(g, pos, &oracle, (plan->limits.memory - used) / MB, &r->sol);
    if (e) {
        if (e == SOW_E_LIMIT)
            sow_fail(why, why_size, e,
                     "a line of play is longer than the search stack, and the "
                     "positions above the database do not fit the memory");
        return e;
    }
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
    double t = build_seconds(g, j, plan->limits.threads);
    if (r->db_last_seconds >= 1.0) {
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
    double t = build_guess(g, plan, r, grow_step(g, r->db_seeds, plan->db_grow_seeds));
    double model = GROW_MODEL_SLACK * search_cost(plan->board_seeds, r->db_seeds,
                                                  plan->limits.threads, plan->limits.value_only);
    t = t > model ? t : model;
    return t > TRIAL_SECONDS ? t : TRIAL_SECONDS;
}

static int grow_to(const sow_game *g, const sow_plan *plan, const sow_plan_result *r,
                   double searched, double build_max)
{
    int j = grow_step(g, r->db_seeds, plan->db_grow_seeds);
    while (j < plan->db_grow_seeds && build_guess(g, plan, r, j + 1) <= searched &&
           build_guess(g, plan, r, j + 1) <= build_max)
        j++;
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
    int k = *db ? (*db)->max_seeds : 0;
    if (k < step->db_seeds)
        r->db_cut = true;
    r->db_seeds = k;
    r->db_bytes = k > 0 ? sow_db_bytes(g, k) : 0;
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
    step.db_budget = room_beside(g, &plan->limits, plan->tt_mb);
    step.root_in_db = false;
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
    while (k > 0 && missing_build_seconds(g, plan->limits.threads, k, plan->db_files) >
                        plan->build_share * left)
        k--;
    return k;
}

static sow_err new_search(const sow_game *g, const sow_plan *plan, const sow_plan_callbacks *cb,
                          sow_search **s, char *why, size_t why_size)
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
    sow_err e = sow_search_new(g, &so, s);
    if (e == SOW_E_NOMEM)
        return sow_fail(why, why_size, e, "cannot allocate a %zu MB transposition table",
                        plan->tt_mb);
    if (e)
        return sow_fail(why, why_size, e, "%s", sow_err_name(e));
    return SOW_OK;
}

sow_err sow_plan_solve(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                       const sow_plan_callbacks *cb, sow_plan_result *out, char *why,
                       size_t why_size)
{
    static const sow_plan_callbacks none = {0};
    if (!cb)
        cb = &none;
    char msg[SOW_WHY]; /* errors below add a message unless one was given */
    why = sow_why_or(why, &why_size, msg);
    const sow_limits *L = &plan->limits;
    double t0 = sow_now();
    /* Every phase, the database's build included, ends by `end`. */
    double end = L->deadline > 0 ? L->deadline : L->time_limit > 0 ? t0 + L->time_limit : 0;
    sow_plan run = *plan; /* the plan, with the database the time left allows */
    run.limits.deadline = end;
    memset(out, 0, sizeof *out);
    wide_bounds(g, pos, plan->board_seeds, &out->search);
    sow_search *s = NULL;
    sow_db *db = NULL;
    sow_oracle oracle;
    sow_err e = SOW_OK;

    if (plan->trial_seconds > 0) {
        if ((e = new_search(g, plan, cb, &s, why, why_size)) != SOW_OK)
            return e;
        if (cb->phase)
            cb->phase(cb->ctx, "trial");
        double t = time_left(end, sow_now());
        sow_search_set_time_limit(s, t < plan->trial_seconds ? t : plan->trial_seconds);
        double c0 = sow_cpu_now();
        e = t > 0 ? sow_search_solve(s, pos, &out->search) : SOW_E_INTERRUPTED;
        out->cpu_seconds += sow_cpu_now() - c0;
        if (e == SOW_OK) {
            out->trial_solved = true;
            goto done;
        }
        out->trial_nodes = out->search.sol.nodes;
        if (e != SOW_E_INTERRUPTED || stopped(L))
            goto done;
        e = SOW_OK;
    }

    if (time_left(end, sow_now()) <= 0) {
        e = SOW_E_INTERRUPTED;
        goto done;
    }
    run.db_seeds = fit_time(g, plan, plan->db_seeds, time_left(end, sow_now()));
    if (run.db_seeds < plan->db_seeds)
        out->db_cut = true;
    if (run.db_seeds > 0) {
        run.db_bytes = sow_db_bytes(g, run.db_seeds);
        run.root_in_db = run.db_seeds >= plan->board_seeds;
        if ((e = open_step(g, &run, cb, &db, &oracle, out, why, why_size)) != SOW_OK)
            goto done;
        out->db_first_seeds = out->db_seeds;
    }

    if (db && out->db_seeds >= plan->board_seeds) {
        if (cb->phase)
            cb->phase(cb->ctx, "probe");
        uint64_t trial = out->trial_nodes;
        double p0 = sow_now();
        memset(&out->search, 0, sizeof out->search);
        e = answer_from_db(db, g, pos, L->pie_opening, &out->search);
        if (e) {
            sow_fail(why, why_size, e, "probing the root: %s", sow_err_name(e));
            goto done;
        }
        out->search.seconds = out->search.seconds_value = sow_now() - p0;
        out->search.sol.nodes += trial;
        goto done;
    }
    /* The time cut the database that held the root: the search goes on
     * where the exact solver can, else the bounds are all there is. */
    if (!sow_search_exact(g, pos)) {
        e = SOW_E_INTERRUPTED;
        goto done;
    }
    if (!s && (e = new_search(g, plan, cb, &s, why, why_size)) != SOW_OK)
        goto done;

    /* The search, and while it outlasts the next step's build, the
     * database's growth (plan->db_grow_seeds). */
    uint64_t spent = out->trial_nodes; /* nodes of the searches cut short */
    for (;;) {
        if (cb->phase)
            cb->phase(cb->ctx, "search");
        sow_search_set_oracle(s, db ? &oracle : NULL);
        /* What is left of the time limit. */
        double left = time_left(end, sow_now());
        if (left <= 0) {
            e = SOW_E_INTERRUPTED;
            break;
        }
        double build_max = plan->build_share * left;
        bool grows = db && !out->db_cut && out->db_seeds < plan->db_grow_seeds &&
                     build_guess(g, plan, out, grow_step(g, out->db_seeds, plan->db_grow_seeds)) <=
                         build_max;
        double budget = grows ? grow_budget(g, plan, out) : 0;
        bool cut = grows && budget < left;
        sow_search_set_time_limit(s, cut ? budget : isfinite(left) ? left : 0);
        double c0 = sow_cpu_now(), w0 = sow_now();
        e = sow_search_solve(s, pos, &out->search);
        /* The fixpoint above the database has no clock: within a time
         * limit the bounds proven so far are the answer. */
        if (e == SOW_E_LIMIT && g->cycles && db && !L->pie_opening && end > 0)
            e = sow_fail(why, why_size, SOW_E_INTERRUPTED,
                         "a line of play is longer than the search stack, and the time limit "
                         "leaves no time for the positions above the database");
        else if (e == SOW_E_LIMIT && g->cycles && db && !L->pie_opening)
            e = solve_above_db(g, pos, plan, db, out, why, why_size);
        out->cpu_seconds += sow_cpu_now() - c0;
        if (e != SOW_E_INTERRUPTED || !cut || stopped(L))
            break;
        double searched = sow_now() - w0;
        int next = grow_to(g, plan, out, searched,
                           plan->build_share * time_left(end, sow_now()));
        if (cb->db_grow)
            cb->db_grow(cb->ctx, out->db_seeds, next, searched);
        sow_db_close(db);
        db = NULL;
        /* On failure (stopped while building) out->search keeps the bounds
         * and the nodes of the search just cut. */
        if ((e = grow_db(g, &run, cb, next, &db, &oracle, out, why, why_size)) != SOW_OK)
            break;
        spent += out->search.sol.nodes;
    }
    out->search.sol.nodes += spent;

done:
    if (e == SOW_E_LIMIT && !why[0])
        sow_fail(why, why_size, e,
                 "a line of play is longer than the search stack");
    else if (e && !why[0])
        sow_fail(why, why_size, e, "%s",
                 e == SOW_E_INTERRUPTED ? (stopped(L) ? "interrupted" : "time limit")
                                        : sow_err_name(e));
    if (s)
        sow_search_free(s);
    sow_db_close(db);
    out->seconds = sow_now() - t0;
    return e;
}

void sow_plan_oracle(const sow_db *db, int max_seeds, sow_oracle *out)
{
    *out = (sow_oracle){max_seeds, db_probe, db, db_prefetch, db_entry};
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
    double now = sow_now(), left = time_left(L->deadline, now);
    double cut = BUILD_OVERRUN * plan->build_share;
    if (cut > 1 - SEARCH_MIN_SHARE)
        cut = 1 - SEARCH_MIN_SHARE;
    bool partial = isfinite(left) && !L->fixed_db;
    sow_db_options o = {
        .threads = L->threads,
        .memory = plan->db_budget,
        /* A database that holds the root is probed a few times only. */
        .in_place = plan->root_in_db,
        .progress = cb->db_progress,
        .progress_ctx = cb->ctx,
        .stop = L->stop,
        .make_dir = true,
        .wait = cb->db_wait,
        .wait_ctx = cb->ctx,
        .deadline = partial ? now + cut * left : 0,
        .keep_partial = partial,
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
