/* cmd_db.c - `sow db`: build, inspect, verify and query endgame databases
 * (doc/db-format.md, doc/retrograde.md). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "sow/db.h"

static const char usage[] =
    "usage: sow db build GAME --pits M --max-seeds K [--variant A,B] [--dir D]\n"
    "                 [--threads T] [--memory SIZE] [--quiet]\n"
    "       sow db info FILE\n"
    "       sow db verify DIR\n"
    "       sow db query GAME --pits M [--variant A,B] --dir D\n"
    "                 (--position P | --seeds N [--moves LIST]) [--json]\n"
    "\n"
    "Endgame databases for kalah, chungkala and congkak: for every board of M\n"
    "pits per side with at most K seeds left in the pits, the optimal future\n"
    "gain of the player to move (doc/retrograde.md). One file per seed count\n"
    "(doc/db-format.md). Toguz can repeat positions and has no database.\n"
    "\n"
    "build   computes the seed counts 0..K that DIR lacks and saves each one\n"
    "        (an interrupted build resumes where it stopped). Progress goes\n"
    "        to stderr. --memory SIZE (MB, or with a suffix K, M, G, T;\n"
    "        default 8G) bounds the tables: a build\n"
    "        that would not fit is refused before it starts. --dir defaults\n"
    "        to the current directory (created if missing).\n"
    "info    prints a file's parameters and checks its checksum.\n"
    "verify  checks every file of DIR (header, parameters, checksum) and that\n"
    "        each database has every seed count from 0 up; exit 1 if not.\n"
    "query   the value (final margin for the player to move, stores included),\n"
    "        outcome and every legal move's value, from the files in DIR;\n"
    "        the same JSON keys as `sow solve`.\n"
    "\n"
    "  --variant A,B       kalah: empty-capture, end-on-turn, no-sweep, pie\n"
    "                      (pie shares the files of the game without it)\n"
    "  --threads T         OpenMP threads (default: all cores)\n"
    "\n"
    "example: sow db build kalah --pits 6 --max-seeds 20 --dir db\n"
    "         sow db query kalah --pits 6 --dir db --position 0,0,1,0,2,1/20/1,0,0,0,3,0/20/s\n";

static volatile sig_atomic_t interrupted;
static volatile int stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
    stop_flag = 1;
}

typedef struct progress_state {
    bool tty;
    double last_line;
} progress_state;

static void fmt_secs(double s, char *buf, size_t n)
{
    if (s < 0 || s > 1e7)
        snprintf(buf, n, "?");
    else if (s < 120)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 7200)
        snprintf(buf, n, "%.0f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

static void on_progress(void *ctx, const sow_progress *p)
{
    progress_state *st = ctx;
    double rate = p->seconds > 0 ? (double)p->all_done / p->seconds : 0;
    double eta = rate > 0 ? (double)(p->all_total - p->all_done) / rate : -1;
    char e[32];
    fmt_secs(eta, e, sizeof e);
    bool level_done = p->done == p->total;
    if (!st->tty && !level_done && p->seconds - st->last_line < 10)
        return;
    st->last_line = p->seconds;
    fprintf(stderr, "%sseeds %d/%d: %llu/%llu positions (%.0f%%), %.2f M positions/s, "
            "all %.0f%%, ETA %s%s",
            st->tty ? "\r" : "", p->seeds, p->max_seeds, (unsigned long long)p->done,
            (unsigned long long)p->total, 100.0 * (double)p->done / (double)p->total,
            rate / 1e6, p->all_total ? 100.0 * (double)p->all_done / (double)p->all_total : 100.0,
            e, st->tty ? (level_done ? "\033[K\n" : "\033[K") : "\n");
}

static void setup_game(cli_game *cg)
{
    cli_game_setup(cg, true, true);
    if (cg->g.cycles)
        cli_fail("db: %s can repeat positions, so it has no retrograde database "
                 "(kalah, chungkala and congkak do)", sow_game_name(cg->cfg.game));
}

static int db_build(int argc, char **argv)
{
    cli_game cg = {0};
    const char *maxs = NULL, *dir = ".", *threads = NULL, *memory = NULL;
    bool quiet = false;
    const cli_opt opts[] = {
        {"pits", OPT_STRING, &cg.pits},         {"variant", OPT_STRING, &cg.variant},
        {"max-seeds", OPT_STRING, &maxs},       {"dir", OPT_STRING, &dir},
        {"threads", OPT_STRING, &threads},      {"memory", OPT_STRING, &memory},
        {"quiet", OPT_FLAG, &quiet},            {NULL, 0, NULL},
    };
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    if (!cg.pits)
        cli_fail("db build: give --pits M");
    if (!maxs)
        cli_fail("db build: give --max-seeds K");
    setup_game(&cg);
    int K = (int)cli_int("--max-seeds", maxs, 0, SOW_DB_MAX_SEEDS);
    int T = threads ? cli_threads("--threads", threads) : 0;
    uint64_t memory_bytes = memory ? cli_memory("--memory", memory) : 8ull << 30;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        cli_fail("db build: cannot create %s: %s", dir, strerror(errno));

    progress_state ps = {.tty = isatty(2) != 0};
    sow_db_options o = {
        .threads = T, .memory = memory_bytes, .progress = quiet ? NULL : on_progress,
        .progress_ctx = &ps, .stop = &stop_flag,
    };
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    char why[512];
    sow_db *db;
    double t0 = cli_now();
    sow_err e = sow_db_open(&cg.g, K, dir, &o, &db, why, sizeof why);
    double secs = cli_now() - t0;
    if (e == SOW_E_INTERRUPTED)
        cli_fail("db build: %s; the seed counts before it are saved in %s: run the same "
                 "command again to resume", why, dir);
    if (e)
        cli_fail("db build: %s", why);
    uint64_t positions = 0;
    for (int k = 0; k <= K; k++)
        positions += sow_index_count(2 * cg.cfg.pits, k);
    char first[128], last[128];
    sow_db_file_name(&cg.g, 0, first, sizeof first);
    sow_db_file_name(&cg.g, K, last, sizeof last);
    printf("%s: %s up to %d seeds on %d pits per side, %llu positions, files %s .. %s "
           "(%.2f s)\n",
           dir, sow_game_name(cg.cfg.game), K, cg.cfg.pits, (unsigned long long)positions, first,
           last, secs);
    sow_db_close(db);
    return 0;
}

static void print_header(const char *path, const sow_db_header *h)
{
    printf("file        %s\n", path);
    printf("format      version %u\n", h->version);
    printf("game        %s\n", sow_game_name(h->game));
    printf("pits        %d per side\n", h->m);
    printf("variant     ");
    int first = 1;
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (h->variant & (1u << i)) {
            printf("%s%s", first ? "" : ",", sow_variant_name(1u << i));
            first = 0;
        }
    printf("%s\n", first ? "none" : "");
    printf("seeds       %d on the board\n", h->seeds);
    printf("entries     %llu\n", (unsigned long long)h->entries);
    printf("encoding    int8 future score (score scale %d)\n", h->score_scale);
    printf("index       combinadic rank, own pits 1..m then opponent's pits 1..m\n");
    printf("checksum    %016llx (XXH64 of the payload): ok\n",
           (unsigned long long)h->checksum);
}

static int db_info(int argc, char **argv)
{
    const cli_opt opts[] = {{NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    if (!npos)
        cli_fail("db info: give a FILE");
    sow_db_header h;
    char why[512];
    if (sow_db_file_check(pos[0], false, &h, why, sizeof why) != SOW_OK)
        cli_fail("db info: %s", why);
    print_header(pos[0], &h);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct group {
    sow_game_id game;
    int m;
    unsigned variant;
    uint8_t have[SOW_DB_MAX_SEEDS + 1];
} group;

static int db_verify(int argc, char **argv)
{
    const cli_opt opts[] = {{NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    if (!npos)
        cli_fail("db verify: give a DIR");
    const char *dir = pos[0];
    DIR *d = opendir(dir);
    if (!d)
        cli_fail("db verify: cannot open %s: %s", dir, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len < 6 || strcmp(de->d_name + len - 6, ".sowdb") != 0)
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            names = realloc(names, cap * sizeof *names);
            if (!names)
                cli_fail("db verify: out of memory");
        }
        names[n++] = strdup(de->d_name);
    }
    closedir(d);
    if (n == 0)
        cli_fail("db verify: no database files (*.sowdb) in %s", dir);
    qsort(names, n, sizeof *names, cmp_str);

    group *gs = calloc(n, sizeof *gs);
    size_t ng = 0;
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096], why[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        sow_db_header h;
        if (sow_db_file_check(path, false, &h, why, sizeof why) != SOW_OK) {
            printf("BAD  %s: %s\n", names[i], why);
            bad++;
            continue;
        }
        /* The name must say what the header says. */
        sow_game g;
        sow_config c = {h.game, h.m, 1, h.variant};
        char want[128];
        if (sow_game_init(&g, &c) != SOW_OK || (sow_db_file_name(&g, h.seeds, want, sizeof want),
                                                strcmp(want, names[i]) != 0)) {
            printf("BAD  %s: its header describes %s\n", names[i],
                   sow_game_init(&g, &c) == SOW_OK ? want : "an unsupported game");
            bad++;
            continue;
        }
        printf("ok   %s  (%llu entries, checksum %016llx)\n", names[i],
               (unsigned long long)h.entries, (unsigned long long)h.checksum);
        size_t j = 0;
        while (j < ng && !(gs[j].game == h.game && gs[j].m == h.m && gs[j].variant == h.variant))
            j++;
        if (j == ng) {
            gs[ng].game = h.game;
            gs[ng].m = h.m;
            gs[ng].variant = h.variant;
            ng++;
        }
        gs[j].have[h.seeds] = 1;
    }
    for (size_t j = 0; j < ng; j++) {
        sow_game g;
        sow_config c = {gs[j].game, gs[j].m, 1, gs[j].variant};
        sow_game_init(&g, &c);
        char name[128];
        sow_db_file_name(&g, 0, name, sizeof name);
        name[strlen(name) - strlen("-k0.sowdb")] = '\0';
        int top = SOW_DB_MAX_SEEDS;
        while (!gs[j].have[top])
            top--;
        int missing = 0;
        for (int k = 0; k <= top; k++)
            missing += !gs[j].have[k];
        if (!missing) {
            printf("%s: seed counts 0..%d, complete\n", name, top);
            continue;
        }
        bad++;
        printf("%s: seed counts up to %d, missing:", name, top);
        for (int k = 0; k <= top; k++)
            if (!gs[j].have[k])
                printf(" %d", k);
        printf("\n");
    }
    printf("%s: %zu files, %s\n", dir, n, bad ? "PROBLEMS FOUND" : "all good");
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(gs);
    return bad ? 1 : 0;
}

