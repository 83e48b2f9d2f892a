/* cmd_book.c - `sow book build|probe|info`: opening books (sow/book.h),
 * built with the resident engine (sow/book_build.h). */
#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"
#include "sow/book.h"
#include "sow/book_build.h"
#include "sow/engine.h"

static const char usage_book[] =
    "usage: sow book SUBCOMMAND ...\n"
    "\n"
    "Opening books: every position of a game's first plies with its value and\n"
    "a best move. Exact books (Kalah 6x4, 6x5) give perfect play at any time\n"
    "control; analysis books (the other boards) deep estimates. A book lives in\n"
    "the database store beside the databases, where `sow engine`, `sow match`,\n"
    "`sow play` and `sow serve` find it and answer its positions at once.\n"
    "\n"
    "build     build (or resume) a book\n"
    "probe     a position's entry\n"
    "info      what a book holds\n"
    "openings  balanced openings for sow match, from a book\n"
    "\n"
    "sow book SUBCOMMAND --help for each one's options.\n";

static const char usage_build[] =
    "usage: sow book build GAME [--pits M] [--seeds N] [--variant A,B] --plies K\n"
    "                      [--exact | --time S] [--max-time S] [--out FILE] [--resume]\n"
    "                      [--threads T] [--memory SIZE] [--db DIR | --no-db] [--quiet]\n"
    "                      [--json]\n"
    "\n"
    "Every position reachable in the first K plies (every move is a ply, an\n"
    "extra turn's included; a position reached twice, by transposition, once),\n"
    "shallowest first, each with its value and a best move, judged by one\n"
    "resident engine whose table and database serve every position.\n"
    "\n"
    "  --plies K      how deep, 0..64 (0: the start alone)\n"
    "  --exact        each position solved exactly (the default; boards the exact\n"
    "                 solver refuses need --time)\n"
    "  --time S       without --exact: each position analysed for S seconds (an\n"
    "                 estimate at the depth reached, exact when it proves it);\n"
    "                 with --exact: a cap, a position not solved within S is left\n"
    "                 out (the book is then not complete)\n"
    "  --max-time S   the whole build's hard limit: the positions done by then\n"
    "                 are written (run again with --resume to go on)\n"
    "  --out FILE     default: the book's place in the database store\n"
    "                 (STORE/FAMILY/FAMILY-nN.sowbook), where every command finds it\n"
    "  --resume       keep the entries FILE already holds and judge the rest\n"
    "  --threads T, --memory SIZE, --db DIR, --no-db   the engine's limits\n"
    "  --count        only count the positions per ply (no engine, no file);\n"
    "                 JSON keys: game, pits, seeds, variant, plies, per_ply, total\n"
    "  --quiet        no progress lines on stderr\n"
    "  --json         one JSON object: book, game, pits, seeds, variant, plies,\n"
    "                 exact, positions, total, left_out, solved, complete,\n"
    "                 seconds, per_ply (each ply's total, done, solved, seconds and\n"
    "                 cpu: this run's wall and CPU seconds on it)\n"
    "\n"
    "The book is saved every minute while it builds and at the end; Ctrl-C\n"
    "saves what is done and exits 130.\n"
    "\n"
    "example: sow book build kalah --pits 6 --seeds 4 --plies 2 --exact\n";

static const char usage_probe[] =
    "usage: sow book probe FILE [--moves LIST | --position P] [--json]\n"
    "\n"
    "The entry of the position after LIST (from the start) or of P: its value\n"
    "(the mover's final margin, stores included), whether it is exact or an\n"
    "estimate (and the analysis depth), and the book's best move. A position\n"
    "the book does not hold says so (exit 0; JSON found false).\n"
    "JSON keys: book, game, pits, seeds, variant, found, exact, depth, value,\n"
    "outcome, best.\n";

static const char usage_info[] =
    "usage: sow book info FILE [--json]\n"
    "\n"
    "What the book FILE is (checked whole: a damaged or foreign file is refused,\n"
    "exit 2): its game, plies, whether it is complete, its positions and how\n"
    "many are exact, its key, its build time.\n"
    "JSON keys: book, version, game, pits, seeds, variant, plies, complete,\n"
    "positions, exact, key, build_seconds, bytes.\n";

