/* cmd_solve.c - `sow solve`: the exact value of a position.
 *
 * Parses the limits, asks the solve plan (sow/plan.h) what to do and runs
 * it, then prints. Every decision (table, database, trial) is the plan's;
 * this file only reports them. `--reference` keeps the reference solver
 * reachable for comparisons.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sow/ledger.h"
#include "sow/plan.h"
#include "sow/refsolve.h"
#include "sow/units.h"
#include "sow/units_mpi.h"

static const char usage[] =
    "usage: sow solve GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                 [--moves LIST | --record FILE | --position P]\n"
    "                 [--threads T] [--tt-mb MB]\n"
    "                 [--memory SIZE] [--db DIR] [--db-seeds K | --no-db]\n"
    "                 [--time S] [--value-only] [--reference] [--quiet] [--verbose]\n"
    "                 [--plan] [--json]\n"
    "                 [--ledger FILE [--frontier D] [--mpi] [--at-least V]\n"
    "                  [--split-nodes N]]\n"
    "\n"
    "Solves the position exactly: its value (the final margin for the player\n"
    "to move under optimal play, stores included), the outcome (win, draw or\n"
    "loss for the player to move, tie-break included), every legal move's\n"
    "value, a best move and a principal variation. The solver is MTD(f) over\n"
    "alpha-beta with a transposition table, endgame-database probes (every\n"
    "game; Toguz's solve its cycles) and OpenMP threads (doc/search.md).\n"
    "Ctrl-C, or --time running out, stops it and prints the bounds proven so\n"
    "far and the best move found (exit 130).\n"
    "\n" CLI_GAME_HELP
    "  --threads T         search and build threads, 1..1024 (default: the\n"
    "                      cores available)\n"
    "  --memory SIZE       budget for database + table: MB, or with a suffix\n"
    "                      K, M, G, T\n" CLI_MEMORY_DEFAULT_HELP("                      ")
    "  --tt-mb MB          transposition table (default: 4 MB, 16 MB without\n"
    "                      --value-only, up to 24 seeds on the board above the\n"
    "                      database's, doubling with each seed more; at most a\n"
    "                      quarter of --memory and 1024)\n"
    "  --db DIR            load the database files of DIR, build and save the\n"
    "                      missing ones; DIR is created if missing (default:\n"
    "                      the database store, see sow db store --help)\n"
    "  --db-seeds K        database up to K seeds on the board, at most the\n"
    "                      board's seeds (default: the one the cost model\n"
    "                      expects to pay off within the budget, grown while\n"
    "                      the search above it outlasts the next build; 0:\n"
    "                      none)\n"
    "  --no-db             no database\n"
    "  --time S            seconds for the whole command, database included\n"
    "                      (default: none): no build starts that the cost model\n"
    "                      says cannot end in time, a build that runs late stops\n"
    "                      at its last complete seed count (kept in --db DIR),\n"
    "                      and the search has the rest; cut by time it prints\n"
    "                      as Ctrl-C does, with the reason \"time limit\"\n"
    "  --value-only        only the value and a best move (other moves: bounds)\n"
    "  --reference         use the reference solver (slow, small boards only;\n"
    "                      --memory bounds its memo table)\n"
    "  --quiet             no progress on stderr\n"
    "  --verbose           the plan's decisions and their reasons on stderr\n"
    "  --plan              print the plan (threads, memory, table, database and\n"
    "                      their reasons; with --json one object) and stop\n"
    "  --ledger FILE       solve by work units (sow/units.h), every answer written\n"
    "                      at once to the SQLite ledger FILE: created if missing,\n"
    "                      resumed if it holds this solve (after a kill or Ctrl-C),\n"
    "                      refused if it holds another; implies --value-only;\n"
    "                      --threads T answers T units at once, one a thread\n"
    "  --frontier D        the units' frontier: D plies from the root, 1..12\n"
    "                      (default 4; a ledger keeps the D it was made with)\n"
    "  --mpi               with --ledger, under mpirun -np N: rank 0 manages (the\n"
    "                      ledger, which units matter), ranks 1..N-1 answer units,\n"
    "                      --threads at once each (a unit a thread), the database\n"
    "                      loaded from --db DIR; implied when mpirun started sow;\n"
    "                      1 rank: the local solve\n"
    "  --at-least V        with --ledger: ask only whether the value is at least V\n"
    "                      (a null-window test of the root split into units;\n"
    "                      its answers serve a later exact solve of the ledger)\n"
    "  --split-nodes N     with --ledger: a unit past N nodes gives up and its node\n"
    "                      is split, its children units of their own (recorded in\n"
    "                      the ledger: a later run splits it too), so no unit\n"
    "                      outgrows a run (default 0: no budget; doc/ledger.md)\n"
    "\n"
    "JSON keys: game, pits, seeds (per pit at the start; null with --position),\n"
    "variant, seeds_on_board, stores {south, north}, value, outcome, best,\n"
    "moves [{move, value, outcome | at_most}], pv (moves with their side:\n"
    "\"S2\" is South's pit 2, \"N1\" North's pit 1), pie, interrupted, nodes,\n"
    "seconds, seconds_value, seconds_search, cpu_search, nps, threads, tt_mb,\n"
    "mtd_probes, oracle_probes, db {seeds, first_seeds, bytes (its positions\n"
    "at a byte each), held_bytes (what it holds in memory), seconds, root}\n"
    "or null,\n"
    "db_cut (the time limit kept the database below the plan's), solver.\n"
    "Interrupted (exit 130): interrupted true, reason (\"stopped\" for Ctrl-C,\n"
    "\"time limit\" for --time or the server's time), lower and upper (the\n"
    "value's proven bounds), best (the best move so far, or null), nodes,\n"
    "seconds, cpu_search, db, db_cut.\n"
    "With --ledger: value, outcome, best, lower, upper, interrupted, ledger,\n"
    "frontier, units, splits (units split in this run), reused, nodes, cpu\n"
    "(every rank's searches), manager_cpu\n"
    "(rank 0 outside its searches), seconds, threads, tt_mb, ranks, workers_lost,\n"
    "db, solver, at_least (V or null), holds (with --at-least: true, false, or\n"
    "null when interrupted); interrupted (exit 130, or 1 under mpirun when every\n"
    "worker is dead): value, outcome and best null. With --at-least the value\n"
    "is null unless the bounds met; best is a move that proves the bound.\n"
    "\n"
    "example: sow solve kalah --pits 6 --seeds 4\n";

/* The stop flag the plan polls, set by the SIGINT handler. */
static sow_stop_flag stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    cli_sigint_stop(&stop_flag);
}

