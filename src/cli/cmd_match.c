/* cmd_match.c - `sow match`: two engines play each other from varied
 * openings, colours swapped, and the result is printed with an Elo
 * difference and its 95% interval. An engine is a setting of sow's own
 * analysis (in this process) or any program that speaks the engine
 * protocol (doc/engine-protocol.md, driven by proc_engine.c). Games run
 * on a clock (--tc), a time a move (--movetime), a node count a move
 * (--nodes: the same games on a loaded machine as on a quiet one) or the
 * engines' own limits; a database of the store that holds the position
 * ends the game with its exact value; an SPRT (sow/sprt.h) stops the match as soon as it
 * decides.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sow/book.h"
#include "proc_engine.h"
#include "sow/analyse.h"
#include "sow/db.h"
#include "sow/notation.h"
#include "sow/sprt.h"
#include "sow/timeman.h"

static const char usage[] =
    "usage: sow match GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                 --a ENGINE --b ENGINE [--games N] [--openings FILE]\n"
    "                 [--plies K] [--seed S] [--jobs J]\n"
    "                 [--tc BASE+INC | --movetime S | --nodes N]\n"
    "                 [--sprt elo0=E0,elo1=E1,alpha=A,beta=B] [--no-adjudicate]\n"
    "                 [--out DIR] [--quiet] [--json]\n"
    "\n"
    "Engine A and engine B play --games games (default 20): each opening twice,\n"
    "colours swapped. An ENGINE is either\n"
    "  sow's analysis in this process: a comma-separated list of depth=D,\n"
    "    time=S, nodes=N, eval=E, reductions=R (game, one or deep: as sow\n"
    "    analyse --reductions), threads=T (default 1), memory=SIZE (its table,\n"
    "    as --memory reads it; default 16 MB: games run side by side),\n"
    "    book=FILE (an opening book of the game, sow book: its move wherever it\n"
    "    holds the position, no search); or\n"
    "  cmd=PROGRAM ARGS: a program that speaks sow's engine protocol\n"
    "    (doc/engine-protocol.md), e.g. cmd='sow engine --threads 1' or another\n"
    "    engine; everything after cmd= is its command line (run by /bin/sh).\n"
    "The time: --tc BASE+INC gives each side a clock of BASE seconds plus INC\n"
    "after each of its moves (10+0.1; a side whose clock runs out by more than\n"
    "0.1 s loses); --movetime S gives every move S seconds; --nodes N every\n"
    "move N nodes (in place of a setting's nodes=; `go nodes N` to a program,\n"
    "which must answer within 60 s plus a second per 100000 nodes): with one\n"
    "thread each and --jobs 1 the same games whatever the machine's load (a\n"
    "program keeps its table from game to game, so with --jobs J its games\n"
    "depend on which it played before), for comparing two versions of an\n"
    "engine; it does not weigh their speed. Without any, the engines' own\n"
    "limits (a program needs --tc, --movetime or --nodes).\n"
    "Openings are the lines of FILE (a move list as for --moves, one per line;\n"
    "`#` starts a comment; sow book openings writes balanced ones)\n"
    "or K random plies (--plies, default 2; --seed, default 1). --jobs J games\n"
    "run side by side (default 1). A game reaching a position that the\n"
    "store's databases hold (sow db store) ends with its exact value\n"
    "(adjudicated; --no-adjudicate plays it out). --sprt stops the match as\n"
    "soon as the sequential probability ratio test decides between Elo A - B =\n"
    "elo0 and = elo1 (errors alpha, beta; as Stockfish's fishtest: sow/sprt.h),\n"
    "counted in pairs, each opening's two games one unit by A's points over\n"
    "them (the pentanomial form: an opening that decides who wins, won once\n"
    "each way, counts as even and adds no noise).\n"
    "Prints wins/draws/losses of A, its score and the Elo difference A - B with\n"
    "a 95% interval: the normal approximation of the games' scores; when they\n"
    "leave it no spread (every game won, lost or drawn) the Wilson score\n"
    "interval of the score instead, and a clean sweep prints its one bound\n"
    "(\"Elo A - B > +N\": infinite Elo is not excluded). Then A's final margin\n"
    "over the openings played both ways, each pair's two games averaged, with\n"
    "its standard error: where an opening decides who wins whoever plays it,\n"
    "the margin still shows which engine played it better. Then each side's\n"
    "wall time a move, from the question to its answer (mean and longest: a\n"
    "program that overruns its time shows it). --out DIR saves each\n"
    "game's record as soon as it ends (DIR/game-NNN.txt: the engines' colours,\n"
    "the opening and the result as comments, then the moves in the game's\n"
    "record notation, as --record FILE reads it: Toguz \"1. 76 98 ...\", the\n"
    "other games \"3,1,6\"). After each game a line on stderr gives its result\n"
    "and the match's score so far, Elo and (with --sprt) the test's LLR over\n"
    "the pairs complete;\n"
    "--quiet leaves them out.\n"
    "Ctrl-C (or SIGTERM, SIGHUP) stops the match: no game starts, the games under\n"
    "way are dropped (not counted), and the finished ones are summarised as\n"
    "usual (JSON key stopped: true), exit status 130; a second Ctrl-C kills it\n"
    "at once.\n"
    "A game longer than 2000 plies (Toguz can cycle) is scored as perpetual\n"
    "play: the store difference. A program that makes an illegal move, dies or\n"
    "does not answer loses the game.\n"
    "\n"
    "eval=E: full (default: the game's own weights), material (a leaf is the\n"
    "stores) or six weights in hundredths of a seed, ROW:MOBILITY:EXTRA:\n"
    "CAPTURE:TUZDIK:DECIDED (the terms of include/sow/analyse.h), e.g.\n"
    "eval=25:10:50:50:0:200.\n"
    "\n"
    "JSON keys: game, pits, seeds, variant, a, b, games, played, stopped, wins,\n"
    "draws, losses, score, elo, elo_low, elo_high (null: unbounded, for a clean sweep\n"
    "elo too), interval (normal | wilson), pairs (openings played both ways),\n"
    "margin_mean, margin_se (A's final margin in seeds, the mean of each pair's\n"
    "two games, and its standard error; null if unknown; a game lost by a\n"
    "failure or on time counts margin 0, as its record says), sprt\n"
    "(with --sprt: elo0, elo1, alpha, beta, llr, lower, upper, verdict,\n"
    "pentanomial: the pairs by A's half-points over the two games, 0 to 4),\n"
    "results [{game, a_side, opening,\n"
    "moves, margin, end (rules, perpetual, database, time, illegal, engine\n"
    "failure), note (what failed)}].\n"
    "\n"
    "examples: sow match kalah --a depth=6 --b depth=3 --games 20\n"
    "          sow match kalah --a cmd='sow engine' --b time=0.1 --tc 5+0.05 \\\n"
    "            --games 1000 --sprt elo0=0,elo1=20,alpha=0.05,beta=0.05 --jobs 2\n";

#define MAX_GAME_PLIES 2000
#define MAX_GAMES 100000
/* A program gets this long to start and shake hands, and this long past
 * its clock (or move time) to answer before it loses the game. */
