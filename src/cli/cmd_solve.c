/* cmd_solve.c - `sow solve`: the exact value of a position.
 *
 * Wires the pieces together: the endgame database (sow/db.h) becomes the
 * search's oracle (sow/search.h keeps search independent of db), the
 * memory budget is split between the database and the transposition table,
 * and progress goes to stderr. `--reference` keeps the reference solver
 * reachable for comparisons.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sow/db.h"
#include "sow/refsolve.h"
#include "sow/search.h"

static const char usage[] =
    "usage: sow solve GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                 [--moves LIST | --position P] [--threads T] [--tt-mb MB]\n"
    "                 [--memory SIZE] [--db DIR] [--db-seeds K | --no-db]\n"
    "                 [--value-only] [--reference] [--quiet] [--json]\n"
    "\n"
    "Solves the position exactly: its value (the final margin for the player\n"
    "to move under optimal play, stores included), the outcome (win, draw or\n"
    "loss for the player to move, tie-break included), every legal move's\n"
    "value, a best move and a principal variation. The solver is MTD(f) over\n"
    "alpha-beta with a transposition table, endgame-database probes (kalah,\n"
    "chungkala, congkak) and OpenMP threads (doc/search.md).\n"
    "\n" CLI_GAME_HELP
    "  --threads T         search threads, 1..1024 (default 1)\n"
    "  --memory SIZE       budget for database + table: MB, or with a suffix\n"
    "                      K, M, G, T (default 4096, or a quarter of the\n"
    "                      machine's memory if less)\n"
    "  --tt-mb MB          transposition table (default: 4 MB, 16 MB without\n"
    "                      --value-only, up to 24 seeds on the board above the\n"
    "                      database's, doubling with each seed more; at most a\n"
    "                      quarter of --memory and 1024)\n"
    "  --db DIR            load the database files of DIR, build and save the\n"
    "                      missing ones (default: build in memory, save nothing)\n"
    "  --db-seeds K        database up to K seeds on the board (default: the\n"
    "                      largest that pays off and fits the budget)\n"
    "  --no-db             no database\n"
    "  --value-only        only the value and a best move (other moves: bounds)\n"
    "  --reference         use the reference solver (slow, small boards only;\n"
    "                      --memory bounds its memo table)\n"
    "  --quiet             no progress on stderr\n"
    "\n"
    "example: sow solve kalah --pits 6 --seeds 4\n";

/* The default database size comes from a cost model (doc/search.md):
 * building costs about 2.5e7 positions per second and thread
 * (results/db-build.md: 25 M/s on one core to 24 seeds, 31 M/s to 20, and
 * 1.9 times that on two), and the value search on one thread about
 * 1.3 s * 1.5^(excess - 24) * 1.16^(seeds - 48), the excess being the
 * board's seeds above the database's. The first two factors are fitted on
 * Kalah(6,4) (48 seeds) with databases of 18 to 30 seeds; the board factor
 * on Kalah(6,5) (60 seeds: 91 s with a 30-seed database, where the excess
 * alone predicts 15 s). Every move's value costs about 4 times the value
 * alone. Each thread after the first adds 0.65 of one thread's search
 * speed (2 threads: 1.6-1.7, results/threads.md; more threads could not
 * be measured on this 2-core machine). */
#define DB_BUILD_RATE 2.5e7
#define SEARCH_SECONDS_AT_24 1.3
#define SEARCH_GROWTH 1.5
#define BOARD_GROWTH 1.16
#define BOARD_REF_SEEDS 48
#define THREAD_SEARCH_GAIN 0.65
#define ALL_MOVES_FACTOR 4.0

/* Without --db or --db-seeds, a search without database runs this long
 * first; most small boards are solved by then. */
#define TRIAL_SECONDS 2.0

typedef struct progress_state {
    bool tty;
    double last;
    const cli_game *cg;
} progress_state;