static const char usage_openings[] =
    "usage: sow book openings FILE --ply K [--within V] [--max N] [--out PATH]\n"
    "                         [--json]\n"
    "\n"
    "Balanced openings for `sow match --openings`: of the positions exactly K\n"
    "plies from the start (each board once, the first line to reach it, as a\n"
    "book build meets them), those whose value in the book FILE is within V\n"
    "seeds of a draw (|South's final margin| <= V; default 0), the most\n"
    "balanced first, at most N (default all). Each is one line: its move list\n"
    "(as --moves reads it), then `# ` and its value (and `exact` or the\n"
    "analysis depth), after comment lines saying how they were chosen.\n"
    "On a game where most short lines leave one side a won game, a match from\n"
    "random plies measures the openings, not the engines.\n"
    "\n"
    "  --ply K      plies from the start, 1..the book's plies\n"
    "  --within V   seeds from a draw (default 0)\n"
    "  --max N      at most N openings\n"
    "  --out PATH   write PATH (a temporary name, flushed, renamed into place)\n"
    "               instead of standard output\n"
    "  --json       one JSON object on stdout (with --out the file is written\n"
    "               too): book, game, pits, seeds, variant, ply, within,\n"
    "               positions (at that ply), missing (not in the book), chosen,\n"
    "               openings [{moves, margin, exact, depth}]\n"
    "\n"
    "example: sow book build congkak --plies 6 --time 0.2 --out ck.sowbook\n"
    "         sow book openings ck.sowbook --ply 6 --within 2 --out ck.openings\n";

static sow_stop_flag stop_flag;
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
}

static sow_book *load_or_fail(const char *path)
{
    char why[SOW_WHY + 4200];
    sow_book *b;
    if (sow_book_load(path, NULL, &b, why, sizeof why))
        cli_fail("book: %s", why);
    return b;
}

/* The text a book's game is given to cli_game in (cg points into it). */
typedef struct book_game {
    char pits[16], seeds[16], var[96];
} book_game;

/* The book FILE (or one line and exit 2), with cg set up as its game
 * (and cg's --moves or --position read where `position`). */
static sow_book *book_and_game(const char *path, cli_game *cg, book_game *bg, bool position)
{
    sow_book *b = load_or_fail(path);
    const sow_config *c = &sow_book_game(b)->cfg;
    cg->name = sow_game_name(c->game);
    snprintf(bg->pits, sizeof bg->pits, "%d", c->pits);
    snprintf(bg->seeds, sizeof bg->seeds, "%d", c->seeds);
    bg->var[0] = 0;
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (c->variant & (1u << i))
            snprintf(bg->var + strlen(bg->var), sizeof bg->var - strlen(bg->var), "%s%s",
                     bg->var[0] ? "," : "", sow_variant_name(1u << i));
    cg->pits = bg->pits;
    cg->seeds = bg->seeds;
    cg->variant = bg->var;
    cli_game_setup(cg, position, position);
    return b;
}

static void json_head(const char *path, const cli_game *cg)
{
    printf("{\"book\":");
    cli_fjson_string(stdout, path);
    printf(",");
    cli_json_game(cg);
}

/* ---- info ---------------------------------------------------------------- */

