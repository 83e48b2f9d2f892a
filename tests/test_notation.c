/* test_notation.c - position and move-list text (doc/notation.md).
 *
 * Round trips on random positions of every game (tuzdiks included), in
 * both directions: parse(print(p)) == p and print(parse(s)) == s; then
 * malformed texts, each of which must be refused with a reason and without
 * touching the output; then move lists.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "naive_rules.h"
#include "rules_internal.h"
#include "sow/game.h"
#include "sow/notation.h"
#include "sow/rules.h"

static sow_game G;

static void use(sow_game_id id, int m, unsigned variant)
{
    sow_config c = {id, m, 1, variant};
    assert_int_equal(sow_game_init(&G, &c), SOW_OK);
}

/* A random well-formed position of G: counts with total <= 255, random
 * side to move, and for Toguz with claims random legal tuzdiks. */
static void random_pos(uint64_t *rng, sow_pos *p)
{
    nv_rules r = nv_rules_of(&G.cfg);
    nv_state s;
    memset(&s, 0, sizeof s);
    int budget = 255;
    int cap = 1 + nv_rand_below(rng, 40); /* small and large counts */
    for (int pl = 0; pl < 2; pl++)
        for (int k = 0; k < G.m; k++) {
            int v = nv_rand_below(rng, cap + 1);
            if (v > budget)
                v = budget;
            s.pit[pl][k] = v;
            budget -= v;
        }
    for (int pl = 0; pl < 2; pl++) {
        int v = nv_rand_below(rng, 256);
        s.store[pl] = v > budget ? budget : v;
        budget -= s.store[pl];
    }
    s.mover = nv_rand_below(rng, 2);
    if (G.tuzdik)
        for (int pl = 0; pl < 2; pl++) {
            if (nv_rand_below(rng, 3) == 0)
                continue;
            int t = 1 + nv_rand_below(rng, G.m - 1); /* never pit m */
            if (t == s.tuz[1 - pl])
                continue; /* no mirror */
            s.tuz[pl] = t;
            s.pit[1 - pl][t - 1] = 0; /* a tuzdik is always empty */
        }
    nv_to_pos(&r, &s, p);
}

static void test_round_trip_random(void **state)
{
    (void)state;
    uint64_t rng = 12345;
    int with_tuzdik = 0;
    for (int id = 0; id < SOW_GAME_COUNT; id++)
        for (int m = sow_pits_min((sow_game_id)id); m <= SOW_MAX_PITS; m++)
            for (int v = 0; v < 2; v++) {
                unsigned variant = 0;
                if (v == 1 && id == SOW_TOGUZ)
                    variant = SOW_VAR_NO_TUZDIK;
                if (v == 1 && id == SOW_KALAH)
                    variant = SOW_VAR_EMPTY_CAPTURE | SOW_VAR_PIE;
                use((sow_game_id)id, m, variant);
                for (int i = 0; i < 400; i++) {
                    sow_pos p, q;
                    random_pos(&rng, &p);
                    assert_int_equal(sow_position_check(&G, &p), SOW_OK);
                    with_tuzdik += p.b[SOW_B_TUZDIK] || p.b[SOW_HALF + SOW_B_TUZDIK];
                    char text[SOW_POS_TEXT_MAX], again[SOW_POS_TEXT_MAX];
                    sow_pos_format(&G, &p, text, sizeof text);
                    assert_true(strlen(text) < SOW_POS_TEXT_MAX - 1);
                    assert_int_equal(sow_pos_text_pits(text), m);
                    char why[128] = "";
                    sow_err e = sow_pos_parse(&G, text, &q, why, sizeof why);
                    if (e != SOW_OK)
                        print_error("'%s' does not parse back: %s\n", text, why);
                    assert_int_equal(e, SOW_OK);
                    assert_true(sow_pos_eq(&p, &q));
                    sow_pos_format(&G, &q, again, sizeof again);
                    assert_string_equal(text, again);
                }
            }
    assert_true(with_tuzdik > 1000);
}

