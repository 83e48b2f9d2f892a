/* cmd_analyse.c - `sow analyse`: the best move and an evaluation within a
 * time, depth or node budget, improving depth by depth, exact once proven
 * (sow/analyse.h). Prints one line per completed depth, like a UCI `info`.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "sow/analyse.h"
#include "sow/db.h"
#include "sow/plan.h"

static const char usage[] =
    "usage: sow analyse GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                   [--moves LIST | --record FILE | --position P]\n"
    "                   [--time S | --depth D | --nodes N] [--threads T]\n"
    "                   [--memory SIZE] [--tt-mb MB] [--multipv K] [--eval E]\n"
    "                   [--reductions R] [--db DIR] [--db-seeds K | --no-db]\n"
    "                   [--json]\n"
    "       sow analyse GAME (--record FILE | --moves LIST --review)\n"
    "                   [--threshold SEEDS] [--mistake SEEDS]\n"
    "                   [--time S | --depth D | --nodes N] ...\n"
    "\n"
    "Iterative deepening alpha-beta over the exact solver's table and threads,\n"
    "with a heuristic evaluation at the horizon (doc/search.md, \"Analysis\").\n"
    "One line per completed depth: the depth (plies), the score in seeds for\n"
    "the player to move (\"exact +N\" once proven: game over, or a search that\n"
    "never rested on the evaluation), the best move, nodes, nodes/s, seconds\n"
    "and the principal variation with sides (S2 is South's pit 2, N1 North's\n"
    "pit 1). It stops when the value is proven or a limit is reached; Ctrl-C\n"
    "prints the best so far (exit 130). Boards whose positions have no exact\n"
    "table key (Toguz 9x9, Congkak 7x7) use a hashed key: nothing read from\n"
    "the table counts as proof there.\n"
    "\n"
    "Game review: with --record FILE (or --moves LIST --review) every position\n"
    "of the game where a move was played is analysed within the limits (--time\n"
    "S is per position, default 1 s), the move played scored by the same search\n"
    "as the best one at the same depth. Each move is printed in the record\n"
    "notation with the score before (the best move's) and after it (the move\n"
    "played), both from the mover's view (= marks an exact value), and the depth\n"
    "both were searched to. Labels, with the engine's best move:\n"
    "  ??  a mistake: the outcome proven worse (exact values before and after:\n"
    "      a win thrown to a draw or a loss, a draw to a loss), or a loss of\n"
    "      more than --mistake seeds\n"
    "  ?   an inaccuracy: a loss of more than --threshold seeds\n"
    "Smaller losses are not flagged (estimates move by a few seeds from one\n"
    "depth to the next), nor is the engine's own choice. Then a summary per side.\n"
    "Review JSON keys: game, pits, seeds, variant, threshold, mistake_threshold,\n"
    "time_per_position, depth, eval, moves [{ply, number, side, move, before,\n"
    "before_exact, after, after_exact, loss, depth, best, best_score, label\n"
    "(mistake | inaccuracy | null)}],\n"
    "reviewed, stopped (done | interrupted), summary {south, north: {moves,\n"
    "mistakes, inaccuracies, average_loss}}, threads, tt_mb, db_seeds, db_seconds.\n"
    "\n" CLI_GAME_HELP
    "  --time S            seconds for the whole command, the database's build\n"
    "                      included (default: 10 unless --depth or --nodes; a\n"
    "                      review: per position)\n"
    "  --depth D           deepest iteration, 1..250 plies\n"
    "  --nodes N           stop past N nodes\n"
    "  --threads T         search threads, 1..1024 (default: the cores available)\n"
    "  --memory SIZE       budget for database + table: MB, or with a suffix\n"
    "                      K, M, G, T\n" CLI_MEMORY_DEFAULT_HELP("                      ")
    "  --tt-mb MB          transposition table (default: with --time, 16 MB per\n"
    "                      5 s of its threads' time, a power of two up to 128 MB;\n"
    "                      without, 128 MB; at most a quarter of --memory)\n"
    "  --multipv K         score the K best moves exactly (default 1)\n"
    "  --eval E            full (default: the game's weights), material (a leaf\n"
    "                      is the stores) or six weights in hundredths of a seed,\n"
    "                      ROW:MOBILITY:EXTRA:CAPTURE:TUZDIK:DECIDED\n"
    "  --reductions R      late-move reductions: game (default: the game's, one\n"
    "                      ply on every game today), one (a ply) or deep (two\n"
    "                      plies, three from five plies left)\n"
    "  --db DIR            database files to load and save (created if missing;\n"
    "                      default: the database store, sow db store --help)\n"
    "  --db-seeds K        database up to K seeds on the board (0: none); default:\n"
    "                      the biggest that builds within a quarter of the time\n"
    "                      (a review: of all its positions'; with --depth or\n"
    "                      --nodes and no --time, only what the store holds),\n"
    "                      its answers are exact; a build --time overtakes\n"
    "                      stops at its last complete seed count (kept in the\n"
    "                      store or --db DIR) and says so\n"
    "  --no-db             no database\n"
    "  --review            judge the moves of --moves LIST (implied by --record)\n"
    "  --threshold SEEDS   a review marks moves that lose more \"?\" (default: 2,\n"
    "                      or one seed in 40 of the board's, whichever is more:\n"
    "                      Toguz 9x9 4)\n"
    "  --mistake SEEDS     ... and \"??\" (default: 4 times --threshold)\n"
    "\n"
    "JSON keys: game, pits, seeds, variant, depth, score (seeds, mover's view),\n"
    "exact, best, pv, lines [{move, score, exact}], nodes, nps, seconds,\n"
    "stopped (exact | depth | time | nodes | interrupted), threads, tt_mb, eval,\n"
    "reductions (one | deep: the ones searched), db_seeds, db_seconds (its\n"
    "build or load: out of --time), db_cut (the time limit stopped the build\n"
    "below the seeds planned),\n"
    "total_nodes, iterations [{depth, score, exact, best, pv, nodes, nps,\n"
    "seconds}].\n"
    "\n"
    "example: sow analyse kalah --pits 6 --seeds 6 --time 5\n";

_Static_assert(_Generic((sig_atomic_t)0, int: 1, default: 0), "sig_atomic_t is not int");
static sow_stop_flag stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    cli_sigint_stop(&stop_flag);
}

#define MAX_ITER 256
/* An analysis without --time, --depth or --nodes: ten seconds; its table
 * (without --tt-mb), MB. */