#define START_SECONDS 10.0
#define ANSWER_GRACE 1.0
/* Under --nodes a program answers within NODES_WAIT seconds plus one per
 * NODES_PER_SECOND nodes: a slow rate, since no clock is at stake. */
#define NODES_WAIT 60.0
#define NODES_PER_SECOND 1e5
/* A clock may run this far below zero before its side loses on time:
 * process scheduling and pipes, not thinking. */
#define TIME_MARGIN 0.1

typedef struct engine {
    char text[512];
    bool external;      /* cmd=...: a program, driven by the protocol */
    const char *cmd;    /* into text */
    sow_analyse_options ao;
    sow_eval_params ep;
    bool eval;
    bool limited;       /* depth, time or nodes given */
    int threads;
    size_t tt_mb;
    sow_book *book;     /* book=FILE: its moves where it holds the position */
} engine;

static void engine_parse(const sow_game *g, const char *which, const char *text, engine *e)
{
    memset(e, 0, sizeof *e);
    if (strlen(text) >= sizeof e->text)
        cli_fail("match: %s: longer than %zu characters", which, sizeof e->text - 1);
    snprintf(e->text, sizeof e->text, "%s", text);
    if (strncmp(text, "cmd=", 4) == 0) {
        e->external = true;
        e->cmd = e->text + 4;
        if (!*e->cmd)
            cli_fail("match: %s: cmd= needs a command line", which);
        return;
    }
    e->threads = 1;
    e->tt_mb = 16;
    e->eval = cli_eval("eval", g, "full", &e->ep);
    char buf[512];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        if (!eq)
            cli_fail("match: %s: '%s' is not KEY=VALUE", which, tok);
        *eq = '\0';
        const char *v = eq + 1;
        if (strcmp(tok, "depth") == 0) {
            e->ao.max_depth = (int)cli_int("depth", v, 1, SOW_ANALYSE_MAX_DEPTH);
        } else if (strcmp(tok, "nodes") == 0) {
            e->ao.max_nodes = (uint64_t)cli_int("nodes", v, 1, 1L << 62);
        } else if (strcmp(tok, "time") == 0) {
            char what[32];
            snprintf(what, sizeof what, "match: %s: time", which);
            e->ao.time_limit = cli_seconds(what, v);
        } else if (strcmp(tok, "eval") == 0) {
            char what[32];
            snprintf(what, sizeof what, "match: %s: eval", which);
            e->eval = cli_eval(what, g, v, &e->ep);
        } else if (strcmp(tok, "reductions") == 0) {
            char what[40];
            snprintf(what, sizeof what, "match: %s: reductions", which);
            e->ao.reductions = cli_reductions(what, v);
        } else if (strcmp(tok, "threads") == 0) {
            e->threads = cli_threads("threads", v);
        } else if (strcmp(tok, "memory") == 0) {
            e->tt_mb = (size_t)(cli_memory("memory", v) >> 20);
        } else if (strcmp(tok, "book") == 0) {
            char why[SOW_WHY + 4200];
            sow_book_free(e->book);
            if (sow_book_load(v, g, &e->book, why, sizeof why))
                cli_fail("match: %s: %s", which, why);
        } else {
            cli_fail("match: %s: unknown key '%s' (depth, time, nodes, eval, reductions, "
                     "threads, memory, book, or cmd=PROGRAM)", which, tok);
        }
    }
    e->limited = e->ao.max_depth || e->ao.max_nodes || e->ao.time_limit;
    e->ao.eval = e->eval ? &e->ep : NULL;
    e->ao.multipv = 1;
}

/* How the game is timed. */
typedef struct match_time {
    double base, inc;   /* --tc; base 0: none */
    double movetime;    /* --movetime; 0: none */
    uint64_t nodes;     /* --nodes; 0: none */
} match_time;

/* How a game ended. */
typedef enum game_end {
    END_RULES,        /* the game's own end */
    END_PERPETUAL,    /* MAX_GAME_PLIES: the store difference */
    END_DATABASE,     /* adjudicated: the database's exact value */
    END_TIME,         /* a side's clock ran out */
    END_ILLEGAL,      /* a side played an illegal move */
    END_FAILED,       /* a program died, did not answer or could not start */
} game_end;

static const char *const end_names[] = {"rules", "perpetual", "database", "time", "illegal",
                                        "engine failure"};