/* Progress: on a terminal one line redrawn in place; off it (logs) a first
 * line after FIRST_LINE seconds, then one every LINE_EVERY. */
#define FIRST_LINE 1.0
#define LINE_EVERY 5.0

typedef struct progress_state {
    bool tty, quiet;
    double t0, last;
    int lines;
    const cli_game *cg;
} progress_state;

/* Should a progress line go out now? */
static bool progress_due(progress_state *st, bool final)
{
    if (st->quiet)
        return false;
    double t = cli_now() - st->t0;
    if (!st->tty && !final &&
        (st->lines ? t - st->last < LINE_EVERY : t < FIRST_LINE))
        return false;
    st->last = t;
    st->lines++;
    return true;
}

static void on_db_progress(void *ctx, const sow_progress *p)
{
    progress_state *st = ctx;
    /* Off a terminal, the last seed count's end is worth a line too. */
    bool final = !st->tty && p->seeds == p->max_seeds && p->done == p->total && st->lines;
    if (!progress_due(st, final))
        return;
    double rate = p->seconds > 0 ? (double)p->all_done / p->seconds : 0;
    fprintf(stderr, "%sdatabase: seeds %d/%d, %.0f%% of all, %.1f M positions/s, %.1f s%s",
            st->tty ? "\r" : "", p->seeds, p->max_seeds,
            p->all_total ? 100.0 * (double)p->all_done / (double)p->all_total : 100.0,
            rate / 1e6, p->seconds, st->tty ? "\033[K" : "\n");
}

static void on_search_progress(void *ctx, const sow_search_progress *pr)
{
    progress_state *st = ctx;
    if (!progress_due(st, false))
        return;
    const sow_game *g = &st->cg->g;
    double rate = pr->seconds > 0 ? (double)pr->nodes / pr->seconds : 0;
    char what[64] = "";
    /* The phase names the line unless it is the value itself. */
    if (strcmp(pr->phase, "moves") == 0)
        snprintf(what, sizeof what, "move %d/%d: ", pr->move + 1, pr->nmoves);
    else if (strcmp(pr->phase, "value") != 0)
        snprintf(what, sizeof what, "%s: ", pr->phase);
    fprintf(stderr, "%s%svalue in [%+d, %+d], testing >= %+d; %.1f M nodes, %.2f M nodes/s, "
            "%.1f s%s",
            st->tty ? "\r" : "", what, sow_score_margin(g, pr->lower),
            sow_score_margin(g, pr->upper), sow_score_margin(g, pr->test),
            (double)pr->nodes / 1e6, rate / 1e6, pr->seconds, st->tty ? "\033[K" : "\n");
}