#define ANALYSE_SECONDS 10.0
/* The search's time when the database left none: its first depths. */
#define MIN_SECONDS 0.001
#define ANALYSE_TT_MB 128
/* With a time limit, the table the search can fill: ANALYSE_TT_MIN_MB
 * for each TT_THREAD_SECONDS of its threads' time, a power of two up to
 * ANALYSE_TT_MB. A table bigger than the search fills costs its pages and
 * its cache misses (Kalah 6x6 to depth 24, about 5 s: 0.88x the time with
 * 16 MB against 128; doc/experiments.md, "The analysis's table by its
 * time"). */
#define ANALYSE_TT_MIN_MB 16
#define TT_THREAD_SECONDS 5.0
/* A review analyses every position of a game: a second each by default
 * (a 40-move game in under a minute). Its thresholds are defaults, not
 * tuned: above one seed, so that an estimate that moves by a seed from
 * one depth to the next flags nothing, and growing with the seeds in play,
 * whose estimates move by more (results/review.md measures how often the
 * labels agree between two time limits). */
#define REVIEW_SECONDS 1.0
#define REVIEW_THRESHOLD 2
#define REVIEW_SEEDS_PER_THRESHOLD 40
#define REVIEW_MISTAKE_FACTOR 4

typedef struct analyse_state {
    const cli_game *cg;
    bool json;
    int niter;
    sow_analyse_info *iter; /* the completed depths, kept for --json */
} analyse_state;

