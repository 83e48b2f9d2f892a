/* cmd_match.c - `sow match`: two engine settings of `sow analyse` play
 * each other from varied openings, colours swapped, and the result is
 * printed with an Elo difference and its 95% interval.
 */
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "sow/analyse.h"
#include "sow/notation.h"

static const char usage[] =
    "usage: sow match GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                 --a OPTIONS --b OPTIONS [--games N] [--openings FILE]\n"
    "                 [--plies K] [--seed S] [--jobs J] [--out DIR] [--json]\n"
    "\n"
    "Engine A and engine B (each a comma-separated list of depth=D, time=S,\n"
    "nodes=N, eval=E, threads=T (default 1), memory=SIZE (its table, as\n"
    "--memory reads it; default 16 MB: games run side by side)) play --games games\n"
    "(default 20): each opening twice, colours swapped. Openings are the\n"
    "lines of FILE (a move list as for --moves, one per line) or K random\n"
    "plies (--plies, default 2; --seed, default 1). --jobs J games run side\n"
    "by side (default 1). Prints wins/draws/losses of A, its score and the\n"
    "Elo difference A - B with a 95% interval: the normal approximation of the\n"
    "games' scores; when they leave it no spread (every game won, lost or\n"
    "drawn) the Wilson score interval of the score instead, and a clean sweep\n"
    "prints its one bound (\"Elo A - B > +N\": infinite Elo is not excluded).\n"
    "--out DIR saves each game's record (DIR/game-NNN.txt: the engines'\n"
    "colours, the opening and the result as comments, then the moves in the\n"
    "game's record notation, as --record FILE reads it: Toguz \"1. 76 98 ...\",\n"
    "the other games \"3,1,6\"). A game longer than 2000 plies (Toguz can\n"
    "cycle) is scored as perpetual play: the store difference.\n"
    "\n"
    "eval=E: full (default: the game's own weights), material (a leaf is the\n"
    "stores) or six weights in hundredths of a seed, ROW:MOBILITY:EXTRA:\n"
    "CAPTURE:TUZDIK:DECIDED (the terms of include/sow/analyse.h), e.g.\n"
    "eval=25:10:50:50:0:200.\n"
    "\n"
    "JSON keys: game, pits, seeds, variant, a, b, games, wins, draws, losses,\n"
    "score, elo, elo_low, elo_high (null: unbounded, for a clean sweep elo too),\n"
    "interval (normal | wilson), results [{game, a_side, opening, moves,\n"
    "margin}].\n"
    "\n"
    "example: sow match kalah --a depth=6 --b depth=3 --games 20\n";

#define MAX_GAME_PLIES 2000
#define MAX_GAMES 10000

typedef struct engine {
    char text[128];
    sow_analyse_options ao;
    sow_eval_params ep;
    bool eval;
    int threads;
    size_t tt_mb;
} engine;

static void engine_parse(const sow_game *g, const char *which, const char *text, engine *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->text, sizeof e->text, "%s", text);
    e->threads = 1;
    e->tt_mb = 16;
    e->eval = cli_eval("eval", g, "full", &e->ep);
    char buf[256];
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
        } else if (strcmp(tok, "threads") == 0) {
            e->threads = cli_threads("threads", v);
        } else if (strcmp(tok, "memory") == 0) {
            e->tt_mb = (size_t)(cli_memory("memory", v) >> 20);
        } else {
            cli_fail("match: %s: unknown key '%s' (depth, time, nodes, eval, threads, memory)",
                     which, tok);
        }
    }
    if (!e->ao.max_depth && !e->ao.max_nodes && !e->ao.time_limit)
        cli_fail("match: %s needs a limit: depth=D, time=S or nodes=N", which);
    e->ao.eval = e->eval ? &e->ep : NULL;
    e->ao.multipv = 1;
}

