/* eval_tune.c - fits a game's evaluation weights (sow/analyse.h) to exact
 * values, Texel-style, and prints the fit as one JSON object.
 * scripts/eval-fit runs it per game and writes src/search/eval_fitted.c.
 *
 * Positions. Games are played from the start by a greedy player (the best
 * move by its store gain plus today's evaluation after one ply, a random
 * move one time in four, so that games differ); from every position of a
 * game a random line of 0..horizon plies is played out and its end kept:
 * the kind of position an analysis meets at its horizon (reached along
 * lines, bad moves included), not a random filling of the pits. A kept
 * position is valued exactly by the endgame database (at most db-seeds
 * seeds on the board) or, with --solve-above E, by the exact solver on the
 * database (up to db-seeds + E seeds). Each seed count from min-seeds up
 * gets the same number of positions, so that the near-empty boards the
 * late game is full of do not outweigh the fuller boards nearer the
 * middle game, where the search's horizon lies most.
 *
 * The fit. A squared error on the margin: the evaluation claims to be the
 * future gain in seeds (the final margin less the store difference), the
 * search adds it to the store difference and compares it with exact
 * scores from the database and the solver, and the exact margin is known
 * for every position: a logistic error on the outcome alone would discard
 * the margin and need a scale of its own. Weights solve the normal
 * equations (a small ridge for terms that hardly vary) on the even-numbered
 * positions; every error reported is on the odd-numbered ones, held out. A
 * term that does not apply to the game's rules, or never varies in the
 * data, keeps its weight from before the fit.
 *
 * usage: eval_tune GAME [--pits M] [--seeds N] [--variant A,B]
 *          [--db-seeds K] [--min-seeds S] [--positions P] [--horizon D]
 *          [--solve-above E] [--seed X] [--threads T]
 * Deterministic for given options (the solver's values are exact whatever
 * its threads).
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sow/analyse.h"
#include "sow/db.h"
#include "sow/rules.h"
#include "sow/search.h"

typedef struct sample {
    int t[SOW_EVAL_TERMS];
    double y;      /* the exact future gain, seeds */
    int seeds;     /* on the board */
    bool solved;   /* by the solver (else the database) */
} sample;

typedef struct tune {
    sow_game g;
    sow_db *db;
    sow_search *solver;
    int db_seeds, min_seeds, positions, horizon, solve_above, threads;
    uint64_t rng;
    sample *s;
    int n, *per_level, cap;
    long solved;
} tune;

static uint64_t next(tune *t)
{
    t->rng = t->rng * 6364136223846793005ull + 1442695040888963407ull;
    return t->rng >> 33;
}

static int oracle_probe(const void *ctx, const sow_pos *p)
{
    return sow_db_probe(ctx, p);
}

/* The greedy player's move: store gain plus the evaluation after it. */
static sow_move pick(tune *t, const sow_pos *p, const sow_eval_params *w)
{
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_moves(&t->g, p, ms), best = 0, bv = -1000000;
    if (next(t) % 4 == 0)
        return ms[next(t) % (uint64_t)n];
    for (int i = 0; i < n; i++) {
        sow_pos q = *p;
        sow_make(&t->g, &q, ms[i]);
        bool same = sow_pos_to_move(&q) == sow_pos_to_move(p);
        int v;
        if (sow_over(&t->g, &q))
            v = sow_terminal_score(&t->g, &q);
        else
            v = (q.b[SOW_B_STORE] - q.b[SOW_HALF + SOW_B_STORE]) * t->g.score_scale +
                sow_eval(&t->g, &q, w);
        v = same ? v : -v;
        if (v > bv)
            bv = v, best = i;
    }
    return ms[best];
}

/* The exact future gain of leaf (not over), score units; false if it has
 * too many seeds for the database and the solver's reach. */
static bool exact_future(tune *t, const sow_pos *leaf, int seeds, bool *solved, int *future)
{
    *solved = seeds > t->db_seeds;
    if (!*solved) {
        *future = sow_db_probe(t->db, leaf);
        return true;
    }
    if (seeds > t->db_seeds + t->solve_above || !sow_search_exact(&t->g, leaf))
        return false;
    sow_search_result r;
    if (sow_search_solve(t->solver, leaf, &r) != SOW_OK)
        return false;
    int banked = leaf->b[SOW_B_STORE] - leaf->b[SOW_HALF + SOW_B_STORE];
    *future = r.sol.score - banked * t->g.score_scale;
    return true;
}

