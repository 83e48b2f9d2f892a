/* cmd_engine.c - `sow engine`: the line protocol other programs drive sow
 * by (doc/engine-protocol.md), modelled on UCI.
 *
 * Two threads. The main thread reads commands from stdin and answers the
 * quick ones; `go` starts the search thread, which thinks and prints its
 * `info` lines and then `bestmove`. While it runs, the main thread still
 * reads: `stop` and `quit` set the search's stop flag, `isready` answers
 * at once. Every line goes out whole, under one lock.
 *
 * The engine is resident: one library engine (sow/engine.h) per board,
 * whose analysis table and database stay between `go` commands and between
 * games of the same board (`newgame` with another board, or another
 * Threads, Memory or DB, makes a new one).
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "sow/analyse.h"
#include "sow/engine.h"
#include "sow/timeman.h"
#include "sow/version.h"

static const char usage[] =
    "usage: sow engine [--threads T] [--memory SIZE] [--db DIR | --no-db]\n"
    "                  [--reductions R]\n"
    "\n"
    "Speaks sow's engine protocol on stdin and stdout, for programs that drive\n"
    "sow (doc/engine-protocol.md): `sow` (handshake), `isready`, `setoption`,\n"
    "`newgame GAME [pits M] [seeds N] [variant A,B]`, `position startpos|pos P\n"
    "[moves M1 M2 ...]`, `go movetime MS | depth D | nodes N | wtime MS btime MS\n"
    "[winc MS binc MS movestogo N] | infinite`, `stop`, `quit`. The table and\n"
    "the databases stay in memory between moves and games.\n"
    "\n"
    "  --threads T       search threads (default: the cores this process may use)\n"
    "  --memory SIZE     table + database budget\n" CLI_MEMORY_DEFAULT_HELP("                    ")
    "  --db DIR          database folder (default: the store, see sow db store)\n"
    "  --no-db           no database\n"
    "  --reductions R    the Reductions option's start: game (default), one or\n"
    "                    deep (as sow analyse --reductions)\n";

#define LINE_MAX_BYTES 65536
#define MAX_TOKENS 2048

typedef struct go_params {
    int depth;          /* 0: none */
    uint64_t nodes;     /* 0: none */
    double seconds;     /* 0: none (movetime, or from the clock) */
    bool infinite;      /* bestmove only after `stop` */
} go_params;

typedef struct proto {
    pthread_mutex_t out;   /* one whole line at a time on stdout */
    /* Settings (setoption). */
    int threads;
    uint64_t memory;
    char db_dir[4096];     /* "" : none */
    sow_reductions reductions;
    /* The game and the position. */
    bool have_game, have_pos;
    char name[16], pits[16], seeds[16], variant[128];
    cli_game cg;
    sow_eval_params ep;
    bool eval_on;
    /* Resident: the engine of cg's board, made at the first `go`. */
    sow_engine *eng;
    /* The search thread. */
    pthread_t th;
    bool running;          /* a search thread exists (joined by finish_search) */
    sow_stop_flag stop;    /* the search's stop flag */
    pthread_mutex_t lock;  /* guards stop_asked, with cv */
    pthread_cond_t cv;
    bool stop_asked;
    _Atomic bool done;     /* the search thread has its bestmove: joining it
                              waits only for its return */
    go_params go;
} proto;

static void say(proto *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(proto *P, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&P->out);
    vprintf(fmt, ap);
    putchar('\n');
    fflush(stdout);
    pthread_mutex_unlock(&P->out);
    va_end(ap);
}

/* A bad command: one `info string error` line; the engine goes on. Control
 * characters of the echoed input are dropped so the line stays one line. */
