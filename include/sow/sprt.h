/* sow/sprt.h - the statistics of a match between two engines: the Elo
 * difference with its interval, and the sequential probability ratio test
 * (SPRT) that stops a match as soon as it decides between two hypotheses,
 * as Stockfish's testing framework (fishtest) runs it.
 *
 * Elo here is logistic: a score s (wins + draws/2 over games) is
 * -400 log10(1/s - 1) Elo. The SPRT tests H0: elo = elo0 against H1: elo =
 * elo1 with error rates alpha (accepting H1 when H0 holds) and beta; the
 * log-likelihood ratio is the generalised SPRT's approximation for a
 * trinomial (win, draw, loss) outcome (M. Van den Bergh, "A practical
 * introduction to the GSPRT", 2016): LLR = N (s1 - s0) (2 x - s0 - s1) /
 * (2 var), x the mean score per game, var its variance, s0 and s1 the
 * expected scores under H0 and H1. The test accepts H1 once LLR >=
 * log((1 - beta) / alpha), H0 once LLR <= log(beta / (1 - alpha)).
 * sow match counts its games in pairs (sow_sprt_llr_pairs, the
 * pentanomial form fishtest uses since 2020): the same ratio with each
 * opening's two games as one unit.
 */
#ifndef SOW_SPRT_H
#define SOW_SPRT_H

#include <stdbool.h>

typedef struct sow_sprt {
    double elo0, elo1;   /* the hypotheses, logistic Elo, elo0 < elo1 */
    double alpha, beta;  /* error rates, each in (0, 0.5) */
} sow_sprt;

typedef enum sow_sprt_verdict {
    SOW_SPRT_CONTINUE,   /* play on */
    SOW_SPRT_H0,         /* elo0 accepted: no gain of elo1 */
    SOW_SPRT_H1,         /* elo1 accepted: a gain */
} sow_sprt_verdict;

/* The log-likelihood ratio after wins, draws and losses (of the first
 * engine); 0 while it cannot be computed (fewer than two outcomes of
 * different kinds: no variance). Pure. */
double sow_sprt_llr(const sow_sprt *t, int wins, int draws, int losses);

/* The test's bounds: *lower = log(beta / (1 - alpha)), *upper = log((1 -
 * beta) / alpha). */
void sow_sprt_bounds(const sow_sprt *t, double *lower, double *upper);

/* The test decides only after this many games: a variance estimated from
 * fewer is too often near 0, and the LLR with it (checked after every
 * game, the error rates rise from 5% to 9%: tests/test_sprt.c). */
#define SOW_SPRT_MIN_GAMES 20

/* The verdict after these results (CONTINUE before SOW_SPRT_MIN_GAMES). */
sow_sprt_verdict sow_sprt_test(const sow_sprt *t, int wins, int draws, int losses);

/* The pentanomial form, fishtest's for games in pairs (each opening played
 * twice, colours swapped): pairs[i] counts the openings where the first
 * engine scored i half-points over its two games (0: lost both, 2: a win
 * and a loss or two draws, 4: won both). The same ratio with a pair as the
 * unit: its mean score (half-points / 4) and the pairs' variance. Where the
 * opening decides who wins, a pair won once each way scores 1/2 with no
 * spread, so the test is not diluted by wins and losses that measure the
 * openings. 0 while it cannot be computed (no variance). Pure. */
double sow_sprt_llr_pairs(const sow_sprt *t, const int pairs[5]);

/* The pairs' test decides only after this many pairs: where many openings
 * decide who wins, the few pairs that vary make the early variance
 * unsteady, and fewer let the error rates rise past alpha and beta
 * (doc/experiments.md, "The SPRT in pairs"; tests/test_sprt.c). */
#define SOW_SPRT_MIN_PAIRS 40

/* The verdict after these pairs (CONTINUE before SOW_SPRT_MIN_PAIRS). */
sow_sprt_verdict sow_sprt_test_pairs(const sow_sprt *t, const int pairs[5]);

/* Does t hold a valid test (elo0 < elo1, 0 < alpha, beta < 0.5)? */
bool sow_sprt_valid(const sow_sprt *t);

/* The Elo difference of a score in (0, 1) (clamped to [0.001, 0.999]). */
double sow_elo_of_score(double score);

/* The Elo difference after wins, draws and losses of the first engine
 * (at least one game), and its 95% interval. The normal approximation of
 * the games' mean score, unless the games have no spread (all won, all
 * lost or all drawn), where that interval would be a point: then the
 * Wilson score interval of the score (*wilson true), which stays inside
 * (0, 1) and is wide for few games (2-0: a score above 0.34, Elo above
 * -113). A side that is not finite (a clean sweep's far side, and then
 * its estimate) is NAN. */
void sow_elo_interval(int wins, int draws, int losses, double *elo, double *low, double *high,
                      bool *wilson);

/* The paired margin: for n openings each played twice with colours
 * swapped, a[i] and b[i] the first engine's final margins (seeds) in the
 * two games, the mean of (a[i] + b[i]) / 2 and its standard error (the
 * pairs' standard deviation over sqrt(n); NAN for n < 2). Where the
 * opening decides who wins (both games won by the side it favours), the
 * wins and losses cancel and say nothing; the margins still show which
 * engine won by more or lost by less. Pure. */
void sow_paired_margin(const int *a, const int *b, int n, double *mean, double *se);

#endif
