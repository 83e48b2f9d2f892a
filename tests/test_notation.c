/* test_notation.c - position and move-list text (doc/notation.md).
 *
 * Round trips on random positions of every game (tuzdiks included), in
 * both directions: parse(print(p)) == p and print(parse(s)) == s; then
 * malformed texts, each of which must be refused with a reason and without
 * touching the output; then move lists; then game records in the players'
 * notation: the example, real championship games (tests/data)
 * against their published board diagrams, write-then-read round trips on
 * random games of every game and board, and every error with its message.
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


/* ---- Game records ---- */

static sow_pos start_of(void)
{
    sow_pos p;
    sow_game_start(&G, &p);
    return p;
}

/* Parses `text` from the start; returns the error, with *n and why. */
static sow_err record(const char *text, sow_move *out, int cap, int *n, char *why, size_t size)
{
    sow_pos p = start_of();
    why[0] = '\0';
    return sow_record_parse(&G, &p, text, out, cap, n, why, size);
}

/* The example: every landing digit must match from the 9x9 start,
 * with the landing pit numbered by the owner of the row it is in (moves
 * 1-7, 9 and 10 land in the opponent's row, 78 in North's own row). */
static void test_record_example(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 9, 0);
    G.cfg.seeds = 9;
    sow_config c = {SOW_TOGUZ, 9, 9, 0};
    assert_int_equal(sow_game_init(&G, &c), SOW_OK);
    static const sow_move want[] = {6, 8, 5, 7, 0, 6, 1, 6, 3, 2 | SOW_MOVE_CLAIM};
    static const char *const texts[] = {
        "76 98 66 87 12 76 25 78 48 36x",
        "1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36X",
        "1. 76 98\n2. 66 87\n3. 12 76\n4. 25 78\n5. 48 36\xd1\x85\n",   /* Cyrillic х */
        "1.\t76\t98 2. 66, 87 # a comment\n3. 12 76 4. 25 78 5. 48 36\xd0\xa5", /* Х */
        "7,9,6,8,1,7,2,7,4,3x",                  /* the plain list */
        "1. 7 98 2. 6 8 3. 12 7 4. 2 78 5. 4 3x", /* the two forms mixed */
    };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        sow_move got[16];
        int n = -1;
        char why[200];
        sow_err e = record(texts[t], got, 16, &n, why, sizeof why);
        if (e)
            print_error("'%s': %s\n", texts[t], why);
        assert_int_equal(e, SOW_OK);
        assert_int_equal(n, 10);
        assert_memory_equal(got, want, sizeof want);
    }
    char buf[128];
    size_t len = 0;
    sow_pos p = start_of();
    assert_int_equal(sow_record_format(&G, &p, want, 10, buf, sizeof buf, &len), SOW_OK);
    assert_string_equal(buf, "1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36x");
    assert_int_equal(len, strlen(buf));
    /* a start with North to move: "1..." */
    sow_make(&G, &p, want[0]);
    assert_int_equal(sow_record_format(&G, &p, want + 1, 3, buf, sizeof buf, NULL), SOW_OK);
    assert_string_equal(buf, "1... 98 2. 66 87");
    sow_move got[8];
    int n;
    char why[200];
    assert_int_equal(sow_record_parse(&G, &p, buf, got, 8, &n, why, sizeof why), SOW_OK);
    assert_int_equal(n, 3);
    assert_memory_equal(got, want + 1, 3);
    /* too small a buffer: cut, terminated, and the length needed said */
    p = start_of();
    memset(buf, 'z', sizeof buf);
    assert_int_equal(sow_record_format(&G, &p, want, 10, buf, 12, &len), SOW_E_LIMIT);
    assert_int_equal(len, strlen("1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36x"));
    assert_int_equal(strlen(buf), 11);
    assert_int_equal(buf[12], 'z');
    /* an illegal move is refused, not written */
    sow_move bad[] = {6, 5}; /* 76 took North's pit 6 */
    assert_int_equal(sow_record_format(&G, &p, bad, 2, buf, sizeof buf, NULL), SOW_E_MOVE);
    assert_int_equal(sow_record_format(&G, &p, bad, 1, buf, sizeof buf, NULL), SOW_OK);
    /* the other games: the plain list */
    sow_config k = {SOW_KALAH, 6, 4, 0};
    assert_int_equal(sow_game_init(&G, &k), SOW_OK);
    p = start_of();
    sow_move kal[] = {2, 0, 5};
    assert_int_equal(sow_record_format(&G, &p, kal, 3, buf, sizeof buf, NULL), SOW_OK);
    assert_string_equal(buf, "3,1,6");
    assert_int_equal(sow_record_format(&G, &p, kal, 0, buf, sizeof buf, &len), SOW_OK);
    assert_string_equal(buf, "");
    assert_int_equal(len, 0);
}

