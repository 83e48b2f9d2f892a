/* cmd_units.c - `sow units list|probe`: the frontier of a solve by work
 * units (sow/units.h), and what solving its nodes costs, for predicting a
 * solve too long to run (scripts/predict-66). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sow/plan.h"
#include "sow/units.h"

static const char usage[] =
    "usage: sow units list GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                      [--moves LIST | --position P] [--frontier D]\n"
    "       sow units probe GAME [board options] --lines FILE [--max-nodes N]\n"
    "                      [--descend] [--seed S] [--threads T] [--memory SIZE]\n"
    "                      [--tt-mb MB] [--db DIR] [--db-seeds K | --no-db]\n"
    "\n"
    "list: the frontier of `sow solve ... --ledger FILE --frontier D` (default\n"
    "4): every line of D plies from the root (an extra turn is a ply), or\n"
    "shorter where the game ends, as CSV: line (moves from the root, e.g.\n"
    "\"3,1,6\"), depth, seeds (on the board, stores excluded), over (1: the game\n"
    "is over there: not a unit), moves (legal moves there).\n"
    "\n"
    "probe: for every line of FILE (moves from the root, one line a row, as\n"
    "list prints them, without quotes; '-' for FILE: stdin), the exact value of\n"
    "the node it reaches, solved as a unit's worker would (one process: the\n"
    "database is loaded once), the table cleared before each so its cost does\n"
    "not depend on the order. --max-nodes N: give up once a node has cost N\n"
    "search nodes (checked about every 50 ms, so a little more is spent).\n"
    "--descend: then go on to one of its children, uniformly at random (the\n"
    "generator seeded by --seed S, default 1), and so on until one is solved\n"
    "within the budget (Knuth's random probe: the cost of the line's node is\n"
    "estimated from the product of the move counts on the way down). CSV:\n"
    "line, final (the line solved), levels (children descended), factor\n"
    "(product of the move counts of the nodes given up), seeds (on the final\n"
    "node's board), done (1: solved), value (its margin, mover's view; empty\n"
    "if not done), lower, upper (proven margins), nodes, cpu, seconds (the\n"
    "final node's solve), spent_nodes, spent_cpu (all the line's solves,\n"
    "those given up included).\n"
    "\n"
    "  --frontier D        plies from the root, 1..12 (list)\n"
    "  --lines FILE        the lines to probe (probe)\n"
    "  --max-nodes N       per node, 0: none (default)\n"
    "  --descend           over budget: probe a random child instead\n"
    "  --seed S            the random generator's seed (default 1)\n"
    "  --threads, --memory, --tt-mb, --db, --db-seeds, --no-db: as sow solve\n"
    "\n" CLI_GAME_HELP "\n"
    "example: sow units list kalah --pits 6 --seeds 6 --frontier 4\n";

static sow_stop_flag stop_flag;

typedef struct probe_ctx {
    const sow_unit *u; /* the node being solved: nodes of its earlier tests */
    uint64_t max_nodes;
} probe_ctx;