static int book_info(int argc, char **argv)
{
    cli_game cg = {0};
    const char *pos[1];
    int npos = 0;
    cli_opt opts[] = {{"json", OPT_FLAG, &cg.json}, {0}};
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_info);
    if (npos != 1)
        cli_fail("book info: expected one FILE (see sow book info --help)");
    book_game bg;
    sow_book *b = book_and_game(pos[0], &cg, &bg, false);
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    struct stat st;
    long long bytes = stat(pos[0], &st) == 0 ? (long long)st.st_size : -1;
    if (cg.json) {
        json_head(pos[0], &cg);
        printf(",\"version\":%d,\"plies\":%d,\"complete\":%s,\"positions\":%llu,\"exact\":%llu,"
               "\"key\":\"%s\",\"build_seconds\":%.3f,\"bytes\":%lld}\n",
               bi.version, bi.plies, bi.complete ? "true" : "false",
               (unsigned long long)bi.positions, (unsigned long long)bi.exact,
               bi.hashed ? "hash128" : "code", bi.build_seconds, bytes);
    } else {
        printf("book: %s (format %d, %lld bytes)\n", pos[0], bi.version, bytes);
        printf("game: %s %dx%d%s%s\n", cg.name, bi.cfg.pits, bi.cfg.seeds, bg.var[0] ? " " : "",
               bg.var);
        printf("plies: %d (%s)\n", bi.plies, bi.complete ? "complete" : "not complete");
        printf("positions: %llu (%llu exact)\n", (unsigned long long)bi.positions,
               (unsigned long long)bi.exact);
        printf("key: %s\n", bi.hashed ? "128-bit hash of the pits" : "board code");
        printf("build: %.1f s\n", bi.build_seconds);
    }
    sow_book_free(b);
    return 0;
}

/* ---- probe --------------------------------------------------------------- */

static int book_probe(int argc, char **argv)
{
    cli_game cg = {0};
    const char *pos[1];
    int npos = 0;
    cli_opt opts[] = {{"moves", OPT_STRING, &cg.moves},
                      {"position", OPT_STRING, &cg.position},
                      {"record", OPT_STRING, &cg.record_file},
                      {"json", OPT_FLAG, &cg.json},
                      {0}};
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_probe);
    if (npos != 1)
        cli_fail("book probe: expected one FILE (see sow book probe --help)");
    book_game bg;
    sow_book *b = book_and_game(pos[0], &cg, &bg, true);
    sow_book_entry en;
    bool found = !sow_over(&cg.g, &cg.pos) && sow_book_find(b, &cg.pos, &en);
    int score = found ? sow_book_score(&cg.g, &cg.pos, &en) : 0;
    char best[8] = "";
    if (found && en.move >= 0)
        sow_move_format((sow_move)en.move, best, sizeof best);
    if (cg.json) {
        json_head(pos[0], &cg);
        if (!found)
            printf(",\"found\":false,\"exact\":null,\"depth\":null,\"value\":null,"
                   "\"outcome\":null,\"best\":null}\n");
        else
            printf(",\"found\":true,\"exact\":%s,\"depth\":%d,\"value\":%d,\"outcome\":\"%s\","
                   "\"best\":%s%s%s}\n", en.exact ? "true" : "false", en.depth,
                   sow_score_margin(&cg.g, score), cli_outcome_name(sow_outcome_of(score)),
                   best[0] ? "\"" : "", best[0] ? best : "null", best[0] ? "\"" : "");
    } else if (!found) {
        printf("not in the book%s\n", sow_over(&cg.g, &cg.pos) ? " (the game is over)" : "");
    } else {
        printf("value: %+d (%s)%s\n", sow_score_margin(&cg.g, score),
               cli_outcome_name(sow_outcome_of(score)), en.exact ? ", exact" : "");
        if (!en.exact)
            printf("estimate: analysis depth %d\n", en.depth);
        printf("best: %s\n", best[0] ? best : "none");
    }
    sow_book_free(b);
    return 0;
}

/* ---- build --------------------------------------------------------------- */

typedef struct build_view {
    bool quiet;
    double last_line;
} build_view;

static void on_progress(void *ctx, const sow_book_progress *pr)
{
    build_view *v = ctx;
    if (v->quiet || (pr->done < pr->total && pr->seconds - v->last_line < 1))
        return;
    v->last_line = pr->seconds;
    fprintf(stderr, "sow: book: ply %d, %llu of %llu positions (%llu left out), %.1f s "
            "(last %.2f s)\n", pr->ply, (unsigned long long)pr->done,
            (unsigned long long)pr->total, (unsigned long long)pr->left_out, pr->seconds,
            pr->last);
}

