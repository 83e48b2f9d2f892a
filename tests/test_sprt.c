/* test_sprt.c - sow/sprt.h: the SPRT's log-likelihood ratio, its bounds,
 * its error rates on simulated matches, and the Elo interval. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sow/sprt.h"

static const sow_sprt T = {.elo0 = 0, .elo1 = 50, .alpha = 0.05, .beta = 0.05};

static double score(double elo)
{
    return 1 / (1 + pow(10, -elo / 400));
}

/* The LLR is the log ratio of two normal likelihoods of the mean score,
 * centred on s0 and s1 with the games' variance: computed that way here. */
static void test_llr_normal_form(void **state)
{
    (void)state;
    int w = 37, d = 21, l = 30;
    double n = w + d + l, x = (w + d / 2.0) / n;
    double var = (w * (1 - x) * (1 - x) + d * (0.5 - x) * (0.5 - x) + l * x * x) / n;
    double s0 = score(T.elo0), s1 = score(T.elo1);
    double want = n * ((x - s0) * (x - s0) - (x - s1) * (x - s1)) / (2 * var);
    assert_true(fabs(sow_sprt_llr(&T, w, d, l) - want) < 1e-9);
    assert_true(sow_sprt_llr(&T, 10, 0, 0) == 0); /* no variance yet */
    assert_true(sow_sprt_llr(&T, 0, 0, 0) == 0);
    assert_true(sow_sprt_llr(&T, 60, 10, 30) > 0);
    assert_true(sow_sprt_llr(&T, 30, 10, 60) < 0);
}

