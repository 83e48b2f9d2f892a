/* test_retro.c - database values against the reference solver.
 *
 * For each game and variant that changes values, and boards of 1..4 pits
 * per side: every entry (default suite: a sample; slow: every board with
 * at most 12 seeds) plus the store difference of a position with
 * random stores equals sow_ref_solve's score of that position (argument
 * `slow` or SOW_SLOW=1: the full sweep). Also: the
 * 1-thread and 2-thread builds are byte-identical.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "sow/db.h"
#include "sow/notation.h"
#include "sow/refsolve.h"
#include "sow/rules.h"

typedef struct cfg {
    sow_game_id game;
    unsigned variant;
} cfg;

static const cfg cfgs[] = {
    {SOW_KALAH, 0},
    {SOW_KALAH, SOW_VAR_EMPTY_CAPTURE},
    {SOW_KALAH, SOW_VAR_END_ON_TURN},
    {SOW_KALAH, SOW_VAR_NO_SWEEP},
    {SOW_KALAH, SOW_VAR_EMPTY_CAPTURE | SOW_VAR_END_ON_TURN | SOW_VAR_NO_SWEEP},
    {SOW_CHUNGKALA, 0},
    {SOW_CONGKAK, 0},
};

static bool slow_arg; /* argument `slow` (the lead's convention for slow runs) */

static bool slow(void)
{
    const char *s = getenv("SOW_SLOW");
    return slow_arg || (s && *s && strcmp(s, "0") != 0);
}

static uint64_t rng = 88172645463325252ull; /* xorshift64's state */

/* Checks one board against the reference solver, with random stores and
 * a random side to move (the entry must not depend on either). */
static void check_board(const sow_game *g, const sow_db *db, const sow_index *ix, int k,
                        uint64_t r)
{
    uint8_t c[SOW_IDX_MAX_PARTS];
    sow_index_unrank(ix, k, r, c);
    sow_pos p;
    sow_index_to_pos(g->m, c, &p);
    p.b[SOW_B_STORE] = (uint8_t)(xorshift64(&rng) % 20);
    p.b[SOW_HALF + SOW_B_STORE] = (uint8_t)(xorshift64(&rng) % 20);
    if (xorshift64(&rng) & 1) {
        p.b[SOW_B_FLAGS] = SOW_FLAG_NORTH;
        p.b[SOW_HALF + SOW_B_FLAGS] = 0;
    }
    sow_solution s;
    assert_int_equal(sow_ref_solve(g, &p, false, 64, &s), SOW_OK);
    int d = p.b[SOW_B_STORE] - p.b[SOW_HALF + SOW_B_STORE];
    int got = d * g->score_scale + sow_db_probe(db, &p);
    if (got != s.score) {
        char t[SOW_POS_TEXT_MAX];
        sow_pos_format(g, &p, t, sizeof t);
        fail_msg("%s m=%d variant=%#x %s: db %d, reference %d", sow_game_name(g->cfg.game),
                 g->m, g->cfg.variant, t, got, s.score);
    }
}

static void test_against_reference(void **state)
{
    (void)state;
    bool full = slow();
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++)
        for (int m = 1; m <= 4; m++) {
            sow_game g;
            game_of(&g, cfgs[i].game, m, 1, cfgs[i].variant);
            int K = 12;
            sow_db *db;
            char why[256];
            assert_int_equal(sow_db_open(&g, K, NULL, NULL, &db, why, sizeof why), SOW_OK);
            sow_index ix;
            sow_index_init(&ix, 2 * m);
            for (int k = 0; k <= K; k++) {
                uint64_t n = sow_index_count(2 * m, k);
                if (full || n <= 40) {
                    for (uint64_t r = 0; r < n; r++)
                        check_board(&g, db, &ix, k, r);
                } else {
                    int samples = m <= 2 ? 40 : 12;
                    for (int t = 0; t < samples; t++)
                        check_board(&g, db, &ix, k, xorshift64(&rng) % n);
                }
            }
            sow_db_close(db);
        }
}