/* The default book file (the store's place for it), its folder made. */
static void default_out(const cli_game *cg, const sow_limits *L, char *buf, size_t size)
{
    if (!L->db_dir)
        cli_fail("book build: no database store: give --out FILE");
    sow_book_path(&cg->g, L->db_dir, buf, size);
    char dir[4400];
    snprintf(dir, sizeof dir, "%s", buf);
    char *d = dirname(dir);
    if (mkdir(d, 0777) != 0 && errno != EEXIST)
        cli_fail("book build: cannot create %s: %s", d, strerror(errno));
}

/* The book to fill: FILE's with --resume (must be the game's), else new. */
static sow_book *start_book(const cli_game *cg, const char *out, bool resume, int plies)
{
    char why[SOW_WHY + 4200];
    sow_book *b = NULL;
    if (resume) {
        sow_err e = sow_book_load(out, &cg->g, &b, why, sizeof why);
        if (e && e != SOW_E_MISSING)
            cli_fail("book build: %s", why);
        if (b && sow_book_set_plies(b, plies, why, sizeof why))
            cli_fail("book build: %s", why);
    }
    if (!b && sow_book_new(&cg->g, plies, &b, why, sizeof why))
        cli_fail("book build: %s", why);
    return b;
}

static void print_built(const cli_game *cg, const char *out, const sow_book *b,
                        const sow_book_build_result *r, bool exact, double secs)
{
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    if (cg->json) {
        json_head(out, cg);
        printf(",\"plies\":%d,\"exact\":%s,\"positions\":%llu,\"total\":%llu,\"left_out\":%llu,"
               "\"solved\":%llu,\"complete\":%s,\"seconds\":%.3f",
               bi.plies, exact ? "true" : "false", (unsigned long long)bi.positions,
               (unsigned long long)r->last.total, (unsigned long long)r->last.left_out,
               (unsigned long long)r->solved, bi.complete ? "true" : "false", secs);
        printf(",\"per_ply\":[");
        for (int d = 0; d <= bi.plies; d++)
            printf("%s{\"ply\":%d,\"total\":%llu,\"done\":%llu,\"solved\":%llu,"
                   "\"seconds\":%.3f,\"cpu\":%.3f}", d ? "," : "", d,
                   (unsigned long long)r->ply_total[d], (unsigned long long)r->ply_done[d],
                   (unsigned long long)r->ply_solved[d], r->ply_seconds[d], r->ply_cpu[d]);
        printf("]}\n");
        return;
    }
    printf("book: %s\n", out);
    printf("plies: %d, %llu of %llu positions (%llu exact), %s\n", bi.plies,
           (unsigned long long)r->last.done, (unsigned long long)r->last.total,
           (unsigned long long)bi.exact, bi.complete ? "complete" : "not complete");
    printf("this run: %llu positions judged in %.1f s%s\n", (unsigned long long)r->solved, secs,
           r->stopped ? " (stopped by the time: run again with --resume)" : "");
}

/* --count: the positions per ply. */
static int count_only(const cli_game *cg, int plies)
{
    uint64_t per[SOW_BOOK_MAX_PLIES + 1], total = 0;
    char why[SOW_WHY];
    if (sow_book_count(&cg->g, plies, per, why, sizeof why))
        cli_fail("book build: %s", why);
    if (cg->json) {
        printf("{");
        cli_json_game(cg);
        printf(",\"plies\":%d,\"per_ply\":[", plies);
    }
    for (int d = 0; d <= plies; d++) {
        total += per[d];
        if (cg->json)
            printf("%s%llu", d ? "," : "", (unsigned long long)per[d]);
        else
            printf("ply %d: %llu positions (%llu in all)\n", d, (unsigned long long)per[d],
                   (unsigned long long)total);
    }
    if (cg->json)
        printf("],\"total\":%llu}\n", (unsigned long long)total);
    return 0;
}

