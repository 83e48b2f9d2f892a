/* cmd_bench.c - `sow bench`: a fixed workload whose node counts are a
 * signature of the search.
 *
 * Every position of bench/positions.txt is searched to its fixed depth by
 * the depth-limited search on one thread from a cleared table of fixed
 * size, so each node count, and their total (the signature), depends only
 * on the code: a change that alters the total changed search behaviour; a
 * speed-up that keeps it did not. Then perft throughput on each game's
 * default board and database-build throughput. Times are wall-clock and
 * depend on the machine's load; node counts do not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sow/db.h"
#include "sow/search.h"

#ifndef SOW_BENCH_FILE
#define SOW_BENCH_FILE "bench/positions.txt"
#endif

static const char usage[] =
    "usage: sow bench [--quick] [--positions FILE] [--json]\n"
    "\n"
    "Searches the positions of FILE (default " SOW_BENCH_FILE ")\n"
    "to fixed depths on one thread with a cleared 16 MB table, and prints each\n"
    "node count and their total, the signature: it changes only when the\n"
    "search's behaviour changes. Then perft throughput on each game's default\n"
    "board and the database build rate (kalah, 6 pits).\n"
    "\n"
    "  --quick             smaller depths (a few seconds in all)\n"
    "  --positions FILE    another position file (same format)\n"
    "  --json              one JSON object\n";

#define BENCH_TT_MB 16

typedef struct bench_line {
    char game[16], variant[64], where[512]; /* where: a position or a move list */
    int pits, seeds, depth, quick;
} bench_line;

/* Copies the next blank-separated field of *s into out[0..cap); fails,
 * naming the line, if it is missing or does not fit (a position or move
 * list cut short would be a different workload, not an error). */
static void field(char **s, char *out, size_t cap, const char *name, const char *path, int line)
{
    char *t = strtok_r(NULL, " \t\r\n", s);
    if (!t)
        cli_fail("bench: %s:%d: missing %s (expected 'game pits seeds variant depth quick "
                 "where')",
                 path, line, name);
    if (strlen(t) >= cap)
        cli_fail("bench: %s:%d: %s '%.40s...' is too long", path, line, name, t);
    strcpy(out, t);
}

static int int_field(char **s, const char *name, long lo, long hi, const char *path, int line)
{
    char text[24], what[64];
    field(s, text, sizeof text, name, path, line);
    snprintf(what, sizeof what, "bench: %.20s:%d: %s", path, line, name);
    return (int)cli_int(what, text, lo, hi);
}

static int read_lines(const char *path, bench_line *out, int cap)
{
    FILE *f = fopen(path, "r");
    if (!f)
        cli_fail("bench: cannot open %s (give --positions FILE)", path);
    char buf[1024];
    int n = 0, lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        if (!strchr(buf, '\n') && !feof(f))
            cli_fail("bench: %s:%d: line longer than %zu bytes", path, lineno, sizeof buf - 2);
        char *save, *t = strtok_r(buf, " \t\r\n", &save);
        if (!t || *t == '#')
            continue;
        if (n == cap)
            cli_fail("bench: %s: more than %d positions", path, cap);
        bench_line *b = &out[n];
        if (strlen(t) >= sizeof b->game)
            cli_fail("bench: %s:%d: unknown game '%.40s...'", path, lineno, t);
        strcpy(b->game, t);
        /* Board sizes are checked by cli_game_setup, depths here: the
         * search takes at most 254 plies, and a bench line is meant to
         * take seconds. */
        b->pits = int_field(&save, "pits", 0, 99, path, lineno);
        b->seeds = int_field(&save, "seeds", 0, 999, path, lineno);
        field(&save, b->variant, sizeof b->variant, "variant", path, lineno);
        b->depth = int_field(&save, "depth", 0, 64, path, lineno);
        b->quick = int_field(&save, "quick depth", 0, 64, path, lineno);
        field(&save, b->where, sizeof b->where, "where", path, lineno);
        if (strtok_r(NULL, " \t\r\n", &save))
            cli_fail("bench: %s:%d: more than 7 fields", path, lineno);
        n++;
    }
    /* A directory opens but does not read: without this check it would
     * bench nothing and print the signature 0. */
    bool failed = ferror(f);
    fclose(f);
    if (failed)
        cli_fail("bench: cannot read %s", path);
    if (n == 0)
        cli_fail("bench: %s holds no positions", path);
    return n;
}

/* Sets up cg (its board, position and history) from one line; a bad line
 * fails with exit status 2, as any bad game option does. */
static void line_game(const bench_line *b, cli_game *cg)
{
    /* cli_game_setup reads the board from text, like the command line's */
    char pits[16], seeds[16];
    snprintf(pits, sizeof pits, "%d", b->pits);
    snprintf(seeds, sizeof seeds, "%d", b->seeds);
    memset(cg, 0, sizeof *cg);
    cg->name = b->game;
    cg->pits = pits;
    cg->seeds = seeds;
    cg->variant = strcmp(b->variant, "-") == 0 ? NULL : b->variant;
    if (strncmp(b->where, "moves=", 6) == 0)
        cg->moves = b->where + 6;
    else if (strcmp(b->where, "start") != 0)
        cg->position = b->where;
    cli_game_setup(cg, true, true);
    cg->pits = cg->seeds = NULL; /* the buffers end here; cg->cfg holds the values */
}