/* Every entry of every board up to K satisfies the minimax equation over
 * its children, computed here with the public rules API (sow_moves,
 * sow_make, sow_over, sow_terminal_score) and the database for the
 * children. Since play is acyclic (doc/retrograde.md), a table that
 * satisfies the equation everywhere is the exact one, by induction on
 * (seeds on the board, -potential). */
static void test_bellman(void **state)
{
    (void)state;
    /* (m, K): small boards deep, with laps; the builder's row tables for
     * larger m (its move kinds, and rows of 9 pits that do not fit a
     * word) at the seed counts a quick test affords; slow: m = 6 to 14. */
    static const int mk[][2] = {{1, 16}, {2, 16}, {3, 16}, {4, 12}, {5, 9}, {6, 8}, {9, 5}};
    static const int mk_slow[][2] = {{5, 13}, {6, 14}};
    size_t nmk = sizeof mk / sizeof mk[0], nslow = slow() ? sizeof mk_slow / sizeof mk_slow[0] : 0;
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++)
        for (size_t t = 0; t < nmk + nslow; t++) {
            int m = t < nmk ? mk[t][0] : mk_slow[t - nmk][0];
            int K = t < nmk ? mk[t][1] : mk_slow[t - nmk][1];
            sow_game g;
            game_of(&g, cfgs[i].game, m, 1, cfgs[i].variant);
            sow_db *db;
            assert_int_equal(sow_db_open(&g, K, NULL, NULL, &db, NULL, 0), SOW_OK);
            sow_index ix;
            sow_index_init(&ix, 2 * m);
            for (int k = 0; k <= K; k++) {
                uint8_t c[SOW_IDX_MAX_PARTS];
                uint64_t n = sow_index_count(2 * m, k);
                sow_index_unrank(&ix, k, 0, c);
                for (uint64_t r = 0; r < n; r++, sow_index_next(2 * m, c)) {
                    sow_pos p;
                    sow_index_to_pos(m, c, &p);
                    int want;
                    sow_move ms[SOW_MAX_MOVES];
                    int nm = sow_moves(&g, &p, ms);
                    if (nm == 0) {
                        want = sow_terminal_score(&g, &p);
                    } else {
                        want = -1000;
                        for (int j = 0; j < nm; j++) {
                            sow_pos q = p;
                            sow_make(&g, &q, ms[j]);
                            int s = sow_over(&g, &q)
                                        ? sow_terminal_score(&g, &q)
                                        : (q.b[SOW_B_STORE] - q.b[SOW_HALF + SOW_B_STORE]) *
                                                  g.score_scale +
                                              sow_db_probe(db, &q);
                            if (sow_pos_to_move(&q) != sow_pos_to_move(&p))
                                s = -s;
                            if (s > want)
                                want = s;
                        }
                    }
                    if (sow_db_probe(db, &p) != want)
                        fail_msg("%s m=%d variant=%#x k=%d rank %llu: entry %d, children give %d",
                                 sow_game_name(g.cfg.game), m, g.cfg.variant, k,
                                 (unsigned long long)r, sow_db_probe(db, &p), want);
                }
            }
            sow_db_close(db);
        }
}

/* Are levels 0..K of a and b the same, entry by entry (packed or not)? */
static void assert_same_levels(const sow_db *a, const sow_db *b, int K, int m)
{
    for (int k = 0; k <= K; k++) {
        uint64_t n = sow_index_count(2 * m, k);
        int8_t *x = malloc(n), *y = malloc(n);
        assert_non_null(x);
        assert_non_null(y);
        sow_db_level_copy(a, k, x);
        sow_db_level_copy(b, k, y);
        assert_memory_equal(x, y, n);
        free(x);
        free(y);
    }
}