static int book_build(int argc, char **argv)
{
    cli_game cg = {0};
    cli_limit_opts lo = {0};
    const char *plies_s = NULL, *time_s = NULL, *max_s = NULL, *out_s = NULL;
    bool exact = false, resume = false, count = false;
    build_view view = {0};
    const char *pos[1];
    int npos = 0;
    cli_opt opts[] = {{"pits", OPT_STRING, &cg.pits},
                      {"seeds", OPT_STRING, &cg.seeds},
                      {"variant", OPT_STRING, &cg.variant},
                      {"json", OPT_FLAG, &cg.json},
                      {"plies", OPT_STRING, &plies_s},
                      {"exact", OPT_FLAG, &exact},
                      {"time", OPT_STRING, &time_s},
                      {"max-time", OPT_STRING, &max_s},
                      {"out", OPT_STRING, &out_s},
                      {"resume", OPT_FLAG, &resume},
                      {"quiet", OPT_FLAG, &view.quiet},
                      {"count", OPT_FLAG, &count},
                      {"threads", OPT_STRING, &lo.threads},
                      {"memory", OPT_STRING, &lo.memory},
                      {"db", OPT_STRING, &lo.db_dir},
                      {"no-db", OPT_FLAG, &lo.no_db},
                      {0}};
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_build);
    if (npos != 1)
        cli_fail("book build: expected one GAME (see sow book build --help)");
    cg.name = pos[0];
    cli_game_setup(&cg, false, false);
    if (!plies_s)
        cli_fail("book build: --plies K is required");
    int plies = (int)cli_int("--plies", plies_s, 0, SOW_BOOK_MAX_PLIES);
    if (count)
        return count_only(&cg, plies);
    sow_book_build_options o = {.exact = exact || !time_s, .save_every = 60,
                                .progress = on_progress, .ctx = &view};
    if (time_s)
        o.seconds = cli_seconds("--time", time_s);
    double max_time = max_s ? cli_seconds("--max-time", max_s) : 0;
    sow_limits L;
    cli_limits(&lo, &L);
    char out[4400];
    if (out_s)
        snprintf(out, sizeof out, "%s", out_s);
    else
        default_out(&cg, &L, out, sizeof out);
    o.save_path = out;
    sow_book *b = start_book(&cg, out, resume, plies);
    L.stop = &stop_flag;
    char why[SOW_WHY + 4200];
    sow_engine *e;
    if (sow_engine_new(&cg.g, &L, &e, why, sizeof why))
        cli_fail("book build: %s", why);
    struct sigaction sa = {0};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    double t0 = cli_now();
    o.deadline = max_time > 0 ? t0 + max_time : 0;
    sow_book_build_result r;
    sow_err err = sow_book_build(e, b, &o, &r, why, sizeof why);
    double secs = cli_now() - t0;
    sow_engine_free(e);
    char swhy[SOW_WHY + 4200];
    sow_err serr = sow_book_save(b, out, swhy, sizeof swhy);
    if (err)
        cli_fail("book build: %s", why);
    if (serr)
        cli_fail("book build: %s", swhy);
    print_built(&cg, out, b, &r, o.exact, secs);
    sow_book_free(b);
    if (stop_signal) {
        fprintf(stderr, "sow: book build: interrupted; the positions done are saved in %s: "
                "run again with --resume\n", out);
        return 128 + (int)stop_signal;
    }
    return 0;
}

/* ---- openings ------------------------------------------------------------ */

static void moves_text(const sow_book_opening *o, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < o->plies && len + 8 < size; i++) {
        char mv[8];
        sow_move_format(o->moves[i], mv, sizeof mv);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "", mv);
    }
}

