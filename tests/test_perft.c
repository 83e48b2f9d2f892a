/* test_perft.c - the move generator against an independent one.
 *
 * tests/naive_rules.h is a second implementation of doc/rules.md written with
 * plain arrays and seed-by-seed loops. Here the library and it must agree on
 *   - perft counts from the start of default and small boards of every game
 *     and Kalah variant, at several depths;
 *   - everything, move by move, along thousands of seeded random games per
 *     game / variant / board: the legal move lists, the full resulting
 *     positions, game over, final scores; plus small perfts from positions
 *     met on the way.
 * `test_perft` runs the fast checks; `test_perft slow` (suite 'slow') runs
 * deeper perfts and many more random games.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "naive_rules.h"
#include "sow/game.h"
#include "sow/notation.h"
#include "sow/rules.h"

static bool slow_mode;

static void setup_game(sow_game_id id, int m, int n, unsigned variant, sow_game *g, nv_rules *r)
{
    sow_config c = {id, m, n, variant};
    assert_int_equal(sow_game_init(g, &c), SOW_OK);
    *r = nv_rules_of(&c);
}

static void describe(const sow_game *g, char *buf, size_t size)
{
    int k = snprintf(buf, size, "%s(%d,%d)", sow_game_name(g->cfg.game), g->m, g->cfg.seeds);
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (g->cfg.variant & (1u << i))
            k += snprintf(buf + k, size - (size_t)k, "+%s", sow_variant_name(1u << i));
}

/* ---- perft from the start ---- */

typedef struct perft_case {
    sow_game_id game;
    int m, n;
    unsigned variant;
    int depth;      /* fast run: depths 0..depth */
    int slow_depth; /* slow run: depths 0..slow_depth */
} perft_case;

#define EC SOW_VAR_EMPTY_CAPTURE
#define EOT SOW_VAR_END_ON_TURN
#define NS SOW_VAR_NO_SWEEP
#define PIE SOW_VAR_PIE
#define NT SOW_VAR_NO_TUZDIK

static const perft_case perft_cases[] = {
    /* default boards */
    {SOW_KALAH, 6, 4, 0, 7, 10},
    {SOW_KALAH, 6, 4, EC, 6, 9},
    {SOW_KALAH, 6, 4, EOT | NS, 6, 9},
    {SOW_KALAH, 6, 4, PIE, 5, 7},
    {SOW_CHUNGKALA, 6, 3, 0, 7, 10},
    {SOW_CONGKAK, 7, 7, 0, 5, 7},
    {SOW_TOGUZ, 9, 9, 0, 5, 7},
    {SOW_TOGUZ, 9, 9, NT, 4, 6},
    /* small boards (games end inside the horizon) and boards that lap */
    {SOW_KALAH, 1, 1, 0, 6, 6},
    {SOW_KALAH, 2, 3, EC, 12, 16},
    {SOW_KALAH, 3, 3, 0, 10, 14},
    {SOW_KALAH, 3, 3, EC | EOT, 10, 14},
    {SOW_KALAH, 3, 3, NS, 10, 14},
    {SOW_KALAH, 4, 3, EC | EOT | NS, 8, 12},
    {SOW_KALAH, 2, 20, 0, 8, 12},
    {SOW_CHUNGKALA, 4, 3, 0, 10, 14},
    {SOW_CHUNGKALA, 6, 2, 0, 8, 11},
    {SOW_CHUNGKALA, 2, 7, 0, 10, 14},
    {SOW_CONGKAK, 5, 5, 0, 6, 8},
    {SOW_CONGKAK, 3, 2, 0, 10, 14},
    {SOW_CONGKAK, 2, 30, 0, 8, 12},
    {SOW_TOGUZ, 7, 7, 0, 6, 8},
    {SOW_TOGUZ, 5, 5, NT, 7, 9},
    {SOW_TOGUZ, 3, 3, 0, 10, 14},
    {SOW_TOGUZ, 2, 2, 0, 12, 18},
    {SOW_TOGUZ, 4, 15, 0, 7, 9},
};

static void test_start_positions(void **state)
{
    (void)state;
    for (int g_id = 0; g_id < SOW_GAME_COUNT; g_id++) {
        sow_config c;
        sow_config_default((sow_game_id)g_id, &c);
        for (int m = sow_pits_min(c.game); m <= SOW_MAX_PITS; m++)
            for (int n = 1; n <= sow_seeds_max(m); n += 7) {
                sow_game g;
                nv_rules r;
                setup_game(c.game, m, n, 0, &g, &r);
                sow_pos a, b;
                nv_state s;
                sow_game_start(&g, &a);
                nv_start(&r, &s);
                nv_to_pos(&r, &s, &b);
                assert_true(sow_pos_eq(&a, &b));
                assert_int_equal(sow_position_check(&g, &a), SOW_OK);
            }
    }
}