/* A move with its side: "S2", "N1x". */
static void side_move(const sow_pos *p, sow_move mv, char *buf, size_t size)
{
    char mt[8];
    sow_move_format(mv, mt, sizeof mt);
    snprintf(buf, size, "%c%s", sow_pos_to_move(p) == SOW_SOUTH ? 'S' : 'N', mt);
}

static void print_pv(const cli_game *cg, const sow_analyse_info *in, bool json)
{
    sow_pos p = cg->pos;
    for (int i = 0; i < in->pv_len; i++) {
        char mt[12];
        side_move(&p, in->pv[i], mt, sizeof mt);
        printf(json ? "%s\"%s\"" : "%s%s", i ? (json ? "," : " ") : "", mt);
        sow_make(&cg->g, &p, in->pv[i]);
    }
}

static double nps(const sow_analyse_info *in)
{
    return in->seconds > 0 ? (double)in->nodes / in->seconds : 0;
}

static void print_depth_line(const cli_game *cg, const sow_analyse_info *in)
{
    char best[8] = "-";
    if (in->best >= 0)
        sow_move_format(in->moves[in->best], best, sizeof best);
    printf("depth %d score %s%+d best %s nodes %llu nps %.0f time %.3f", in->depth,
           in->exact ? "exact " : "", sow_score_margin(&cg->g, in->score), best,
           (unsigned long long)in->nodes, nps(in), in->seconds);
    if (in->nlines > 1) {
        printf(" lines");
        for (int j = 0; j < in->nlines; j++) {
            char mt[8];
            sow_move_format(in->moves[in->lines[j]], mt, sizeof mt);
            printf(" %s:%+d", mt, sow_score_margin(&cg->g, in->move_scores[in->lines[j]]));
        }
    }
    printf(" pv ");
    print_pv(cg, in, false);
    printf("\n");
    fflush(stdout);
}

static void on_depth(void *ctx, const sow_analyse_info *in)
{
    analyse_state *st = ctx;
    if (st->niter < MAX_ITER)
        st->iter[st->niter++] = *in;
    else
        st->iter[MAX_ITER - 1] = *in;
    if (!st->json)
        print_depth_line(st->cg, in);
}

static void json_iteration(const cli_game *cg, const sow_analyse_info *in)
{
    char best[8] = "";
    if (in->best >= 0)
        sow_move_format(in->moves[in->best], best, sizeof best);
    printf("\"depth\":%d,\"score\":%d,\"exact\":%s,\"best\":", in->depth,
           sow_score_margin(&cg->g, in->score), in->exact ? "true" : "false");
    printf(best[0] ? "\"%s\"" : "null", best);
    printf(",\"pv\":[");
    print_pv(cg, in, true);
    printf("],\"nodes\":%llu,\"nps\":%.0f,\"seconds\":%.6f", (unsigned long long)in->nodes,
           nps(in), in->seconds);
}

/* The table an analysis of `seconds` on `threads` threads can fill
 * (ANALYSE_TT_MIN_MB). */
static size_t tt_for_time(double seconds, int threads)
{
    size_t mb = ANALYSE_TT_MIN_MB;
    while (mb < ANALYSE_TT_MB &&
           (double)mb < ANALYSE_TT_MIN_MB * seconds * threads / TT_THREAD_SECONDS)
        mb *= 2;
    return mb;
}

/* What the engine settings of a command line come to. */
typedef struct engine_opts {
    sow_analyse_options ao;
    sow_eval_params ep;
    int threads;
    size_t tt_mb;
    const char *eval_name;
    sow_limits lim;     /* the database's: --db, --db-seeds, --no-db */
    sow_db *db;         /* the database opened by engine_new, or NULL */
    sow_oracle oracle;
    int db_seeds;
    int db_planned;     /* the seeds the plan chose (> db_seeds: the time cut it) */
    double db_seconds;
    double t0;          /* the command's start: --time counts from it */
} engine_opts;

/* The engine settings from the limit options (cli_limits) and the
 * analysis's own. */