static void on_db_progress(void *ctx, const sow_progress *p)
{
    progress_state *st = ctx;
    bool level_done = p->done == p->total;
    if (!st->tty && !level_done && p->seconds - st->last < 5)
        return;
    st->last = p->seconds;
    double rate = p->seconds > 0 ? (double)p->all_done / p->seconds : 0;
    fprintf(stderr, "%sdatabase: seeds %d/%d, %.0f%% of all, %.1f M positions/s, %.1f s%s",
            st->tty ? "\r" : "", p->seeds, p->max_seeds,
            p->all_total ? 100.0 * (double)p->all_done / (double)p->all_total : 100.0,
            rate / 1e6, p->seconds, st->tty ? "\033[K" : "\n");
}

static void on_search_progress(void *ctx, const sow_search_progress *pr)
{
    progress_state *st = ctx;
    const sow_game *g = &st->cg->g;
    double rate = pr->seconds > 0 ? (double)pr->nodes / pr->seconds : 0;
    char what[64];
    if (strcmp(pr->phase, "moves") == 0)
        snprintf(what, sizeof what, "move %d/%d", pr->move + 1, pr->nmoves);
    else
        snprintf(what, sizeof what, "%s", pr->phase);
    fprintf(stderr, "%s%s: value in [%+d, %+d], testing >= %+d; %.1f M nodes, %.2f M nodes/s, "
            "%.1f s%s",
            st->tty ? "\r" : "", what, sow_score_margin(g, pr->lower),
            sow_score_margin(g, pr->upper), sow_score_margin(g, pr->test),
            (double)pr->nodes / 1e6, rate / 1e6, pr->seconds, st->tty ? "\033[K" : "\n");
}

/* CPU seconds of the process, all threads: on a loaded machine a fairer
 * measure of the search than wall-clock. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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

/* The default database size: every seed count up to K, K no more than the
 * entry encoding's limit and the byte budget, the K that minimises the
 * modelled build plus search time (see DB_BUILD_RATE). 0: none. Only
 * boards that outlast the 2 s trial get here. */
static int default_db_seeds(const sow_game *g, int board_seeds, size_t budget, int threads,
                            bool value_only)
{
    double factor = value_only ? 1.0 : ALL_MOVES_FACTOR;
    int kmax = sow_retro_max_seeds(g);
    if (kmax > board_seeds)
        kmax = board_seeds;
    /* Boards with long games and few captures (Chungkala 6x2: 24 seeds,
     * 48 M nodes) gain from a small database more than the model says: at
     * least min(b / 2, 12) seeds, which builds in about a second. */
    int small = board_seeds / 2 < 12 ? board_seeds / 2 : 12;
    int best = 0;
    factor *= pow(BOARD_GROWTH, board_seeds - BOARD_REF_SEEDS) /
              (1.0 + THREAD_SEARCH_GAIN * (threads - 1));
    double best_cost = factor * SEARCH_SECONDS_AT_24 * pow(SEARCH_GROWTH, board_seeds - 24);
    for (int k = 1; k <= kmax; k++) {
        size_t bytes = sow_db_bytes(g, k);
        /* One byte per position, so bytes also count positions. */
        if (bytes == SIZE_MAX || bytes > budget)
            break;
        double cost = (double)bytes / (DB_BUILD_RATE * threads) +
                      factor * SEARCH_SECONDS_AT_24 * pow(SEARCH_GROWTH, board_seeds - k - 24);
        if (cost < best_cost || k <= small) {
            best_cost = cost;
            best = k;
        }
    }
    return best;
}

/* The default budget: 4 GB, or a quarter of the machine's memory if that
 * is less (at least 256 MB). 4 GB is what Kalah(6,5) needs to solve in
 * minutes (a 26-seed database, doc/search.md); with 2 GB (24 seeds) its
 * value was not found in 10 minutes on 2 threads. */
static long default_memory_mb(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    long mb = 4096;
    if (pages > 0 && size > 0) {
        long quarter = (long)((double)pages * (double)size / 4.0 / 1048576.0);
        if (quarter < mb)
            mb = quarter < 256 ? 256 : quarter;
    }
    return mb;
}