static void run_perft_cases(bool slow)
{
    for (size_t i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
        const perft_case *pc = &perft_cases[i];
        sow_game g;
        nv_rules r;
        setup_game(pc->game, pc->m, pc->n, pc->variant, &g, &r);
        sow_pos p;
        nv_state s;
        sow_game_start(&g, &p);
        nv_start(&r, &s);
        int from = slow ? pc->depth + 1 : 0, to = slow ? pc->slow_depth : pc->depth;
        for (int d = from; d <= to; d++) {
            uint64_t want = nv_perft(&r, &s, d), got = sow_perft(&g, &p, d);
            if (want != got) {
                char name[96];
                describe(&g, name, sizeof name);
                print_error("%s perft(%d): library %llu, naive %llu\n", name, d,
                            (unsigned long long)got, (unsigned long long)want);
            }
            assert_true(want == got);
        }
    }
}

static void test_perft_start(void **state)
{
    (void)state;
    run_perft_cases(false);
}

static void test_perft_start_slow(void **state)
{
    (void)state;
    run_perft_cases(true);
}

/* perft(d) of a finished game is 0 for d > 0 and 1 for d = 0; perft of a
 * negative depth is 0. */
static void test_perft_edges(void **state)
{
    (void)state;
    sow_game g;
    nv_rules r;
    setup_game(SOW_KALAH, 3, 2, 0, &g, &r);
    sow_pos p;
    assert_int_equal(sow_pos_parse(&g, "0,0,0/6/0,0,0/6/s", &p, NULL, 0), SOW_OK);
    assert_true(sow_perft(&g, &p, 0) == 1);
    assert_true(sow_perft(&g, &p, 1) == 0);
    assert_true(sow_perft(&g, &p, 3) == 0);
    sow_game_start(&g, &p);
    assert_true(sow_perft(&g, &p, -1) == 0);
    assert_true(sow_perft(&g, &p, 1) == 3);
}

/* ---- random playouts ---- */

static void fail_at(const sow_game *g, const sow_pos *before, const sow_move *hist, int nhist,
                    const char *what)
{
    char name[96], pt[SOW_POS_TEXT_MAX], mt[8], moves[4096];
    describe(g, name, sizeof name);
    sow_pos_format(g, before, pt, sizeof pt);
    size_t k = 0;
    moves[0] = '\0';
    for (int i = 0; i < nhist && k + 8 < sizeof moves; i++) {
        sow_move_format(hist[i], mt, sizeof mt);
        k += (size_t)snprintf(moves + k, sizeof moves - k, "%s%s", i ? "," : "", mt);
    }
    print_error("%s: %s\n  at position %s\n  after moves %s\n", name, what, pt, moves);
    fail();
}

/* Plays `games` random games on one board and compares everything at
 * every ply. Every `perft_every`-th position also gets a perft(3). */