/* print(parse(s)) == s for texts built directly as strings. */
static void test_text_round_trip(void **state)
{
    (void)state;
    uint64_t rng = 999;
    for (int i = 0; i < 20000; i++) {
        sow_game_id id = (sow_game_id)nv_rand_below(&rng, SOW_GAME_COUNT);
        int lo = sow_pits_min(id);
        int m = lo + nv_rand_below(&rng, SOW_MAX_PITS - lo + 1);
        use(id, m, 0);
        char s[SOW_POS_TEXT_MAX];
        size_t k = 0;
        int budget = 255, tz[2] = {0, 0}; /* tz[row]: pit marked x in that row */
        if (id == SOW_TOGUZ) {
            tz[0] = nv_rand_below(&rng, m);     /* 0 = none, else 1..m-1 */
            tz[1] = nv_rand_below(&rng, m);
            if (tz[1] == tz[0])
                tz[1] = 0;
        }
        for (int row = 0; row < 2; row++) {
            for (int pit = 1; pit <= m; pit++) {
                if (pit > 1)
                    s[k++] = ',';
                if (pit == tz[row]) {
                    s[k++] = 'x';
                    continue;
                }
                int v = nv_rand_below(&rng, budget < 20 ? budget + 1 : 21);
                budget -= v;
                k += (size_t)snprintf(s + k, sizeof s - k, "%d", v);
            }
            int st = nv_rand_below(&rng, budget + 1);
            budget -= st;
            k += (size_t)snprintf(s + k, sizeof s - k, "/%d/", st);
        }
        s[k++] = nv_rand_below(&rng, 2) ? 'n' : 's';
        s[k] = '\0';
        sow_pos p;
        char why[128] = "", out[SOW_POS_TEXT_MAX];
        sow_err e = sow_pos_parse(&G, s, &p, why, sizeof why);
        if (e != SOW_OK)
            print_error("'%s' refused: %s\n", s, why);
        assert_int_equal(e, SOW_OK);
        sow_pos_format(&G, &p, out, sizeof out);
        assert_string_equal(out, s);
        /* the x is the OTHER player's tuzdik */
        assert_int_equal(sow_pos_tuzdik(&p, SOW_NORTH), tz[0]);
        assert_int_equal(sow_pos_tuzdik(&p, SOW_SOUTH), tz[1]);
    }
}

static void test_known_texts(void **state)
{
    (void)state;
    sow_config c = {SOW_KALAH, 6, 4, 0};
    assert_int_equal(sow_game_init(&G, &c), SOW_OK);
    sow_pos p, start;
    sow_game_start(&G, &start);
    assert_int_equal(sow_pos_parse(&G, "4,4,4,4,4,4/0/4,4,4,4,4,4/0/s", &p, NULL, 0), SOW_OK);
    assert_true(sow_pos_eq(&p, &start));
    char buf[SOW_POS_TEXT_MAX];
    sow_pos_format(&G, &start, buf, sizeof buf);
    assert_string_equal(buf, "4,4,4,4,4,4/0/4,4,4,4,4,4/0/s");
    /* each row in its owner's order, side to move */
    assert_int_equal(sow_pos_parse(&G, "1,2,3,4,5,6/7/8,9,10,11,12,13/14/n", &p, NULL, 0), SOW_OK);
    assert_int_equal(sow_pos_to_move(&p), SOW_NORTH);
    assert_int_equal(sow_pos_pit(&p, SOW_SOUTH, 1), 1);
    assert_int_equal(sow_pos_pit(&p, SOW_SOUTH, 6), 6);
    assert_int_equal(sow_pos_pit(&p, SOW_NORTH, 1), 8);
    assert_int_equal(sow_pos_pit(&p, SOW_NORTH, 6), 13);
    assert_int_equal(sow_pos_store(&p, SOW_SOUTH), 7);
    assert_int_equal(sow_pos_store(&p, SOW_NORTH), 14);
    /* leading zeros are read (doc/notation.md) and not written */
    assert_int_equal(sow_pos_parse(&G, "04,4,4,4,4,004/0/4,4,4,4,4,4/00/s", &p, NULL, 0), SOW_OK);
    assert_true(sow_pos_eq(&p, &start));
    /* 255 in all is fine, single counts up to 255 */
    use(SOW_KALAH, 1, 0);
    assert_int_equal(sow_pos_parse(&G, "255/0/0/0/s", &p, NULL, 0), SOW_OK);
    assert_int_equal(sow_pos_parse(&G, "0/0/0/255/n", &p, NULL, 0), SOW_OK);
    /* toguz: x in South's row is North's tuzdik */
    use(SOW_TOGUZ, 9, 0);
    assert_int_equal(sow_pos_parse(&G, "9,x,9,9,9,9,9,9,9/3/9,9,9,9,9,9,x,9,9/3/s", &p, NULL, 0),
                     SOW_OK);
    assert_int_equal(sow_pos_tuzdik(&p, SOW_NORTH), 2);
    assert_int_equal(sow_pos_tuzdik(&p, SOW_SOUTH), 7);
    sow_pos_format(&G, &p, buf, sizeof buf);
    assert_string_equal(buf, "9,x,9,9,9,9,9,9,9/3/9,9,9,9,9,9,x,9,9/3/s");
    /* the longest text fits */
    assert_int_equal(
        sow_pos_parse(&G, "100,100,0,0,0,0,0,0,0/55/0,0,0,0,0,0,0,0,0/0/n", &p, NULL, 0), SOW_OK);

    assert_int_equal(sow_pos_text_pits("4,4,4/0/4,4,4/0/s"), 3);
    assert_int_equal(sow_pos_text_pits("x,1/0/1,1/0/s"), 2);
    assert_int_equal(sow_pos_text_pits("7/0/7/0/s"), 1);
    assert_int_equal(sow_pos_text_pits(""), -1);
    assert_int_equal(sow_pos_text_pits("abc"), -1);
    assert_int_equal(sow_pos_text_pits("1,2,3"), -1);
    assert_int_equal(sow_pos_text_pits(",1/0/1/0/s"), -1);
    assert_int_equal(sow_pos_text_pits("1,,2/0/1,2/0/s"), -1);
}