static void engine_setup(const cli_game *cg, engine_opts *e, const cli_limit_opts *lo,
                         const char *depth, const char *nodes, const char *multipv,
                         const char *eval, double default_time)
{
    memset(e, 0, sizeof *e);
    e->t0 = cli_now();
    cli_limits(lo, &e->lim);
    e->threads = e->lim.threads ? e->lim.threads : cli_default_threads();
    e->ao.time_limit = e->lim.time_limit;
    if (depth)
        e->ao.max_depth = (int)cli_int("--depth", depth, 1, SOW_ANALYSE_MAX_DEPTH);
    if (nodes)
        e->ao.max_nodes = (uint64_t)cli_int("--nodes", nodes, 1, 1L << 62);
    if (!lo->time && !depth && !nodes)
        e->ao.time_limit = default_time;
    if (e->lim.tt_mb) {
        e->tt_mb = e->lim.tt_mb;
    } else {
        /* No cost model sizes an analysis's table: sized by the time when
         * there is one, within the budget the database shares (a quarter,
         * as solve's table). */
        size_t mb = e->ao.time_limit > 0 ? tt_for_time(e->ao.time_limit, e->threads)
                                         : ANALYSE_TT_MB;
        uint64_t quarter = (e->lim.memory ? e->lim.memory : cli_default_memory()) / 4 >> 20;
        e->tt_mb = quarter < mb ? (quarter ? (size_t)quarter : 1) : mb;
    }
    e->ao.multipv = multipv ? (int)cli_int("--multipv", multipv, 1, SOW_MAX_MOVES) : 1;
    e->eval_name = eval ? eval : "full";
    if (cli_eval("analyse: --eval", &cg->g, e->eval_name, &e->ep))
        e->ao.eval = &e->ep;
}

/* The database's limits: the command's, with the search's threads and
 * table. */
static void db_setup(engine_opts *e)
{
    e->lim.threads = e->threads;
    e->lim.tt_mb = e->tt_mb;
    e->lim.stop = &stop_flag;
}

/* The search for positions from `p`, with the database the plan gives an
 * analysis of `seconds` in all from the command's start (sow_plan_analysis)
 * as its oracle: a build the time overtakes stops at its last complete
 * seed count. */
static sow_search *engine_new(const cli_game *cg, engine_opts *e, const sow_pos *p,
                              double seconds)
{
    sow_plan plan;
    e->lim.time_limit = seconds;
    e->lim.deadline = seconds > 0 ? e->t0 + seconds : 0;
    char why[SOW_WHY];
    if (sow_plan_analysis(&cg->g, p, &e->lim, &plan, why, sizeof why))
        cli_fail("analyse: %s", why);
    if (plan.db_seeds > 0) {
        double t0 = cli_now();
        sow_err err = sow_plan_open_db(&cg->g, &plan, NULL, &e->db, &e->oracle, why, sizeof why);
        if (err == SOW_E_INTERRUPTED) {
            printf("stopped (interrupted) before depth 1 completed: no best move yet\n");
            exit(130);
        }
        if (err)
            cli_fail("analyse: %s", why);
        e->db_seconds = cli_now() - t0;
        e->db_seeds = e->db ? e->db->max_seeds : 0;
        e->db_planned = plan.db_seeds;
    }
    sow_search_options so = {.threads = e->threads, .tt_mb = e->tt_mb, .stop = &stop_flag,
                             .oracle = e->db ? &e->oracle : NULL};
    sow_search *s;
    if (sow_search_new(&cg->g, &so, &s))
        cli_fail("analyse: cannot allocate a %zu MB table", e->tt_mb);
    return s;
}

static void engine_free(engine_opts *e, sow_search *s)
{
    sow_search_free(s);
    sow_db_close(e->db);
    e->db = NULL;
}

static const char *stop_reason(sow_err e, const sow_analyse_info *in, const engine_opts *eo)
{
    if (e == SOW_OK)
        return in->exact ? "exact" : "depth";
    if (__atomic_load_n(&stop_flag, __ATOMIC_RELAXED))
        return "interrupted";
    if (eo->ao.max_nodes && in->nodes + 1 >= eo->ao.max_nodes)
        return "nodes";
    return eo->ao.max_nodes && !eo->ao.time_limit ? "nodes" : "time";
}