static void playouts(sow_game_id id, int m, int n, unsigned variant, int games, uint64_t seed,
                     int perft_every)
{
    sow_game g;
    nv_rules r;
    setup_game(id, m, n, variant, &g, &r);
    uint64_t rng = seed ^ ((uint64_t)id << 40) ^ ((uint64_t)m << 32) ^ ((uint64_t)n << 16) ^ variant;
    enum { MAX_PLY = 3000 };
    static sow_move hist[MAX_PLY];
    long plies = 0;
    for (int gi = 0; gi < games; gi++) {
        sow_pos p, q;
        nv_state s;
        sow_game_start(&g, &p);
        nv_start(&r, &s);
        for (int ply = 0;; ply++) {
            nv_to_pos(&r, &s, &q);
            if (!sow_pos_eq(&p, &q)) {
                char a[SOW_POS_TEXT_MAX];
                char msg[160];
                sow_pos_format(&g, &q, a, sizeof a);
                snprintf(msg, sizeof msg, "positions differ; naive has %s", a);
                fail_at(&g, &p, hist, ply, msg);
            }
            if (sow_position_check(&g, &p) != SOW_OK)
                fail_at(&g, &p, hist, ply, "sow_position_check rejects a reached position");
            sow_move lm[SOW_MAX_MOVES];
            nv_move nm[2 * SOW_MAX_PITS];
            int ln = sow_moves(&g, &p, lm), nn = nv_moves(&r, &s, nm);
            if (ln != nn)
                fail_at(&g, &p, hist, ply, "move counts differ");
            for (int k = 0; k < ln; k++)
                if (lm[k] != nv_to_move(nm[k]))
                    fail_at(&g, &p, hist, ply, "move lists differ");
            if (sow_over(&g, &p) != nv_over(&r, &s))
                fail_at(&g, &p, hist, ply, "sow_over differs");
            if (perft_every && plies % perft_every == 0 &&
                sow_perft(&g, &p, 3) != nv_perft(&r, &s, 3))
                fail_at(&g, &p, hist, ply, "perft(3) differs");
            plies++;
            if (ln == 0) {
                nv_score v = nv_terminal(&r, &s);
                int want = v.margin * g.score_scale + v.tb;
                if (sow_terminal_score(&g, &p) != want)
                    fail_at(&g, &p, hist, ply, "terminal score differs");
                int south = s.mover == SOW_SOUTH ? v.margin : -v.margin;
                if (sow_final_margin(&g, &p) != south)
                    fail_at(&g, &p, hist, ply, "final margin differs");
                /* the seeds are all accounted for */
                int total = s.store[0] + s.store[1] + nv_row_sum(&r, &s, 0) + nv_row_sum(&r, &s, 1);
                if (total != 2 * m * n)
                    fail_at(&g, &p, hist, ply, "seeds were lost or created");
                if (sow_play(&g, &q, lm[0]) != SOW_E_OVER)
                    fail_at(&g, &p, hist, ply, "sow_play after the end is not SOW_E_OVER");
                break;
            }
            if (ply >= MAX_PLY)
                break; /* Toguz can cycle: stop long games */
            int k = nv_rand_below(&rng, ln);
            hist[ply] = lm[k];
            sow_pos before = p;
            if (sow_play(&g, &p, lm[k]) != SOW_OK)
                fail_at(&g, &before, hist, ply + 1, "sow_play refuses a generated move");
            nv_make(&r, &s, nm[k]);
            /* sow_make and sow_play agree */
            sow_pos made = before;
            sow_make(&g, &made, lm[k]);
            if (!sow_pos_eq(&made, &p))
                fail_at(&g, &before, hist, ply + 1, "sow_make and sow_play differ");
        }
    }
    if (getenv("SOW_TEST_VERBOSE"))
        fprintf(stderr, "%s(%d,%d) v%u: %d games, %ld plies\n", sow_game_name(id), m, n, variant, games, plies);
}

/* Random positions (most not reachable from a start): every legal move of
 * both implementations, the position after each, game over and final
 * scores, and perft(2). */
static void random_positions(int per_board, uint64_t seed)
{
    uint64_t rng = seed;
    for (int id = 0; id < SOW_GAME_COUNT; id++) {
        unsigned vs = sow_variants_of((sow_game_id)id);
        for (int m = sow_pits_min((sow_game_id)id); m <= SOW_MAX_PITS; m++)
            for (unsigned v = 0; v <= vs; v++) {
                if (v & ~vs)
                    continue;
                sow_game g;
                nv_rules r;
                setup_game((sow_game_id)id, m, 1, v, &g, &r);
                for (int i = 0; i < per_board; i++) {
                    nv_state s;
                    sow_pos p, q;
                    nv_random_state(&r, &rng, &s);
                    nv_to_pos(&r, &s, &p);
                    if (sow_position_check(&g, &p) != SOW_OK)
                        fail_at(&g, &p, NULL, 0, "sow_position_check rejects a valid position");
                    sow_move lm[SOW_MAX_MOVES];
                    nv_move nm[2 * SOW_MAX_PITS];
                    int ln = sow_moves(&g, &p, lm), nn = nv_moves(&r, &s, nm);
                    if (ln != nn)
                        fail_at(&g, &p, NULL, 0, "move counts differ");
                    if (sow_over(&g, &p) != nv_over(&r, &s))
                        fail_at(&g, &p, NULL, 0, "sow_over differs");
                    if (ln == 0) {
                        nv_score sc = nv_terminal(&r, &s);
                        if (sow_terminal_score(&g, &p) != sc.margin * g.score_scale + sc.tb)
                            fail_at(&g, &p, NULL, 0, "terminal score differs");
                    }
                    for (int k = 0; k < ln; k++) {
                        if (lm[k] != nv_to_move(nm[k]))
                            fail_at(&g, &p, NULL, 0, "move lists differ");
                        sow_pos a = p;
                        nv_state t = s;
                        sow_make(&g, &a, lm[k]);
                        nv_make(&r, &t, nm[k]);
                        nv_to_pos(&r, &t, &q);
                        if (!sow_pos_eq(&a, &q)) {
                            char want[SOW_POS_TEXT_MAX], got[SOW_POS_TEXT_MAX], mt[8], msg[300];
                            sow_pos_format(&g, &q, want, sizeof want);
                            sow_pos_format(&g, &a, got, sizeof got);
                            sow_move_format(lm[k], mt, sizeof mt);
                            snprintf(msg, sizeof msg, "move %s: library %s, naive %s", mt, got, want);
                            fail_at(&g, &p, NULL, 0, msg);
                        }
                    }
                    if (i % 8 == 0 && sow_perft(&g, &p, 2) != nv_perft(&r, &s, 2))
                        fail_at(&g, &p, NULL, 0, "perft(2) differs");
                }
            }
    }
}

