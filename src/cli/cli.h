/* cli.h - shared pieces of the `sow` program: option parsing, the game
 * options every command takes, and the one way to fail (one line on
 * stderr, exit status 2). The CLI is the only code that prints or exits. */
#ifndef SOW_CLI_H
#define SOW_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdnoreturn.h>

#include "sow/analyse.h"
#include "sow/game.h"
#include "sow/notation.h"
#include "sow/plan.h"
#include "sow/position.h"
#include "sow/rules.h"
#include "sow/search.h"
#include "sow/solution.h"

#define CLI_MAX_HISTORY 4096

/* Prints "sow: <message>" on stderr and exits with status 2. The message
 * is always one line: control characters in it (echoed user input such as
 * `--pits $'4\n'`) are written as \n, \r, \t or \xNN. */
noreturn void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

typedef enum { OPT_FLAG, OPT_STRING } cli_opt_kind;

typedef struct cli_opt {
    const char *name; /* without the leading "--" */
    cli_opt_kind kind;
    void *dst;        /* bool * or const char ** */
} cli_opt;

/* Parses argv[1..argc) (argv[0] is the command name). Options are
 * "--name value" or "--name=value"; "--help"/"-h" prints `usage` to stdout
 * and exits 0. Positional arguments go to pos[0..*npos), at most max_pos.
 * `opts` ends with a {0} entry. */
void cli_parse(int argc, char **argv, const cli_opt *opts, const char **pos,
               int max_pos, int *npos, const char *usage);

/* Strict integer parsing: the whole string, within [lo, hi]; fails with a
 * message naming `what` otherwise. */
long cli_int(const char *what, const char *text, long lo, long hi);
/* The same without exiting (a request's or a protocol line's number):
 * false with the one-line error in err[0..errsize). */
bool cli_try_int(const char *what, const char *text, long lo, long hi, long *out, char *err,
                 size_t errsize);

/* The one way every command reads an evaluation: "full" (the game's
 * default weights, sow_eval_default), "material" (none: a leaf is the
 * stores) or six weights in hundredths of a seed, ROW:MOBILITY:EXTRA:
 * CAPTURE:TUZDIK:DECIDED (the terms of sow/analyse.h, each -10000..10000;
 * a weight is used as given, even on a game it does not apply to). Fills
 * *out and returns true when the evaluation is on; false for material.
 * Fails naming `what` otherwise. */
#define CLI_EVAL_HELP "full, material or ROW:MOBILITY:EXTRA:CAPTURE:TUZDIK:DECIDED"
bool cli_eval(const char *what, const sow_game *g, const char *text, sow_eval_params *out);

/* The analysis's late-move reductions from TEXT: game, one or deep
 * (sow_reductions). cli_try_reductions: false if TEXT is none of them;
 * cli_reductions fails naming `what` then. */
bool cli_try_reductions(const char *text, sow_reductions *out);
sow_reductions cli_reductions(const char *what, const char *text);

/* The name of r as cli_reductions reads it. */
const char *cli_reductions_name(sow_reductions r);

/* ---- Limits (limits.c): the one reading of the options that bound a
 * command's work, each with one default, into sow_limits (sow/plan.h). */

/* A memory size: a whole number of MB, or a whole number with a binary
 * suffix K, M, G or T (any case, optionally followed by B or iB: 512M,
 * 512MB, 4G, 4GiB). Returns bytes, whole MB (the budgets are counted in
 * MB; rounded down), at least 1 MB and at most CLI_MEMORY_MAX; anything
 * else fails naming `what`. */
#define CLI_MEMORY_MAX (1ull << 50) /* 1 PiB: far past any machine, far from overflow */
uint64_t cli_memory(const char *what, const char *text);
/* --memory's one default: the plan's, sow_plan_default_memory(). */
uint64_t cli_default_memory(void);
#define CLI_MEMORY_DEFAULT_HELP(indent) \
    indent "(default: 4096 MB, or a quarter of the machine's\n" indent "memory if less)\n"

/* A thread count: 1..CLI_THREADS_MAX. */
#define CLI_THREADS_MAX SOW_MAX_THREADS
int cli_threads(const char *what, const char *text);
/* --threads' one default: the cores this process may run on (its affinity
 * mask, which taskset and cgroup cpusets narrow), or the machine's
 * processors if that cannot be read; within 1..CLI_THREADS_MAX. */
int cli_default_threads(void);

/* Seconds: a positive decimal number (12, 0.5, 1e3; no sign, blanks, hex,
 * inf or nan), at most CLI_SECONDS_MAX; anything else fails naming
 * `what`. */
#define CLI_SECONDS_MAX 1e6 /* eleven days: past any solve anyone waits for */
double cli_seconds(const char *what, const char *text);
/* The same without exiting (a request's parameter): false with the
 * one-line error in err[0..errsize). */