static int analyse_one(cli_game *cg, engine_opts *eo)
{
    static sow_analyse_info iter[MAX_ITER];
    analyse_state st = {.cg = cg, .json = cg->json, .iter = iter};
    eo->ao.on_depth = on_depth;
    eo->ao.ctx = &st;
    sow_search *s = engine_new(cg, eo, &cg->pos, eo->ao.time_limit);
    /* The search has what the database and the start left of the time. */
    double t = eo->ao.time_limit;
    if (t > 0) {
        double left = eo->lim.deadline - cli_now();
        eo->ao.time_limit = left > MIN_SECONDS ? left : MIN_SECONDS;
    }
    bool db_cut = eo->db_seeds < eo->db_planned;
    static sow_analyse_info in;
    sow_err e = sow_analyse(s, &cg->pos, &eo->ao, &in);
    eo->ao.time_limit = t;
    uint64_t nodes = in.nodes;
    engine_free(eo, s);
    if (e && e != SOW_E_INTERRUPTED)
        cli_fail("analyse: %s", sow_err_name(e));
    const char *why = stop_reason(e, &in, eo);
    char best[8] = "";
    if (in.best >= 0)
        sow_move_format(in.moves[in.best], best, sizeof best);
    if (cg->json) {
        printf("{");
        cli_json_game(cg);
        printf(",");
        json_iteration(cg, &in);
        printf(",\"lines\":[");
        for (int j = 0; j < in.nlines; j++) {
            int k = in.lines[j];
            char mt[8];
            sow_move_format(in.moves[k], mt, sizeof mt);
            printf("%s{\"move\":\"%s\",\"score\":%d,\"exact\":%s}", j ? "," : "", mt,
                   sow_score_margin(&cg->g, in.move_scores[k]), in.move_exact[k] ? "true" : "false");
        }
        printf("],\"stopped\":\"%s\",\"threads\":%d,\"tt_mb\":%zu,\"eval\":\"%s\","
               "\"reductions\":\"%s\",\"db_seeds\":%d,\"db_seconds\":%.3f,\"db_cut\":%s,"
               "\"total_nodes\":%llu,\"iterations\":[",
               why, eo->threads, eo->tt_mb, eo->eval_name,
               sow_reductions_deep(&cg->g, eo->ao.reductions) ? "deep" : "one", eo->db_seeds,
               eo->db_seconds,
               db_cut ? "true" : "false", (unsigned long long)nodes);
        for (int i = 0; i < st.niter; i++) {
            printf("%s{", i ? "," : "");
            json_iteration(cg, &iter[i]);
            printf("}");
        }
        printf("]}\n");
    } else if (in.depth == 0 && in.exact) {
        printf("the game is over: score exact %+d for the player to move\n",
               sow_score_margin(&cg->g, in.score));
    } else if (in.depth == 0) {
        printf("stopped (%s) before depth 1 completed: no best move yet\n", why);
    } else {
        printf("best %s score %s%+d depth %d (stopped: %s)\n", best, in.exact ? "exact " : "",
               sow_score_margin(&cg->g, in.score), in.depth, why);
    }
    if (db_cut && !cg->json && !(in.depth == 0 && in.exact))
        printf("database: the time limit cut its build at %d seeds (of %d planned); the "
               "search used those\n", eo->db_seeds, eo->db_planned);
    fflush(stdout);
    return strcmp(why, "interrupted") == 0 ? 130 : 0;
}


/* ---- The game review (--record FILE, or --moves LIST --review) ---------- */

/* One move of the game, judged. */
typedef struct verdict {
    int number;         /* the turn number players write ("12." / "12...") */
    int side;           /* SOW_SOUTH or SOW_NORTH: the mover */
    char move[32], best[32];
    int before, after;  /* score units, the mover's view */
    bool before_exact, after_exact;
    int loss;           /* seeds: margin(before) - margin(after) */
    int depth;          /* plies both scores were searched to (0: game over) */
    const char *label;  /* "mistake", "inaccuracy" or NULL */
} verdict;