/* Score of q for its mover: the final score if over, else stores + db. */
static int score_of(const sow_game *g, const sow_db *db, const sow_pos *q, uint64_t *probes)
{
    if (sow_over(g, q))
        return sow_terminal_score(g, q);
    (*probes)++;
    return (q->b[SOW_B_STORE] - q->b[SOW_HALF + SOW_B_STORE]) * g->score_scale +
           sow_db_probe(db, q);
}

/* Pie rule: best for South over the completions of her opening turn from q
 * of -|v| at its end (RULES.md; as sow_ref_solve does). */
static int pie_turn(const sow_game *g, const sow_db *db, const sow_pos *q, uint64_t *probes)
{
    if (sow_over(g, q) || sow_pos_to_move(q) != SOW_SOUTH) {
        int v = score_of(g, db, q, probes);
        return v < 0 ? v : -v;
    }
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_moves(g, q, ms), best = -1000000;
    for (int k = 0; k < n; k++) {
        sow_pos t = *q;
        sow_make(g, &t, ms[k]);
        int s = pie_turn(g, db, &t, probes);
        if (s > best)
            best = s;
    }
    return best;
}

static int db_query(int argc, char **argv)
{
    cli_game cg = {0};
    const char *dir = NULL;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg), {"dir", OPT_STRING, &dir}, {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    if (!dir)
        cli_fail("db query: give --dir D, the directory of the database files");
    if (cg.name && !cg.pits && !cg.position)
        cli_fail("db query: give --pits M");
    double t0 = cli_now();
    setup_game(&cg);
    const sow_game *g = &cg.g;
    int k = 0;
    for (int i = 0; i < g->m; i++)
        k += cg.pos.b[i] + cg.pos.b[SOW_HALF + i];

    sow_db *db = NULL;
    if (!sow_over(g, &cg.pos)) {
        sow_db_options o = {.no_build = true, .in_place = true}; /* a few probes */
        char why[512];
        sow_err e = sow_db_open(g, k, dir, &o, &db, why, sizeof why);
        if (e == SOW_E_MISSING)
            cli_fail("db query: the position has %d seeds on the board; %s (build it with "
                     "sow db build %s --pits %d --max-seeds %d%s%s --dir %s)",
                     k, why, sow_game_name(cg.cfg.game), g->m, k, cg.variant ? " --variant " : "",
                     cg.variant ? cg.variant : "", dir);
        if (e)
            cli_fail("db query: %s", why);
    }
    sow_solution s = {0};
    s.best = -1;
    s.nmoves = sow_moves(g, &cg.pos, s.moves);
    uint64_t probes = 0;
    if (s.nmoves == 0) {
        s.score = sow_terminal_score(g, &cg.pos);
    } else {
        s.score = -1000000;
        for (int i = 0; i < s.nmoves; i++) {
            sow_pos q = cg.pos;
            sow_make(g, &q, s.moves[i]);
            int v;
            if (cg.pie_opening) {
                v = pie_turn(g, db, &q, &probes);
            } else {
                v = score_of(g, db, &q, &probes);
                if (sow_pos_to_move(&q) != sow_pos_to_move(&cg.pos))
                    v = -v;
            }
            s.move_scores[i] = v;
            if (v > s.score) {
                s.score = v;
                s.best = i;
            }
        }
    }
    s.value = sow_score_margin(g, s.score);
    s.outcome = sow_outcome_of(s.score);
    s.nodes = probes;
    sow_db_close(db);
    double secs = cli_now() - t0;

    if (cg.json) {
        printf("{");
        cli_json_game(&cg);
        printf(",\"value\":%d,\"outcome\":\"%s\"", s.value, cli_outcome_name(s.outcome));
        cli_json_moves(&cg, &s, NULL);
        printf(",\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"solver\":\"database\","
               "\"seeds_on_board\":%d}\n",
               cg.pie_opening ? "true" : "false", (unsigned long long)s.nodes, secs, k);
        return 0;
    }
    const char *who = sow_pos_to_move(&cg.pos) == SOW_SOUTH ? "south" : "north";
    printf("%s %d pits, %d seeds on the board%s: value %+d for %s (to move): %s\n",
           sow_game_name(cg.cfg.game), g->m, k, cg.pie_opening ? " with the pie rule" : "",
           s.value, who, cli_outcome_name(s.outcome));
    cli_text_moves(&cg, &s, NULL);
    printf("probes %llu, %.3f s\n", (unsigned long long)s.nodes, secs);
    return 0;
}

int cmd_db(int argc, char **argv)
{
    if (argc < 2)
        cli_fail("db: missing subcommand: build, info, verify or query (see sow db --help)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage, stdout);
        return 0;
    }
    const char *sub = argv[1];
    if (strcmp(sub, "build") == 0)
        return db_build(argc - 1, argv + 1);
    if (strcmp(sub, "info") == 0)
        return db_info(argc - 1, argv + 1);
    if (strcmp(sub, "verify") == 0)
        return db_verify(argc - 1, argv + 1);
    if (strcmp(sub, "query") == 0)
        return db_query(argc - 1, argv + 1);
    cli_fail("db: unknown subcommand '%s' (build, info, verify, query; see sow db --help)", sub);
}