static void on_phase(void *ctx, const char *phase)
{
    progress_state *st = ctx;
    if (!st->quiet && st->tty)
        fputs("\r\033[K", stderr); /* a new phase: clear the line in place */
}

static const char *plural(int n)
{
    return n == 1 ? "" : "s";
}

static void on_db_grow(void *ctx, int from, int to, double searched)
{
    progress_state *st = ctx;
    if (st->quiet)
        return;
    fprintf(stderr, "%ssow: the search above %d seeds ran %.1f s, its budget beside the "
            "build of the database up to %d: growing it\n", st->tty ? "\r\033[K" : "", from,
            searched, to);
}

/* The board as it is: the starting board's size, or for --position what
 * lies on it (its seeds per pit at the start are unknown). */
static void print_board(FILE *f, const cli_game *cg)
{
    if (cg->position) {
        int k = sow_seeds_on_board(&cg->g, &cg->pos);
        fprintf(f, "%s, %d pits, %d seed%s on the board", sow_game_name(cg->cfg.game), cg->g.m, k,
               plural(k));
    } else {
        fprintf(f, "%s %dx%d", sow_game_name(cg->cfg.game), cg->cfg.pits, cg->cfg.seeds);
    }
    if (cg->pie_opening)
        fprintf(f, " with the pie rule");
}

static const char *to_move(const cli_game *cg)
{
    return sow_pos_to_move(&cg->pos) == SOW_SOUTH ? "south" : "north";
}

/* The JSON keys every solve prints first: the game and the board. */
static void json_board(FILE *f, const cli_game *cg)
{
    cli_fjson_game(f, cg);
    fprintf(f, ",\"seeds_on_board\":%d,\"stores\":{\"south\":%d,\"north\":%d}", sow_seeds_on_board(&cg->g, &cg->pos),
           sow_pos_store(&cg->pos, SOW_SOUTH), sow_pos_store(&cg->pos, SOW_NORTH));
}

/* Writes each move of the principal variation with its side ("S2", "N1"):
 * extra turns make the side ambiguous otherwise. */
static void print_pv(FILE *f, const cli_game *cg, const sow_search_result *r, bool json)
{
    sow_pos p = cg->pos;
    for (int i = 0; i < r->pv_len; i++) {
        char mt[8];
        sow_move_format(r->pv[i], mt, sizeof mt);
        char side = sow_pos_to_move(&p) == SOW_SOUTH ? 'S' : 'N';
        fprintf(f, json ? "%s\"%c%s\"" : "%s%c%s", i ? (json ? "," : " ") : "", side, mt);
        sow_make(&cg->g, &p, r->pv[i]);
    }
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
        json_board(stdout, cg);
        printf(",\"value\":%d,\"outcome\":\"%s\"", s.value, cli_outcome_name(s.outcome));
        cli_json_moves(cg, &s, NULL);
        printf(",\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"solver\":\"reference\"}\n",
               cg->pie_opening ? "true" : "false", (unsigned long long)s.nodes, secs);
        return 0;
    }
    print_board(stdout, cg);
    printf(": value %+d for %s (to move): %s\n", s.value, to_move(cg),
           cli_outcome_name(s.outcome));
    cli_text_moves(cg, &s, NULL);
    printf("nodes %llu, %.3f s (reference solver)\n", (unsigned long long)s.nodes, secs);
    return 0;
}

/* The JSON "db" value: the database used, or null. */
/* The database's JSON, then db_cut: the time limit kept it below the plan. */
static void json_db(FILE *f, const sow_plan_result *res, bool root_in_db)
{
    if (res->db_seeds)
        fprintf(f, "{\"seeds\":%d,\"first_seeds\":%d,\"bytes\":%llu,\"held_bytes\":%llu,"
                "\"seconds\":%.6f,\"root\":%s}", res->db_seeds, res->db_first_seeds,
                (unsigned long long)res->db_bytes, (unsigned long long)res->db_held_bytes,
                res->db_seconds, root_in_db ? "true" : "false");
    else
        fprintf(f, "null");
    fprintf(f, ",\"db_cut\":%s", res->db_cut ? "true" : "false");
}

/* The line saying the time limit kept the database below the plan. */
static void text_db_cut(FILE *f, const sow_plan_result *res)
{
    if (!res->db_cut)
        return;
    if (res->db_seeds)
        fprintf(f, "database: the time limit stopped it at %d seed%s, below the plan's\n",
                res->db_seeds, plural(res->db_seeds));
    else
        fprintf(f, "database: none, the time limit left no time to build the plan's\n");
}

/* Ctrl-C: what is proven so far. Exit status 130, as a shell reports an
 * interrupted program. */