typedef struct game_rec {
    sow_move moves[MAX_GAME_PLIES + 64];
    int nopen, n;
    int a_side;  /* SOW_SOUTH or SOW_NORTH */
    int margin;  /* South's final margin (perpetual: store difference) */
    int result;  /* +1 A won, 0 draw, -1 B won */
    game_end end;
    bool played; /* false: skipped, the SPRT had decided, or stopped */
    bool stopped; /* the match was stopped while this game was under way */
    char note[1100]; /* END_TIME, END_ILLEGAL, END_FAILED: what happened */
    int nmoves[2];       /* moves of A (0) and B (1) after the opening */
    double spent[2];     /* their wall seconds, asked to answered */
    double longest[2];   /* the longest of them */
    sow_err err;    /* sow's own failure (memory): ends the match */
} game_rec;

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Opening k: the file's line k, or `plies` random moves from seed. */
static void opening(const cli_game *cg, char **lines, int nlines, int k, int plies,
                    uint64_t seed, game_rec *r)
{
    sow_pos p;
    sow_game_start(&cg->g, &p);
    r->n = 0;
    if (nlines) {
        int n;
        sow_err e = sow_moves_parse(&cg->g, lines[k % nlines], r->moves, 64, &n);
        if (e)
            cli_fail("match: opening %d: %s", k % nlines + 1, sow_err_name(e));
        for (int i = 0; i < n; i++)
            if (sow_play(&cg->g, &p, r->moves[i]))
                cli_fail("match: opening %d: move %d is not legal", k % nlines + 1, i + 1);
        r->n = n;
    } else {
        uint64_t s = (seed + (uint64_t)k) * 0x9E3779B97F4A7C15ull | 1;
        for (int i = 0; i < plies; i++) {
            sow_move ms[SOW_MAX_MOVES];
            int n = sow_moves(&cg->g, &p, ms);
            if (n == 0)
                break;
            sow_move mv = ms[rng_next(&s) % (uint64_t)n];
            sow_pos q = p;
            sow_make(&cg->g, &q, mv);
            if (sow_over(&cg->g, &q))
                break;
            r->moves[r->n++] = mv;
            p = q;
        }
    }
    r->nopen = r->n;
}

/* What one job (a thread playing games one after another) keeps between
 * games: the programs it started, so that each starts once a job. */
typedef struct seat {
    proc_engine *pe[2];
} seat;

/* The match's shared, read-only state. */
typedef struct match {
    const cli_game *cg;
    const engine *e[2];       /* A, B */
    match_time tm;
    const sow_db *db;         /* adjudication, or NULL */
} match;

/* The protocol's words for the game: "newgame kalah pits 6 seeds 4 ...". */
static void newgame_line(const cli_game *cg, char *buf, size_t size)
{
    int n = snprintf(buf, size, "newgame %s pits %d seeds %d", sow_game_name(cg->cfg.game),
                     cg->cfg.pits, cg->cfg.seeds);
    if (cg->variant && *cg->variant && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " variant %s", cg->variant);
}

static void fail_game(game_rec *r, game_end end, int loser_is_a, const char *fmt, const char *a,
                      const char *b)
{
    r->end = end;
    r->result = loser_is_a ? -1 : 1;
    snprintf(r->note, sizeof r->note, fmt, a, b);
}

/* The move of program k (0: A, 1: B) at the game so far, within its time:
 * false (r filled: the game is lost) if it fails. */
static bool program_move(const match *m, seat *st, int k, const game_rec *r, const sow_pos *p,
                         const double *left, double budget, sow_move *mv, game_rec *out)
{
    const engine *e = m->e[k];
    char why[512], line[512];
    const char *who = k ? "B" : "A";
    if (!st->pe[k]) {
        st->pe[k] = proc_start(e->cmd, START_SECONDS, why, sizeof why);
        if (!st->pe[k]) {
            fail_game(out, END_FAILED, k == 0, "%s: %s", who, why);
            return false;
        }
    }
    proc_engine *pe = st->pe[k];
    static _Thread_local char cmd[MAX_GAME_PLIES * 5 + 64];
    size_t n = (size_t)snprintf(cmd, sizeof cmd, "position startpos");
    for (int i = 0; i < r->n; i++) {
        char t[8];
        sow_move_format(r->moves[i], t, sizeof t);
        n += (size_t)snprintf(cmd + n, sizeof cmd - n, "%s %s", i ? "" : " moves", t);
    }
    char go[160];
    if (m->tm.base > 0)
        snprintf(go, sizeof go, "go wtime %.0f btime %.0f winc %.0f binc %.0f", left[0] * 1000,
                 left[1] * 1000, m->tm.inc * 1000, m->tm.inc * 1000);
    else if (m->tm.nodes)
        snprintf(go, sizeof go, "go nodes %llu", (unsigned long long)m->tm.nodes);
    else
        snprintf(go, sizeof go, "go movetime %.0f", m->tm.movetime * 1000);
    if (!proc_send(pe, cmd, why, sizeof why) || !proc_send(pe, go, why, sizeof why) ||
        !proc_expect(pe, "bestmove", budget + ANSWER_GRACE, line, sizeof line, why, sizeof why)) {
        fail_game(out, END_FAILED, k == 0, "%s: %s", who, why);
        proc_stop(pe); /* a new one next game */
        st->pe[k] = NULL;
        return false;
    }
    const char *text = line + strlen("bestmove");
    while (*text == ' ')
        text++;
    int got = 0;
    sow_move ms[SOW_MAX_MOVES];
    int nlegal = sow_moves(&m->cg->g, p, ms);
    if (sow_moves_parse(&m->cg->g, text, mv, 1, &got) == SOW_OK && got == 1)
        for (int i = 0; i < nlegal; i++)
            if (ms[i] == *mv)
                return true;
    fail_game(out, END_ILLEGAL, k == 0, "%s played '%s', not a legal move", who, text);
    return false;
}

/* The move of sow's analysis setting k within `budget` seconds (0: its
 * own limits). */
static bool analysis_move(const match *m, sow_search *s, int k, const sow_pos *p, double budget,
                          sow_move *mv, game_rec *r)
{
    static _Thread_local sow_analyse_info in;
    sow_book_entry en;
    sow_pos after = *p;
    if (m->e[k]->book && sow_book_find(m->e[k]->book, p, &en) && en.move >= 0 &&
        sow_play(&m->cg->g, &after, (sow_move)en.move) == SOW_OK) {
        *mv = (sow_move)en.move; /* a legal move: the book's */
        return true;
    }
    sow_analyse_options ao = m->e[k]->ao;
    if (m->tm.nodes)
        ao.max_nodes = m->tm.nodes;
    if (budget > 0)
        ao.time_limit = ao.time_limit > 0 && ao.time_limit < budget ? ao.time_limit : budget;
    sow_err err = sow_analyse(s, p, &ao, &in);
    if (err == SOW_E_INTERRUPTED && in.best < 0) { /* a move must come out */
        ao.time_limit = 0, ao.max_nodes = 0, ao.max_depth = 1;
        err = sow_analyse(s, p, &ao, &in);
    }
    if ((err && err != SOW_E_INTERRUPTED) || in.best < 0) {
        r->err = err ? err : SOW_E_INTERRUPTED;
        return false;
    }
    *mv = in.moves[in.best];
    return true;
}

