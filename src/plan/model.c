/* model.c - the solve plan's cost model: the modelled seconds of a
 * search and of a database's build, and the memory a table, a search and
 * a database take. The decisions (plan.c) and the running of a plan
 * (run.c) consult it.
 *
 * Each constant keeps its one-line reason here; the measurements behind
 * them are in doc/experiments.md ("Solve plan cost model"), the policy in
 * doc/search.md.
 */
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <omp.h>

#include "clock.h"
#include "internal.h"
#include "sow/rules.h"

/* The measured constants are per game family (fitted.c, plan_fit); what
 * stays here holds for every game. */
#define BOARD_REF_SEEDS 48
#define BOARD_REF_PITS 12
/* Each thread after the first adds this much of one thread's speed
 * (ABDADA, results/threads.md). */
#define THREAD_SEARCH_GAIN 0.65
/* With a time limit, at most this many MB per second left and thread: a
 * bigger table than the search can fill is only page faults (a fresh
 * gigabyte slows the first seconds of a search many times over). */
#define TT_MB_PER_SECOND 32
/* ... and per second of the search's modelled time, times this (the
 * model is a guess: a table a little big costs little, one too small a
 * lot more). */
#define TT_MODEL_SLACK 4.0
/* The default budget: what Kalah(6,5) needs to solve in minutes. */
#define DEFAULT_MEMORY_MB 4096
#define MIN_DEFAULT_MEMORY_MB 256

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
double plan_time_left(double end, double now)
{
    if (end <= 0)
        return INFINITY;
    return end > now ? end - now : 0;
}

/* The constants for g's family. */
const plan_fit *plan_fit_of(const sow_game *g)
{
    unsigned id = (unsigned)g->cfg.game;
    return &plan_fitted[id < SOW_GAME_COUNT ? id : SOW_KALAH];
}

/* g's board's entries in plan_fit.levels: *own the one measured under
 * g's variant, *plain the one under the game's own rule (NULL where not
 * measured; the same entry when g plays the plain rule). */
static void board_entries(const plan_fit *f, const sow_game *g, const plan_board **own,
                          const plan_board **plain)
{
    *own = *plain = NULL;
    for (int i = 0; i < f->nlevels; i++) {
        const plan_board *b = &f->levels[i];
        if (b->pits != g->m || b->seeds != g->cfg.seeds)
            continue;
        if (b->variant == g->cfg.variant)
            *own = b;
        if (b->variant == 0)
            *plain = b;
    }
}

/* The model's seconds for the search with a k-seed database (k = 0: none).
 * The board's level and every-move factor are its variant's own where
 * measured, else the plain rule's (a variant moves a board's level less
 * than the law misses it: Kalah 5x5's variants were best at 23-26 seeds,
 * the law's 22), else the family's. */
double plan_search_cost(const sow_game *g, int board, int k, int threads, bool value_only)
{
    const plan_fit *f = plan_fit_of(g);
    const plan_board *mine, *plain;
    board_entries(f, g, &mine, &plain);
    const plan_board *own = mine ? mine : plain;
    double moves = mine && mine->all_moves > 0     ? mine->all_moves
                   : plain && plain->all_moves > 0 ? plain->all_moves
                                                   : f->all_moves_factor;
    double scale = (value_only ? 1.0 : moves) / (1.0 + THREAD_SEARCH_GAIN * (threads - 1));
    int pits = 2 * g->m - BOARD_REF_PITS;
    double above = f->search_at_ref * pow(f->board_growth, board - BOARD_REF_SEEDS) *
                   pow(f->search_growth, board - k - TT_BASE_EXCESS) *
                   pow(f->pits_growth, pits) * (own ? own->level : 1.0);
    /* A small database hardly cuts the search: it costs about what the
     * search without one does (results/plan-fit.md). */
    double none = f->no_db_at_ref > 0 ? f->no_db_at_ref *
                                            pow(f->no_db_growth, board - BOARD_REF_SEEDS) *
                                            pow(f->no_db_pits_growth, pits)
                                      : INFINITY;
    if (k == 0 && isfinite(none))
        return scale * none;
    return scale * fmin(above, none);
}