int cli_solve_print_interrupted(FILE *f, const cli_game *cg, const sow_plan_result *res,
                                const char *reason)
{
    const sow_search_result *r = &res->search;
    const sow_game *g = &cg->g;
    int lo = sow_score_margin(g, r->lower), hi = sow_score_margin(g, r->upper);
    char best[8] = "";
    if (r->sol.best >= 0)
        sow_move_format(r->sol.moves[r->sol.best], best, sizeof best);
    if (cg->json) {
        fprintf(f, "{");
        json_board(f, cg);
        fprintf(f, ",\"interrupted\":true,\"reason\":\"%s\",\"lower\":%d,\"upper\":%d,\"best\":",
                reason ? reason : "stopped", lo, hi);
        fprintf(f, best[0] ? "\"%s\"" : "null", best);
        fprintf(f, ",\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"cpu_search\":%.6f,\"db\":",
                cg->pie_opening ? "true" : "false", (unsigned long long)r->sol.nodes,
                res->seconds, res->cpu_seconds);
        /* A root in the database is answered at once, never interrupted. */
        json_db(f, res, false);
        fprintf(f, ",\"solver\":\"search\"}\n");
    } else {
        print_board(f, cg);
        fprintf(f, ": interrupted%s%s%s after %.1f s: value in [%+d, %+d] for %s (to move)\n",
               reason ? " (" : "", reason ? reason : "", reason ? ")" : "", res->seconds, lo,
               hi, to_move(cg));
        if (best[0])
            fprintf(f, "best move so far: %s\n", best);
        else
            fprintf(f, "no best move found yet\n");
        text_db_cut(f, res);
    }
    fflush(f);
    return 130;
}

void cli_solve_print(FILE *f, const cli_game *cg, const sow_plan *plan,
                     const sow_plan_result *res)
{
    const sow_search_result *r = &res->search;
    const sow_solution *sol = &r->sol;
    double search_secs = res->seconds - res->db_seconds;
    double nps = search_secs > 0 ? (double)sol->nodes / search_secs : 0;
    int T = plan->limits.threads;
    bool root_in_db = res->db_seeds > 0 && res->db_seeds >= plan->board_seeds;
    const char *solver = root_in_db && !res->trial_solved ? "database" : "search";
    if (cg->json) {
        fprintf(f, "{");
        json_board(f, cg);
        fprintf(f, ",\"value\":%d,\"outcome\":\"%s\"", sol->value, cli_outcome_name(sol->outcome));
        cli_fjson_moves(f, cg, sol, r->move_exact, CLI_MOVES_BOUNDS);
        fprintf(f, ",\"pv\":[");
        print_pv(f, cg, r, true);
        fprintf(f, "],\"pie\":%s,\"interrupted\":false,\"nodes\":%llu,\"seconds\":%.6f,"
               "\"seconds_value\":%.6f,\"seconds_search\":%.6f,\"cpu_search\":%.6f,"
               "\"nps\":%.0f,\"threads\":%d,\"tt_mb\":%zu,\"mtd_probes\":%d,"
               "\"oracle_probes\":%llu,\"db\":",
               cg->pie_opening ? "true" : "false", (unsigned long long)sol->nodes, res->seconds,
               r->seconds_value, r->seconds, res->cpu_seconds, nps, T, plan->tt_mb,
               r->mtd_probes, (unsigned long long)r->oracle_probes);
        json_db(f, res, root_in_db);
        fprintf(f, ",\"solver\":\"%s\"}\n", solver);
        return;
    }
    print_board(f, cg);
    fprintf(f, ": value %+d for %s (to move): %s\n", sol->value, to_move(cg),
           cli_outcome_name(sol->outcome));
    cli_text_moves(cg, sol, r->move_exact);
    if (sol->nmoves) {
        fprintf(f, "pv: ");
        print_pv(f, cg, r, false);
        fprintf(f, "\n");
    }
    fprintf(f, "nodes %llu, %.3f s in all (last search %.3f s, its value in %.3f s; searches %.3f "
           "CPU s), %.2f M nodes/s, %d thread%s, table %zu MB\n",
           (unsigned long long)sol->nodes, res->seconds, r->seconds, r->seconds_value,
           res->cpu_seconds, nps / 1e6, T, plural(T), plan->tt_mb);
    if (res->db_seeds) {
        /* A grown database never holds the root (it grows short of it). */
        char from[32] = "";
        if (res->db_first_seeds < res->db_seeds)
            snprintf(from, sizeof from, " (grown from %d)", res->db_first_seeds);
        fprintf(f, "database: up to %d seed%s%s, %.1f MB held (%.1f M positions), %sready in "
               "%.3f s%s\n", res->db_seeds, plural(res->db_seeds), from,
               (double)res->db_held_bytes / 1048576.0, (double)res->db_bytes / 1e6,
               from[0] ? "its steps " : "", res->db_seconds,
               root_in_db ? "; it holds the position itself" : "");
    }
    text_db_cut(f, res);
}