/* South's final score of a finished game (score units). */
static int south_score(const sow_game *g, const sow_pos *p, int sc)
{
    return sow_pos_to_move(p) == SOW_SOUTH ? sc : -sc;
}

/* Ctrl-C, SIGTERM, SIGHUP: stop the match (no game starts, the games under
 * way are dropped at their next move) and summarise it; SA_RESETHAND lets
 * a second one kill at once. */
static sow_stop_flag stop_flag;

static void on_stop_signal(int sig)
{
    (void)sig;
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

static bool stopping(void)
{
    return __atomic_load_n(&stop_flag, __ATOMIC_RELAXED) != 0;
}

/* Plays one game: A on r->a_side, after the opening in r. */
static void play(const match *m, seat *st, game_rec *r)
{
    const sow_game *g = &m->cg->g;
    sow_pos p;
    sow_game_start(g, &p);
    for (int i = 0; i < r->n; i++)
        sow_make(g, &p, r->moves[i]);
    sow_search *s[2] = {NULL, NULL};
    char line[512], why[512];
    for (int k = 0; k < 2; k++) {
        if (m->e[k]->external) {
            newgame_line(m->cg, line, sizeof line);
            if (st->pe[k] && (!proc_send(st->pe[k], line, why, sizeof why) ||
                              !proc_send(st->pe[k], "isready", why, sizeof why) ||
                              !proc_expect(st->pe[k], "readyok", START_SECONDS, line, sizeof line,
                                           why, sizeof why))) {
                proc_stop(st->pe[k]);
                st->pe[k] = NULL;
            }
            if (!st->pe[k]) {
                st->pe[k] = proc_start(m->e[k]->cmd, START_SECONDS, why, sizeof why);
                newgame_line(m->cg, line, sizeof line);
                if (!st->pe[k] || !proc_send(st->pe[k], line, why, sizeof why)) {
                    fail_game(r, END_FAILED, k == 0, "%s: %s", k ? "B" : "A", why);
                    goto done;
                }
            }
            continue;
        }
        sow_search_options so = {.threads = m->e[k]->threads, .tt_mb = m->e[k]->tt_mb};
        if (sow_search_new(g, &so, &s[k])) {
            r->err = SOW_E_NOMEM;
            goto done;
        }
    }
    /* Clocks by engine (0: A, 1: B); the protocol's wtime is South's. */
    double left[2] = {m->tm.base, m->tm.base};
    r->end = END_RULES;
    while (!sow_over(g, &p) && r->n < MAX_GAME_PLIES) {
        if (stopping()) {
            r->stopped = true;
            goto done;
        }
        if (m->db && sow_seeds_on_board(g, &p) <= m->db->max_seeds &&
            sow_db_covers(m->db, g, sow_seeds_on_board(g, &p))) {
            sow_solution sol;
            if (sow_db_probe_root(m->db, g, &p, false, &sol) == SOW_OK) {
                int sc = south_score(g, &p, sol.score);
                r->margin = sow_score_margin(g, sc);
                r->end = END_DATABASE;
                int south = sc > 0 ? 1 : sc < 0 ? -1 : 0;
                r->result = r->a_side == SOW_SOUTH ? south : -south;
                goto done;
            }
        }
        int k = sow_pos_to_move(&p) == r->a_side ? 0 : 1;
        double budget = m->tm.movetime;
        if (m->tm.nodes && m->e[k]->external)
            budget = NODES_WAIT + (double)m->tm.nodes / NODES_PER_SECOND;
        if (m->tm.base > 0) {
            sow_clock c = {.left = left[k], .increment = m->tm.inc, .ply = r->n, .overhead = -1};
            budget = sow_time_for_move(&c);
        }
        double t0 = cli_now();
        sow_move mv;
        bool ok;
        if (m->e[k]->external) {
            /* wtime is South's clock, btime North's. */
            bool a_south = r->a_side == SOW_SOUTH;
            double wb[2] = {left[a_south ? 0 : 1], left[a_south ? 1 : 0]};
            ok = program_move(m, st, k, r, &p, wb, m->tm.base > 0 ? left[k] : budget, &mv, r);
        } else {
            ok = analysis_move(m, s[k], k, &p, budget, &mv, r);
        }
        if (!ok) {
            /* A terminal's Ctrl-C reaches the engines too: a move lost to
             * it is the stop's, not the engine's failure. */
            r->stopped = stopping();
            goto done;
        }
        double took = cli_now() - t0;
        r->nmoves[k]++;
        r->spent[k] += took;
        r->longest[k] = took > r->longest[k] ? took : r->longest[k];
        if (m->tm.base > 0) {
            left[k] -= took;
            if (left[k] < -TIME_MARGIN) {
                char t[32];
                snprintf(t, sizeof t, "%.2f", -left[k]);
                fail_game(r, END_TIME, k == 0, "%s lost on time (%s s over)", k ? "B" : "A", t);
                goto done;
            }
            left[k] += m->tm.inc;
        }
        r->moves[r->n++] = mv;
        sow_make(g, &p, mv);
    }
    /* South's view: a finished game's final score, else perpetual play. */
    int sc = south_score(g, &p, sow_over(g, &p) ? sow_terminal_score(g, &p)
                                                : sow_perpetual_score(g, &p));
    r->end = sow_over(g, &p) ? END_RULES : END_PERPETUAL;
    r->margin = sow_score_margin(g, sc);
    int south = sc > 0 ? 1 : sc < 0 ? -1 : 0;
    r->result = r->a_side == SOW_SOUTH ? south : -south;
done:
    sow_search_free(s[0]);
    sow_search_free(s[1]);
}

static void moves_text(const game_rec *r, int from, int to, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = from; i < to && len + 8 < size; i++) {
        char mt[8];
        sow_move_format(r->moves[i], mt, sizeof mt);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i > from ? "," : "", mt);
    }
}