/* The pie rule does not change a database. */
static void test_pie_same(void **state)
{
    (void)state;
    cfg a = {SOW_KALAH, SOW_VAR_EMPTY_CAPTURE}, b = {SOW_KALAH, SOW_VAR_EMPTY_CAPTURE | SOW_VAR_PIE};
    sow_game ga, gb;
    game_of(&ga, a.game, 3, 1, a.variant);
    game_of(&gb, b.game, 3, 1, b.variant);
    sow_db *da, *dbb;
    assert_int_equal(sow_db_open(&ga, 10, NULL, NULL, &da, NULL, 0), SOW_OK);
    assert_int_equal(sow_db_open(&gb, 10, NULL, NULL, &dbb, NULL, 0), SOW_OK);
    assert_same_levels(da, dbb, 10, 3);
    sow_db_close(da);
    sow_db_close(dbb);
}

static void test_threads_identical(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        sow_game g;
        int m = 4, K = slow() ? 18 : 13;
        game_of(&g, cfgs[i].game, m, 1, cfgs[i].variant);
        sow_db_options o1 = {.threads = 1}, o2 = {.threads = 2};
        sow_db *a, *b;
        assert_int_equal(sow_db_open(&g, K, NULL, &o1, &a, NULL, 0), SOW_OK);
        assert_int_equal(sow_db_open(&g, K, NULL, &o2, &b, NULL, 0), SOW_OK);
        assert_same_levels(a, b, K, m);
        sow_db_close(a);
        sow_db_close(b);
    }
}

/* The same, with every level shared by 2 threads however small (the
 * default leaves levels with few positions per potential to one thread,
 * which would leave the parallel path untested at these sizes). */
static void test_threads_every_level(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        sow_game g;
        int m = 4, K = 10;
        game_of(&g, cfgs[i].game, m, 1, cfgs[i].variant);
        sow_db *db;
        /* The build reads the lower levels as bytes. */
        sow_db_options o = {.unpacked = true};
        assert_int_equal(sow_db_open(&g, K, NULL, &o, &db, NULL, 0), SOW_OK);
        for (int k = 0; k <= K; k++) {
            uint64_t n = sow_index_count(2 * m, k);
            int8_t *t = malloc(n);
            assert_non_null(t);
            sow_retro_job job = {.g = &g, .ix = &db->ix, .k = k,
                                 .tab = (const int8_t *const *)db->table, .out = t,
                                 .threads = 2, .serial_below = 1};
            assert_int_equal(sow_retro_build(&job), SOW_OK);
            assert_memory_equal(t, db->table[k], n);
            free(t);
        }
        sow_db_close(db);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    sow_game g;
    char why[256];
    sow_db *db = (sow_db *)1;
    cfg t = {SOW_TOGUZ, 0};
    game_of(&g, t.game, 3, 1, t.variant);
    assert_int_equal(sow_db_open(&g, 4, NULL, NULL, &db, why, sizeof why), SOW_OK);
    sow_db_close(db); /* Toguz's own checks: tests/test_toguz_db.c */

    cfg c = {SOW_CHUNGKALA, 0};
    game_of(&g, c.game, 2, 1, c.variant);
    assert_int_equal(sow_db_open(&g, 43, NULL, NULL, &db, why, sizeof why), SOW_E_LIMIT);
    assert_int_equal(sow_db_open(&g, -1, NULL, NULL, &db, why, sizeof why), SOW_E_ARG);

    cfg k = {SOW_KALAH, 0};
    game_of(&g, k.game, 6, 1, k.variant);
    sow_db_options o = {.memory = 1000000};
    assert_int_equal(sow_db_open(&g, 12, NULL, &o, &db, why, sizeof why), SOW_E_NOMEM);
    assert_non_null(strstr(why, "GB"));
    /* 6 pits up to 24 seeds: C(36, 12) entries. */
    assert_true(sow_db_bytes(&g, 24) >= 1251677700ull);
    assert_true(sow_db_bytes(&g, 24) < 1251677700ull + 1000000);
}

int main(int argc, char **argv)
{
    slow_arg = argc > 1 && strcmp(argv[1], "slow") == 0;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_pie_same),
        cmocka_unit_test(test_threads_identical),
        cmocka_unit_test(test_threads_every_level),
        cmocka_unit_test(test_bellman),
        cmocka_unit_test(test_against_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