static void refuse(const char *text)
{
    sow_pos p, before;
    memset(&p, 0xab, sizeof p);
    before = p;
    char why[128] = "";
    sow_err e = sow_pos_parse(&G, text, &p, why, sizeof why);
    if (e != SOW_E_POSITION)
        print_error("'%s' was accepted (%s, %d pits)\n", text, sow_game_name(G.cfg.game), G.m);
    assert_int_equal(e, SOW_E_POSITION);
    assert_true(why[0] != '\0');
    assert_true(strchr(why, '\n') == NULL);
    assert_memory_equal(&p, &before, sizeof p);
    /* no reason buffer is fine too */
    assert_int_equal(sow_pos_parse(&G, text, &p, NULL, 0), SOW_E_POSITION);
}

static void test_malformed(void **state)
{
    (void)state;
    static const char *const bad_any[] = {
        "",
        "s",
        "1,2,3,4",
        "1,2,3/0/1,2,3,4/0/s",          /* wrong pit counts */
        "1,2,3,4,5/0/1,2,3,4/0/s",
        "1,2,3,4/0/1,2,3/0/s",
        "1,2,3,4/0/1,2,3,4,5/0/s",
        "1,2,3,4/0/1,2,3,4/s",           /* missing store */
        "1,2,3,4//1,2,3,4/0/s",
        "1,2,3,4/0/1,2,3,4//s",
        "1,2,3,4/0/1,2,3,4/0/",          /* bad side */
        "1,2,3,4/0/1,2,3,4/0/x",
        "1,2,3,4/0/1,2,3,4/0/S",
        "1,2,3,4/0/1,2,3,4/0/N",
        "1,2,3,4/0/1,2,3,4/0/south",
        "1,2,3,4/0/1,2,3,4/0/sn",
        "1,2,3,4/0/1,2,3,4/0/s ",        /* trailing junk */
        "1,2,3,4/0/1,2,3,4/0/s\n",
        "1,2,3,4/0/1,2,3,4/0/s/",
        "1,2,3,4/0/1,2,3,4/0/s,1",
        " 1,2,3,4/0/1,2,3,4/0/s",
        "1,2,3,4/0/1,2,3,4/0/0/s",
        "a,2,3,4/0/1,2,3,4/0/s",         /* bad numbers */
        "-1,2,3,4/0/1,2,3,4/0/s",
        "+1,2,3,4/0/1,2,3,4/0/s",
        "1,,3,4/0/1,2,3,4/0/s",
        "1, 2,3,4/0/1,2,3,4/0/s",
        "1.5,2,3,4/0/1,2,3,4/0/s",
        "0x1,2,3,4/0/1,2,3,4/0/s",
        "1,2,3,4/-1/1,2,3,4/0/s",
        "1,2,3,4/a/1,2,3,4/0/s",
        "256,0,0,0/0/0,0,0,0/0/s",       /* a count above 255 */
        "0,0,0,0/256/0,0,0,0/0/s",
        "0,0,0,0/0/0,0,0,1000/0/s",
        "99999999999999999999,0,0,0/0/0,0,0,0/0/s",
        "0,0,0,0/0/0,0,0,0/4294967297/s",
        "200,0,0,0/0/0,0,0,0/56/s",      /* total above 255 */
        "100,100,0,0/0/50,6,0,0/0/s",
        "255,1,0,0/0/0,0,0,0/0/n",
        "1,2,3,4;0;1,2,3,4;0;s",
        "1,2,3,4/0/1,2,3,4/0/s\0junk",   /* (a NUL ends the text: this one is fine) */
    };
    static const char *const bad_toguz[] = {
        "x,x,1,1/0/1,1,1,1/0/s",         /* two tuzdiks in one row */
        "1,1,1,x/0/1,1,1,1/0/s",         /* a player's pit m */
        "1,1,1,1/0/1,1,1,x/0/n",
        "1,x,1,1/0/1,x,1,1/0/s",         /* mirror */
        "x5,1,1,1/0/1,1,1,1/0/s",        /* junk after x */
        "5x,1,1,1/0/1,1,1,1/0/s",
        "X,1,1,1/0/1,1,1,1/0/s",
        "1,1,1,1/x/1,1,1,1/0/s",         /* x as a store */
    };
    for (int id = 0; id < SOW_GAME_COUNT; id++) {
        use((sow_game_id)id, 4, 0);
        for (size_t i = 0; i < sizeof bad_any / sizeof bad_any[0] - 1; i++)
            refuse(bad_any[i]);
        sow_pos p;
        assert_int_equal(sow_pos_parse(&G, bad_any[sizeof bad_any / sizeof bad_any[0] - 1], &p,
                                       NULL, 0),
                         SOW_OK);
        if (id == SOW_TOGUZ) {
            for (size_t i = 0; i < sizeof bad_toguz / sizeof bad_toguz[0]; i++)
                refuse(bad_toguz[i]);
            assert_int_equal(sow_pos_parse(&G, "x,1,1,1/0/1,x,1,1/0/s", &p, NULL, 0), SOW_OK);
        } else {
            /* x only in Toguz with claims */
            refuse("x,1,1,1/0/1,1,1,1/0/s");
            refuse("1,1,1,1/0/1,x,1,1/0/n");
        }
    }
    use(SOW_TOGUZ, 4, SOW_VAR_NO_TUZDIK);
    refuse("x,1,1,1/0/1,1,1,1/0/s");
    refuse("1,1,1,1/0/1,x,1,1/0/s");
    /* with m = 9 */
    use(SOW_TOGUZ, 9, 0);
    refuse("9,9,9,9,9,9,9,9,x/0/9,9,9,9,9,9,9,9,9/0/s");
    refuse("9,9,9,9,9,9,9,9/0/9,9,9,9,9,9,9,9,9/0/s");
    refuse("9,9,9,9,9,9,9,9,9,9/0/9,9,9,9,9,9,9,9,9/0/s");
    /* the reason names what is wrong */
    use(SOW_KALAH, 4, 0);
    char why[128] = "";
    sow_pos p;
    sow_pos_parse(&G, "1,2,3/0/1,2,3,4/0/s", &p, why, sizeof why);
    assert_non_null(strstr(why, "4"));
    sow_pos_parse(&G, "200,0,0,0/0/0,0,0,0/56/s", &p, why, sizeof why);
    assert_non_null(strstr(why, "255"));
    /* a tiny reason buffer is truncated, not overrun */
    char small[4];
    memset(small, 'z', sizeof small);
    sow_pos_parse(&G, "1,2,3/0/1,2,3,4/0/s", &p, small, sizeof small);
    assert_int_equal(small[3], '\0');
}