/* Game k's record, written to a temporary name and renamed into place.
 * One at a time (its buffer is static): the caller holds match_score. */
static void save(const char *dir, int k, const cli_game *cg, const engine *ea, const engine *eb,
                 const game_rec *r)
{
    static char all[(MAX_GAME_PLIES + 64) * SOW_RECORD_MOVE_MAX + 8];
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/game-%03d.txt", dir, k + 1);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    sow_pos start;
    sow_game_start(&cg->g, &start);
    if (sow_record_format(&cg->g, &start, r->moves, r->n, all, sizeof all, NULL))
        cli_fail("match: game %d: its moves do not replay as a record", k + 1);
    FILE *f = fopen(tmp, "w");
    if (!f)
        cli_fail("match: cannot write %s: %s", tmp, strerror(errno));
    fprintf(f, "# sow match %s: game %d, A (%s) plays %s, B (%s) plays %s\n",
            sow_game_name(cg->cfg.game), k + 1, ea->text,
            r->a_side == SOW_SOUTH ? "South" : "North", eb->text,
            r->a_side == SOW_SOUTH ? "North" : "South");
    fprintf(f, "# opening: the first %d moves; result: South's margin %+d (%s)\n", r->nopen,
            r->margin, r->result > 0 ? "A wins" : r->result < 0 ? "B wins" : "draw");
    fprintf(f, "%s\n", all);
    if (fflush(f) || fsync(fileno(f)) || fclose(f) || rename(tmp, path))
        cli_fail("match: cannot write %s: %s", path, strerror(errno));
}

static const char *plural(int n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

static void json_num(const char *key, double v)
{
    printf(isnan(v) ? ",\"%s\":null" : ",\"%s\":%.1f", key, v);
}

static void json_num2(const char *key, double v)
{
    printf(isnan(v) ? ",\"%s\":null" : ",\"%s\":%.3f", key, v);
}

static char **read_openings(const char *file, int *n)
{
    FILE *f = fopen(file, "r");
    if (!f)
        cli_fail("match: cannot open %s: %s", file, strerror(errno));
    char **lines = NULL, buf[4096];
    *n = 0;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "#\r\n")] = '\0'; /* `#` starts a comment */
        for (size_t len = strlen(buf); len > 0 && (buf[len - 1] == ' ' || buf[len - 1] == '\t');)
            buf[--len] = '\0';
        if (buf[0] == '\0')
            continue;
        lines = realloc(lines, (size_t)(*n + 1) * sizeof *lines);
        if (!lines || !(lines[*n] = strdup(buf)))
            cli_fail("match: out of memory");
        (*n)++;
    }
    fclose(f);
    if (*n == 0)
        cli_fail("match: %s holds no opening", file);
    return lines;
}

/* --tc BASE+INC (seconds). */
static void parse_tc(const char *text, match_time *tm)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    char *plus = strchr(buf, '+');
    if (plus)
        *plus = '\0';
    tm->base = cli_seconds("match: --tc (BASE+INC)", buf);
    tm->inc = 0;
    if (plus && !(plus[1] == '0' && plus[2] == '\0'))
        tm->inc = cli_seconds("match: --tc increment (BASE+INC)", plus + 1);
}

/* --sprt elo0=E0,elo1=E1,alpha=A,beta=B (alpha, beta default 0.05). */
static void parse_sprt(const char *text, sow_sprt *t)
{
    *t = (sow_sprt){.elo0 = NAN, .elo1 = NAN, .alpha = 0.05, .beta = 0.05};
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '='), *end;
        double v = eq ? strtod(eq + 1, &end) : 0;
        if (!eq || end == eq + 1 || *end || !isfinite(v))
            cli_fail("match: --sprt: '%s' is not KEY=NUMBER (elo0, elo1, alpha, beta)", tok);
        *eq = '\0';
        if (!strcmp(tok, "elo0"))
            t->elo0 = v;
        else if (!strcmp(tok, "elo1"))
            t->elo1 = v;
        else if (!strcmp(tok, "alpha"))
            t->alpha = v;
        else if (!strcmp(tok, "beta"))
            t->beta = v;
        else
            cli_fail("match: --sprt: unknown key '%s' (elo0, elo1, alpha, beta)", tok);
    }
    if (isnan(t->elo0) || isnan(t->elo1) || !sow_sprt_valid(t))
        cli_fail("match: --sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5 "
                 "(e.g. elo0=0,elo1=5,alpha=0.05,beta=0.05)");
}

/* The store's database for adjudication: every seed count it holds from
 * 0 up that the games' boards reach, loaded, never built; NULL if none
 * (or --no-adjudicate). */
static sow_db *adjudicator(const cli_game *cg)
{
    const char *store = cli_store();
    int k = store ? sow_db_dir_levels(&cg->g, store, sow_seeds_on_board(&cg->g, &cg->pos)) : -1;
    if (k < 0)
        return NULL;
    sow_db_options o = {.no_build = true, .in_place = true, .no_verify = false};
    sow_db *db = NULL;
    char why[SOW_WHY];
    if (sow_db_open(&cg->g, k, store, &o, &db, why, sizeof why) != SOW_OK) {
        fprintf(stderr, "match: no adjudication: %s\n", why);
        return NULL;
    }
    return db;
}

/* One line on stderr after each game: its result and the match so far,
 * so that a match of hours shows where it stands (and a killed one has
 * said what it had). `ngames` 0: no --games (an SPRT runs until it
 * decides). Under match_score. */