/* The default frontier: 4 plies give Kalah(6,n) about a thousand nodes,
 * units small enough that a kill loses little, few enough that the
 * ledger's writes cost nothing (results/ledger.md). */
#define DEFAULT_FRONTIER 4

static void on_units_progress(void *ctx, const sow_units_progress *pr)
{
    progress_state *st = ctx;
    if (!progress_due(st, false))
        return;
    const sow_game *g = &st->cg->g;
    fprintf(stderr, "%sunits: %llu answered, value in [%+d, %+d]; %.1f M nodes, %.1f CPU s, "
            "%.1f s%s",
            st->tty ? "\r" : "", (unsigned long long)pr->units, sow_score_margin(g, pr->lower),
            sow_score_margin(g, pr->upper), (double)pr->nodes / 1e6, pr->cpu_seconds,
            pr->seconds, st->tty ? "\033[K" : "\n");
}

/* `--ledger FILE`: the solve by work units, resumed from and written to
 * the ledger; with ranks > 1 this is MPI's rank 0 and the other ranks
 * answer the units. */
static int solve_ledger(cli_game *cg, const sow_plan *plan, const char *path, int depth,
                        const sow_units_goal *goal, progress_state *ps, int ranks)
{
    sow_ledger_id id = {.cfg = cg->cfg, .depth = depth};
    sow_pos_format(&cg->g, &cg->pos, id.position, sizeof id.position);
    char why[SOW_LEDGER_WHY];
    sow_ledger *l;
    if (sow_ledger_open(path, &cg->g, &id, &l, why, sizeof why))
        cli_fail("solve: %s", why);
    sow_unit *known;
    size_t nknown;
    if (sow_ledger_units(l, &known, &nknown, why, sizeof why)) {
        sow_ledger_close(l);
        cli_fail("solve: %s", why);
    }
    sow_units_journal j;
    sow_ledger_journal(l, &j);

    sow_units_callbacks cb = {
        .progress = on_units_progress,
        .db_progress = on_db_progress,
        .ctx = ps,
        .progress_every = ps->tty ? 0.5 : FIRST_LINE,
    };
    static sow_units_result r;
    sow_err e = ranks > 1 ? sow_units_mpi_manager(&cg->g, &cg->pos, plan, depth, known, nknown,
                                                  goal, &j, &cb, &r, why, sizeof why)
                          : sow_units_solve_pool(&cg->g, &cg->pos, plan, depth, known, nknown,
                                                 goal, NULL, &j, &cb, &r, why, sizeof why);
    free(known);
    /* A failed write of the ledger says which file and why (the solve's
     * own error is only the code the journal returned). */
    const char *lerr = sow_ledger_error(l);
    if (lerr && lerr[0])
        snprintf(why, sizeof why, "%s", lerr);
    sow_ledger_close(l);
    if (!ps->quiet && ps->tty && ps->lines)
        fputs("\r\033[K", stderr);
    /* Every MPI worker dead: a stopped solve (what is proven, below), the
     * reason on stderr and exit 1, could not finish (the ledger keeps the
     * answers: the same command resumes). */
    bool no_workers = e && ranks > 1 && r.workers_lost == ranks - 1;
    if (e && !no_workers && !(e == SOW_E_INTERRUPTED && __atomic_load_n(&stop_flag, __ATOMIC_RELAXED)))
        cli_fail("solve: %s", why);
    const sow_game *g = &cg->g;
    bool done = e == SOW_OK;
    char best[8] = "";
    if (done && r.has_best)
        sow_move_format(r.best, best, sizeof best);
    int V = goal->test ? sow_score_margin(g, goal->threshold + (g->score_scale > 1)) : 0;
    bool holds = done && goal->test && r.lower >= goal->threshold;
    int T = plan->limits.threads;
    if (cg->json) {
        printf("{");
        json_board(stdout, cg);
        if (done && r.exact)
            printf(",\"value\":%d,\"outcome\":\"%s\"", r.value, cli_outcome_name(r.outcome));
        else
            printf(",\"value\":null,\"outcome\":null");
        if (best[0])
            printf(",\"best\":\"%s\"", best);
        else
            printf(",\"best\":null");
        if (goal->test)
            printf(",\"at_least\":%d,\"holds\":%s", V,
                   !done ? "null" : holds ? "true" : "false");
        else
            printf(",\"at_least\":null,\"holds\":null");
        printf(",\"lower\":%d,\"upper\":%d,\"interrupted\":%s,\"ledger\":",
               sow_score_margin(g, r.lower), sow_score_margin(g, r.upper),
               done ? "false" : "true");
        cli_fjson_string(stdout, path);
        printf(",\"frontier\":{\"depth\":%d,\"nodes\":%llu},\"units\":%llu,\"splits\":%llu,"
               "\"reused\":%llu,"
               "\"nodes\":%llu,\"cpu\":%.6f,\"manager_cpu\":%.6f,\"seconds\":%.6f,"
               "\"threads\":%d,\"tt_mb\":%zu,\"ranks\":%d,\"workers_lost\":%d,\"db\":",
               depth, (unsigned long long)r.frontier, (unsigned long long)r.units,
               (unsigned long long)r.splits, (unsigned long long)r.reused,
               (unsigned long long)r.nodes, r.cpu_seconds,
               r.manager_cpu, r.seconds, T, plan->tt_mb, ranks, r.workers_lost);
        if (r.db_seeds)
            printf("{\"seeds\":%d}", r.db_seeds);
        else
            printf("null");
        printf(",\"solver\":\"units\"}\n");
    } else {
        print_board(stdout, cg);
        if (done && r.exact)
            printf(": value %+d for %s (to move): %s\nbest: %s\n", r.value, to_move(cg),
                   cli_outcome_name(r.outcome), best);
        else if (done)
            printf(": value %s %+d for %s (to move): proven, value in [%+d, %+d]%s%s\n",
                   holds ? ">=" : "<", V, to_move(cg), sow_score_margin(g, r.lower),
                   sow_score_margin(g, r.upper), best[0] ? "; it holds after " : "", best);
        else
            printf(": interrupted after %.1f s: value in [%+d, %+d] for %s (to move)\n",
                   r.seconds, sow_score_margin(g, r.lower), sow_score_margin(g, r.upper),
                   to_move(cg));
        printf("units: %llu answered in this run, %llu from the ledger %s, frontier %llu nodes "
               "at %d plies",
               (unsigned long long)r.units, (unsigned long long)r.reused, path,
               (unsigned long long)r.frontier, depth);
        if (r.splits)
            printf(" (%llu units split in this run)", (unsigned long long)r.splits);
        printf("\n");
        printf("nodes %llu, %.3f s, %.3f CPU s in units, %d thread%s, table %zu MB",
               (unsigned long long)r.nodes, r.seconds, r.cpu_seconds, T, plural(T),
               plan->tt_mb);
        if (ranks > 1)
            printf(", %d MPI ranks (%d workers, %d lost; the manager's own CPU %.3f s)", ranks,
                   ranks - 1, r.workers_lost, r.manager_cpu);
        if (r.db_seeds)
            printf(", database up to %d seed%s", r.db_seeds, plural(r.db_seeds));
        printf("\n");
    }
    fflush(stdout);
    if (no_workers) { /* without MPI_Finalize, which waits for every rank */
        fprintf(stderr, "sow: solve: %s\n", why);
        exit(1);
    }
    return done ? 0 : 130;
}