/* Move mv at p as the record writes it (Toguz: the two-digit form). */
static void record_move(const sow_game *g, const sow_pos *p, sow_move mv, char *buf, size_t size)
{
    char text[32];
    if (sow_record_format(g, p, &mv, 1, text, sizeof text, NULL) != SOW_OK) {
        sow_move_format(mv, buf, size);
        return;
    }
    const char *last = strrchr(text, ' '); /* past the move number, if any */
    snprintf(buf, size, "%s", last ? last + 1 : text);
}

/* The review's thresholds, seeds. */
typedef struct review_limits {
    int inaccuracy, mistake;
} review_limits;

/* The label of a move that went from `before` to `after` (score units, the
 * mover's view). A mistake: the outcome proven worse (both values exact:
 * throwing away a win is a mistake whatever the seeds), or a loss far
 * beyond the inaccuracy's. An estimated outcome that turns is no proof:
 * an estimate near 0 changes sign with the depth. The engine's own choice
 * is never flagged: its loss is the estimates' noise. */
static const char *judge(int before, int after, bool exact, int loss, const review_limits *rl,
                         bool played_best)
{
    if (exact && sow_outcome_of(after) < sow_outcome_of(before))
        return "mistake";
    if (played_best || loss <= rl->inaccuracy)
        return NULL;
    return loss > rl->mistake ? "mistake" : "inaccuracy";
}

static void fmt_score(const cli_game *cg, int score, bool exact, char *buf, size_t size)
{
    snprintf(buf, size, "%s%+d", exact ? "=" : "", sow_score_margin(&cg->g, score));
}

static void print_verdict(const cli_game *cg, const verdict *v)
{
    char b[16], a[16], num[16];
    fmt_score(cg, v->before, v->before_exact, b, sizeof b);
    fmt_score(cg, v->after, v->after_exact, a, sizeof a);
    snprintf(num, sizeof num, "%d.%s", v->number, v->side == SOW_SOUTH ? "" : "..");
    printf("%s %s  %s -> %s  depth %d", num, v->move, b, a, v->depth);
    if (v->label)
        printf("  %s (best %s, %s)", strcmp(v->label, "mistake") == 0 ? "??" : "?", v->best, b);
    printf("\n");
    fflush(stdout);
}

typedef struct side_sum {
    int moves, mistakes, inaccuracies;
    long loss;          /* seeds, the moves' positive losses added */
} side_sum;

static void json_verdict(const cli_game *cg, const verdict *v, int ply)
{
    printf("%s{\"ply\":%d,\"number\":%d,\"side\":\"%s\",\"move\":\"%s\",\"before\":%d,"
           "\"before_exact\":%s,\"after\":%d,\"after_exact\":%s,\"loss\":%d,\"depth\":%d,"
           "\"best\":\"%s\",\"best_score\":%d,\"label\":",
           ply ? "," : "", ply + 1, v->number, v->side == SOW_SOUTH ? "south" : "north", v->move,
           sow_score_margin(&cg->g, v->before), v->before_exact ? "true" : "false",
           sow_score_margin(&cg->g, v->after), v->after_exact ? "true" : "false", v->loss,
           v->depth, v->best, sow_score_margin(&cg->g, v->before));
    printf(v->label ? "\"%s\"}" : "null}", v->label);
}

/* Analyses every position of the game (cg->hist from the start) but the
 * last, and judges the move played there: its score against the best
 * move's, both from that position's analysis. */