static void progress(int k, int played, int ngames, const game_rec *r, int w, int d, int l,
                     const sow_sprt *test, const int pairs[5])
{
    char of[32] = "";
    if (ngames)
        snprintf(of, sizeof of, " of %d", ngames);
    double elo, lo, hi;
    bool wilson;
    sow_elo_interval(w, d, l, &elo, &lo, &hi, &wilson);
    char e[96];
    if (isnan(hi) && !isnan(lo))
        snprintf(e, sizeof e, "Elo > %+.0f", lo); /* a clean sweep so far */
    else if (isnan(lo) && !isnan(hi))
        snprintf(e, sizeof e, "Elo < %+.0f", hi);
    else
        snprintf(e, sizeof e, "Elo %+.0f [%+.0f, %+.0f]", elo, lo, hi);
    char t[96] = "";
    if (test) {
        double a, b;
        sow_sprt_bounds(test, &a, &b);
        snprintf(t, sizeof t, ", LLR %.2f (%.2f, %.2f) over %d pairs",
                 sow_sprt_llr_pairs(test, pairs), a, b,
                 pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4]);
    }
    fprintf(stderr, "match: game %d: %s, South %+d (%s); %d%s played: +%d =%d -%d, %s%s\n",
            k + 1, r->result > 0 ? "A wins" : r->result < 0 ? "B wins" : "draw", r->margin,
            end_names[r->end], played, of, w, d, l, e, t);
}

static const char *verdict_name(sow_sprt_verdict v)
{
    return v == SOW_SPRT_H1 ? "H1" : v == SOW_SPRT_H0 ? "H0" : "undecided";
}

/* The options of a match, as given (NULL: not given). */
typedef struct match_args {
    const char *a, *b, *games, *openings, *plies, *seed, *jobs, *out, *tc, *movetime, *nodes,
        *sprt;
    bool no_adjudicate, quiet;
} match_args;

/* The match's plan, read from its options. */
typedef struct match_plan {
    int ngames, nplies, njobs, nlines;
    uint64_t seed;
    char **lines;    /* the openings file's lines, or NULL */
    bool has_sprt;
    sow_sprt test;
} match_plan;

/* What the games came to, from A's side. */
typedef struct match_tally {
    int w, d, l, played;
    int penta[5];    /* openings both of whose games are played, by A's
                        half-points over the two (sow_sprt_llr_pairs) */
    sow_sprt_verdict verdict;
    bool failed;     /* sow itself failed in a game: the rest are skipped */
    bool stopped;    /* a signal stopped the match (stop_flag) */
    double score, elo, lo, hi;
    bool wilson;     /* the interval is Wilson's (no spread in the scores) */
    int npairs;      /* openings played both ways */
    double pmean, pse; /* A's final margin a pair: mean, standard error */
    double llr, llr_lo, llr_hi;
    int nmoves[2];   /* A's and B's moves in the games played */
    double mean[2], longest[2]; /* their wall seconds a move: mean, longest */
} match_tally;

/* Reads the limits (--tc, --movetime, --nodes) into m->tm and checks
 * that every engine has one. */
static void match_limits(const match_args *o, match *m)
{
    if (!!o->tc + !!o->movetime + !!o->nodes > 1)
        cli_fail("match: --tc, --movetime and --nodes exclude each other");
    if (o->tc)
        parse_tc(o->tc, &m->tm);
    if (o->movetime)
        m->tm.movetime = cli_seconds("match: --movetime", o->movetime);
    if (o->nodes)
        m->tm.nodes = (uint64_t)cli_int("--nodes", o->nodes, 1, 1L << 40);
    bool timed = o->tc || o->movetime || o->nodes;
    for (int k = 0; k < 2; k++) {
        if (m->e[k]->external && !timed)
            cli_fail("match: %s is a program: give --tc BASE+INC, --movetime S or --nodes N",
                     k ? "--b" : "--a");
        if (!m->e[k]->external && !m->e[k]->limited && !timed)
            cli_fail("match: %s needs a limit: depth=D, time=S or nodes=N (or --tc, --movetime, "
                     "--nodes)", k ? "--b" : "--a");
    }
}

/* The games, openings and SPRT the options ask for; makes the --out folder. */
static void match_plan_read(const match_args *o, match_plan *p)
{
    memset(p, 0, sizeof *p);
    p->has_sprt = o->sprt != NULL;
    if (p->has_sprt)
        parse_sprt(o->sprt, &p->test);
    p->ngames = o->games ? (int)cli_int("--games", o->games, 1, MAX_GAMES)
                : p->has_sprt ? MAX_GAMES : 20;
    p->nplies = o->plies ? (int)cli_int("--plies", o->plies, 0, 60) : 2;
    p->seed = o->seed ? (uint64_t)cli_int("--seed", o->seed, 0, 1L << 62) : 1;
    p->njobs = o->jobs ? cli_threads("--jobs", o->jobs) : 1;
    p->lines = o->openings ? read_openings(o->openings, &p->nlines) : NULL;
    if (o->out && mkdir(o->out, 0777) && errno != EEXIST)
        cli_fail("match: cannot create %s: %s", o->out, strerror(errno));
}

/* A's half-points in the game r: 2 a win, 1 a draw. */
static int half_points(const game_rec *r)
{
    return r->result > 0 ? 2 : r->result == 0 ? 1 : 0;
}

/* Plays the games, --jobs at a time, into rec[] and t (w, d, l, played,
 * penta, verdict, failed). Games 2i and 2i + 1 are one opening played both
 * ways, a pair for the SPRT. Games are handed out in order; once the SPRT
 * decides (or sow itself fails), the games not yet begun are skipped. */