/* The real games in tests/data: they replay, every landing digit agrees,
 * and the positions after the moves of each "# after move K: POS" line
 * (the bulletin's board diagrams) are those of the replay. */
static void replay_data_file(const char *name, int want_moves, int want_diagrams)
{
    const char *dir = getenv("SOW_TEST_DATA");
    assert_non_null(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        print_error("cannot open %s\n", path);
    assert_non_null(f);
    static char text[1 << 16];
    size_t len = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[len] = '\0';
    sow_config c = {SOW_TOGUZ, 9, 9, 0};
    assert_int_equal(sow_game_init(&G, &c), SOW_OK);
    sow_move got[256];
    int n = -1;
    char why[200];
    sow_err e = record(text, got, 256, &n, why, sizeof why);
    if (e)
        print_error("%s: %s\n", name, why);
    assert_int_equal(e, SOW_OK);
    assert_int_equal(n, want_moves);
    int diagrams = 0;
    /* (at a line's start: the files' headers quote the form) */
    for (const char *s = strstr(text, "\n# after move "); s;
         s = strstr(s + 1, "\n# after move ")) {
        int k;
        char pos_text[SOW_POS_TEXT_MAX];
        assert_int_equal(sscanf(s + 1, "# after move %d: %95s", &k, pos_text), 2);
        sow_pos want, p = start_of();
        assert_int_equal(sow_pos_parse(&G, pos_text, &want, why, sizeof why), SOW_OK);
        for (int i = 0; i < 2 * k; i++)
            sow_make(&G, &p, got[i]);
        char have[SOW_POS_TEXT_MAX];
        sow_pos_format(&G, &p, have, sizeof have);
        if (!sow_pos_eq(&p, &want))
            print_error("%s after move %d: %s, the bulletin has %s\n", name, k, have, pos_text);
        assert_true(sow_pos_eq(&p, &want));
        diagrams++;
    }
    assert_int_equal(diagrams, want_diagrams);
    /* written back, the record reads the same */
    static char out[4096];
    sow_pos p = start_of();
    assert_int_equal(sow_record_format(&G, &p, got, n, out, sizeof out, NULL), SOW_OK);
    sow_move again[256];
    int m;
    assert_int_equal(record(out, again, 256, &m, why, sizeof why), SOW_OK);
    assert_int_equal(m, n);
    assert_memory_equal(again, got, (size_t)n);
}

static void test_record_real_games(void **state)
{
    (void)state;
    replay_data_file("toguz-2022-kabiyev-kaiyrzhanov.txt", 44, 2);
    replay_data_file("toguz-2022-temirbayev-aitbayev.txt", 94, 4);
}

/* Write then read gives the same moves, on random games of every game and
 * board size (played to the end or cut short), from the start and from a
 * start with North to move. */
static void test_record_round_trip(void **state)
{
    (void)state;
    uint64_t rng = 4242;
    static sow_move game[600], back[600];
    static char text[600 * SOW_RECORD_MOVE_MAX + 8];
    int claims = 0, north_starts = 0;
    for (int id = 0; id < SOW_GAME_COUNT; id++)
        for (int m = sow_pits_min((sow_game_id)id); m <= SOW_MAX_PITS; m++)
            for (int seeds = 1; seeds <= 6 && 2 * m * seeds <= SOW_MAX_TOTAL; seeds += 2)
                for (int rep = 0; rep < 6; rep++) {
                    sow_config c = {(sow_game_id)id, m, seeds, 0};
                    assert_int_equal(sow_game_init(&G, &c), SOW_OK);
                    sow_pos start = start_of(), p;
                    if (rep % 3 == 2) { /* North to move at the start */
                        sow_move ms[SOW_MAX_MOVES];
                        while (!sow_over(&G, &start) && sow_pos_to_move(&start) == SOW_SOUTH)
                            sow_make(&G, &start, ms[nv_rand_below(&rng, (unsigned)sow_moves(&G, &start, ms))]);
                        if (sow_over(&G, &start))
                            continue;
                        north_starts++;
                    }
                    p = start;
                    int n = 0, cut = rep % 2 ? nv_rand_below(&rng, 60) : 600;
                    while (n < cut && !sow_over(&G, &p)) {
                        sow_move ms[SOW_MAX_MOVES];
                        int k = sow_moves(&G, &p, ms);
                        sow_move mv = ms[nv_rand_below(&rng, (unsigned)k)];
                        claims += (mv & SOW_MOVE_CLAIM) != 0;
                        game[n++] = mv;
                        sow_make(&G, &p, mv);
                    }
                    size_t len;
                    assert_int_equal(sow_record_format(&G, &start, game, n, text, sizeof text, &len),
                                     SOW_OK);
                    assert_true(len <= (size_t)n * SOW_RECORD_MOVE_MAX + 8);
                    int got = -1;
                    char why[200] = "";
                    sow_err e = sow_record_parse(&G, &start, text, back, 600, &got, why, sizeof why);
                    if (e)
                        print_error("%s %dx%d: '%s': %s\n", sow_game_name(G.cfg.game), m, seeds,
                                    text, why);
                    assert_int_equal(e, SOW_OK);
                    assert_int_equal(got, n);
                    assert_memory_equal(back, game, (size_t)n);
                }
    assert_true(claims > 20);
    assert_true(north_starts > 20);
}

/* Every error: the code, the count of moves read before it, and the
 * message (which names the move number, side and token). */
static void test_record_errors(void **state)
{
    (void)state;
    static const struct {
        sow_game_id game;
        const char *text;
        sow_err err;
        int n;
        const char *why;
    } bad[] = {
        /* the example with move 7's landing digit changed */
        {SOW_TOGUZ, "76 98 66 87 12 76 24 78", SOW_E_MOVE, 6,
         "move 4 (S) '24': the last seed lands in north's pit 5, not 4"},
        {SOW_TOGUZ, "1. 76 98\n2. 66 87\n3. 12 76\n4. 25 77", SOW_E_MOVE, 7,
         "move 4 (N) '77': the last seed lands in north's pit 8, not 7 (line 4)"},
        {SOW_TOGUZ, "1. 76 98 3. 66 87", SOW_E_MOVE, 2, "move 2 (S) '3.': should be '2.'"},
        {SOW_TOGUZ, "1. 76 1. 98", SOW_E_MOVE, 1, "move 1 (N) '1.': should be '1...'"},
        {SOW_TOGUZ, "1... 76", SOW_E_MOVE, 0, "move 1 (S) '1...': should be '1.'"},
        {SOW_TOGUZ, "1. 2. 76", SOW_E_MOVE, 0, "move 2 (S) '2.': two move numbers in a row"},
        {SOW_TOGUZ, "1. 76 98 2.", SOW_E_MOVE, 2, "move 2 (S) '2.': a move number with no move after it"},
        {SOW_TOGUZ, "1. 76 98 72", SOW_E_MOVE, 2,
         "move 2 (S) '72': the last seed lands in south's pit 8, not 2"},
        {SOW_TOGUZ, "1. 76 66", SOW_E_MOVE, 1, "move 1 (N) '66': illegal: north's pit 6 is empty"},
        {SOW_TOGUZ, "1. 1x", SOW_E_MOVE, 0, "move 1 (S) '1x': illegal: south cannot claim a tuzdik with it"},
        {SOW_TOGUZ, "76 6", SOW_E_MOVE, 1, "move 1 (N) '6': illegal: north's pit 6 is empty"},
        {SOW_TOGUZ, "76 9y", SOW_E_MOVE, 1, "move 1 (N) '9y': not a move"},
        {SOW_TOGUZ, "766", SOW_E_MOVE, 0, "move 1 (S) '766': not a move"},
        {SOW_TOGUZ, "06", SOW_E_MOVE, 0, "move 1 (S) '06': pits are numbered 1..9"},
        {SOW_TOGUZ, "70", SOW_E_MOVE, 0, "move 1 (S) '70': pits are numbered 1..9"},
        {SOW_TOGUZ, "76 98x", SOW_E_MOVE, 1, "move 1 (N) '98x': illegal: north cannot claim"},
        {SOW_TOGUZ, "76 xx", SOW_E_MOVE, 1, "move 1 (N) 'xx': not a move"},
        {SOW_TOGUZ, "76 98x7", SOW_E_MOVE, 1, "not a move"},
        {SOW_TOGUZ, "76, ,98", SOW_E_MOVE, 1, "move 1 (N) ',': a comma with no move before it"},
        {SOW_TOGUZ, ",76", SOW_E_MOVE, 0, "move 1 (S) ',': a comma with no move before it"},
        {SOW_TOGUZ, "76,", SOW_E_MOVE, 1, "move 1 (N) ',': the record ends with a comma"},
        {SOW_KALAH, "3,7", SOW_E_MOVE, 1, "move 1 (S) '7': not a pit number 1..6"},
        {SOW_KALAH, "0", SOW_E_MOVE, 0, "move 1 (S) '0': not a pit number 1..6"},
        {SOW_KALAH, "76", SOW_E_MOVE, 0, "move 1 (S) '76': not a pit number 1..6"},
        {SOW_KALAH, "1x", SOW_E_MOVE, 0, "move 1 (S) '1x': claims a tuzdik, which only Toguz has"},
        {SOW_KALAH, "1. 3 2. 1", SOW_E_MOVE, 1, "move 1 (S) '2.': a move number inside a turn"},
        {SOW_KALAH, "1. 3 1 1... 6", SOW_E_MOVE, 2, NULL}, /* 1... is right: accepted below */
        /* an extra turn keeps the turn's number */
        {SOW_KALAH, "3,3", SOW_E_MOVE, 1, "move 1 (S) '3': illegal: south's pit 3 is empty"},
        {SOW_KALAH, "1. 3 1 1... 6 2. 1 2... 1", SOW_E_MOVE, 5, NULL},
        {SOW_KALAH, "1. 3 1 1... 6 2. 1 1... 1", SOW_E_MOVE, 4, "move 2 (N) '1...': should be '2...'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sow_config c = {bad[i].game, bad[i].game == SOW_TOGUZ ? 9 : 6,
                        bad[i].game == SOW_TOGUZ ? 9 : 4, 0};
        assert_int_equal(sow_game_init(&G, &c), SOW_OK);
        sow_move got[16];
        int n = -1;
        char why[200];
        sow_err e = record(bad[i].text, got, 16, &n, why, sizeof why);
        if (!bad[i].why) {
            assert_int_equal(e, SOW_OK);
            continue;
        }
        if (e != bad[i].err || n != bad[i].n || !strstr(why, bad[i].why))
            print_error("'%s': error %d after %d moves, '%s'; expected %d after %d, '%s'\n",
                        bad[i].text, e, n, why, bad[i].err, bad[i].n, bad[i].why);
        assert_int_equal(e, bad[i].err);
        assert_int_equal(n, bad[i].n);
        assert_non_null(strstr(why, bad[i].why));
        assert_null(strchr(why, '\n'));
    }
    /* no-tuzdik */
    sow_config nt = {SOW_TOGUZ, 9, 9, SOW_VAR_NO_TUZDIK};
    assert_int_equal(sow_game_init(&G, &nt), SOW_OK);
    sow_move got[16];
    int n;
    char why[200];
    assert_int_equal(record("76x", got, 16, &n, why, sizeof why), SOW_E_MOVE);
    assert_non_null(strstr(why, "the no-tuzdik variant does not allow"));
    /* past the end, past the capacity */
    use(SOW_KALAH, 1, 0);
    assert_int_equal(record("1 1", got, 16, &n, why, sizeof why), SOW_E_OVER);
    assert_int_equal(n, 1);
    assert_non_null(strstr(why, "move 1 (S) '1': comes after the end of the game"));
    sow_config k = {SOW_KALAH, 6, 4, 0};
    assert_int_equal(sow_game_init(&G, &k), SOW_OK);
    assert_int_equal(record("1,2,3,4", got, 3, &n, why, sizeof why), SOW_E_LIMIT);
    assert_int_equal(n, 3);
    assert_non_null(strstr(why, "more than 3 moves"));
    /* empty records, comments only; no reason buffer; a tiny one */
    assert_int_equal(record("", got, 16, &n, why, sizeof why), SOW_OK);
    assert_int_equal(n, 0);
    assert_int_equal(record(" \n# nothing yet\n", got, 16, &n, why, sizeof why), SOW_OK);
    assert_int_equal(n, 0);
    sow_pos p = start_of();
    assert_int_equal(sow_record_parse(&G, &p, "9", got, 16, &n, NULL, 0), SOW_E_MOVE);
    char small[5];
    memset(small, 'z', sizeof small);
    assert_int_equal(sow_record_parse(&G, &p, "9", got, 16, &n, small, 4), SOW_E_MOVE);
    assert_int_equal(small[3], '\0');
    assert_int_equal(small[4], 'z');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_known_texts),
        cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_move_lists),
        cmocka_unit_test(test_record_example),
        cmocka_unit_test(test_record_real_games),
        cmocka_unit_test(test_record_round_trip),
        cmocka_unit_test(test_record_errors),
    };
    return cmocka_run_group_tests_name("notation", tests, NULL, NULL);
}
