/* sprt.c - the match statistics: see sow/sprt.h. */
#include <math.h>

#include "sow/sprt.h"

/* Scores are clamped this far from 0 and 1: their Elo is infinite. */
#define SCORE_EPS 1e-3

static double score_of_elo(double elo)
{
    return 1.0 / (1.0 + pow(10.0, -elo / 400.0));
}

double sow_elo_of_score(double s)
{
    if (s < SCORE_EPS)
        s = SCORE_EPS;
    if (s > 1 - SCORE_EPS)
        s = 1 - SCORE_EPS;
    return -400.0 * log10(1.0 / s - 1.0);
}

bool sow_sprt_valid(const sow_sprt *t)
{
    return t->elo0 < t->elo1 && t->alpha > 0 && t->alpha < 0.5 && t->beta > 0 && t->beta < 0.5;
}

/* The GSPRT's ratio for n units (games or pairs) of mean score x and
 * variance var: the log ratio of two normal likelihoods of the mean,
 * centred on the expected scores under H0 and H1. */
static double llr_normal(const sow_sprt *t, double n, double x, double var)
{
    if (n <= 0 || var <= 0)
        return 0;
    double s0 = score_of_elo(t->elo0), s1 = score_of_elo(t->elo1);
    return n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var);
}

double sow_sprt_llr(const sow_sprt *t, int wins, int draws, int losses)
{
    double n = (double)wins + draws + losses;
    if (n <= 0)
        return 0;
    double x = (wins + 0.5 * draws) / n;
    double var = (wins * (1 - x) * (1 - x) + draws * (0.5 - x) * (0.5 - x) + losses * x * x) / n;
    return llr_normal(t, n, x, var);
}

double sow_sprt_llr_pairs(const sow_sprt *t, const int pairs[5])
{
    double n = 0, sum = 0;
    for (int i = 0; i < 5; i++) {
        n += pairs[i];
        sum += pairs[i] * (i / 4.0);
    }
    if (n <= 0)
        return 0;
    double x = sum / n, var = 0;
    for (int i = 0; i < 5; i++)
        var += pairs[i] * (i / 4.0 - x) * (i / 4.0 - x);
    return llr_normal(t, n, x, var / n);
}

void sow_sprt_bounds(const sow_sprt *t, double *lower, double *upper)
{
    *lower = log(t->beta / (1 - t->alpha));
    *upper = log((1 - t->beta) / t->alpha);
}

static sow_sprt_verdict verdict(const sow_sprt *t, double llr)
{
    double lo, hi;
    sow_sprt_bounds(t, &lo, &hi);
    return llr >= hi ? SOW_SPRT_H1 : llr <= lo ? SOW_SPRT_H0 : SOW_SPRT_CONTINUE;
}

sow_sprt_verdict sow_sprt_test(const sow_sprt *t, int wins, int draws, int losses)
{
    if (wins + draws + losses < SOW_SPRT_MIN_GAMES)
        return SOW_SPRT_CONTINUE;
    return verdict(t, sow_sprt_llr(t, wins, draws, losses));
}

sow_sprt_verdict sow_sprt_test_pairs(const sow_sprt *t, const int pairs[5])
{
    int n = pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4];
    if (n < SOW_SPRT_MIN_PAIRS)
        return SOW_SPRT_CONTINUE;
    return verdict(t, sow_sprt_llr_pairs(t, pairs));
}

#define Z95 1.959964

void sow_elo_interval(int wins, int draws, int losses, double *elo, double *low, double *high,
                      bool *wilson)
{
    double n = (double)wins + draws + losses;
    *wilson = false;
    if (n <= 0) {
        *elo = *low = *high = NAN;
        return;
    }
    double s = (wins + 0.5 * draws) / n;
    *elo = wins == losses ? 0 : sow_elo_of_score(s); /* 0, not -0 */
    double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    if (var > 0) {
        double se = sqrt(var / n);
        *low = sow_elo_of_score(s - Z95 * se);
        *high = sow_elo_of_score(s + Z95 * se);
        return;
    }
    *wilson = true;
    double z2 = Z95 * Z95, c = (s + z2 / (2 * n)) / (1 + z2 / n);
    double h = Z95 * sqrt(s * (1 - s) / n + z2 / (4 * n * n)) / (1 + z2 / n);
    *low = losses == n ? NAN : sow_elo_of_score(c - h);
    *high = wins == n ? NAN : sow_elo_of_score(c + h);
    if (wins == n || losses == n)
        *elo = NAN;
}

void sow_paired_margin(const int *a, const int *b, int n, double *mean, double *se)
{
    *mean = *se = NAN;
    if (n < 1)
        return;
    double sum = 0, sq = 0;
    for (int i = 0; i < n; i++)
        sum += (a[i] + b[i]) / 2.0;
    *mean = sum / n;
    if (n < 2)
        return;
    for (int i = 0; i < n; i++) {
        double d = (a[i] + b[i]) / 2.0 - *mean;
        sq += d * d;
    }
    *se = sqrt(sq / (n - 1) / n);
}