static void match_play(const match *m, const match_args *o, const match_plan *p,
                       game_rec *rec, match_tally *t)
{
    seat *seats = calloc((size_t)p->njobs, sizeof *seats);
    if (!seats)
        cli_fail("match: out of memory");
    t->verdict = SOW_SPRT_CONTINUE;
#pragma omp parallel for schedule(dynamic, 1) num_threads(p->njobs)
    for (int k = 0; k < p->ngames; k++) {
        if (__atomic_load_n(&t->verdict, __ATOMIC_RELAXED) != SOW_SPRT_CONTINUE ||
            __atomic_load_n(&t->failed, __ATOMIC_RELAXED) || stopping())
            continue;
        play(m, &seats[omp_get_thread_num()], &rec[k]);
#pragma omp critical(match_score)
        if (rec[k].stopped && !rec[k].err) {
            t->stopped = true;
        } else {
            rec[k].played = true;
            if (rec[k].err) {
                __atomic_store_n(&t->failed, true, __ATOMIC_RELAXED);
            } else {
                t->played++;
                t->w += rec[k].result > 0;
                t->d += rec[k].result == 0;
                t->l += rec[k].result < 0;
                int mate = k ^ 1; /* the opening's other game */
                if (mate < p->ngames && rec[mate].played && !rec[mate].err)
                    t->penta[half_points(&rec[k]) + half_points(&rec[mate])]++;
                if (p->has_sprt && t->verdict == SOW_SPRT_CONTINUE)
                    __atomic_store_n(&t->verdict, sow_sprt_test_pairs(&p->test, t->penta),
                                     __ATOMIC_RELAXED);
                if (o->out)
                    save(o->out, k, m->cg, m->e[0], m->e[1], &rec[k]);
                if (!o->quiet)
                    progress(k, t->played, o->games ? p->ngames : 0, &rec[k], t->w, t->d, t->l,
                             p->has_sprt ? &p->test : NULL, t->penta);
            }
        }
    }
    for (int j = 0; j < p->njobs; j++)
        for (int k = 0; k < 2; k++)
            proc_stop(seats[j].pe[k]);
    free(seats);
    t->stopped = t->stopped || stopping();
}

/* The score, the Elo interval, the paired margins and the SPRT's LLR. */
static void match_summarise(const match_plan *p, const game_rec *rec, match_tally *t)
{
    t->score = t->played ? (t->w + 0.5 * t->d) / t->played : 0;
    sow_elo_interval(t->w, t->d, t->l, &t->elo, &t->lo, &t->hi, &t->wilson);
    /* The openings played both ways: A's margins in their two games. */
    int n = p->ngames, *pa = malloc(((size_t)n / 2 + 1) * 2 * sizeof *pa), *pb;
    if (!pa)
        cli_fail("match: out of memory");
    pb = pa + n / 2 + 1;
    t->npairs = 0;
    for (int k = 0; k + 1 < n; k += 2)
        if (rec[k].played && rec[k + 1].played) {
            pa[t->npairs] = rec[k].a_side == SOW_SOUTH ? rec[k].margin : -rec[k].margin;
            pb[t->npairs++] =
                rec[k + 1].a_side == SOW_SOUTH ? rec[k + 1].margin : -rec[k + 1].margin;
        }
    sow_paired_margin(pa, pb, t->npairs, &t->pmean, &t->pse);
    free(pa);
    double spent[2] = {0, 0};
    for (int k = 0; k < n; k++) {
        if (!rec[k].played)
            continue;
        for (int e = 0; e < 2; e++) {
            t->nmoves[e] += rec[k].nmoves[e];
            spent[e] += rec[k].spent[e];
            t->longest[e] = fmax(t->longest[e], rec[k].longest[e]);
        }
    }
    for (int e = 0; e < 2; e++)
        t->mean[e] = t->nmoves[e] ? spent[e] / t->nmoves[e] : 0;
    if (p->has_sprt) {
        t->llr = sow_sprt_llr_pairs(&p->test, t->penta);
        sow_sprt_bounds(&p->test, &t->llr_lo, &t->llr_hi);
    }
}

static void match_print_json(const match *m, const match_plan *p, const game_rec *rec,
                             const match_tally *t)
{
    printf("{");
    cli_json_game(m->cg);
    printf(",\"a\":");
    cli_fjson_string(stdout, m->e[0]->text);
    printf(",\"b\":");
    cli_fjson_string(stdout, m->e[1]->text);
    printf(",\"games\":%d,\"played\":%d,\"stopped\":%s,\"wins\":%d,\"draws\":%d,"
           "\"losses\":%d,\"score\":%.4f",
           p->ngames, t->played, t->stopped ? "true" : "false", t->w, t->d, t->l, t->score);
    json_num("elo", t->elo);
    json_num("elo_low", t->lo);
    json_num("elo_high", t->hi);
    printf(",\"interval\":\"%s\"", t->wilson ? "wilson" : "normal");
    printf(",\"pairs\":%d", t->npairs);
    json_num2("margin_mean", t->pmean);
    json_num2("margin_se", t->pse);
    printf(",\"moves\":{\"a\":%d,\"b\":%d},\"move_seconds\":{\"a\":%.6f,\"b\":%.6f},"
           "\"move_seconds_longest\":{\"a\":%.6f,\"b\":%.6f}",
           t->nmoves[0], t->nmoves[1], t->mean[0], t->mean[1], t->longest[0], t->longest[1]);
    if (p->has_sprt)
        printf(",\"sprt\":{\"elo0\":%g,\"elo1\":%g,\"alpha\":%g,\"beta\":%g,\"llr\":%.3f,"
               "\"lower\":%.3f,\"upper\":%.3f,\"verdict\":\"%s\","
               "\"pentanomial\":[%d,%d,%d,%d,%d]}",
               p->test.elo0, p->test.elo1, p->test.alpha, p->test.beta, t->llr, t->llr_lo,
               t->llr_hi, verdict_name(t->verdict), t->penta[0], t->penta[1], t->penta[2],
               t->penta[3], t->penta[4]);
    printf(",\"results\":[");
    static char mt[MAX_GAME_PLIES * 4 + 16], op[1024];
    int first = 1;
    for (int k = 0; k < p->ngames; k++) {
        if (!rec[k].played)
            continue;
        moves_text(&rec[k], 0, rec[k].n, mt, sizeof mt);
        moves_text(&rec[k], 0, rec[k].nopen, op, sizeof op);
        printf("%s{\"game\":%d,\"a_side\":\"%s\",\"opening\":\"%s\",\"moves\":\"%s\","
               "\"margin\":%d,\"end\":\"%s\"",
               first ? "" : ",", k + 1, rec[k].a_side == SOW_SOUTH ? "south" : "north", op, mt,
               rec[k].margin, end_names[rec[k].end]);
        if (rec[k].note[0]) {
            printf(",\"note\":");
            cli_fjson_string(stdout, rec[k].note);
        }
        printf("}");
        first = 0;
    }
    printf("]}\n");
}