/* Perft depths that take about a second (quick: about 0.1 s). */
static const struct {
    sow_game_id game;
    int depth, quick;
} perfts[] = {
    {SOW_KALAH, 10, 8}, {SOW_CHUNGKALA, 10, 8}, {SOW_CONGKAK, 8, 7}, {SOW_TOGUZ, 7, 6},
};

int cmd_bench(int argc, char **argv)
{
    bool quick = false, json = false;
    const char *file = SOW_BENCH_FILE;
    const cli_opt opts[] = {{"quick", OPT_FLAG, &quick},
                            {"positions", OPT_STRING, &file},
                            {"json", OPT_FLAG, &json},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 0, &npos, usage);

    static bench_line lines[256];
    int n = read_lines(file, lines, 256);
    /* Every line's game and position first, so that a bad line fails
     * before any output rather than after minutes of searching. */
    for (int i = 0; i < n; i++) {
        cli_game cg;
        line_game(&lines[i], &cg);
    }
    uint64_t total = 0;
    double secs = 0;
    if (json)
        printf("{\"quick\":%s,\"positions\":[", quick ? "true" : "false");
    else
        printf("%-44s %5s %12s %6s %9s\n", "position", "depth", "nodes", "score", "seconds");
    for (int i = 0; i < n; i++) {
        bench_line *b = &lines[i];
        cli_game cg;
        line_game(b, &cg);
        sow_search_options so = {.threads = 1, .tt_mb = BENCH_TT_MB};
        sow_search *s;
        if (sow_search_new(&cg.g, &so, &s))
            cli_fail("bench: cannot allocate the table");
        int depth = quick ? b->quick : b->depth;
        int score;
        uint64_t nodes;
        double t0 = cli_now();
        sow_err e = sow_search_depth(s, &cg.pos, depth, &score, &nodes);
        double t = cli_now() - t0;
        sow_search_free(s);
        if (e)
            cli_fail("bench: %s: %s", b->where, sow_err_name(e));
        total += nodes;
        secs += t;
        char label[320];
        snprintf(label, sizeof label, "%.15s %dx%d%s%.63s %.200s", b->game, b->pits, b->seeds,
                 cg.variant ? " " : "", cg.variant ? cg.variant : "", b->where);
        if (json) {
            /* The label is the file's text: a record comment may hold quotes. */
            printf("%s{\"position\":", i ? "," : "");
            cli_fjson_string(stdout, label);
            printf(",\"depth\":%d,\"nodes\":%llu,\"score\":%d,\"seconds\":%.6f}", depth,
                   (unsigned long long)nodes, score, t);
        } else
            printf("%-44.44s %5d %12llu %+6d %9.3f\n", label, depth, (unsigned long long)nodes,
                   score, t);
        fflush(stdout);
    }
    if (json)
        printf("],\"signature\":%llu,\"search_seconds\":%.6f,\"search_nps\":%.0f,\"perft\":[",
               (unsigned long long)total, secs, secs > 0 ? (double)total / secs : 0);
    else
        printf("signature (total nodes) %llu, %.3f s, %.2f M nodes/s\n\n",
               (unsigned long long)total, secs, secs > 0 ? (double)total / secs / 1e6 : 0);

    for (size_t i = 0; i < sizeof perfts / sizeof perfts[0]; i++) {
        sow_config c;
        sow_game g;
        sow_pos p;
        sow_config_default(perfts[i].game, &c);
        if (sow_game_init(&g, &c))
            cli_fail("bench: bad default board");
        sow_game_start(&g, &p);
        int d = quick ? perfts[i].quick : perfts[i].depth;
        double t0 = cli_now();
        uint64_t nodes = sow_perft(&g, &p, d);
        double t = cli_now() - t0;
        if (json)
            printf("%s{\"game\":\"%s\",\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f}", i ? "," : "",
                   sow_game_name(c.game), d, (unsigned long long)nodes, t);
        else
            printf("perft %-10s %dx%d depth %2d: %12llu nodes, %.3f s, %7.2f M nodes/s\n",
                   sow_game_name(c.game), c.pits, c.seeds, d, (unsigned long long)nodes, t,
                   t > 0 ? (double)nodes / t / 1e6 : 0);
    }

    /* Database build throughput: Kalah, 6 pits, all seed counts to K. */
    sow_config c = {SOW_KALAH, 6, 4, 0};
    sow_game g;
    sow_game_init(&g, &c);
    int K = quick ? 10 : 14;
    sow_db_options o = {.threads = 1};
    sow_db *db;
    char why[200];
    double t0 = cli_now();
    sow_err e = sow_db_open(&g, K, NULL, &o, &db, why, sizeof why);
    double t = cli_now() - t0;
    if (e)
        cli_fail("bench: database: %s", why);
    sow_db_close(db);
    double positions = 0;
    for (int k = 0; k <= K; k++)
        positions += (double)sow_index_count(12, k);
    if (json)
        printf("],\"db\":{\"game\":\"kalah\",\"pits\":6,\"max_seeds\":%d,\"positions\":%.0f,"
               "\"seconds\":%.6f,\"threads\":1}}\n",
               K, positions, t);
    else
        printf("database kalah m=6 up to %d seeds, 1 thread: %.0f positions, %.3f s, %.2f M "
               "positions/s\n",
               K, positions, t, t > 0 ? positions / t / 1e6 : 0);
    return 0;
}