typedef struct game_rec {
    sow_move moves[MAX_GAME_PLIES + 64];
    int nopen, n;
    int a_side;  /* SOW_SOUTH or SOW_NORTH */
    int margin;  /* South's final margin (perpetual: store difference) */
    int result;  /* +1 A won, 0 draw, -1 B won */
    sow_err err;
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

/* Plays one game: A on r->a_side, after the opening in r. */
static void play(const cli_game *cg, const engine *ea, const engine *eb, game_rec *r)
{
    const sow_game *g = &cg->g;
    sow_pos p;
    sow_game_start(g, &p);
    for (int i = 0; i < r->n; i++)
        sow_make(g, &p, r->moves[i]);
    sow_search *s[2] = {NULL, NULL};
    const engine *e[2] = {ea, eb};
    for (int k = 0; k < 2; k++) {
        sow_search_options so = {.threads = e[k]->threads, .tt_mb = e[k]->tt_mb};
        if (sow_search_new(g, &so, &s[k])) {
            r->err = SOW_E_NOMEM;
            goto done;
        }
    }
    static _Thread_local sow_analyse_info in;
    while (!sow_over(g, &p) && r->n < MAX_GAME_PLIES) {
        int k = sow_pos_to_move(&p) == r->a_side ? 0 : 1;
        sow_err err = sow_analyse(s[k], &p, &e[k]->ao, &in);
        if ((err && err != SOW_E_INTERRUPTED) || in.best < 0) {
            r->err = err ? err : SOW_E_INTERRUPTED;
            goto done;
        }
        r->moves[r->n++] = in.moves[in.best];
        sow_make(g, &p, in.moves[in.best]);
    }
    /* South's view: a finished game's final score, else perpetual play. */
    int sc = sow_over(g, &p) ? sow_terminal_score(g, &p) : sow_perpetual_score(g, &p);
    if (sow_pos_to_move(&p) != SOW_SOUTH)
        sc = -sc;
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

/* Game k's record, written to a temporary name and renamed into place. */
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

static double elo_of(double s)
{
    if (s <= 0)
        s = 1e-3;
    if (s >= 1)
        s = 1 - 1e-3;
    return -400.0 * log10(1.0 / s - 1.0);
}

#define Z95 1.959964

/* The result in Elo: the estimate and its 95% interval. A bound that is
 * not finite (a clean sweep's far side, and its estimate) is NAN. */
typedef struct elo_result {
    double elo, lo, hi;
    bool wilson;
} elo_result;

/* From w wins, d draws and l losses of A. The normal approximation of
 * the game scores' mean, unless they have no spread (all won, all lost
 * or all drawn): that interval would be a point. Then the Wilson score
 * interval of the score s over n games, which stays inside (0, 1) and
 * is wide for few games (2-0: score above 0.34, Elo above -113). */
static elo_result elo_estimate(int w, int d, int l)
{
    double n = w + d + l, s = (w + 0.5 * d) / n;
    elo_result r = {.elo = w == l ? 0 : elo_of(s)}; /* 0, not -0 */
    double var = (w * (1 - s) * (1 - s) + d * (0.5 - s) * (0.5 - s) + l * s * s) / n;
    if (var > 0) {
        double se = sqrt(var / n);
        r.lo = elo_of(s - Z95 * se);
        r.hi = elo_of(s + Z95 * se);
        return r;
    }
    r.wilson = true;
    double z2 = Z95 * Z95, c = (s + z2 / (2 * n)) / (1 + z2 / n);
    double h = Z95 * sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    r.lo = l == n ? NAN : elo_of(c - h);
    r.hi = w == n ? NAN : elo_of(c + h);
    if (w == n || l == n)
        r.elo = NAN;
    return r;
}

static void json_num(const char *key, double v)
{
    printf(isnan(v) ? ",\"%s\":null" : ",\"%s\":%.1f", key, v);
}

static char **read_openings(const char *file, int *n)
{
    FILE *f = fopen(file, "r");
    if (!f)
        cli_fail("match: cannot open %s: %s", file, strerror(errno));
    char **lines = NULL, buf[4096];
    *n = 0;
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        if (buf[0] == '\0' || buf[0] == '#')
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

int cmd_match(int argc, char **argv)
{
    cli_game cg = {0};
    const char *a = NULL, *b = NULL, *games = NULL, *ofile = NULL, *plies = NULL, *seed = NULL,
               *jobs = NULL, *out = NULL;
    const cli_opt opts[] = {{"pits", OPT_STRING, &cg.pits},
                            {"seeds", OPT_STRING, &cg.seeds},
                            {"variant", OPT_STRING, &cg.variant},
                            {"json", OPT_FLAG, &cg.json},
                            {"a", OPT_STRING, &a},
                            {"b", OPT_STRING, &b},
                            {"games", OPT_STRING, &games},
                            {"openings", OPT_STRING, &ofile},
                            {"plies", OPT_STRING, &plies},
                            {"seed", OPT_STRING, &seed},
                            {"jobs", OPT_STRING, &jobs},
                            {"out", OPT_STRING, &out},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    cli_game_setup(&cg, false, false);
    if (cg.cfg.variant & SOW_VAR_PIE)
        cli_fail("match: the pie rule is not supported");
    if (!a || !b)
        cli_fail("match: --a and --b are required (e.g. --a depth=6 --b depth=3)");
    static engine ea, eb;
    engine_parse(&cg.g, "--a", a, &ea);
    engine_parse(&cg.g, "--b", b, &eb);
    int ngames = games ? (int)cli_int("--games", games, 1, MAX_GAMES) : 20;
    int nplies = plies ? (int)cli_int("--plies", plies, 0, 60) : 2;
    uint64_t sd = seed ? (uint64_t)cli_int("--seed", seed, 0, 1L << 62) : 1;
    int njobs = jobs ? cli_threads("--jobs", jobs) : 1;
    int nlines = 0;
    char **lines = ofile ? read_openings(ofile, &nlines) : NULL;
    if (out && mkdir(out, 0777) && errno != EEXIST)
        cli_fail("match: cannot create %s: %s", out, strerror(errno));
    game_rec *rec = calloc((size_t)ngames, sizeof *rec);
    if (!rec)
        cli_fail("match: out of memory");
    for (int k = 0; k < ngames; k++) {
        opening(&cg, lines, nlines, k / 2, nplies, sd, &rec[k]);
        rec[k].a_side = k % 2 ? SOW_NORTH : SOW_SOUTH;
    }
#pragma omp parallel for schedule(dynamic, 1) num_threads(njobs)
    for (int k = 0; k < ngames; k++)
        play(&cg, &ea, &eb, &rec[k]);
    int w = 0, d = 0, l = 0;
    for (int k = 0; k < ngames; k++) {
        if (rec[k].err)
            cli_fail("match: game %d: %s", k + 1, sow_err_name(rec[k].err));
        w += rec[k].result > 0;
        d += rec[k].result == 0;
        l += rec[k].result < 0;
        if (out)
            save(out, k, &cg, &ea, &eb, &rec[k]);
    }
    double s = (w + 0.5 * d) / ngames;
    elo_result er = elo_estimate(w, d, l);
    if (cg.json) {
        printf("{");
        cli_json_game(&cg);
        printf(",\"a\":\"%s\",\"b\":\"%s\",\"games\":%d,\"wins\":%d,\"draws\":%d,\"losses\":%d,"
               "\"score\":%.4f", ea.text, eb.text, ngames, w, d, l, s);
        json_num("elo", er.elo);
        json_num("elo_low", er.lo);
        json_num("elo_high", er.hi);
        printf(",\"interval\":\"%s\",\"results\":[", er.wilson ? "wilson" : "normal");
        static char mt[MAX_GAME_PLIES * 4 + 16], op[1024];
        for (int k = 0; k < ngames; k++) {
            moves_text(&rec[k], 0, rec[k].n, mt, sizeof mt);
            moves_text(&rec[k], 0, rec[k].nopen, op, sizeof op);
            printf("%s{\"game\":%d,\"a_side\":\"%s\",\"opening\":\"%s\",\"moves\":\"%s\","
                   "\"margin\":%d}",
                   k ? "," : "", k + 1, rec[k].a_side == SOW_SOUTH ? "south" : "north", op, mt,
                   rec[k].margin);
        }
        printf("]}\n");
    } else {
        printf("%s: A (%s) vs B (%s), %d games\n", sow_game_name(cg.cfg.game), ea.text, eb.text,
               ngames);
        printf("A: %d %s, %d %s, %d %s; score %.3f; ", w, plural(w, "win", "wins"), d,
               plural(d, "draw", "draws"), l, plural(l, "loss", "losses"), s);
        if (isnan(er.hi))
            printf("Elo A - B > %+.0f (95%%, a clean sweep)\n", er.lo);
        else if (isnan(er.lo))
            printf("Elo A - B < %+.0f (95%%, a clean sweep)\n", er.hi);
        else
            printf("Elo A - B %+.0f [%+.0f, %+.0f] (95%%)\n", er.elo, er.lo, er.hi);
    }
    for (int i = 0; i < nlines; i++)
        free(lines[i]);
    free(lines);
    free(rec);
    return 0;
}