/* Modelled seconds to build the levels of a k-seed database that a folder
 * holding 0..have lacks (have -1: all of them), within `memory` bytes (0:
 * no limit): a level whose builder's fastest scratch does not fit beside
 * the levels below builds lean, SOW_RETRO_LEAN_SLOWDOWN times slower. */
double plan_missing_build_seconds(const sow_game *g, int threads, uint64_t memory, int k,
                                  int have)
{
    if (k <= have)
        return 0;
    if (!sow_game_levels_meet(g, k, have))
        have = -1; /* the other seed counts' files: none of k's */
    double rate = plan_fit_of(g)->build_rate;
    double lacking = (double)sow_db_bytes(g, k) - (have >= 0 ? (double)sow_db_bytes(g, have) : 0);
    for (int j = sow_db_level_first(g, k); j <= k; j += g->level_step) {
        if (j <= have)
            continue;
        uint64_t n = sow_retro_level_size(g, j);
        uint64_t base = (j >= g->level_step ? sow_db_bytes(g, j - g->level_step) : 0) + n;
        size_t room = memory ? (memory > base ? (size_t)(memory - base) : 1) : 0;
        if (sow_retro_lean(g, j, room))
            lacking += (SOW_RETRO_LEAN_SLOWDOWN - 1) * (double)n;
    }
    return lacking / (rate * threads);
}

/* Modelled seconds to build a k-seed database. */
double plan_build_seconds(const sow_game *g, int k, int threads, uint64_t memory)
{
    return plan_missing_build_seconds(g, threads, memory, k, -1);
}

/* The longest build a solve plan with `left` seconds chooses. */
double plan_build_allowance(double left)
{
    return SOLVE_BUILD_SHARE * left;
}

/* The model's seconds for building a k-seed database and searching with it. */
double plan_total_cost(const sow_game *g, int board, int k, int threads, uint64_t memory,
                       bool value_only)
{
    return (k > 0 ? plan_build_seconds(g, k, threads, memory) : 0) +
           plan_search_cost(g, board, k, threads, value_only);
}

/* The table for a database of k seeds (forced size, else by the excess,
 * by the search's modelled seconds and by the time left). */
size_t plan_table_mb(const sow_game *g, const sow_limits *lim, int board, int k)
{
    if (lim->tt_mb)
        return lim->tt_mb;
    size_t base = lim->value_only ? 4 : 16, mb = base;
    for (int e = TT_BASE_EXCESS; e < board - k && mb < TT_MAX_MB; e++)
        mb *= 2;
    /* A search the model expects to end in a second fills no gigabyte:
     * the excess alone sized Congkak 7x7's table at 1 GB for a search of
     * about 1e5 nodes, whose page faults then took most of its time. */
    double modelled = TT_MODEL_SLACK * plan_search_cost(g, board, k, lim->threads, lim->value_only);
    while (mb > base && (double)mb > TT_MB_PER_SECOND * lim->threads * modelled)
        mb /= 2;
    double fill = TT_MB_PER_SECOND * lim->threads * plan_time_left(lim->deadline, sow_now());
    while (mb > 4 && (double)mb > fill)
        mb /= 2;
    size_t quarter = (size_t)(lim->memory / MB / 4);
    if (mb > quarter)
        mb = quarter < 1 ? 1 : quarter;
    return mb;
}

/* The search's own memory beside its table (each thread's path and, with
 * cycles, move hints): it comes off the database's share. */
uint64_t plan_search_bytes(const sow_game *g, const sow_limits *lim)
{
    return (uint64_t)lim->threads * sow_search_thread_bytes(g);
}

/* What the table (sized for a k-seed database) and the search take beside
 * the database. */
