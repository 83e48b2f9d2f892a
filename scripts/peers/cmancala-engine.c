/* sow's engine protocol (doc/engine-protocol.md) in front of CMancala, an
 * open Kalah engine (github.com/LifesLight/CMancala, MIT), so that `sow
 * match` can play it. Written here; it only calls CMancala's own functions
 * (its board, its search with its time limit, its opening book), built
 * from its sources by scripts/peer-cmancala. Kalah with 6 pits only, the
 * standard rules (its "classic" mode: capture only against a non-empty pit,
 * each side sweeps its own row at the end), which are sow's `kalah`.
 *
 * Pits: sow numbers a mover's pits 1..6 from her left, in the direction of
 * sowing; CMancala's cells 0..5 are the first player's in that order (store
 * 6) and 7..12 the second's (store 13), so pit k is cell k-1 or k+6.
 *
 * Options: --book (its opening book, off by default as in its terminal),
 * --egdb N (its endgame database up to N stones: built at start, or read from
 * the EGDB folder of --dir DIR, where it writes what it builds; default the
 * working folder),
 * --cache P (its table, 2^P entries; its default 24), --scale F (its time
 * limit is F times the movetime: it checks the clock only between
 * iterations, so it overruns; F below 1 keeps it near the budget). `go
 * infinite` runs its exact solve to the end (no `stop`: it has none). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "containers.h"
#include "logic/board.h"
#include "logic/solver/algo.h"
#include "logic/solver/cache.h"
#include "logic/solver/egdb/core.h"

static FILE *out; /* the protocol's stream: CMancala prints to stdout */

static void say(const char *fmt, const char *arg)
{
    fprintf(out, fmt, arg);
    fputc('\n', out);
    fflush(out);
}

static int cell_of(int pit, int color) { return color == 1 ? pit - 1 : pit + 6; }

static int pit_of(int cell) { return cell <= 5 ? cell + 1 : cell - 6; }

/* Applies "startpos [moves ...]" to a fresh board; false on a bad move. */
static int set_position(Board *b, int stones, char *rest)
{
    configBoard(b, stones);
    char *tok = strtok(rest, " ");
    if (!tok || strcmp(tok, "startpos") != 0)
        return 0;
    tok = strtok(NULL, " ");
    if (!tok)
        return 1;
    if (strcmp(tok, "moves") != 0)
        return 0;
    while ((tok = strtok(NULL, " "))) {
        int pit = atoi(tok);
        if (pit < 1 || pit > 6 || isBoardTerminal(b))
            return 0;
        int c = cell_of(pit, b->color);
        if (b->cells[c] == 0)
            return 0;
        makeMoveManual(b, c);
    }
    return 1;
}

int main(int argc, char **argv)
{
    int book = 0, egdb = 0, cache = 24;
    const char *dir = NULL;
    double scale = 1.0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--book"))
            book = 1;
        else if (!strcmp(argv[i], "--egdb") && i + 1 < argc)
            egdb = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--cache") && i + 1 < argc)
            cache = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = atof(argv[++i]);
        else {
            fprintf(stderr, "cmancala-engine: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    out = fdopen(dup(STDOUT_FILENO), "w");
    if (!out || !freopen("/dev/null", "w", stdout))
        return 2;
    setMoveFunction(CLASSIC_MOVE);
    setCacheSize(cache);
    int stones = 4;
    setStoneCount(stones * 12);
    if (dir && chdir(dir) != 0) {
        fprintf(stderr, "cmancala-engine: cannot enter '%s'\n", dir);
        return 2;
    }
    if (egdb > 0)
        generateEGDB(egdb, false);
    Board board, last;
    configBoard(&board, stones);
    int pits = 6, ok = 1;
    char line[8192];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        if (!strcmp(line, "sow")) {
            say("id name CMancala %s (sow protocol adapter)", MANCALA_VERSION);
            say("id author Alexander Kurtz (adapter: sow)%s", "");
            if (egdb > 0) {
                uint64_t bytes = 0, hits = 0;
                int lo = 0, hi = 0;
                getEGDBStats(&bytes, &hits, &lo, &hi);
                char buf[96];
                snprintf(buf, sizeof buf, "%d..%d stones, %.1f MB", lo, hi, bytes / 1e6);
                say("info string endgame database %s", buf);
            }
            say("sowok%s", "");
        } else if (!strcmp(line, "isready")) {
            say("readyok%s", "");
        } else if (!strncmp(line, "newgame ", 8)) {
            char game[32] = "";
            int m = 6, n = 4;
            char *p = line + 8;
            sscanf(p, "%31s", game);
            char *q = strstr(p, "pits ");
            if (q)
                m = atoi(q + 5);
            q = strstr(p, "seeds ");
            if (q)
                n = atoi(q + 6);
            pits = m;
            ok = !strcmp(game, "kalah") && m == 6 && n >= 1 && n <= 18 && !strstr(p, "variant");
            if (!ok) {
                say("info string error only Kalah with 6 pits, standard rules: '%s'", line);
                continue;
            }
            if (n != stones) {
                stones = n;
                setStoneCount(stones * 12);
                invalidateCache();
            }
            configBoard(&board, stones);
        } else if (!strncmp(line, "position ", 9)) {
            char copy[sizeof line];
            memcpy(copy, line, sizeof line);
            if (!ok || pits != 6 || !set_position(&board, stones, copy + 9))
                say("info string error bad position '%s'", line);
        } else if (!strncmp(line, "go", 2)) {
            /* go infinite: its exact solve (no depth, no time: its binary
             * search on the value with null windows). */
            char *t = strstr(line, "movetime ");
            double secs = t ? atof(t + 9) / 1000.0 : 1.0;
            const char *d = strstr(line, "depth ");
            int exact = strstr(line, "infinite") != NULL;
            SolverConfig cfg = {.solver = LOCAL_SOLVER,
                                .depth = d ? atoi(d + 6) : 0,
                                .timeLimit = d || exact ? 0.0 : secs * scale,
                                .clip = false,
                                .compressCache = AUTO,
                                .progressBar = false,
                                .useOpeningBook = book};
            if (!ok) {
                say("info string error no game it plays: %s", "Kalah with 6 pits only");
                say("bestmove none%s", "");
                continue;
            }
            if (isBoardTerminal(&board)) {
                say("bestmove none%s", "");
                continue;
            }
            last = board;
            Context ctx;
            memset(&ctx, 0, sizeof ctx);
            ctx.board = &board;
            ctx.lastBoard = &last;
            ctx.metadata.lastMove = -1;
            ctx.metadata.lastEvaluation = INT32_MAX;
            aspirationRoot(&ctx, &cfg);
            board = last;
            int c = ctx.metadata.lastMove;
            char buf[64];
            snprintf(buf, sizeof buf, "info depth %d score seeds %d nodes %llu time %.0f",
                     ctx.metadata.lastDepth, ctx.metadata.lastEvaluation,
                     (unsigned long long)ctx.metadata.lastNodes, ctx.metadata.lastTime * 1000);
            say("%s", buf);
            if (c < 0) {
                say("bestmove none%s", "");
                continue;
            }
            snprintf(buf, sizeof buf, "%d", pit_of(c));
            say("bestmove %s", buf);
        } else if (!strcmp(line, "quit")) {
            break;
        } else if (line[0]) {
            say("info string error unknown command '%s'", line);
        }
    }
    return 0;
}