static void test_bounds(void **state)
{
    (void)state;
    double lo, hi;
    sow_sprt_bounds(&T, &lo, &hi);
    assert_true(fabs(lo - log(0.05 / 0.95)) < 1e-12);
    assert_true(fabs(hi - log(0.95 / 0.05)) < 1e-12);
    assert_true(sow_sprt_valid(&T));
    sow_sprt bad = T;
    bad.elo1 = -1;
    assert_false(sow_sprt_valid(&bad));
    bad = T;
    bad.alpha = 0.7;
    assert_false(sow_sprt_valid(&bad));
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static double uniform(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* Runs of simulated matches at a true Elo: how often each verdict. */
static void simulate(double elo, int runs, int *h0, int *h1)
{
    double draw = 0.2, s = score(elo);
    double pw = s - draw / 2; /* wins + draws/2 = s */
    *h0 = *h1 = 0;
    for (int r = 0; r < runs; r++) {
        int w = 0, d = 0, l = 0;
        sow_sprt_verdict v = SOW_SPRT_CONTINUE;
        for (int g = 0; g < 100000 && v == SOW_SPRT_CONTINUE; g++) {
            double u = uniform();
            w += u < pw;
            d += u >= pw && u < pw + draw;
            l += u >= pw + draw;
            v = sow_sprt_test(&T, w, d, l);
        }
        *h0 += v == SOW_SPRT_H0;
        *h1 += v == SOW_SPRT_H1;
    }
}

/* At elo1 the test accepts H1, at elo0 H0, each wrongly at most about
 * alpha / beta of the time (allowing for the simulation's noise: 400
 * runs; without SOW_SPRT_MIN_GAMES the rate at elo0 is 9%). */
static void test_error_rates(void **state)
{
    (void)state;
    int h0, h1, runs = 400;
    simulate(T.elo1, runs, &h0, &h1);
    assert_int_equal(h0 + h1, runs);
    assert_true(h0 <= 0.075 * runs);
    simulate(T.elo0, runs, &h0, &h1);
    assert_true(h1 <= 0.075 * runs);
    simulate(200, runs, &h0, &h1); /* far above: H1 nearly always */
    assert_true(h1 >= 0.99 * runs);
}

/* The pairs' ratio is the same normal form with a pair as the unit: its
 * mean score (half-points / 4) and the pairs' variance, computed so here. */
static void test_llr_pairs_normal_form(void **state)
{
    (void)state;
    int p[5] = {4, 9, 20, 13, 6};
    double n = 0, sum = 0, var = 0;
    for (int i = 0; i < 5; i++)
        n += p[i], sum += p[i] * i / 4.0;
    double x = sum / n;
    for (int i = 0; i < 5; i++)
        var += p[i] * (i / 4.0 - x) * (i / 4.0 - x);
    var /= n;
    double s0 = score(T.elo0), s1 = score(T.elo1);
    double want = n * ((x - s0) * (x - s0) - (x - s1) * (x - s1)) / (2 * var);
    assert_true(fabs(sow_sprt_llr_pairs(&T, p) - want) < 1e-9);
    int even[5] = {0, 0, 12, 0, 0}; /* every opening won once each way */
    assert_true(sow_sprt_llr_pairs(&T, even) == 0);
    int none[5] = {0};
    assert_true(sow_sprt_llr_pairs(&T, none) == 0);
    assert_int_equal(sow_sprt_test_pairs(&T, none), SOW_SPRT_CONTINUE);
    int few[5] = {0, 0, 0, 9, SOW_SPRT_MIN_PAIRS - 10}; /* one pair short */
    assert_true(sow_sprt_llr_pairs(&T, few) > 10);
    assert_int_equal(sow_sprt_test_pairs(&T, few), SOW_SPRT_CONTINUE);
    few[4]++;
    assert_int_equal(sow_sprt_test_pairs(&T, few), SOW_SPRT_H1);
}

/* Matches where half the openings decide who wins (South wins both of
 * the pair's games: one each way, A's half-points 2), the other half's
 * games independent, at a true Elo of the whole match's score. The pairs'
 * test keeps its error rates and decides sooner than the games' test on
 * the same games, whose wins and losses from decided openings only add
 * noise. */
static void simulate_pairs(double elo, int runs, int *h0, int *h1, double *pairs_games,
                           double *games_games)
{
    double q = 0.5, draw = 0.2;
    double s = (score(elo) - q * 0.5) / (1 - q); /* an undecided opening's game */
    double pw = s - draw / 2;
    *h0 = *h1 = 0;
    *pairs_games = *games_games = 0;
    for (int r = 0; r < runs; r++) {
        int p[5] = {0}, w = 0, d = 0, l = 0, g = 0;
        sow_sprt_verdict v = SOW_SPRT_CONTINUE, vg = SOW_SPRT_CONTINUE;
        int decided_at = 0;
        while ((v == SOW_SPRT_CONTINUE || vg == SOW_SPRT_CONTINUE) && g < 200000) {
            int hp = 0;
            if (uniform() < q) {
                hp = 2, w++, l++;
            } else {
                for (int k = 0; k < 2; k++) {
                    double u = uniform();
                    int h = u < pw ? 2 : u < pw + draw ? 1 : 0;
                    hp += h;
                    w += h == 2, d += h == 1, l += h == 0;
                }
            }
            g += 2;
            if (v == SOW_SPRT_CONTINUE) {
                p[hp]++;
                v = sow_sprt_test_pairs(&T, p);
                if (v != SOW_SPRT_CONTINUE)
                    *pairs_games += g;
            }
            if (vg == SOW_SPRT_CONTINUE) {
                vg = sow_sprt_test(&T, w, d, l);
                if (vg != SOW_SPRT_CONTINUE)
                    decided_at = g;
            }
        }
        *games_games += decided_at;
        *h0 += v == SOW_SPRT_H0;
        *h1 += v == SOW_SPRT_H1;
    }
    *pairs_games /= runs;
    *games_games /= runs;
}

static void test_pairs_error_rates(void **state)
{
    (void)state;
    int h0, h1, runs = 400;
    double pg, gg;
    simulate_pairs(T.elo1, runs, &h0, &h1, &pg, &gg);
    assert_int_equal(h0 + h1, runs);
    assert_true(h0 <= 0.075 * runs);
    assert_true(pg < 0.8 * gg);
    simulate_pairs(T.elo0, runs, &h0, &h1, &pg, &gg);
    assert_true(h1 <= 0.075 * runs);
    assert_true(pg < 0.8 * gg);
}

static void test_elo_interval(void **state)
{
    (void)state;
    double e, lo, hi;
    bool w;
    sow_elo_interval(30, 3, 31, &e, &lo, &hi, &w);
    assert_true(!w && e < 0 && e > -20 && lo < e && hi > e);
    sow_elo_interval(10, 10, 10, &e, &lo, &hi, &w);
    assert_true(e == 0 && !signbit(e) && lo < 0 && hi > 0);
    /* 2-0: the Wilson interval's lower end n / (n + z^2) = 0.342: -113 Elo;
     * no upper end, no estimate. */
    sow_elo_interval(2, 0, 0, &e, &lo, &hi, &w);
    assert_true(w && isnan(e) && isnan(hi));
    assert_true(fabs(lo - sow_elo_of_score(2 / (2 + 1.959964 * 1.959964))) < 1e-6);
    assert_true(fabs(lo - -113.4) < 0.1);
    /* A longer sweep proves more: 20-0 above +287. */
    sow_elo_interval(20, 0, 0, &e, &lo, &hi, &w);
    assert_true(fabs(lo - 286.6) < 0.2);
    sow_elo_interval(0, 0, 5, &e, &lo, &hi, &w);
    assert_true(w && isnan(lo) && hi < 0);
    /* All draws: Wilson around 0.5, symmetric. */
    sow_elo_interval(0, 2, 0, &e, &lo, &hi, &w);
    assert_true(w && e == 0 && fabs(lo + hi) < 1e-9 && hi > 300 && hi < 500);
}

/* The paired margin against a hand computation: pair means +3, -1, +4. */
static void test_paired_margin(void **state)
{
    (void)state;
    int a[] = {10, -2, 6}, b[] = {-4, 0, 2};
    double m, se;
    sow_paired_margin(a, b, 3, &m, &se);
    /* mean 2; deviations 1, -3, 2: variance 14/2 = 7, s.e. sqrt(7/3). */
    assert_true(fabs(m - 2) < 1e-12 && fabs(se - sqrt(7.0 / 3)) < 1e-12);
    sow_paired_margin(a, b, 1, &m, &se);
    assert_true(fabs(m - 3) < 1e-12 && isnan(se));
    sow_paired_margin(a, b, 0, &m, &se);
    assert_true(isnan(m) && isnan(se));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llr_normal_form),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_error_rates),
        cmocka_unit_test(test_llr_pairs_normal_form),
        cmocka_unit_test(test_pairs_error_rates),
        cmocka_unit_test(test_elo_interval),
        cmocka_unit_test(test_paired_margin),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