/* Under mpirun: rank 0 solves with the ledger, the others answer its
 * units. An error on one rank ends the job (mpirun stops the others when
 * one exits without MPI_Finalize); a worker's own error the manager
 * reports, so workers stay quiet. */
static int solve_mpi(cli_game *cg, const sow_plan *plan, const char *path, int depth,
                     const sow_units_goal *goal, progress_state *ps)
{
    int rank, ranks;
    char why[SOW_WHY];
    if (sow_units_mpi_init(&rank, &ranks, why, sizeof why) != SOW_OK)
        cli_fail("solve: %s", why);
    int status;
    if (rank > 0)
        status = sow_units_mpi_worker(&cg->g, &cg->pos, plan, why, sizeof why) ? 1 : 0;
    else
        status = solve_ledger(cg, plan, path, depth, goal, ps, ranks);
    sow_units_mpi_finalize();
    return status;
}

/* How the plan holds the database: in place or copied, and why. */
static const char *in_place_text(const sow_plan *p)
{
    static char buf[160];
    if (p->root_in_db)
        snprintf(buf, sizeof buf, "probed where its files are mapped (it holds the position)");
    else if (p->db_in_place)
        snprintf(buf, sizeof buf, "probed where its files are mapped: copying them (%.1f s "
                 "modelled) would cost more than the search saves", p->db_copy_seconds);
    else
        snprintf(buf, sizeof buf, "copied into huge pages (%.1f s modelled for the folder's "
                 "files; levels built here are held as built)", p->db_copy_seconds);
    return buf;
}