static void complain(proto *P, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void complain(proto *P, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (char *c = msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            *c = '?';
    say(P, "info string error %s", msg);
}

/* ---- The resident engine ------------------------------------------------ */

static void drop_engine(proto *P)
{
    sow_engine_free(P->eng);
    P->eng = NULL;
}

/* The board's engine, made if there is none; false with a complaint. */
static bool prepare(proto *P)
{
    if (P->eng)
        return true;
    sow_limits L = {.memory = P->memory, .threads = P->threads,
                    .db_dir = P->db_dir[0] ? P->db_dir : NULL, .no_db = !P->db_dir[0],
                    .stop = &P->stop};
    char why[SOW_WHY];
    if (sow_engine_new(&P->cg.g, &L, &P->eng, why, sizeof why) != SOW_OK) {
        complain(P, "%s", why);
        return false;
    }
    return true;
}

/* ---- Printing ------------------------------------------------------------ */

static void info_line(void *ctx, const sow_analyse_info *in)
{
    proto *P = ctx;
    char line[8192];
    size_t n = 0;
    double secs = in->seconds > 0 ? in->seconds : 1e-9;
    n += (size_t)snprintf(line + n, sizeof line - n,
                          "info depth %d seldepth %d score seeds %d%s nodes %llu nps %.0f time %.0f pv",
                          in->depth, in->seldepth, sow_score_margin(&P->cg.g, in->score),
                          in->exact ? " exact" : "", (unsigned long long)in->nodes,
                          (double)in->nodes / secs, in->seconds * 1000);
    for (int i = 0; i < in->pv_len && n + 16 < sizeof line; i++) {
        char mv[8];
        sow_move_format(in->pv[i], mv, sizeof mv);
        n += (size_t)snprintf(line + n, sizeof line - n, " %s", mv);
    }
    say(P, "%s", line);
}

/* ---- The search thread ------------------------------------------------- */

static void *think(void *arg)
{
    proto *P = arg;
    const go_params *G = &P->go;
    double t0 = cli_now();
    double end = G->seconds > 0 ? t0 + G->seconds : 0;
    sow_move mv[SOW_MAX_MOVES];
    char best[8] = "none";
    if (sow_moves(&P->cg.g, &P->cg.pos, mv) > 0 && prepare(P)) {
        sow_analyse_options ao = {.max_depth = G->depth, .max_nodes = G->nodes, .multipv = 1,
                                  .eval = P->eval_on ? &P->ep : NULL,
                                  .reductions = P->reductions, .on_depth = info_line,
                                  .ctx = P};
        static sow_analyse_info in;
        char why[SOW_WHY];
        sow_err e = sow_engine_analyse(P->eng, &P->cg.pos, end, &ao, &in, why, sizeof why);
        if ((e == SOW_OK || e == SOW_E_INTERRUPTED) && in.best < 0) {
            /* Stopped before depth 1 completed: a move must come out, and
             * one ply costs nothing. */
            sow_stop_flag keep = __atomic_exchange_n(&P->stop, 0, __ATOMIC_RELAXED);
            sow_analyse_options one = ao;
            one.time_limit = 0, one.max_nodes = 0, one.max_depth = 1, one.on_depth = NULL;
            e = sow_engine_analyse(P->eng, &P->cg.pos, 0, &one, &in, why, sizeof why);
            if (keep) /* a stop that came meanwhile stays */
                __atomic_store_n(&P->stop, keep, __ATOMIC_RELAXED);
        }
        if (e && e != SOW_E_INTERRUPTED)
            complain(P, "search: %s", why);
        if (sow_engine_from_book(P->eng))
            say(P, "info string book");
        if (in.best >= 0)
            sow_move_format(in.moves[in.best], best, sizeof best);
        else if (sow_moves(&P->cg.g, &P->cg.pos, mv) > 0)
            sow_move_format(mv[0], best, sizeof best); /* never no answer to a live position */
    } else if (sow_moves(&P->cg.g, &P->cg.pos, mv) > 0) {
        sow_move_format(mv[0], best, sizeof best);
    }
    if (G->infinite) { /* the protocol: bestmove only once stopped */
        pthread_mutex_lock(&P->lock);
        while (!P->stop_asked)
            pthread_cond_wait(&P->cv, &P->lock);
        pthread_mutex_unlock(&P->lock);
    }
    P->done = true; /* before the line: whoever reads it may send `go` next */
    say(P, "bestmove %s", best);
    return NULL;
}

/* Asks a running search to stop and waits for its bestmove. */
static void finish_search(proto *P, bool ask)
{
    if (!P->running)
        return;
    if (ask) {
        __atomic_store_n(&P->stop, 1, __ATOMIC_RELAXED);
        pthread_mutex_lock(&P->lock);
        P->stop_asked = true;
        pthread_cond_broadcast(&P->cv);
        pthread_mutex_unlock(&P->lock);
    }
    pthread_join(P->th, NULL);
    P->running = false;
}

/* ---- Commands ------------------------------------------------------------ */

static bool is(const char *a, const char *b)
{
    return strcasecmp(a, b) == 0;
}

static void cmd_hello(proto *P)
{
    say(P, "id name sow %s", sow_version());
    say(P, "id author the sow developers");
    say(P, "option name Threads type spin default %d min 1 max %d", P->threads, CLI_THREADS_MAX);
    say(P, "option name Memory type spin default %llu min 1 max %llu",
        (unsigned long long)(P->memory >> 20), (unsigned long long)(CLI_MEMORY_MAX >> 20));
    say(P, "option name DB type string default %s", P->db_dir[0] ? P->db_dir : "<none>");
    say(P, "option name Reductions type combo default %s var game var one var deep",
        cli_reductions_name(P->reductions));
    say(P, "sowok");
}

/* A number in [lo, hi], or a complaint naming `what`. */
static bool number(proto *P, const char *what, const char *text, long lo, long hi, long *out)
{
    char err[256];
    if (cli_try_int(what, text ? text : "", lo, hi, out, err, sizeof err))
        return true;
    complain(P, "%s", err);
    return false;
}

/* setoption name N [value V] (the name and the value may hold spaces). */
static void cmd_setoption(proto *P, char **t, int n)
{
    char name[256] = "", value[4096] = "";
    char *dst = NULL;
    size_t cap = 0;
    for (int i = 1; i < n; i++) {
        if (is(t[i], "name") && !dst) {
            dst = name, cap = sizeof name;
        } else if (is(t[i], "value") && dst == name) {
            dst = value, cap = sizeof value;
        } else if (dst) {
            if (*dst)
                strncat(dst, " ", cap - strlen(dst) - 1);
            strncat(dst, t[i], cap - strlen(dst) - 1);
        } else {
            complain(P, "setoption: expected 'setoption name N value V'");
            return;
        }
    }
    long v;
    if (is(name, "Threads")) {
        if (number(P, "Threads", value, 1, CLI_THREADS_MAX, &v) && v != P->threads) {
            P->threads = (int)v;
            drop_engine(P); /* the table's threads */
        }
    } else if (is(name, "Memory")) {
        if (number(P, "Memory (MB)", value, 1, (long)(CLI_MEMORY_MAX >> 20), &v)) {
            P->memory = (uint64_t)v << 20;
            drop_engine(P);
        }
    } else if (is(name, "DB")) {
        if (!*value || is(value, "<none>") || is(value, "none"))
            P->db_dir[0] = 0;
        else
            snprintf(P->db_dir, sizeof P->db_dir, "%s", value);
        drop_engine(P);
    } else if (is(name, "Reductions")) {
        if (!cli_try_reductions(value, &P->reductions))
            complain(P, "setoption: Reductions: expected game, one or deep, got '%s'", value);
    } else {
        complain(P, "setoption: no option '%s' (Threads, Memory, DB, Reductions)", name);
    }
}

/* Builds P->cg from the game words and the position's, or complains. */
static bool setup(proto *P, const char *position, const char *moves)
{
    cli_game *cg = &P->cg;
    memset(cg, 0, sizeof *cg);
    cg->name = P->name;
    cg->pits = P->pits[0] ? P->pits : NULL;
    cg->seeds = P->seeds[0] ? P->seeds : NULL;
    cg->variant = P->variant[0] ? P->variant : NULL;
    cg->position = position;
    cg->moves = position ? NULL : moves; /* after a position: played below */
    char err[512];
    if (!cli_game_try_setup(cg, true, true, err, sizeof err)) {
        complain(P, "%s", err);
        return false;
    }
    if (position && moves) {
        static sow_move mv[CLI_MAX_HISTORY];
        int n;
        if (sow_moves_parse(&cg->g, moves, mv, CLI_MAX_HISTORY, &n) != SOW_OK) {
            complain(P, "position: the moves '%s' do not parse", moves);
            return false;
        }
        for (int i = 0; i < n; i++)
            if (sow_over(&cg->g, &cg->pos) || sow_play(&cg->g, &cg->pos, mv[i]) != SOW_OK) {
                char t[8];
                sow_move_format(mv[i], t, sizeof t);
                complain(P, "position: move %d (%s) is not legal", i + 1, t);
                return false;
            }
    }
    if (cg->pie_opening || cg->g.pie) {
        complain(P, "the pie rule's opening turn is not supported by sow engine");
        return false;
    }
    return true;
}

static void cmd_newgame(proto *P, char **t, int n)
{
    if (n < 2) {
        complain(P, "newgame: expected 'newgame GAME [pits M] [seeds N] [variant A,B]'");
        return;
    }
    char name[16], pits[16] = "", seeds[16] = "", variant[128] = "";
    snprintf(name, sizeof name, "%s", t[1]);
    for (int i = 2; i < n; i += 2) {
        char *dst = is(t[i], "pits") ? pits : is(t[i], "seeds") ? seeds
                    : is(t[i], "variant") ? variant : NULL;
        size_t cap = dst == variant ? sizeof variant : sizeof pits;
        if (!dst || i + 1 >= n) {
            complain(P, "newgame: expected 'pits M', 'seeds N' or 'variant A,B', got '%s'", t[i]);
            return;
        }
        snprintf(dst, cap, "%s", t[i + 1]);
    }
    bool same = P->have_game && !strcmp(name, P->name) && !strcmp(pits, P->pits) &&
                !strcmp(seeds, P->seeds) && !strcmp(variant, P->variant);
    char old[4][128];
    memcpy(old[0], P->name, sizeof P->name);
    memcpy(old[1], P->pits, sizeof P->pits);
    memcpy(old[2], P->seeds, sizeof P->seeds);
    memcpy(old[3], P->variant, sizeof P->variant);
    memcpy(P->name, name, sizeof name);
    memcpy(P->pits, pits, sizeof pits);
    memcpy(P->seeds, seeds, sizeof seeds);
    memcpy(P->variant, variant, sizeof variant);
    if (!setup(P, NULL, NULL)) {
        memcpy(P->name, old[0], sizeof P->name);
        memcpy(P->pits, old[1], sizeof P->pits);
        memcpy(P->seeds, old[2], sizeof P->seeds);
        memcpy(P->variant, old[3], sizeof P->variant);
        if (P->have_game)
            setup(P, NULL, NULL);
        return;
    }
    if (!same)
        drop_engine(P); /* another board: another table and database */
    P->have_game = P->have_pos = true;
    P->eval_on = cli_eval("engine", &P->cg.g, "full", &P->ep);
}

static void cmd_position(proto *P, char **t, int n)
{
    if (!P->have_game) {
        complain(P, "position: no game yet (newgame GAME first)");
        return;
    }
    int i = 1;
    const char *pos = NULL;
    if (i < n && is(t[i], "startpos")) {
        i++;
    } else if (i + 1 < n && is(t[i], "pos")) {
        pos = t[i + 1];
        i += 2;
    } else {
        complain(P, "position: expected 'position startpos|pos P [moves M1 M2 ...]'");
        return;
    }
    static char moves[LINE_MAX_BYTES];
    moves[0] = 0;
    if (i < n) {
        if (!is(t[i], "moves")) {
            complain(P, "position: expected 'moves' after the position, got '%s'", t[i]);
            return;
        }
        for (i++; i < n; i++) {
            if (moves[0])
                strcat(moves, ",");
            strcat(moves, t[i]);
        }
    }
    P->have_pos = setup(P, pos, moves[0] ? moves : NULL);
    if (!P->have_pos)
        setup(P, NULL, NULL); /* back to the start, never a half-set position */
}

static void cmd_go(proto *P, char **t, int n)
{
    if (!P->have_game || !P->have_pos) {
        complain(P, "go: no position (newgame GAME, then position ...)");
        return;
    }
    go_params G = {0};
    long v;
    long long clock[2] = {-1, -1}, inc[2] = {0, 0}, togo = 0;
    static const char *const names[] = {"movetime", "depth", "nodes", "wtime", "btime",
                                        "winc", "binc", "movestogo"};
    for (int i = 1; i < n; i++) {
        if (is(t[i], "infinite")) {
            G.infinite = true;
            continue;
        }
        int k = -1;
        for (int j = 0; j < 8; j++)
            if (is(t[i], names[j]))
                k = j;
        if (k < 0 || i + 1 >= n) {
            complain(P, "go: unknown or incomplete limit '%s' (movetime, depth, nodes, wtime, "
                        "btime, winc, binc, movestogo, infinite)", t[i]);
            return;
        }
        long hi = k == 1 ? SOW_ANALYSE_MAX_DEPTH : (1L << 50);
        if (!number(P, names[k], t[++i], k <= 2 ? 1 : 0, hi, &v))
            return;
        switch (k) {
        case 0: G.seconds = (double)v / 1000; break;
        case 1: G.depth = (int)v; break;
        case 2: G.nodes = (uint64_t)v; break;
        case 3: clock[0] = v; break;
        case 4: clock[1] = v; break;
        case 5: inc[0] = v; break;
        case 6: inc[1] = v; break;
        default: togo = v; break;
        }
    }
    int side = sow_pos_to_move(&P->cg.pos) == SOW_SOUTH ? 0 : 1;
    if (clock[side] >= 0 && !G.infinite) {
        sow_clock c = {.left = (double)clock[side] / 1000, .increment = (double)inc[side] / 1000,
                       .moves_to_go = (int)togo, .ply = P->cg.nhist, .overhead = -1};
        double s = sow_time_for_move(&c);
        if (!G.seconds || s < G.seconds)
            G.seconds = s;
    }
    if (G.infinite)
        G.seconds = 0, G.depth = 0, G.nodes = 0;
    P->go = G;
    __atomic_store_n(&P->stop, 0, __ATOMIC_RELAXED);
    P->stop_asked = false;
    P->done = false;
    if (pthread_create(&P->th, NULL, think, P) != 0) {
        complain(P, "go: cannot start the search thread");
        return;
    }
    P->running = true;
}

static int split(char *line, char **t)
{
    int n = 0;
    for (char *s = strtok(line, " \t\r\n"); s && n < MAX_TOKENS; s = strtok(NULL, " \t\r\n"))
        t[n++] = s;
    return n;
}

/* One command; false on quit. */
static bool command(proto *P, char *line)
{
    static char *t[MAX_TOKENS];
    int n = split(line, t);
    if (n == 0)
        return true;
    if (is(t[0], "quit")) {
        finish_search(P, true);
        return false;
    }
    if (is(t[0], "stop")) {
        finish_search(P, true);
        return true;
    }
    if (is(t[0], "isready")) {
        say(P, "readyok");
        return true;
    }
    if (P->running) {
        /* A search that ended on its own has printed bestmove: reap it. */
        if (P->done) {
            finish_search(P, false);
        } else {
            complain(P, "%s: a search is running (stop it first)", t[0]);
            return true;
        }
    }
    if (is(t[0], "sow"))
        cmd_hello(P);
    else if (is(t[0], "setoption"))
        cmd_setoption(P, t, n);
    else if (is(t[0], "newgame"))
        cmd_newgame(P, t, n);
    else if (is(t[0], "position"))
        cmd_position(P, t, n);
    else if (is(t[0], "go"))
        cmd_go(P, t, n);
    else
        complain(P, "unknown command '%s'", t[0]);
    return true;
}

int cmd_engine(int argc, char **argv)
{
    cli_limit_opts lo = {0};
    const char *reductions = NULL;
    const cli_opt opts[] = {{"threads", OPT_STRING, &lo.threads},
                            {"memory", OPT_STRING, &lo.memory},
                            {"db", OPT_STRING, &lo.db_dir},
                            {"no-db", OPT_FLAG, &lo.no_db},
                            {"reductions", OPT_STRING, &reductions},
                            {NULL, 0, NULL}};
    int npos = 0;
    cli_parse(argc, argv, opts, NULL, 0, &npos, usage);
    if (lo.no_db && lo.db_dir)
        cli_fail("engine: --no-db and --db exclude each other");
    sow_limits L;
    cli_limits(&lo, &L);
    static proto P;
    pthread_mutex_init(&P.out, NULL);
    pthread_mutex_init(&P.lock, NULL);
    pthread_cond_init(&P.cv, NULL);
    P.threads = L.threads ? L.threads : cli_default_threads();
    P.memory = L.memory ? L.memory : cli_default_memory();
    if (reductions)
        P.reductions = cli_reductions("engine: --reductions", reductions);
    if (L.db_dir)
        snprintf(P.db_dir, sizeof P.db_dir, "%s", L.db_dir);
    static char line[LINE_MAX_BYTES];
    bool go_on = true;
    while (go_on && fgets(line, sizeof line, stdin)) {
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            int c;
            while ((c = getchar()) != EOF && c != '\n')
                ;
            complain(&P, "a command longer than %d bytes was ignored", LINE_MAX_BYTES - 1);
            continue;
        }
        go_on = command(&P, line);
    }
    finish_search(&P, true); /* end of input: as quit */
    drop_engine(&P);
    return 0;
}