/* The end of a random line of 0..horizon plies from p, kept if its seed
 * count still wants positions and its value is known. */
static void sample_from(tune *t, const sow_pos *p)
{
    sow_pos leaf = *p;
    int d = (int)(next(t) % (uint64_t)(t->horizon + 1));
    for (int i = 0; i < d && !sow_over(&t->g, &leaf); i++) {
        sow_move ms[SOW_MAX_MOVES];
        int n = sow_moves(&t->g, &leaf, ms);
        sow_make(&t->g, &leaf, ms[next(t) % (uint64_t)n]);
    }
    if (sow_over(&t->g, &leaf))
        return;
    int k = sow_seeds_on_board(&t->g, &leaf);
    int top = t->db_seeds + t->solve_above;
    if (k < t->min_seeds || k > top || t->per_level[k] >= t->cap)
        return;
    sample *s = &t->s[t->n];
    int future;
    if (!exact_future(t, &leaf, k, &s->solved, &future))
        return;
    sow_eval_terms(&t->g, &leaf, s->t);
    s->y = (double)future / t->g.score_scale;
    s->seeds = k;
    t->solved += s->solved;
    t->per_level[k]++;
    t->n++;
}

static void collect(tune *t, long *games)
{
    sow_eval_params w;
    sow_eval_hand(&t->g, &w);
    int levels = t->db_seeds + t->solve_above - t->min_seeds + 1;
    t->cap = (t->positions + levels - 1) / levels;
    for (*games = 0; t->n < t->positions && *games < 200L * t->positions; (*games)++) {
        sow_pos p;
        sow_game_start(&t->g, &p);
        for (int ply = 0; ply < 2000 && !sow_over(&t->g, &p) && t->n < t->positions; ply++) {
            sample_from(t, &p);
            sow_make(&t->g, &p, pick(t, &p, &w));
        }
    }
}

/* Solves a x = b (n x n, row-major) by Gaussian elimination with partial
 * pivoting; false if singular. */
static bool solve_linear(int n, double *a, double *b, double *x)
{
    for (int c = 0; c < n; c++) {
        int piv = c;
        for (int r = c + 1; r < n; r++)
            if (fabs(a[r * n + c]) > fabs(a[piv * n + c]))
                piv = r;
        if (fabs(a[piv * n + c]) < 1e-12)
            return false;
        for (int k = 0; k < n; k++) {
            double tmp = a[c * n + k];
            a[c * n + k] = a[piv * n + k];
            a[piv * n + k] = tmp;
        }
        double tb = b[c];
        b[c] = b[piv];
        b[piv] = tb;
        for (int r = c + 1; r < n; r++) {
            double f = a[r * n + c] / a[c * n + c];
            for (int k = c; k < n; k++)
                a[r * n + k] -= f * a[c * n + k];
            b[r] -= f * b[c];
        }
    }
    for (int c = n - 1; c >= 0; c--) {
        double v = b[c];
        for (int k = c + 1; k < n; k++)
            v -= a[c * n + k] * x[k];
        x[c] = v / a[c * n + c];
    }
    return true;
}

/* Root mean square error (seeds) of weights w on the samples of parity
 * `half` (0 or 1). */
static double rmse(const tune *t, const int w[SOW_EVAL_TERMS], int half)
{
    double e = 0;
    int c = 0;
    for (int i = half; i < t->n; i += 2) {
        double v = 0;
        for (int k = 0; k < SOW_EVAL_TERMS; k++)
            v += w[k] * t->s[i].t[k] / 100.0;
        e += (v - t->s[i].y) * (v - t->s[i].y);
        c++;
    }
    return c ? sqrt(e / c) : 0;
}

/* Least squares over the terms marked free on the even samples, the
 * others fixed at their weight in w; w gets the result (hundredths). */