static int review(cli_game *cg, engine_opts *eo, const review_limits *rl)
{
    int n = cg->nhist;
    sow_pos *line = malloc(sizeof *line * (size_t)(n + 1));
    verdict *v = malloc(sizeof *v * (size_t)(n > 0 ? n : 1));
    if (!line || !v)
        cli_fail("analyse: out of memory");
    sow_game_start(&cg->g, &line[0]);
    for (int i = 0; i < n; i++) {
        line[i + 1] = line[i];
        sow_make(&cg->g, &line[i + 1], cg->hist[i]);
    }
    sow_search *s = engine_new(cg, eo, &line[0], eo->ao.time_limit * (n > 0 ? n : 1));
    static sow_analyse_info in;
    side_sum sum[2] = {{0}};
    int done = 0, number = 1;
    bool interrupted = false;
    if (cg->json) {
        printf("{");
        cli_json_game(cg);
        printf(",\"threshold\":%d,\"mistake_threshold\":%d,\"time_per_position\":",
               rl->inaccuracy, rl->mistake);
        printf(eo->ao.time_limit > 0 ? "%g" : "null", eo->ao.time_limit);
        printf(",\"depth\":");
        printf(eo->ao.max_depth > 0 ? "%d" : "null", eo->ao.max_depth);
        printf(",\"eval\":\"%s\",\"moves\":[", eo->eval_name);
    }
    for (int i = 0; i < n; i++) {
        /* The played move is scored to its value by the search that finds
         * the best one, at the same depth: the loss is then the search's
         * own, not the gap between two analyses. */
        sow_analyse_options ao = eo->ao;
        ao.score_move = &cg->hist[i];
        sow_err e = sow_analyse(s, &line[i], &ao, &in);
        if (e && e != SOW_E_INTERRUPTED)
            cli_fail("analyse: position after move %d: %s", i, sow_err_name(e));
        if (__atomic_load_n(&stop_flag, __ATOMIC_RELAXED) || (e == SOW_E_INTERRUPTED && in.depth == 0 && !in.exact)) {
            interrupted = __atomic_load_n(&stop_flag, __ATOMIC_RELAXED);
            if (!interrupted)
                cli_fail("analyse: the position after move %d got no depth within the limit "
                         "(give more --time)", i);
            break;
        }
        int played = 0;
        for (int j = 0; j < in.nmoves; j++)
            if (in.moves[j] == cg->hist[i])
                played = j;
        int mover = sow_pos_to_move(&line[i]);
        if (i > 0 && mover == SOW_SOUTH && sow_pos_to_move(&line[i - 1]) == SOW_NORTH)
            number++;
        verdict *x = &v[i];
        x->number = number;
        x->side = mover;
        record_move(&cg->g, &line[i], cg->hist[i], x->move, sizeof x->move);
        x->best[0] = '\0';
        bool has_best = in.best >= 0;
        if (has_best)
            record_move(&cg->g, &line[i], in.moves[in.best], x->best, sizeof x->best);
        x->before = in.score;
        x->before_exact = in.exact;
        x->after = in.move_scores[played];
        x->after_exact = in.move_exact[played];
        x->loss = sow_score_margin(&cg->g, x->before) - sow_score_margin(&cg->g, x->after);
        x->depth = in.depth;
        x->label = judge(x->before, x->after, x->before_exact && x->after_exact, x->loss,
                         rl, has_best && in.moves[in.best] == cg->hist[i]);
        side_sum *ss = &sum[mover == SOW_SOUTH ? 0 : 1];
        ss->moves++;
        ss->loss += x->loss > 0 ? x->loss : 0;
        ss->mistakes += x->label && strcmp(x->label, "mistake") == 0;
        ss->inaccuracies += x->label && strcmp(x->label, "inaccuracy") == 0;
        if (cg->json)
            json_verdict(cg, x, i);
        else
            print_verdict(cg, x);
        done = i + 1;
    }
    uint64_t nodes = in.nodes;
    engine_free(eo, s);
    const char *names[2] = {"south", "north"};
    if (cg->json) {
        printf("],\"reviewed\":%d,\"stopped\":\"%s\",\"summary\":{", done,
               interrupted ? "interrupted" : "done");
        for (int j = 0; j < 2; j++)
            printf("%s\"%s\":{\"moves\":%d,\"mistakes\":%d,\"inaccuracies\":%d,"
                   "\"average_loss\":%.2f}", j ? "," : "", names[j], sum[j].moves,
                   sum[j].mistakes, sum[j].inaccuracies,
                   sum[j].moves ? (double)sum[j].loss / sum[j].moves : 0.0);
        printf("},\"threads\":%d,\"tt_mb\":%zu,\"db_seeds\":%d,\"db_seconds\":%.3f,"
               "\"last_nodes\":%llu}\n", eo->threads, eo->tt_mb, eo->db_seeds, eo->db_seconds,
               (unsigned long long)nodes);
    } else {
        for (int j = 0; j < 2; j++)
            printf("%s: %d moves, %d mistake%s, %d inaccurac%s, average loss %.2f seeds\n",
                   names[j], sum[j].moves, sum[j].mistakes, sum[j].mistakes == 1 ? "" : "s",
                   sum[j].inaccuracies, sum[j].inaccuracies == 1 ? "y" : "ies",
                   sum[j].moves ? (double)sum[j].loss / sum[j].moves : 0.0);
        if (interrupted)
            printf("interrupted after %d of %d moves\n", done, n);
    }
    fflush(stdout);
    free(line);
    free(v);
    return interrupted ? 130 : 0;
}