static int solve_reference(cli_game *cg, long mb)
{
    sow_solution s;
    double t0 = cli_now();
    sow_err e = sow_ref_solve(&cg->g, &cg->pos, cg->pie_opening, (size_t)mb, &s);
    double secs = cli_now() - t0;
    if (e == SOW_E_LIMIT)
        cli_fail("solve: the position is too large for the reference solver within "
                 "--memory %ld MB", mb);
    if (e)
        cli_fail("solve: %s", sow_err_name(e));
    if (cg->json) {
        printf("{");
        cli_json_game(cg);
        printf(",\"value\":%d,\"outcome\":\"%s\"", s.value, cli_outcome_name(s.outcome));
        cli_json_moves(cg, &s, NULL);
        printf(",\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"solver\":\"reference\"}\n",
               cg->pie_opening ? "true" : "false", (unsigned long long)s.nodes, secs);
        return 0;
    }
    const char *who = sow_pos_to_move(&cg->pos) == SOW_SOUTH ? "south" : "north";
    printf("%s %dx%d%s: value %+d for %s (to move): %s\n", sow_game_name(cg->cfg.game),
           cg->cfg.pits, cg->cfg.seeds, cg->pie_opening ? " with the pie rule" : "", s.value,
           who, cli_outcome_name(s.outcome));
    cli_text_moves(cg, &s, NULL);
    printf("nodes %llu, %.3f s (reference solver)\n", (unsigned long long)s.nodes, secs);
    return 0;
}