static int book_openings(int argc, char **argv)
{
    cli_game cg = {0};
    const char *ply_s = NULL, *within_s = NULL, *max_s = NULL, *out_s = NULL;
    const char *pos[1];
    int npos = 0;
    cli_opt opts[] = {{"ply", OPT_STRING, &ply_s},   {"within", OPT_STRING, &within_s},
                      {"max", OPT_STRING, &max_s},   {"out", OPT_STRING, &out_s},
                      {"json", OPT_FLAG, &cg.json}, {0}};
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_openings);
    if (npos != 1)
        cli_fail("book openings: expected one FILE (see sow book openings --help)");
    if (!ply_s)
        cli_fail("book openings: --ply K is required (see sow book openings --help)");
    int ply = (int)cli_int("book openings: --ply", ply_s, 1, SOW_BOOK_MAX_PLIES);
    int within = within_s ? (int)cli_int("book openings: --within", within_s, 0, 1000) : 0;
    long max = max_s ? cli_int("book openings: --max", max_s, 1, 1L << 30) : -1;
    book_game bg;
    sow_book *b = book_and_game(pos[0], &cg, &bg, false);
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    sow_book_opening *op;
    uint64_t n, missing;
    char why[SOW_WHY];
    uint64_t positions;
    if (sow_book_openings(b, ply, within, &op, &n, &positions, &missing, why, sizeof why))
        cli_fail("book openings: %s", why);
    uint64_t chosen = max >= 0 && (uint64_t)max < n ? (uint64_t)max : n;
    /* The file's text: how they were chosen, then one opening a line. */
    size_t size = 512 + strlen(pos[0]) + strlen(bg.var) +
                  (size_t)chosen * (SOW_BOOK_MAX_PLIES * 4 + 48); /* every line's bound */
    char *text = malloc(size), line[SOW_BOOK_MAX_PLIES * 4 + 8];
    if (!text)
        cli_fail("book openings: out of memory");
    size_t len = (size_t)snprintf(
        text, size,
        "# sow book openings: %s %dx%d%s%s, ply %d, |South's margin| <= %d: %llu of %llu "
        "positions (%llu not in the book)\n# book: %s (%s)\n",
        cg.name, bi.cfg.pits, bi.cfg.seeds, bg.var[0] ? " " : "", bg.var, ply, within,
        (unsigned long long)chosen, (unsigned long long)positions,
        (unsigned long long)missing, pos[0],
        bi.exact == bi.positions ? "exact values" : "analysis estimates where not exact");
    for (uint64_t i = 0; i < chosen; i++) {
        moves_text(&op[i], line, sizeof line);
        char how[32];
        if (op[i].exact)
            snprintf(how, sizeof how, "exact");
        else
            snprintf(how, sizeof how, "depth %d", op[i].depth);
        len += (size_t)snprintf(text + len, size - len, "%s%s  # %+d, %s", i ? "\n" : "",
                                line[0] ? line : "", op[i].margin, how);
    }
    if (cg.json) {
        json_head(pos[0], &cg);
        printf(",\"ply\":%d,\"within\":%d,\"positions\":%llu,\"missing\":%llu,\"chosen\":%llu,"
               "\"openings\":[",
               ply, within, (unsigned long long)positions, (unsigned long long)missing,
               (unsigned long long)chosen);
        for (uint64_t i = 0; i < chosen; i++) {
            moves_text(&op[i], line, sizeof line);
            printf("%s{\"moves\":\"%s\",\"margin\":%d,\"exact\":%s,\"depth\":%d}", i ? "," : "",
                   line, op[i].margin, op[i].exact ? "true" : "false", op[i].depth);
        }
        printf("]}\n");
    }
    if (out_s) {
        int e = record_save(out_s, text);
        if (e)
            cli_fail("book openings: cannot write %s: %s", out_s, strerror(e));
    } else if (!cg.json) {
        printf("%s\n", text);
    }
    free(text);
    free(op);
    sow_book_free(b);
    return 0;
}

int cmd_book(int argc, char **argv)
{
    if (argc < 2)
        cli_fail("book: missing subcommand: build, probe, info or openings (see sow book --help)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_book, stdout);
        return 0;
    }
    static const struct {
        const char *name, *full;
        int (*run)(int, char **);
    } subs[] = {
        {"build", "book build", book_build},
        {"probe", "book probe", book_probe},
        {"info", "book info", book_info},
        {"openings", "book openings", book_openings},
    };
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0) {
            argv[1] = (char *)subs[i].full;
            return subs[i].run(argc - 1, argv + 1);
        }
    cli_fail("book: unknown subcommand '%s' (build, probe, info, openings; see sow book --help)",
             argv[1]);
}