uint64_t plan_beside_db(const sow_game *g, const sow_limits *lim, int board, int k)
{
    return (uint64_t)plan_table_mb(g, lim, board, k) * MB + plan_search_bytes(g, lim);
}

/* The memory a database may take beside a table of tt_mb and the search. */
uint64_t plan_room_beside(const sow_game *g, const sow_limits *lim, size_t tt_mb)
{
    uint64_t used = (uint64_t)tt_mb * MB + plan_search_bytes(g, lim);
    return used < lim->memory ? lim->memory - used : 0;
}

/* The memory a k-seed database may take beside its table and the search. */
uint64_t plan_db_room(const sow_game *g, const sow_limits *lim, int board, int k)
{
    return plan_room_beside(g, lim, plan_table_mb(g, lim, board, k));
}

/* The memory a k-seed database takes while it opens, the figure the open
 * checks against its budget (sow_db_open_bytes): what the folder's files
 * hold (packed levels at their size) when it holds seed counts 0..k, else
 * the build's peak (the levels below held packed, the top one at a byte
 * and its scratch). */
uint64_t plan_db_hold(const sow_game *g, const sow_limits *lim, int k)
{
    size_t bytes = sow_db_open_bytes(g, k, lim->db_dir, false);
    return bytes == SIZE_MAX ? UINT64_MAX : bytes;
}

double plan_copy_seconds(const sow_game *g, const sow_limits *lim, int k, int have)
{
    int top = k < have ? k : have;
    if (!lim->db_dir || lim->no_db || top <= 0)
        return 0;
    uint64_t bytes = plan_db_hold(g, lim, top);
    return bytes == UINT64_MAX ? INFINITY : (double)bytes / SOW_PLAN_COPY_RATE;
}

bool sow_plan_copy_pays(double copy, double search, double slowdown)
{
    return isfinite(search) && search * (slowdown - 1) > copy;
}

/* A search of `search` seconds over a database whose copy costs `copy`:
 * copied or in place, whichever the model says is shorter. */
double plan_opened_search(double copy, double search)
{
    return sow_plan_copy_pays(copy, search, SOW_PLAN_IN_PLACE_SLOWDOWN) ? copy + search
                                            : search * SOW_PLAN_IN_PLACE_SLOWDOWN;
}

/* Does a k-seed database fit beside its table and the search? */
bool plan_fits(const sow_game *g, const sow_limits *lim, int board, int k)
{
    uint64_t bytes = plan_db_hold(g, lim, k);
    return bytes != UINT64_MAX && bytes <= plan_db_room(g, lim, board, k);
}

/* The next step from a k-seed database towards `limit`: the smallest with
 * GROW_STEP times its bytes, or the limit (CYCLE_STEP_SEEDS more where
 * the game cycles). */
int plan_grow_step(const sow_game *g, int k, int limit)
{
    /* With cycles a fixed number of seeds (internal.h). */
    if (g->cycles)
        return k + CYCLE_STEP_SEEDS < limit ? k + CYCLE_STEP_SEEDS : limit;
    double want = GROW_STEP * (double)sow_db_bytes(g, k);
    int j = k + g->level_step;
    while (j < limit && (double)sow_db_bytes(g, j) < want)
        j += g->level_step;
    return j < limit ? j : limit;
}

double plan_mib(uint64_t bytes)
{
    return (double)bytes / (double)MB;
}

/* The memory a k-seed database of a game that cycles needs in all: the
 * database while it opens (plan_db_hold: with its build's scratch unless
 * the folder holds every level), the table and the search. */
uint64_t plan_cycle_need(const sow_game *g, const sow_limits *lim, int board, int k)
{
    uint64_t bytes = plan_db_hold(g, lim, k);
    if (bytes == UINT64_MAX)
        return UINT64_MAX;
    return bytes + plan_beside_db(g, lim, board, k);
}