int cmd_solve(int argc, char **argv)
{
    cli_game cg = {0};
    const char *memory = NULL, *threads = NULL, *ttmb = NULL, *dbdir = NULL, *dbseeds = NULL;
    bool quiet = false, reference = false, nodb = false, value_only = false;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg),
                            {"memory", OPT_STRING, &memory},
                            {"threads", OPT_STRING, &threads},
                            {"tt-mb", OPT_STRING, &ttmb},
                            {"db", OPT_STRING, &dbdir},
                            {"db-seeds", OPT_STRING, &dbseeds},
                            {"no-db", OPT_FLAG, &nodb},
                            {"value-only", OPT_FLAG, &value_only},
                            {"reference", OPT_FLAG, &reference},
                            {"quiet", OPT_FLAG, &quiet},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    long mb = memory ? (long)(cli_memory("--memory", memory) >> 20)
                     : (reference ? 4096 : default_memory_mb());
    if (mb < 1) /* the budget below is counted in whole MB */
        cli_fail("solve: --memory %s is less than 1 MB", memory);
    int T = threads ? cli_threads("--threads", threads) : 1;
    long tt = ttmb ? cli_int("--tt-mb", ttmb, 1, 1L << 20) : 0; /* 0: by the board, below */
    if (nodb && (dbdir || dbseeds))
        cli_fail("solve: --no-db excludes --db and --db-seeds");
    cli_game_setup(&cg, true, true);
    if (reference) {
        if (threads || ttmb || dbdir || dbseeds || value_only)
            cli_fail("solve: --reference takes only the game options and --memory");
        return solve_reference(&cg, mb);
    }
    if (tt == 0) {
        /* A table in proportion to the search: what matters is the seeds
         * above the database's reach (the database the run will have, as
         * chosen below: --db-seeds or the default for the budget), the
         * "excess". 4 MB up to an excess of 24 (16 MB for every move's
         * value: its many searches share more; Chungkala 6x2 with a
         * 12-seed db, 1 thread: 4 MB 2.2 s, 16 MB 1.6 s, 64 MB 1.3 s),
         * doubling with each seed more, at most a quarter of the budget
         * and 1 GB. A table bigger
         * than the search needs is slower, not only for its page faults:
         * its probes miss the caches. Measured on Kalah(6,4), value only,
         * one thread: 24-seed db, 4 MB 1.29 s, 256 MB 2.59 s; 18-seed db,
         * 16 MB 76.8 M nodes 16.0 s, 256 MB 55.5 M nodes 14.9 s. */
        int seeds = 0;
        for (int pl = 0; pl < 2; pl++)
            for (int i = 1; i <= cg.g.m; i++)
                seeds += sow_pos_pit(&cg.pos, pl, i);
        int K = 0;
        if (!nodb && sow_retro_supported(&cg.g) == SOW_OK)
            K = dbseeds ? (int)cli_int("--db-seeds", dbseeds, 0, sow_retro_max_seeds(&cg.g))
                        : default_db_seeds(&cg.g, seeds, (size_t)mb * 1024 * 1024 * 3 / 4, T,
                                           value_only);
        tt = value_only ? 4 : 16;
        for (int k = 24; k < seeds - K && tt < 1024; k++)
            tt *= 2;
        if (tt > mb / 4)
            tt = mb / 4 < 1 ? 1 : mb / 4;
    }
    if (tt > mb)
        cli_fail("solve: --tt-mb %ld exceeds --memory %ld", tt, mb);

    progress_state ps = {.tty = isatty(2) != 0, .cg = &cg};
    const sow_game *g = &cg.g;
    int board = 0; /* seeds on the board */
    for (int pl = 0; pl < 2; pl++)
        for (int i = 1; i <= g->m; i++)
            board += sow_pos_pit(&cg.pos, pl, i);

    sow_search_options so = {
        .threads = T,
        .tt_mb = (size_t)tt,
        .pie_opening = cg.pie_opening,
        .value_only = value_only,
        .pv_max = SOW_PV_MAX,
        .progress = quiet ? NULL : on_search_progress,
        .progress_ctx = &ps,
        .progress_every = ps.tty ? 0.5 : 10,
    };
    sow_search *s;
    sow_err e = sow_search_new(g, &so, &s);
    if (e == SOW_E_NOMEM)
        cli_fail("solve: cannot allocate a %ld MB transposition table", tt);
    if (e)
        cli_fail("solve: %s", sow_err_name(e));
    static sow_search_result r;
    double t_start = cli_now();
    uint64_t trial_nodes = 0;
    double cpu_search = 0; /* CPU seconds in the searches, all threads */

    /* The database: never for games that cycle. By default it is built
     * only if the search does not finish within TRIAL_SECONDS without one
     * (small boards solve faster than any database builds); the table
     * keeps what the trial learnt. */
    sow_db *db = NULL;
    int K = 0;
    double db_secs = 0;
    size_t db_bytes = 0;
    bool db_ok = !nodb && sow_retro_supported(g) == SOW_OK;
    bool solved = false;
    if (!db_ok && (dbdir || dbseeds))
        cli_fail("solve: %s has no endgame database (it can repeat positions)",
                 sow_game_name(cg.cfg.game));
    if (!db_ok || (!dbdir && !dbseeds)) {
        if (db_ok)
            sow_search_set_time_limit(s, TRIAL_SECONDS);
        double c0 = cpu_seconds();
        e = sow_search_solve(s, &cg.pos, &r);
        cpu_search += cpu_seconds() - c0;
        sow_search_set_time_limit(s, 0);
        solved = e != SOW_E_INTERRUPTED;
        trial_nodes = solved ? 0 : r.sol.nodes;
    }
    if (!solved) {
        size_t budget = (size_t)(mb - tt) * 1024 * 1024;
        if (dbseeds) {
            K = (int)cli_int("--db-seeds", dbseeds, 0, sow_retro_max_seeds(g));
            size_t need = sow_db_bytes(g, K);
            if (need == SIZE_MAX || need > budget)
                cli_fail("solve: a database up to %d seeds takes %.0f MB, more than --memory %ld "
                         "minus the %ld MB table",
                         K, need == SIZE_MAX ? INFINITY : (double)need / 1048576.0, mb, tt);
        } else {
            K = default_db_seeds(g, board, budget, T, value_only);
        }
        if (K > 0) {
            if (!quiet && ps.tty)
                fputs("\r\033[K", stderr);
            sow_db_options o = {.threads = T, .memory = budget,
                                .progress = quiet ? NULL : on_db_progress, .progress_ctx = &ps};
            char why[256];
            double t0 = cli_now();
            e = sow_db_open(g, K, dbdir, &o, &db, why, sizeof why);
            if (e)
                cli_fail("solve: database up to %d seeds: %s", K, why);
            db_secs = cli_now() - t0;
            db_bytes = sow_db_bytes(g, K);
            if (!quiet && ps.tty)
                fputc('\n', stderr);
            sow_oracle oracle = {K, db_probe, db, db_prefetch, db_entry};
            sow_search_set_oracle(s, &oracle);
        }
        double c0 = cpu_seconds();
        e = sow_search_solve(s, &cg.pos, &r);
        cpu_search += cpu_seconds() - c0;
    }
    if (!quiet && ps.tty)
        fputs("\r\033[K", stderr);
    if (e == SOW_E_LIMIT)
        cli_fail("solve: a line of play is longer than the search stack");
    if (e)
        cli_fail("solve: %s", sow_err_name(e));
    sow_search_free(s);
    sow_db_close(db);
    double total_secs = cli_now() - t_start;
    r.sol.nodes += trial_nodes;

    const sow_solution *sol = &r.sol;
    double nps = total_secs > db_secs ? (double)sol->nodes / (total_secs - db_secs) : 0;
    char mt[8];
    if (cg.json) {
        printf("{");
        cli_json_game(&cg);
        printf(",\"value\":%d,\"outcome\":\"%s\"", sol->value, cli_outcome_name(sol->outcome));
        cli_json_moves(&cg, sol, r.move_exact);
        printf(",\"pv\":[");
        for (int i = 0; i < r.pv_len; i++) {
            sow_move_format(r.pv[i], mt, sizeof mt);
            printf("%s\"%s\"", i ? "," : "", mt);
        }
        printf("],\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"seconds_value\":%.6f,\"seconds_search\":%.6f,\"cpu_search\":%.6f,"
               "\"nps\":%.0f,\"threads\":%d,\"tt_mb\":%ld,\"mtd_probes\":%d,"
               "\"oracle_probes\":%llu,\"db\":",
               cg.pie_opening ? "true" : "false", (unsigned long long)sol->nodes, total_secs,
               r.seconds_value, r.seconds, cpu_search, nps, T, tt, r.mtd_probes, (unsigned long long)r.oracle_probes);
        if (db)
            printf("{\"seeds\":%d,\"bytes\":%zu,\"seconds\":%.6f}", K, db_bytes, db_secs);
        else
            printf("null");
        printf(",\"solver\":\"search\"}\n");
        return 0;
    }
    const char *who = sow_pos_to_move(&cg.pos) == SOW_SOUTH ? "south" : "north";
    printf("%s %dx%d%s: value %+d for %s (to move): %s\n", sow_game_name(cg.cfg.game),
           cg.cfg.pits, cg.cfg.seeds, cg.pie_opening ? " with the pie rule" : "", sol->value, who,
           cli_outcome_name(sol->outcome));
    cli_text_moves(&cg, sol, r.move_exact);
    if (sol->nmoves) {
        printf("pv:");
        for (int i = 0; i < r.pv_len; i++) {
            sow_move_format(r.pv[i], mt, sizeof mt);
            printf(" %s", mt);
        }
        printf("\n");
    }
    printf("nodes %llu, %.3f s in all (last search %.3f s, its value in %.3f s; searches %.3f CPU s), "
           "%.2f M nodes/s, %d thread%s, table %ld MB\n",
           (unsigned long long)sol->nodes, total_secs, r.seconds, r.seconds_value, cpu_search,
           nps / 1e6, T,
           T > 1 ? "s" : "", tt);
    if (db)
        printf("database: up to %d seeds, %.0f MB, ready in %.3f s\n", K,
               (double)db_bytes / 1048576.0, db_secs);
    return 0;
}