bool cli_try_seconds(const char *what, const char *text, double *out, char *err,
                     size_t errsize);

/* --tt-mb's range, MB. */
#define CLI_TT_MB_MAX (1L << 20)

/* The limit options as typed (NULL, false: not given). A command lists in
 * its option table those it takes (CLI_LIMIT_OPTS: all but --time). */
typedef struct cli_limit_opts {
    const char *threads, *memory, *time, *tt_mb, *db_dir, *db_seeds;
    bool no_db;
} cli_limit_opts;

#define CLI_LIMIT_OPTS(lo)                          \
    {"threads", OPT_STRING, &(lo)->threads},        \
    {"memory", OPT_STRING, &(lo)->memory},          \
    {"tt-mb", OPT_STRING, &(lo)->tt_mb},            \
    {"db", OPT_STRING, &(lo)->db_dir},              \
    {"db-seeds", OPT_STRING, &(lo)->db_seeds},      \
    {"no-db", OPT_FLAG, &(lo)->no_db}

/* Reads the given options into *out, zeroed first; every option not given
 * stays 0, the plan's "choose" (sow/plan.h), so each has one default:
 *   --threads T    threads; default cli_default_threads()
 *   --memory SIZE  cli_memory; default cli_default_memory()
 *   --time S       time_limit, cli_seconds; default none (a command that
 *                  needs one says its own in --help)
 *   --tt-mb MB     1..CLI_TT_MB_MAX; default the plan's choice
 *   --db DIR       db_dir; default the store (cli_store), none with --no-db
 *   --db-seeds K   0..SOW_DB_MAX_SEEDS (0: none, db_seeds -1)
 *   --no-db        no_db; with --db or --db-seeds K the plan refuses it
 *                  (SOW_E_ARG, its error names the options)
 * Bad text fails (cli_fail) naming the option. The caller sets the rest
 * (stop, value_only, ...). */
void cli_limits(const cli_limit_opts *o, sow_limits *out);

/* The user's database store (sow/store.h: $SOW_DB, else
 * $XDG_CACHE_HOME/sow, else ~/.cache/sow), made on first use; NULL, after
 * a note on stderr, if it cannot be (databases then live in memory). */
const char *cli_store(void);

/* The options shared by commands that act on a game position. */
typedef struct cli_game {
    const char *name, *pits, *seeds, *variant, *moves, *position;
    const char *record_file; /* --record FILE: its text replaces --moves */
    bool json;
    sow_config cfg;
    sow_game g;
    sow_pos pos;
    sow_move hist[CLI_MAX_HISTORY];
    int nhist;
    /* Still within South's opening turn of a game with the pie rule. */
    bool pie_opening;
} cli_game;

/* Option table entries for cli_game (pits, seeds, variant, moves,
 * position, json), to splice into a command's table. */
#define CLI_GAME_OPTS(cg)                                   \
    {"pits", OPT_STRING, &(cg)->pits},                      \
    {"seeds", OPT_STRING, &(cg)->seeds},                    \
    {"variant", OPT_STRING, &(cg)->variant},                \
    {"moves", OPT_STRING, &(cg)->moves},                    \
    {"record", OPT_STRING, &(cg)->record_file},             \
    {"position", OPT_STRING, &(cg)->position},              \
    {"json", OPT_FLAG, &(cg)->json}

/* The game options' help text. */
#define CLI_GAME_HELP                                                          \
    "  GAME                kalah | chungkala | congkak | toguz\n"              \
    "  --pits M            pits per side (default: the game's own)\n"         \
    "  --seeds N           seeds per pit at the start\n"                       \
    "  --variant A,B       kalah: empty-capture, end-on-turn, no-sweep, pie;\n" \
    "                      toguz: no-tuzdik\n"                                 \
    "  --moves LIST        replay moves from the start, e.g. 3,1,6 (toguz 7x),\n" \
    "                      or a record as players write it: '1. 76 98 2. 66 87'\n" \
    "  --record FILE       replay the record in FILE (the same notation)\n"      \
    "  --position P        start from a position (doc/notation.md)\n"          \
    "  --json              print one JSON object\n"

/* Builds cg->cfg, cg->g and cg->pos from the parsed options and the game
 * name; any error exits with status 2. The record (--moves or the text of
 * --record, doc/notation.md) is in cg->hist[0..cg->nhist) and cg->moves
 * afterwards; cg->pos is the position after it. `allow_position`/`allow_moves` say
 * whether the command accepts those options. */
void cli_game_setup(cli_game *cg, bool allow_moves, bool allow_position);
/* The same without exiting (sow serve): false with the one-line error in
 * err[0..errsize). cg->name and the option strings must be set as for
 * cli_game_setup. */