static int moves_of(const char *text, sow_move *out, int cap, sow_err *err)
{
    int n = -1;
    *err = sow_moves_parse(&G, text, out, cap, &n);
    return n;
}

static void test_move_lists(void **state)
{
    (void)state;
    sow_move ms[16];
    sow_err e;
    use(SOW_KALAH, 6, 0);
    assert_int_equal(moves_of("3,1,6", ms, 16, &e), 3);
    assert_int_equal(e, SOW_OK);
    assert_int_equal(ms[0], 2);
    assert_int_equal(ms[1], 0);
    assert_int_equal(ms[2], 5);
    assert_int_equal(moves_of("", ms, 16, &e), 0);
    assert_int_equal(e, SOW_OK);
    /* the index of the bad move is reported */
    static const struct {
        const char *text;
        int at;
    } bad[] = {
        {"0", 0}, {"7", 0}, {"10", 0}, {"3,7", 1}, {"3,,1", 1}, {"3,", 1}, {",3", 0},
        {"3a", 0}, {" 3", 0}, {"3 ", 0}, {"x", 0}, {"3x", 0}, {"-1", 0}, {"+1", 0},
        {"1,2,3;4", 2}, {"1.0", 0}, {"1,2,3,4,5,6,0", 6}, {"1000000000000", 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int n = moves_of(bad[i].text, ms, 16, &e);
        if (e != SOW_E_MOVE)
            print_error("move list '%s' accepted\n", bad[i].text);
        assert_int_equal(e, SOW_E_MOVE);
        assert_int_equal(n, bad[i].at);
    }
    /* capacity */
    assert_int_equal(moves_of("1,2,3,4", ms, 3, &e), 3);
    assert_int_equal(e, SOW_E_LIMIT);
    assert_int_equal(moves_of("1,2,3", ms, 3, &e), 3);
    assert_int_equal(e, SOW_OK);

    /* Toguz claims */
    use(SOW_TOGUZ, 9, 0);
    assert_int_equal(moves_of("7x,9,1x", ms, 16, &e), 3);
    assert_int_equal(e, SOW_OK);
    assert_int_equal(ms[0], 6 | SOW_MOVE_CLAIM);
    assert_int_equal(ms[1], 8);
    assert_int_equal(ms[2], 0 | SOW_MOVE_CLAIM);
    moves_of("7xx", ms, 16, &e);
    assert_int_equal(e, SOW_E_MOVE);
    moves_of("x7", ms, 16, &e);
    assert_int_equal(e, SOW_E_MOVE);
    moves_of("7X", ms, 16, &e);
    assert_int_equal(e, SOW_E_MOVE);
    moves_of("10x", ms, 16, &e);
    assert_int_equal(e, SOW_E_MOVE);
    use(SOW_TOGUZ, 9, SOW_VAR_NO_TUZDIK);
    moves_of("7x", ms, 16, &e);
    assert_int_equal(e, SOW_E_MOVE);
    moves_of("7", ms, 16, &e);
    assert_int_equal(e, SOW_OK);

    /* single moves with an explicit length; format round trip */
    use(SOW_TOGUZ, 9, 0);
    sow_move mv;
    assert_int_equal(sow_move_parse(&G, "7x,3", 2, &mv), SOW_OK);
    assert_int_equal(mv, 6 | SOW_MOVE_CLAIM);
    assert_int_equal(sow_move_parse(&G, "7x,3", 1, &mv), SOW_OK);
    assert_int_equal(mv, 6);
    assert_int_equal(sow_move_parse(&G, "7x,3", 0, &mv), SOW_E_MOVE);
    for (int i = 0; i < 9; i++)
        for (int c = 0; c < 2; c++) {
            sow_move m = (sow_move)(i | (c ? SOW_MOVE_CLAIM : 0)), back;
            char t[8];
            sow_move_format(m, t, sizeof t);
            assert_int_equal(sow_move_parse(&G, t, strlen(t), &back), SOW_OK);
            assert_int_equal(back, m);
        }
    char t[8];
    sow_move_format(6 | SOW_MOVE_CLAIM, t, sizeof t);
    assert_string_equal(t, "7x");
    sow_move_format(0, t, sizeof t);
    assert_string_equal(t, "1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_known_texts),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_move_lists),
    };
    return cmocka_run_group_tests_name("notation", tests, NULL, NULL);
}