/* The thresholds: the options', else the defaults for the board. */
static void review_setup(const sow_game *g, const char *threshold, const char *mistake,
                         review_limits *rl)
{
    int seeds = 2 * g->cfg.pits * g->cfg.seeds;
    int scaled = (seeds + REVIEW_SEEDS_PER_THRESHOLD / 2) / REVIEW_SEEDS_PER_THRESHOLD;
    rl->inaccuracy = threshold ? (int)cli_int("--threshold", threshold, 0, 1000)
                               : (scaled > REVIEW_THRESHOLD ? scaled : REVIEW_THRESHOLD);
    rl->mistake = mistake ? (int)cli_int("--mistake", mistake, 0, 1000)
                          : REVIEW_MISTAKE_FACTOR * rl->inaccuracy;
    if (rl->mistake < rl->inaccuracy)
        cli_fail("analyse: --mistake %d is below --threshold %d: a mistake loses more than an "
                 "inaccuracy", rl->mistake, rl->inaccuracy);
}

int cmd_analyse(int argc, char **argv)
{
    cli_game cg = {0};
    cli_limit_opts lo = {0};
    const char *depth = NULL, *nodes = NULL, *multipv = NULL, *eval = NULL, *threshold = NULL,
               *mistake = NULL, *reductions = NULL;
    bool review_flag = false;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg),
                            CLI_LIMIT_OPTS(&lo),
                            {"time", OPT_STRING, &lo.time},
                            {"depth", OPT_STRING, &depth},
                            {"nodes", OPT_STRING, &nodes},
                            {"multipv", OPT_STRING, &multipv},
                            {"eval", OPT_STRING, &eval},
                            {"reductions", OPT_STRING, &reductions},
                            {"review", OPT_FLAG, &review_flag},
                            {"threshold", OPT_STRING, &threshold},
                            {"mistake", OPT_STRING, &mistake},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    /* A record file is a game to review; a move list is a position to
     * analyse unless --review asks for its moves to be judged. */
    bool is_review = review_flag || cg.record_file;
    if (review_flag && !cg.moves && !cg.record_file)
        cli_fail("analyse: --review needs the game: --moves LIST or --record FILE");
    if ((threshold || mistake) && !is_review)
        cli_fail("analyse: --%s applies to a review (--record FILE or --review)",
                 threshold ? "threshold" : "mistake");
    if (is_review && multipv)
        cli_fail("analyse: --multipv does not apply to a review");
    cli_game_setup(&cg, true, true);
    if (cg.pie_opening || (is_review && cg.g.pie))
        cli_fail("analyse: positions within the pie rule's opening turn are not supported "
                 "(sow solve handles them)");
    engine_opts eo;
    engine_setup(&cg, &eo, &lo, depth, nodes, multipv, eval,
                 is_review ? REVIEW_SECONDS : ANALYSE_SECONDS);
    if (reductions)
        eo.ao.reductions = cli_reductions("analyse: --reductions", reductions);
    db_setup(&eo);
    struct sigaction sa = {0};
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    if (is_review) {
        review_limits rl;
        review_setup(&cg.g, threshold, mistake, &rl);
        return review(&cg, &eo, &rl);
    }
    return analyse_one(&cg, &eo);
}