bool cli_game_try_setup(cli_game *cg, bool allow_moves, bool allow_position, char *err,
                        size_t errsize);

/* A JSON string of s, quoted and escaped (quote, backslash, control
 * characters), to f; bytes that are not well-formed UTF-8 become U+FFFD. */
void cli_fjson_string(FILE *f, const char *s);

/* JSON fragments: the game description keys (game, pits, seeds, variant). */
void cli_json_game(const cli_game *cg);
const char *cli_outcome_name(sow_outcome o);
/* The same JSON fragments written to f (the server writes into memory). */
void cli_fjson_game(FILE *f, const cli_game *cg);

/* How the moves JSON marks each move's score. */
typedef enum cli_moves_mark {
    CLI_MOVES_BOUNDS,   /* a solve's: {move, value, outcome}; exact[k] false: the
                           score is only an upper bound, {move, value null,
                           outcome null, at_most}; exact NULL: all exact */
    CLI_MOVES_EXACT,    /* an analysis's, every value proven: "exact": true */
    CLI_MOVES_ESTIMATE, /* an analysis's estimates: "exact": false */
    CLI_MOVES_UNKNOWN,  /* an analysis cut short: value and outcome null,
                           "exact": false */
} cli_moves_mark;

/* The one writer of the "best" and "moves" JSON keys of a solution, each
 * preceded by a comma, to f; `exact` is read only with CLI_MOVES_BOUNDS. */
void cli_fjson_moves(FILE *f, const cli_game *cg, const sow_solution *s, const bool *exact,
                     cli_moves_mark mark);
/* The same to stdout, CLI_MOVES_BOUNDS. */
void cli_json_moves(const cli_game *cg, const sow_solution *s, const bool *exact);
/* "moves: 1:+2 2:<=0 3:+0(win) ...\nbest: 1\n" (the outcome after a 0 that the
 * tie-break decides), or "the game is over\n". */
void cli_text_moves(const cli_game *cg, const sow_solution *s, const bool *exact);

double cli_now(void);

/* The body of a SIGINT handler: the first signal sets *flag (the long
 * call stops), a second Ctrl-C exits at once (130). timeout(1) sends its
 * signal to the command and then to the command's process group: two
 * SIGINTs a moment apart for one stop, and the second cut a ledgered
 * solve before it gave back its units (a CI run's campaign test). So a
 * second signal exits only CLI_SIGINT_AGAIN seconds or more after the
 * first. Async-signal-safe (clock_gettime). */
#define CLI_SIGINT_AGAIN 0.5
void cli_sigint_stop(sow_stop_flag *flag);

/* `sow solve`'s answer (cmd_solve.c), shared with `sow serve`: JSON when
 * cg->json (to f), else text (to stdout only). The interrupted form
 * returns 130; reason: why it stopped ("time limit"), NULL for Ctrl-C. */
struct sow_plan;
struct sow_plan_result;
void cli_solve_print(FILE *f, const cli_game *cg, const struct sow_plan *plan,
                     const struct sow_plan_result *res);
int cli_solve_print_interrupted(FILE *f, const cli_game *cg, const struct sow_plan_result *res,
                                const char *reason);
/* `sow play --json` (cmd_play.c), to f. */
void cli_play_json(FILE *f, const cli_game *cg);

/* Why a finished game ended (end_reason.c). */
typedef struct cli_end {
    bool mover_only; /* the rule: the player to move has no seed in her row
                        (else: the game ends as soon as a row is empty) */
    bool empty[2];   /* [SOW_SOUTH], [SOW_NORTH]: that row was empty at the end */
    int swept[2];    /* seeds the final sweep moved into each player's store */
    int left;        /* seeds left in the rows for nobody (no sweep) */
} cli_end;
/* False when cg->pos is not over. The position is taken before its final
 * sweep: the record is replayed when there is one. */
bool cli_end_reason(const cli_game *cg, cli_end *out);
/* ,"end":{"rule":"row empty"|"no move","empty":"south"|"north"|"both",
 * "swept":{"south":S,"north":N},"left":L}, or ,"end":null before the end. */
void cli_fjson_end(FILE *f, const cli_game *cg);

int cmd_play(int argc, char **argv);
int cmd_perft(int argc, char **argv);
int cmd_solve(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_serve(int argc, char **argv);
/* Was this sow built with libmicrohttpd (sow serve)? */
bool cli_serve_available(void);
int cmd_analyse(int argc, char **argv);
int cmd_match(int argc, char **argv);
int cmd_engine(int argc, char **argv);
int cmd_ledger(int argc, char **argv);
int cmd_units(int argc, char **argv);
int cmd_book(int argc, char **argv);

#endif