static void match_print_text(const match *m, const match_plan *p, const game_rec *rec,
                             const match_tally *t)
{
    printf("%s: A (%s) vs B (%s), %d games%s\n", sow_game_name(m->cg->cfg.game),
           m->e[0]->text, m->e[1]->text, t->played,
           t->stopped ? " (stopped: the games under way were not counted)" : "");
    printf("A: %d %s, %d %s, %d %s; score %.3f; ", t->w, plural(t->w, "win", "wins"), t->d,
           plural(t->d, "draw", "draws"), t->l, plural(t->l, "loss", "losses"), t->score);
    if (t->played == 0)
        printf("no game played\n");
    else if (isnan(t->hi))
        printf("Elo A - B > %+.0f (95%%, a clean sweep)\n", t->lo);
    else if (isnan(t->lo))
        printf("Elo A - B < %+.0f (95%%, a clean sweep)\n", t->hi);
    else
        printf("Elo A - B %+.0f [%+.0f, %+.0f] (95%%)\n", t->elo, t->lo, t->hi);
    if (p->has_sprt)
        printf("SPRT elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.2f [%.2f, %.2f] over %d pairs "
               "(A's half-points 0-4: %d %d %d %d %d): %s\n",
               p->test.elo0, p->test.elo1, p->test.alpha, p->test.beta, t->llr, t->llr_lo,
               t->llr_hi, t->penta[0] + t->penta[1] + t->penta[2] + t->penta[3] + t->penta[4],
               t->penta[0], t->penta[1], t->penta[2], t->penta[3], t->penta[4],
               t->verdict == SOW_SPRT_H1   ? "H1 accepted (A gains)"
               : t->verdict == SOW_SPRT_H0 ? "H0 accepted (no gain)"
                                           : "undecided");
    if (t->npairs)
        printf("pairs: %d %s played both ways; A's final margin, mean a pair: %+.2f "
               "seeds%s", t->npairs, plural(t->npairs, "opening", "openings"), t->pmean,
               isnan(t->pse) ? "\n" : "");
    if (t->npairs && !isnan(t->pse))
        printf(" (s.e. %.2f; 95%% [%+.2f, %+.2f])\n", t->pse, t->pmean - 1.96 * t->pse,
               t->pmean + 1.96 * t->pse);
    if (t->nmoves[0] + t->nmoves[1])
        printf("time a move (wall, asked to answered): A %.3f s mean, longest %.3f s, %d "
               "moves; B %.3f s mean, longest %.3f s, %d moves\n",
               t->mean[0], t->longest[0], t->nmoves[0], t->mean[1], t->longest[1],
               t->nmoves[1]);
    int ends[6] = {0};
    for (int k = 0; k < p->ngames; k++)
        if (rec[k].played)
            ends[rec[k].end]++;
    if (ends[END_DATABASE] || ends[END_TIME] || ends[END_ILLEGAL] || ends[END_FAILED])
        printf("ended by the database %d, on time %d, by an illegal move %d, by an engine "
               "failure %d\n",
               ends[END_DATABASE], ends[END_TIME], ends[END_ILLEGAL], ends[END_FAILED]);
    for (int k = 0; k < p->ngames; k++)
        if (rec[k].played && rec[k].note[0])
            printf("game %d: %s\n", k + 1, rec[k].note);
}

int cmd_match(int argc, char **argv)
{
    cli_game cg = {0};
    match_args o = {0};
    const cli_opt opts[] = {{"pits", OPT_STRING, &cg.pits},
                            {"seeds", OPT_STRING, &cg.seeds},
                            {"variant", OPT_STRING, &cg.variant},
                            {"json", OPT_FLAG, &cg.json},
                            {"a", OPT_STRING, &o.a},
                            {"b", OPT_STRING, &o.b},
                            {"games", OPT_STRING, &o.games},
                            {"openings", OPT_STRING, &o.openings},
                            {"plies", OPT_STRING, &o.plies},
                            {"seed", OPT_STRING, &o.seed},
                            {"jobs", OPT_STRING, &o.jobs},
                            {"out", OPT_STRING, &o.out},
                            {"tc", OPT_STRING, &o.tc},
                            {"movetime", OPT_STRING, &o.movetime},
                            {"nodes", OPT_STRING, &o.nodes},
                            {"sprt", OPT_STRING, &o.sprt},
                            {"no-adjudicate", OPT_FLAG, &o.no_adjudicate},
                            {"quiet", OPT_FLAG, &o.quiet},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    cli_game_setup(&cg, false, false);
    if (cg.cfg.variant & SOW_VAR_PIE)
        cli_fail("match: the pie rule is not supported");
    if (!o.a || !o.b)
        cli_fail("match: --a and --b are required (e.g. --a depth=6 --b depth=3)");
    static engine ea, eb;
    engine_parse(&cg.g, "--a", o.a, &ea);
    engine_parse(&cg.g, "--b", o.b, &eb);
    match m = {.cg = &cg, .e = {&ea, &eb}};
    match_limits(&o, &m);
    match_plan p;
    match_plan_read(&o, &p);
    sow_db *db = o.no_adjudicate ? NULL : adjudicator(&cg);
    m.db = db;
    game_rec *rec = calloc((size_t)p.ngames, sizeof *rec);
    if (!rec)
        cli_fail("match: out of memory");
    for (int k = 0; k < p.ngames; k++) {
        opening(&cg, p.lines, p.nlines, k / 2, p.nplies, p.seed, &rec[k]);
        rec[k].a_side = k % 2 ? SOW_NORTH : SOW_SOUTH;
    }
    match_tally t = {0};
    struct sigaction sa = {0};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    match_play(&m, &o, &p, rec, &t);
    sow_db_close(db);
    for (int k = 0; k < p.ngames; k++) {
        if (rec[k].err)
            cli_fail("match: game %d: %s", k + 1, sow_err_name(rec[k].err));
    }
    match_summarise(&p, rec, &t);
    if (cg.json)
        match_print_json(&m, &p, rec, &t);
    else
        match_print_text(&m, &p, rec, &t);
    for (int i = 0; i < p.nlines; i++)
        free(p.lines[i]);
    free(p.lines);
    free(rec);
    return t.stopped ? 130 : 0;
}