/* --plan: the decisions, and stop. */
static int print_plan(const cli_game *cg, const sow_plan *p)
{
    if (!cg->json) {
        printf("board: %d seeds\nthreads: %d\nmemory: %.0f MB\ntable: %zu MB\n"
               "database: %d seeds, %.0f MB at its peak while it opens%s\n"
               "grows up to: %d seeds\ntrial: %.3g s\n"
               "why database: %s\nwhy growth: %s\nwhy table: %s\nwhy trial: %s\n",
               p->board_seeds, p->limits.threads, (double)p->limits.memory / 1048576.0, p->tt_mb,
               p->db_seeds, (double)p->db_bytes / 1048576.0,
               p->root_in_db ? " (holds the position itself)" : "", p->db_grow_seeds,
               p->trial_seconds, p->why_db, p->why_grow, p->why_tt, p->why_trial);
        if (p->db_seeds > 0)
            printf("database held: %s\n", in_place_text(p));
        return 0;
    }
    printf("{");
    cli_json_game(cg);
    printf(",\"seeds_on_board\":%d,\"threads\":%d,\"memory_mb\":%.0f,\"tt_mb\":%zu,"
           "\"db_seeds\":%d,\"db_level_step\":%d,\"db_bytes\":%llu,\"root_in_db\":%s,"
           "\"db_grow_seeds\":%d,\"trial_seconds\":%.6g,\"why_db\":",
           p->board_seeds, p->limits.threads, (double)p->limits.memory / 1048576.0, p->tt_mb,
           p->db_seeds, cg->g.level_step, (unsigned long long)p->db_bytes,
           p->root_in_db ? "true" : "false", p->db_grow_seeds, p->trial_seconds);
    cli_fjson_string(stdout, p->why_db);
    printf(",\"why_grow\":");
    cli_fjson_string(stdout, p->why_grow);
    printf(",\"why_tt\":");
    cli_fjson_string(stdout, p->why_tt);
    printf(",\"why_trial\":");
    cli_fjson_string(stdout, p->why_trial);
    printf(",\"db_degraded\":%s,\"db_in_place\":%s,\"db_copy_seconds\":%.3f}\n",
           p->db_degraded ? "true" : "false", p->db_in_place ? "true" : "false",
           p->db_copy_seconds);
    return 0;
}