/* Stops the test under way once the node's budget is spent. */
static void on_progress(void *ctx, const sow_search_progress *pr)
{
    const probe_ctx *c = ctx;
    if (c->max_nodes && c->u && c->u->nodes + pr->nodes >= c->max_nodes)
        __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

static void print_line(const sow_move *line, int n)
{
    sow_unit u = {.nline = n};
    memcpy(u.line, line, (size_t)n * sizeof *line);
    char buf[SOW_UNITS_LINE_TEXT];
    sow_units_line_format(&u, buf, sizeof buf);
    printf("\"%s\"", buf);
}

static void list(const sow_game *g, const sow_pos *p, sow_move *line, int d, int depth)
{
    bool over = sow_over(g, p);
    sow_move ms[SOW_MAX_MOVES];
    int nm = over ? 0 : sow_moves(g, p, ms);
    if (over || d == depth) {
        print_line(line, d);
        printf(",%d,%d,%d,%d\n", d, sow_seeds_on_board(g, p), over ? 1 : 0, nm);
        return;
    }
    for (int k = 0; k < nm; k++) {
        sow_pos c = *p;
        sow_make(g, &c, ms[k]);
        line[d] = ms[k];
        list(g, &c, line, d + 1, depth);
    }
}

static uint64_t next_random(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* The node at the end of u's line (already checked legal by a solve). */
static sow_pos node_of(const sow_game *g, const sow_pos *root, const sow_unit *u)
{
    sow_pos p = *root;
    for (int d = 0; d < u->nline; d++)
        sow_make(g, &p, u->line[d]);
    return p;
}

static int probe(cli_game *cg, const sow_plan *plan, const char *path, uint64_t max_nodes,
                 bool descend, uint64_t seed)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
    if (!f)
        cli_fail("units: cannot read %s", path);
    const sow_game *g = &cg->g;
    probe_ctx pc = {.max_nodes = max_nodes};
    sow_units_callbacks cb = {.search_progress = on_progress, .ctx = &pc, .progress_every = 0.05};
    sow_units_worker *w;
    char why[SOW_WHY];
    if (sow_units_worker_new(g, &cg->pos, plan, &cb, &w, why, sizeof why) != SOW_OK)
        cli_fail("units: %s", why);
    printf("line,final,levels,factor,seeds,done,value,lower,upper,nodes,cpu,seconds,"
           "spent_nodes,spent_cpu\n");
    char text[1024];
    int row = 0;
    while (fgets(text, sizeof text, f)) {
        row++;
        text[strcspn(text, "\r\n")] = 0;
        if (!text[0])
            continue;
        sow_unit u = {0}, first;
        if (sow_units_line_parse(g, text, &u) != SOW_OK)
            cli_fail("units: %s line %d: not a line of moves (e.g. 3,1,6, at most %d): '%s'",
                     path, row, SOW_UNITS_MAX_DEPTH, text);
        first = u;
        double factor = 1, spent_cpu = 0;
        uint64_t spent = 0;
        int levels = 0, lo, hi;
        sow_err e;
        for (;;) {
            pc.u = &u;
            __atomic_store_n(&stop_flag, 0, __ATOMIC_RELAXED);
            e = sow_units_worker_value(w, &u, max_nodes, &lo, &hi);
            pc.u = NULL;
            spent += u.nodes;
            spent_cpu += u.cpu_seconds;
            if (e == SOW_E_MOVE)
                cli_fail("units: %s line %d: '%s' is not legal play from the root", path, row,
                         text);
            if (e != SOW_OK && e != SOW_E_INTERRUPTED)
                cli_fail("units: %s line %d: %s", path, row, sow_err_name(e));
            if (e == SOW_OK || !descend || u.nline == SOW_UNITS_MAX_DEPTH)
                break;
            sow_pos p = node_of(g, &cg->pos, &u);
            sow_move ms[SOW_MAX_MOVES];
            int nm = sow_moves(g, &p, ms);
            factor *= nm;
            u.line[u.nline++] = ms[next_random(&seed) % (uint64_t)nm];
            levels++;
        }
        char a[SOW_UNITS_LINE_TEXT], b[SOW_UNITS_LINE_TEXT];
        sow_units_line_format(&first, a, sizeof a);
        sow_units_line_format(&u, b, sizeof b);
        sow_pos p = node_of(g, &cg->pos, &u);
        printf("\"%s\",\"%s\",%d,%.0f,%d,%d,", a, b, levels, factor, sow_seeds_on_board(g, &p),
               e == SOW_OK ? 1 : 0);
        if (e == SOW_OK)
            printf("%d", sow_score_margin(g, lo));
        printf(",%d,%d,%llu,%.3f,%.3f,%llu,%.3f\n", sow_score_margin(g, lo),
               sow_score_margin(g, hi), (unsigned long long)u.nodes, u.cpu_seconds, u.seconds,
               (unsigned long long)spent, spent_cpu);
        fflush(stdout);
    }
    if (f != stdin)
        fclose(f);
    sow_units_worker_free(w);
    return 0;
}

int cmd_units(int argc, char **argv)
{
    cli_game cg = {0};
    cli_limit_opts lo = {0};
    const char *frontier = NULL, *lines = NULL, *maxnodes = NULL, *seed = NULL;
    bool descend = false;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg),
                            CLI_LIMIT_OPTS(&lo),
                            {"frontier", OPT_STRING, &frontier},
                            {"lines", OPT_STRING, &lines},
                            {"max-nodes", OPT_STRING, &maxnodes},
                            {"descend", OPT_FLAG, &descend},
                            {"seed", OPT_STRING, &seed},
                            {NULL, 0, NULL}};
    const char *pos[2];
    int npos;
    cli_parse(argc, argv, opts, pos, 2, &npos, usage);
    if (npos < 1)
        cli_fail("units: missing list or probe (see sow units --help)");
    bool is_list = strcmp(pos[0], "list") == 0;
    if (!is_list && strcmp(pos[0], "probe") != 0)
        cli_fail("units: unknown subcommand '%s' (list, probe)", pos[0]);
    cg.name = npos > 1 ? pos[1] : NULL;
    if (cg.json)
        cli_fail("units: the output is CSV (no --json)");
    if (is_list && (lines || maxnodes || descend || seed || lo.memory || lo.threads || lo.tt_mb ||
                    lo.db_dir || lo.db_seeds || lo.no_db))
        cli_fail("units: list takes only the game options and --frontier");
    if (!is_list && frontier)
        cli_fail("units: probe takes --lines FILE, not --frontier");
    if (!is_list && !lines)
        cli_fail("units: probe needs --lines FILE");
    if (!is_list && (seed) && !descend)
        cli_fail("units: --seed needs --descend");
    cli_game_setup(&cg, true, true);
    if (cg.pie_opening)
        cli_fail("units: the position lies in the pie rule's opening turn");
    if (is_list) {
        int depth = frontier ? (int)cli_int("--frontier", frontier, 1, SOW_UNITS_MAX_FRONTIER) : 4;
        sow_move line[SOW_UNITS_MAX_DEPTH];
        printf("line,depth,seeds,over,moves\n");
        list(&cg.g, &cg.pos, line, 0, depth);
        return 0;
    }
    sow_limits lim;
    cli_limits(&lo, &lim);
    lim.value_only = true;
    lim.stop = &stop_flag;
    uint64_t max_nodes = maxnodes ? (uint64_t)cli_int("--max-nodes", maxnodes, 0, 1L << 62) : 0;
    uint64_t s = seed ? (uint64_t)cli_int("--seed", seed, 0, 1L << 62) : 1;
    sow_plan plan;
    char why[SOW_WHY];
    if (sow_plan_make(&cg.g, &cg.pos, &lim, &plan, why, sizeof why) != SOW_OK)
        cli_fail("units: %s", why);
    return probe(&cg, &plan, lines, max_nodes, descend, s);
}