static bool fit(const tune *t, const bool free_[SOW_EVAL_TERMS], int w[SOW_EVAL_TERMS])
{
    int idx[SOW_EVAL_TERMS], n = 0;
    for (int k = 0; k < SOW_EVAL_TERMS; k++)
        if (free_[k])
            idx[n++] = k;
    double a[SOW_EVAL_TERMS * SOW_EVAL_TERMS] = {0}, b[SOW_EVAL_TERMS] = {0}, x[SOW_EVAL_TERMS];
    int cnt = 0;
    for (int i = 0; i < t->n; i += 2, cnt++) {
        const sample *s = &t->s[i];
        double y = s->y;
        for (int k = 0; k < SOW_EVAL_TERMS; k++)
            if (!free_[k])
                y -= w[k] * s->t[k] / 100.0;
        for (int r = 0; r < n; r++) {
            b[r] += s->t[idx[r]] * y;
            for (int c = 0; c < n; c++)
                a[r * n + c] += (double)s->t[idx[r]] * s->t[idx[c]];
        }
    }
    for (int r = 0; r < n; r++) /* ridge: 1e-3 of a term's mean square */
        a[r * n + r] += 1e-3 * a[r * n + r] + 1e-9 * cnt;
    if (n && !solve_linear(n, a, b, x))
        return false;
    for (int r = 0; r < n; r++)
        w[idx[r]] = (int)lround(100 * x[r]);
    return true;
}

static const char *const term_names[SOW_EVAL_TERMS] = {"row", "mobility", "extra", "capture",
                                                       "tuzdik", "decided"};

static void usage(FILE *f)
{
    fputs("usage: eval_tune GAME [--pits M] [--seeds N] [--variant A,B] [--db-seeds K]\n"
          "                 [--min-seeds S] [--positions P] [--horizon D]\n"
          "                 [--solve-above E] [--seed X] [--threads T]\n"
          "Fits GAME's evaluation weights to exact values (database, solver) by least\n"
          "squares on the margin; prints one JSON object (see bench/eval_tune.c).\n",
          f);
}

static int bad(const char *why)
{
    fprintf(stderr, "eval_tune: %s\n", why);
    return 2;
}

static bool int_arg(const char *s, int lo, int hi, int *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        return false;
    *out = (int)v;
    return true;
}

static void print_weights(const char *key, const int w[SOW_EVAL_TERMS], const char *sep)
{
    printf("\"%s\": {", key);
    for (int k = 0; k < SOW_EVAL_TERMS; k++)
        printf("%s\"%s\": %d", k ? ", " : "", term_names[k], w[k]);
    printf("}%s", sep);
}

static void report(const tune *t, const char *variant, long games, uint64_t seed,
                   const int hand[SOW_EVAL_TERMS], const int w[SOW_EVAL_TERMS],
                   const bool free_[SOW_EVAL_TERMS])
{
    int zero[SOW_EVAL_TERMS] = {0};
    double ay = 0;
    for (int i = 0; i < t->n; i++)
        ay += fabs(t->s[i].y);
    printf("{\"game\": \"%s\", \"pits\": %d, \"seeds\": %d, \"variant\": \"%s\", ",
           sow_game_name(t->g.cfg.game), t->g.m, t->g.cfg.seeds, variant);
    printf("\"db_seeds\": %d, \"min_seeds\": %d, \"solve_above\": %d, \"horizon\": %d, "
           "\"seed\": %llu, \"positions\": %d, \"solved\": %ld, \"games\": %ld, "
           "\"mean_abs_future\": %.4f, ",
           t->db_seeds, t->min_seeds, t->solve_above, t->horizon, (unsigned long long)seed,
           t->n, t->solved, games, t->n ? ay / t->n : 0);
    printf("\"free\": [");
    for (int k = 0, c = 0; k < SOW_EVAL_TERMS; k++)
        if (free_[k])
            printf("%s\"%s\"", c++ ? ", " : "", term_names[k]);
    printf("], ");
    print_weights("before", hand, ", ");
    print_weights("after", w, ", ");
    printf("\"rmse_material\": %.4f, \"rmse_before\": %.4f, \"rmse_after\": %.4f, "
           "\"rmse_after_train\": %.4f}\n",
           rmse(t, zero, 1), rmse(t, hand, 1), rmse(t, w, 1), rmse(t, w, 0));
}

/* Which terms the fit may move: those g's rules use that vary in the data. */
static void free_terms(const tune *t, bool free_[SOW_EVAL_TERMS])
{
    sow_eval_params all = {100, 100, 100, 100, 100, 100};
    sow_eval_applicable(&t->g, &all);
    const int *a = &all.row;
    for (int k = 0; k < SOW_EVAL_TERMS; k++) {
        bool varies = false;
        for (int i = 0; i < t->n && !varies; i += 2)
            varies = t->s[i].t[k] != t->s[0].t[k];
        free_[k] = a[k] != 0 && varies;
    }
}

