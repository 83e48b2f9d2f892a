/* test_eval.c - the evaluation: its move terms computed from the landing
 * holes give the values of the definition (every move made, the code
 * before that change, kept here through the public rules API), on random
 * positions of every game and variant, for the default weights, each term
 * alone and random weights; sow_eval is the weighted sum of
 * sow_eval_terms; the mirror is opposite; the fitted defaults keep the
 * terms that do not apply to a game at 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "eval_ref.h"
#include "helpers.h"
#include "sow/analyse.h"

static const struct { sow_game_id id; int m, n; unsigned variant; } boards[] = {
    {SOW_KALAH, 6, 4, 0}, {SOW_KALAH, 6, 6, 0}, {SOW_KALAH, 4, 3, 0},
    {SOW_KALAH, 6, 4, SOW_VAR_EMPTY_CAPTURE}, {SOW_KALAH, 6, 4, SOW_VAR_END_ON_TURN},
    {SOW_KALAH, 5, 4, SOW_VAR_NO_SWEEP}, {SOW_KALAH, 3, 20, 0},
    {SOW_CHUNGKALA, 6, 3, 0}, {SOW_CHUNGKALA, 4, 9, 0},
    {SOW_CONGKAK, 7, 7, 0}, {SOW_CONGKAK, 5, 3, 0},
    {SOW_TOGUZ, 9, 9, 0}, {SOW_TOGUZ, 9, 9, SOW_VAR_NO_TUZDIK}, {SOW_TOGUZ, 5, 6, 0},
    {SOW_TOGUZ, 3, 20, 0},
};

/* Default, each term alone (at its default + 37), random weights. */
static void weights(const sow_game *g, int t, uint64_t *rng, sow_eval_params *w)
{
    sow_eval_default(g, w);
    int *f = &w->row;
    if (t < 6) {
        for (int k = 0; k < 6; k++)
            f[k] = k == t ? f[k] + 37 : 0;
    } else if (t > 6) {
        for (int k = 0; k < 6; k++)
            f[k] = (int)(rng_next(rng) % 601) - 300;
    }
}

static void test_eval_same_as_made(void **state)
{
    (void)state;
    long checked = 0, fallback_free = 0;
    uint64_t rng = 7;
    for (size_t bi = 0; bi < sizeof boards / sizeof boards[0]; bi++) {
        sow_game g;
        game_of(&g, boards[bi].id, boards[bi].m, boards[bi].n, boards[bi].variant);
        for (uint64_t seed = 1; seed <= 400; seed++) {
            sow_pos p;
            /* From the opening to the end: many plies reach the last seeds. */
            random_live_position(&g, seed * 977 + bi, (int)(seed % 200), &p);
            if (sow_over(&g, &p))
                continue;
            for (int t = 0; t < 10; t++) {
                sow_eval_params w;
                weights(&g, t, &rng, &w);
                int a = sow_eval(&g, &p, &w), b = eval_ref(&g, &p, &w);
                if (a != b)
                    fail_msg("board %zu seed %llu weights %d: %d, made %d", bi,
                             (unsigned long long)seed, t, a, b);
                checked++;
            }
            fallback_free += sow_seeds_on_board(&g, &p) > 2 * g.m;
        }
    }
    assert_true(checked > 40000);
    assert_true(fallback_free > 1000); /* the landing path itself was checked */
}

/* sow_eval is the weighted sum of the terms (before rounding). */
static void test_eval_terms_sum(void **state)
{
    (void)state;
    uint64_t rng = 11;
    for (size_t bi = 0; bi < sizeof boards / sizeof boards[0]; bi++) {
        sow_game g;
        game_of(&g, boards[bi].id, boards[bi].m, boards[bi].n, boards[bi].variant);
        for (uint64_t seed = 1; seed <= 100; seed++) {
            sow_pos p;
            random_live_position(&g, seed, (int)(seed % 80), &p);
            if (sow_over(&g, &p))
                continue;
            int t[SOW_EVAL_TERMS];
            sow_eval_terms(&g, &p, t);
            sow_eval_params w;
            weights(&g, 7, &rng, &w);
            const int *f = &w.row;
            int c = 0;
            for (int k = 0; k < SOW_EVAL_TERMS; k++)
                c += f[k] * t[k];
            c *= g.score_scale;
            assert_int_equal(sow_eval(&g, &p, &w), c >= 0 ? (c + 50) / 100 : -((-c + 50) / 100));
        }
    }
}

/* The mirror's evaluation is opposite with the fitted defaults (and the
 * hand weights); terms that do not apply to a game's rules weigh 0. */
static void test_eval_defaults(void **state)
{
    (void)state;
    for (size_t bi = 0; bi < sizeof boards / sizeof boards[0]; bi++) {
        sow_game g;
        game_of(&g, boards[bi].id, boards[bi].m, boards[bi].n, boards[bi].variant);
        sow_eval_params d, h;
        sow_eval_default(&g, &d);
        sow_eval_hand(&g, &h);
        if (!g.sweep)
            assert_int_equal(d.row, 0);
        if (!g.ring_has_store)
            assert_int_equal(d.extra, 0);
        if (!g.tuzdik)
            assert_int_equal(d.tuzdik, 0);
        for (uint64_t seed = 1; seed <= 60; seed++) {
            sow_pos p, q;
            random_live_position(&g, seed, (int)(seed % 60), &p);
            if (sow_over(&g, &p))
                continue;
            q = p;
            sow_pos_swap(&q);
            assert_int_equal(sow_eval(&g, &p, &d), -sow_eval(&g, &q, &d));
            assert_int_equal(sow_eval(&g, &p, &h), -sow_eval(&g, &q, &h));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eval_same_as_made),
        cmocka_unit_test(test_eval_terms_sum),
        cmocka_unit_test(test_eval_defaults),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