int cmd_solve(int argc, char **argv)
{
    cli_game cg = {0};
    cli_limit_opts lo = {0};
    const char *ledger = NULL, *frontier = NULL, *at_least = NULL, *split_nodes = NULL;
    bool quiet = false, verbose = false, reference = false, value_only = false, mpi = false,
         plan_only = false;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg),
                            CLI_LIMIT_OPTS(&lo),
                            {"time", OPT_STRING, &lo.time},
                            {"value-only", OPT_FLAG, &value_only},
                            {"reference", OPT_FLAG, &reference},
                            {"quiet", OPT_FLAG, &quiet},
                            {"verbose", OPT_FLAG, &verbose},
                            {"plan", OPT_FLAG, &plan_only},
                            {"ledger", OPT_STRING, &ledger},
                            {"frontier", OPT_STRING, &frontier},
                            {"mpi", OPT_FLAG, &mpi},
                            {"at-least", OPT_STRING, &at_least},
                            {"split-nodes", OPT_STRING, &split_nodes},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    double t0 = cli_now(); /* --time counts from here */
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    sow_limits lim;
    cli_limits(&lo, &lim);
    if (lim.time_limit > 0)
        lim.deadline = t0 + lim.time_limit;
    if (lo.time && ledger)
        cli_fail("solve: --time does not apply to --ledger (a ledger's solve resumes "
                 "where it stopped: stop it with Ctrl-C)");
    lim.value_only = value_only;
    lim.stop = &stop_flag;
    if (frontier && !ledger)
        cli_fail("solve: --frontier needs --ledger");
    if (at_least && !ledger)
        cli_fail("solve: --at-least needs --ledger");
    if (split_nodes && !ledger)
        cli_fail("solve: --split-nodes needs --ledger");
    int depth = frontier ? (int)cli_int("--frontier", frontier, 1, SOW_UNITS_MAX_FRONTIER)
                         : DEFAULT_FRONTIER;
    if (ledger && !sow_ledger_available())
        cli_fail("solve: this build of sow has no ledger: install libsqlite3-dev and rebuild");
    if (ledger && reference)
        cli_fail("solve: --ledger excludes --reference");
    /* Started by mpirun, a solve is one rank of many: solving alone would
     * repeat the work N times and write N ledgers. */
    bool launched = sow_units_mpi_launched();
    if ((mpi || launched) && !sow_units_mpi_available())
        cli_fail("solve: this build of sow has no MPI%s: install openmpi-bin and "
                 "libopenmpi-dev and rebuild", mpi ? "" : " (started by mpirun)");
    if ((mpi || launched) && !ledger)
        cli_fail("solve: %s needs --ledger FILE (rank 0's record of the units)",
                 mpi ? "--mpi" : "a solve under mpirun");
    cli_game_setup(&cg, true, true);
    if (ledger && cg.pie_opening)
        cli_fail("solve: --ledger does not take a position in the pie rule's opening turn");
    if (ledger && sow_over(&cg.g, &cg.pos))
        cli_fail("solve: --ledger: the game is over, there is nothing to solve");
    if (ledger) {
        lim.value_only = true;
        lim.fixed_db = true;
    }
    if (reference && plan_only)
        cli_fail("solve: --plan excludes --reference (which has no plan)");
    if (reference) {
        if (lo.threads || lo.tt_mb || lo.db_dir || lo.db_seeds || value_only || lo.no_db ||
            lo.time)
            cli_fail("solve: --reference takes only the game options and --memory");
        return solve_reference(&cg, (long)((lim.memory ? lim.memory : cli_default_memory()) >> 20));
    }
    lim.pie_opening = cg.pie_opening;
    /* Value V as a score threshold: margin >= V is score >= V x scale
     * less the tie-break's lowest (sow/rules.h). */
    sow_units_goal goal = {0};
    if (at_least) {
        int v = (int)cli_int("--at-least", at_least, -1000, 1000);
        goal = (sow_units_goal){true, v * cg.g.score_scale - (cg.g.score_scale > 1), 0};
    }
    if (split_nodes)
        goal.split_nodes = (uint64_t)cli_int("--split-nodes", split_nodes, 0, 1L << 62);

    sow_plan plan;
    char why[SOW_WHY];
    sow_err pe = sow_plan_make(&cg.g, &cg.pos, &lim, &plan, why, sizeof why);
    if (pe == SOW_E_LIMIT && !sow_search_exact(&cg.g, &cg.pos))
        cli_fail("solve: %s; `sow analyse` searches it within a time limit, exact once "
                 "proven (or a smaller board: --pits M --seeds N)", why);
    if (pe)
        cli_fail("solve: %s", why);
    if (plan_only)
        return print_plan(&cg, &plan);
    if (verbose)
        fprintf(stderr, "plan: %d thread%s, memory %.0f MB\nplan: %s\nplan: %s\nplan: %s\n"
                "plan: %s\n%s%s%s", plan.limits.threads, plural(plan.limits.threads),
                (double)plan.limits.memory / 1048576.0, plan.why_db, plan.why_grow,
                plan.why_tt, plan.why_trial, plan.db_seeds > 0 ? "plan: the database " : "",
                plan.db_seeds > 0 ? in_place_text(&plan) : "", plan.db_seeds > 0 ? "\n" : "");
    else if (plan.db_degraded)
        fprintf(stderr, "sow: note: %s\n", plan.why_db);

    progress_state ps = {.tty = isatty(2) != 0, .quiet = quiet, .t0 = cli_now(), .cg = &cg};
    sow_plan_callbacks cb = {
        .search_progress = on_search_progress,
        .db_progress = on_db_progress,
        .phase = on_phase,
        .db_grow = on_db_grow,
        .ctx = &ps,
        .progress_every = ps.tty ? 0.5 : FIRST_LINE,
    };
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    if (ledger && (mpi || launched))
        return solve_mpi(&cg, &plan, ledger, depth, &goal, &ps);
    if (ledger)
        return solve_ledger(&cg, &plan, ledger, depth, &goal, &ps, 1);

    static sow_plan_result res;
    sow_err e = sow_plan_solve(&cg.g, &cg.pos, &plan, &cb, &res, why, sizeof why);
    if (!quiet && ps.tty && ps.lines)
        fputs("\r\033[K", stderr);
    if (e == SOW_E_INTERRUPTED) {
        /* what cut it short before the time did (the positions above the
         * database not fitting the memory), if anything: the plan's
         * reason when it is more than the time or the user's stop */
        if (!quiet && strcmp(why, "time limit") && strcmp(why, "interrupted"))
            fprintf(stderr, "sow: solve: %s\n", why);
        return cli_solve_print_interrupted(stdout, &cg, &res,
                                           __atomic_load_n(&stop_flag, __ATOMIC_RELAXED)
                                               ? NULL : "time limit");
    }
    if (e)
        cli_fail("solve: %s", why);
    cli_solve_print(stdout, &cg, &plan, &res);
    return 0;
}