int main(int argc, char **argv)
{
    static const struct option longs[] = {
        {"pits", 1, 0, 'm'}, {"seeds", 1, 0, 'n'}, {"variant", 1, 0, 'v'},
        {"db-seeds", 1, 0, 'k'}, {"min-seeds", 1, 0, 'l'}, {"positions", 1, 0, 'p'},
        {"horizon", 1, 0, 'd'}, {"solve-above", 1, 0, 'e'}, {"seed", 1, 0, 'x'},
        {"threads", 1, 0, 't'}, {"help", 0, 0, 'h'}, {0, 0, 0, 0}};
    tune t = {.db_seeds = 12, .min_seeds = -1, .positions = 20000, .horizon = 8, .threads = 1};
    const char *variant = "";
    int m = 0, n = 0, x = 1, o;
    opterr = 0; /* one line of our own for bad input */
    while ((o = getopt_long(argc, argv, "", longs, NULL)) != -1) {
        bool ok = true;
        switch (o) {
        case 'm': ok = int_arg(optarg, 1, SOW_MAX_PITS, &m); break;
        case 'n': ok = int_arg(optarg, 1, SOW_MAX_TOTAL, &n); break;
        case 'v': variant = optarg; break;
        case 'k': ok = int_arg(optarg, 1, SOW_DB_MAX_SEEDS, &t.db_seeds); break;
        case 'l': ok = int_arg(optarg, 1, SOW_MAX_TOTAL, &t.min_seeds); break;
        case 'p': ok = int_arg(optarg, 2, 10000000, &t.positions); break;
        case 'd': ok = int_arg(optarg, 0, 100, &t.horizon); break;
        case 'e': ok = int_arg(optarg, 0, SOW_MAX_TOTAL, &t.solve_above); break;
        case 'x': ok = int_arg(optarg, 0, 1 << 30, &x); break;
        case 't': ok = int_arg(optarg, 1, 256, &t.threads); break;
        case 'h': usage(stdout); return 0;
        default: return bad("unknown option or missing value (see --help)");
        }
        if (!ok)
            return bad("bad value for an option (see --help)");
    }
    if (optind != argc - 1)
        return bad("give one GAME (see --help)");
    sow_config c;
    if (sow_game_parse(argv[optind], &c.game) != SOW_OK)
        return bad("unknown game");
    sow_config_default(c.game, &c);
    c.pits = m ? m : c.pits;
    c.seeds = n ? n : c.seeds;
    if (sow_variant_parse(c.game, variant, &c.variant) != SOW_OK ||
        sow_game_init(&t.g, &c) != SOW_OK)
        return bad("bad board or variant");
    if (t.min_seeds < 0)
        t.min_seeds = t.db_seeds / 2 > 1 ? t.db_seeds / 2 : 1;
    if (t.min_seeds > t.db_seeds + t.solve_above)
        return bad("--min-seeds above the seeds that can be valued");
    char why[256];
    sow_db_options dbo = {.threads = t.threads};
    if (sow_db_open(&t.g, t.db_seeds, NULL, &dbo, &t.db, why, sizeof why) != SOW_OK)
        return bad(why);
    if (t.solve_above) {
        sow_oracle orc = {.max_seeds = t.db->max_seeds, .probe = oracle_probe, .ctx = t.db};
        sow_search_options so = {.threads = t.threads, .tt_mb = 64, .oracle = &orc,
                                 .value_only = true};
        if (sow_search_new(&t.g, &so, &t.solver) != SOW_OK)
            return bad("cannot create the solver");
    }
    t.rng = (uint64_t)x;
    t.s = calloc((size_t)t.positions, sizeof *t.s);
    t.per_level = calloc(SOW_MAX_TOTAL + 1, sizeof *t.per_level);
    if (!t.s || !t.per_level)
        return bad("out of memory");
    long games;
    collect(&t, &games);
    bool free_[SOW_EVAL_TERMS];
    free_terms(&t, free_);
    sow_eval_params hand;
    sow_eval_hand(&t.g, &hand);
    int hw[SOW_EVAL_TERMS], w[SOW_EVAL_TERMS];
    memcpy(hw, &hand.row, sizeof hw);
    memcpy(w, hw, sizeof w);
    if (t.n < 2 * SOW_EVAL_TERMS || !fit(&t, free_, w))
        return bad("too few positions to fit (more games, a bigger --db-seeds?)");
    report(&t, variant, games, (uint64_t)x, hw, w, free_);
    if (t.solver)
        sow_search_free(t.solver);
    sow_db_close(t.db);
    free(t.s);
    free(t.per_level);
    return 0;
}