static void test_random_positions(void **state)
{
    (void)state;
    random_positions(300, 4242);
}

static void test_random_positions_slow(void **state)
{
    (void)state;
    random_positions(20000, 31337);
}

static const unsigned kalah_variants[] = {
    0, EC, EOT, NS, EC | EOT, EC | NS, EOT | NS, EC | EOT | NS, PIE, EC | PIE,
};

static void run_playouts(int scale, uint64_t seed)
{
    /* default boards and the named smaller boards of doc/rules.md */
    for (size_t v = 0; v < sizeof kalah_variants / sizeof kalah_variants[0]; v++) {
        playouts(SOW_KALAH, 6, 4, kalah_variants[v], 150 * scale, seed, 97);
        playouts(SOW_KALAH, 6, 3, kalah_variants[v], 100 * scale, seed, 0);
        playouts(SOW_KALAH, 4, 3, kalah_variants[v], 200 * scale, seed, 0);
        playouts(SOW_KALAH, 3, 9, kalah_variants[v], 100 * scale, seed, 0);
    }
    playouts(SOW_CHUNGKALA, 6, 3, 0, 1000 * scale, seed, 97);
    playouts(SOW_CHUNGKALA, 6, 2, 0, 1000 * scale, seed, 0);
    playouts(SOW_CHUNGKALA, 4, 3, 0, 1000 * scale, seed, 0);
    playouts(SOW_CHUNGKALA, 8, 4, 0, 500 * scale, seed, 0);
    playouts(SOW_CONGKAK, 7, 7, 0, 1000 * scale, seed, 97);
    playouts(SOW_CONGKAK, 5, 5, 0, 1000 * scale, seed, 0);
    playouts(SOW_CONGKAK, 3, 12, 0, 500 * scale, seed, 0);
    playouts(SOW_TOGUZ, 9, 9, 0, 300 * scale, seed, 97);
    playouts(SOW_TOGUZ, 7, 7, 0, 300 * scale, seed, 0);
    playouts(SOW_TOGUZ, 5, 5, NT, 500 * scale, seed, 0);
    playouts(SOW_TOGUZ, 5, 5, 0, 500 * scale, seed, 0);
    playouts(SOW_TOGUZ, 3, 4, 0, 500 * scale, seed, 0);

    /* random boards over the whole supported range, laps included */
    uint64_t rng = seed * 31 + 7;
    for (int b = 0; b < 40 * scale; b++) {
        sow_game_id id = (sow_game_id)nv_rand_below(&rng, SOW_GAME_COUNT);
        int lo = sow_pits_min(id);
        int m = lo + nv_rand_below(&rng, SOW_MAX_PITS - lo + 1);
        int nmax = sow_seeds_max(m);
        /* half the boards small (n <= 6), half anywhere up to the limit */
        int n = 1 + nv_rand_below(&rng, b % 2 ? nmax : (nmax < 6 ? nmax : 6));
        unsigned vs = sow_variants_of(id), v = 0;
        for (int i = 0; i < SOW_VAR_COUNT; i++)
            if ((vs & (1u << i)) && nv_rand_below(&rng, 2))
                v |= 1u << i;
        playouts(id, m, n, v, 60 * scale, seed + (uint64_t)b, 0);
    }
}

static void test_playouts(void **state)
{
    (void)state;
    run_playouts(8, 20261129);
}

static void test_playouts_slow(void **state)
{
    (void)state;
    run_playouts(60, 777);
}

int main(int argc, char **argv)
{
    slow_mode = argc > 1 && strcmp(argv[1], "slow") == 0;
    if (slow_mode) {
        const struct CMUnitTest slow[] = {
            cmocka_unit_test(test_perft_start_slow),
            cmocka_unit_test(test_playouts_slow),
            cmocka_unit_test(test_random_positions_slow),
        };
        return cmocka_run_group_tests_name("perft_slow", slow, NULL, NULL);
    }
    const struct CMUnitTest fast[] = {
        cmocka_unit_test(test_start_positions),
        cmocka_unit_test(test_perft_edges),
        cmocka_unit_test(test_perft_start),
        cmocka_unit_test(test_playouts),
        cmocka_unit_test(test_random_positions),
    };
    return cmocka_run_group_tests_name("perft", fast, NULL, NULL);
}
