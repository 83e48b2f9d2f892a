/* test_rules.c - the rules of doc/rules.md, example by example.
 *
 * Positions are written in the notation of doc/notation.md
 * (SOUTH-ROW/SOUTH-STORE/NORTH-ROW/NORTH-STORE/TO-MOVE, rows in their
 * owner's pit order, `x` = a tuzdik lying in that row). Every case gives a
 * position, a move list and the exact position that must result; each is
 * also replayed through the naive implementation of tests/naive_rules.h, so
 * a wrong hand computation cannot pass silently either.
 *
 * Pit geometry (doc/rules.md): each player numbers her pits 1..m in sowing
 * order; own pit i faces the opponent's pit m+1-i. From South's seat
 * North's pit 1 is top right, her pit m top left.
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

#define EC SOW_VAR_EMPTY_CAPTURE
#define EOT SOW_VAR_END_ON_TURN
#define NS SOW_VAR_NO_SWEEP
#define PIE SOW_VAR_PIE
#define NT SOW_VAR_NO_TUZDIK

static sow_game G;
static nv_rules R;

/* Sets up game G (m pits; the seed count does not matter for hand-made
 * positions, 1 is always valid). */
static void use(sow_game_id id, int m, unsigned variant)
{
    sow_config c = {id, m, 1, variant};
    assert_int_equal(sow_game_init(&G, &c), SOW_OK);
    R = nv_rules_of(&c);
}

static sow_pos pos(const char *text)
{
    sow_pos p;
    char why[128] = "";
    sow_err e = sow_pos_parse(&G, text, &p, why, sizeof why);
    if (e != SOW_OK)
        print_error("cannot parse '%s': %s\n", text, why);
    assert_int_equal(e, SOW_OK);
    return p;
}

static void assert_pos(const sow_pos *p, const char *want)
{
    char got[SOW_POS_TEXT_MAX];
    sow_pos_format(&G, p, got, sizeof got);
    assert_string_equal(got, want);
    sow_pos w = pos(want);
    assert_true(sow_pos_eq(p, &w));
}

/* Plays `moves` from `from` (each must be legal, for the library and for
 * the naive rules) and checks the result is exactly `want`. */
static sow_pos play(const char *from, const char *moves, const char *want)
{
    sow_pos p = pos(from);
    nv_state s;
    nv_from_pos(&R, &p, &s);
    sow_move ms[64];
    int n;
    assert_int_equal(sow_moves_parse(&G, moves, ms, 64, &n), SOW_OK);
    for (int k = 0; k < n; k++) {
        sow_err e = sow_play(&G, &p, ms[k]);
        if (e != SOW_OK)
            print_error("%s: move %d of '%s' refused (%s)\n", from, k + 1, moves, sow_err_name(e));
        assert_int_equal(e, SOW_OK);
        nv_move nm[2 * SOW_MAX_PITS];
        int nn = nv_moves(&R, &s, nm), found = -1;
        for (int j = 0; j < nn; j++)
            if (nv_to_move(nm[j]) == ms[k])
                found = j;
        assert_true(found >= 0);
        nv_make(&R, &s, nm[found]);
    }
    assert_pos(&p, want);
    sow_pos q;
    nv_to_pos(&R, &s, &q);
    assert_true(sow_pos_eq(&p, &q));
    assert_int_equal(sow_position_check(&G, &p), SOW_OK);
    return p;
}

/* The legal moves of `text`, as a move list string ("1,3,4x"). */
static void assert_moves(const char *text, const char *want)
{
    sow_pos p = pos(text);
    sow_move ms[SOW_MAX_MOVES];
    int n = sow_moves(&G, &p, ms);
    char buf[128] = "", mt[8];
    for (int k = 0; k < n; k++) {
        sow_move_format(ms[k], mt, sizeof mt);
        if (k)
            strcat(buf, ",");
        strcat(buf, mt);
    }
    assert_string_equal(buf, want);
    assert_int_equal(n == 0, sow_over(&G, &p));
}

/* sow_play must refuse `mv` with `err` and leave the position alone. */
static void assert_refused(const char *text, sow_move mv, sow_err err)
{
    sow_pos p = pos(text), before = p;
    assert_int_equal(sow_play(&G, &p, mv), err);
    assert_true(sow_pos_eq(&p, &before));
}

/* Score of a finished position for the mover, and South's final margin. */
static void assert_final(const sow_pos *p, int mover_score, int south_margin)
{
    assert_true(sow_over(&G, p));
    assert_int_equal(sow_terminal_score(&G, p), mover_score);
    assert_int_equal(sow_final_margin(&G, p), south_margin);
    nv_state s;
    nv_from_pos(&R, p, &s);
    assert_true(nv_over(&R, &s));
    nv_score v = nv_terminal(&R, &s);
    assert_int_equal(v.margin * G.score_scale + v.tb, mover_score);
}

/* ------------------------------------------------------------------ */
/* Chungkala: the worked examples of the seed text (000_...)           */

/* "Sud veut semer les 4 graines qui sont dans sa case numéro 4": pits 5,
 * 6, her store, then the top-right pit, which is North's pit 1. */
static void test_chungkala_seed_sow_4_from_pit_4(void **state)
{
    (void)state;
    use(SOW_CHUNGKALA, 6, 0);
    sow_pos p = play("2,3,3,4,3,3/0/3,3,3,3,3,3/0/s", "4", "2,3,3,0,4,4/1/4,3,3,3,3,3/0/n");
    assert_int_equal(sow_pos_pit(&p, SOW_NORTH, 1), 4);
    assert_int_equal(sow_pos_to_move(&p), SOW_NORTH); /* "c'est au tour de Nord" */
    /* the same sowing in a game record from the 6x3 start: 1 (S1 -> S2 S3
     * S4, pit 4 now holds 4), North's 6 (her store, S1, S2), then 4 */
    p = play("3,3,3,3,3,3/0/3,3,3,3,3,3/0/s", "1,6,4", "1,5,4,0,4,4/1/4,3,3,3,3,0/1/n");
    assert_int_equal(sow_pos_pit(&p, SOW_NORTH, 1), 4);
}

/* "Sud décide de semer les 8 graines qui sont en bas à droite": her store,
 * North's pits 1..6 (right to left from South's seat), North's store
 * skipped, and the 8th seed in South's pit 1 (bottom left). */
static void test_chungkala_seed_sow_8_from_right(void **state)
{
    (void)state;
    use(SOW_CHUNGKALA, 6, 0);
    sow_pos p = play("2,2,2,2,2,8/0/3,3,3,3,3,3/0/s", "6", "3,2,2,2,2,0/1/4,4,4,4,4,4/0/n");
    assert_int_equal(sow_pos_store(&p, SOW_NORTH), 0);
    /* The same sowing in Kalah with South's pit 1 empty ends in a capture
     * of North's pit 6, which faces it: no capture in Chungkala. */
    play("0,2,2,2,2,8/0/3,3,3,3,3,3/0/s", "6", "1,2,2,2,2,0/1/4,4,4,4,4,4/0/n");
    use(SOW_KALAH, 6, 0);
    play("0,2,2,2,2,8/0/3,3,3,3,3,3/0/s", "6", "0,2,2,2,2,0/6/4,4,4,4,4,0/0/n");
}

/* The chain of extra turns: 3 seeds from pit 4 into the store; the lone
 * seed of pit 6; the 2 seeds of pit 5; the lone seed of pit 6 again; then
 * the 2 seeds on the left end elsewhere and North is to move. */
static void test_chungkala_seed_extra_turn_chain(void **state)
{
    (void)state;
    use(SOW_CHUNGKALA, 6, 0);
    play("2,1,1,3,1,0/10/3,3,3,3,3,3/0/s", "4", "2,1,1,0,2,1/11/3,3,3,3,3,3/0/s");
    play("2,1,1,0,2,1/11/3,3,3,3,3,3/0/s", "6", "2,1,1,0,2,0/12/3,3,3,3,3,3/0/s");
    play("2,1,1,0,2,0/12/3,3,3,3,3,3/0/s", "5", "2,1,1,0,0,1/13/3,3,3,3,3,3/0/s");
    play("2,1,1,0,0,1/13/3,3,3,3,3,3/0/s", "6", "2,1,1,0,0,0/14/3,3,3,3,3,3/0/s");
    play("2,1,1,0,0,0/14/3,3,3,3,3,3/0/s", "1", "0,2,2,0,0,0/14/3,3,3,3,3,3/0/n");
    /* the whole turn as one game record */
    play("2,1,1,3,1,0/10/3,3,3,3,3,3/0/s", "4,6,5,6,1", "0,2,2,0,0,0/14/3,3,3,3,3,3/0/n");
}

/* The end of a game: South sows the 2 seeds of pit 5 (last one in her
 * store), then the lone seed of pit 6 (store again); she must move again
 * but her row is empty: the game is over, 16 to 15. North's 5 seeds in her
 * row count for nobody. */
static void test_chungkala_seed_end_16_15(void **state)
{
    (void)state;
    use(SOW_CHUNGKALA, 6, 0);
    sow_pos p = play("0,0,0,0,2,0/14/1,0,2,0,1,1/15/s", "5,6", "0,0,0,0,0,0/16/1,0,2,0,1,1/15/s");
    assert_int_equal(sow_pos_to_move(&p), SOW_SOUTH);
    /* margin +1; South's row is empty and North's is not, but the stores
     * differ, so the tie-break does not decide: South wins. Score = 3*1 - 1. */
    assert_final(&p, 3 * 1 - 1, +1);
    assert_true(sow_terminal_score(&G, &p) > 0);
    sow_move ms[SOW_MAX_MOVES];
    assert_int_equal(sow_moves(&G, &p, ms), 0);
    assert_refused("0,0,0,0,0,0/16/1,0,2,0,1,1/15/s", 0, SOW_E_OVER);
    assert_refused("0,0,0,0,0,0/16/1,0,2,0,1,1/15/s", 4, SOW_E_OVER);
}

/* ------------------------------------------------------------------ */
/* Chungkala: the other rules                                         */

static void test_chungkala_rules(void **state)
{
    (void)state;
    use(SOW_CHUNGKALA, 4, 0);
    /* no capture: last seed in an own empty pit facing 5 seeds */
    play("1,0,2,0/0/1,0,5,1/0/s", "1", "0,1,2,0/0/1,0,5,1/0/n");
    /* the game does not end when the opponent's row is empty... */
    assert_moves("0,1,0,0/0/0,0,0,0/0/s", "2");
    /* ...but when the player to move has none: North to move, empty */
    sow_pos p = play("0,1,0,0/0/0,0,0,0/0/s", "2", "0,0,1,0/0/0,0,0,0/0/n");
    assert_final(&p, 0 * 3 - 1, 0); /* equal stores: South still has seeds, wins */
    /* extra turn with an empty row ends the game at once */
    p = play("0,0,0,1/3/2,0,0,0/4/s", "4", "0,0,0,0/4/2,0,0,0/4/s");
    assert_final(&p, -1, 0); /* tie on stores: North (seeds left) wins */
    /* tie-break outcomes from hand-written finished positions */
    p = pos("0,0,0,0/5/0,0,0,0/5/s");
    assert_final(&p, 0, 0); /* nobody has seeds: draw */
    p = pos("0,0,0,0/5/1,0,0,0/5/s");
    assert_final(&p, -1, 0);
    p = pos("1,0,0,0/5/0,0,0,0/5/n");
    assert_final(&p, -1, 0); /* North to move, empty; South has seeds */
    p = pos("0,0,0,0/6/2,0,0,0/4/s");
    assert_final(&p, 3 * 2 - 1, 2); /* stores decide; leftovers count for nobody */
    p = pos("0,0,0,0/4/2,0,0,0/6/s");
    assert_final(&p, 3 * -2 - 1, -2);
    assert_int_equal(sow_score_margin(&G, 3 * -2 - 1), -2);
    assert_int_equal(sow_score_margin(&G, 3 * -2 + 1), -2);
    assert_int_equal(sow_score_margin(&G, -1), 0);
    assert_int_equal(sow_score_margin(&G, 1), 0);
    assert_int_equal(sow_score_margin(&G, 5), 2);
    /* a lap passes the own store, not the opponent's, and the origin */
    use(SOW_CHUNGKALA, 2, 0);
    play("0,10/0/1,1/7/s", "2", "2,2/2/3,3/7/n"); /* two laps, ends in the origin */
    play("0,11/0/1,1/7/s", "2", "2,2/3/3,3/7/s"); /* ...one more: store, again */
}

/* ------------------------------------------------------------------ */
/* Kalah                                                               */

static void test_kalah_capture(void **state)
{
    (void)state;
    use(SOW_KALAH, 4, 0);
    /* pit 1 -> pit 2 (empty), which faces North's pit 3 (4+1-2) */
    play("1,0,2,0/0/1,0,5,1/0/s", "1", "0,0,2,0/6/1,0,0,1/0/n");
    /* opposite pit empty: nothing is captured, the turn ends */
    play("1,0,2,0/0/1,5,0,1/0/s", "1", "0,1,2,0/0/1,5,0,1/0/n");
    /* last seed in an own pit that was occupied: nothing */
    play("1,1,2,0/0/1,5,3,1/0/s", "1", "0,2,2,0/0/1,5,3,1/0/n");
    /* last seed in an empty pit of the opponent: nothing */
    play("1,0,0,2/0/0,1,3,1/0/s", "4", "1,0,0,0/1/1,1,3,1/0/n");
    /* North captures too, from her point of view: her pit 3 faces South's 2 */
    play("1,4,2,0/0/0,1,0,1/0/n", "2", "1,0,2,0/0/0,0,0,1/5/s");

    use(SOW_KALAH, 4, EC);
    play("1,0,2,0/0/1,0,5,1/0/s", "1", "0,0,2,0/6/1,0,0,1/0/n");
    /* empty-capture: the lone seed goes to the store */
    play("1,0,2,0/0/1,5,0,1/0/s", "1", "0,0,2,0/1/1,5,0,1/0/n");
    play("1,1,2,0/0/1,5,3,1/0/s", "1", "0,2,2,0/0/1,5,3,1/0/n");
}

/* "Empty" means empty just before the last seed falls: a lap that ends in
 * the emptied origin finds it empty (one lap), not so with two laps; a pit
 * that already got a seed of this sowing is not empty. Ring of Kalah(2):
 * S1 S2 store N1 N2, 5 holes. */
static void test_kalah_laps(void **state)
{
    (void)state;
    use(SOW_KALAH, 2, 0);
    /* 5 seeds from S1: S2 st N1 N2 S1 -> S1 was emptied: capture with N2 */
    play("5,0/0/0,1/0/s", "1", "0,1/4/1,0/0/n");
    /* 10 seeds: two laps, S1 gets its 2nd seed: not empty, no capture */
    play("10,0/0/0,1/0/s", "1", "2,2/2/2,3/0/n");
    /* 6 seeds: S2 gets a seed in the first lap, so the last is no capture */
    play("6,0/0/0,1/0/s", "1", "1,2/1/1,2/0/n");
    /* 3 seeds from S2: st N1 N2, last in N2 (opponent's): nothing */
    play("1,3/0/1,1/0/s", "2", "1,0/1/2,2/0/n");
    /* one lap into the emptied origin: it captures the seed the lap just
     * dropped into the opposite pit */
    use(SOW_KALAH, 2, EC);
    play("5,1/0/1,0/0/s", "1", "0,2/3/2,0/0/n");
}

/* The end: either row empty, checked after every move (capture included)
 * and before an extra turn; each player then takes her own row. */
static void test_kalah_end_and_sweep(void **state)
{
    (void)state;
    use(SOW_KALAH, 3, 0);
    /* a capture empties North's row: over, South sweeps her 3 */
    sow_pos p = play("1,0,3/0/0,4,0/2/s", "1", "0,0,0/8/0,0,0/2/n");
    assert_final(&p, 2 - 8, 6);
    /* South's own row runs empty with her move: North sweeps hers */
    p = play("0,0,2/3/1,1,0/2/s", "3", "0,0,0/4/0,0,0/5/n");
    assert_final(&p, 1, -1);
    /* an extra turn with an empty row: the game ends before it */
    p = play("0,0,1/3/1,1,0/2/s", "3", "0,0,0/4/0,0,0/4/s");
    assert_final(&p, 0, 0);
    assert_refused("0,0,0/4/0,0,0/4/s", 0, SOW_E_OVER);
    /* an unswept finished position (hand-written) scores with the sweep */
    p = pos("0,0,0/4/2,1,0/2/n");
    assert_final(&p, 1, -1);

    /* no-sweep: leftovers count for nobody */
    use(SOW_KALAH, 3, NS);
    p = play("1,0,3/0/0,4,0/2/s", "1", "0,0,3/5/0,0,0/2/n");
    assert_final(&p, 2 - 5, 3);
    p = play("0,0,2/3/1,1,0/2/s", "3", "0,0,0/4/2,1,0/2/n");
    assert_final(&p, -2, 2);

    /* end-on-turn: only the mover's empty row ends it */
    use(SOW_KALAH, 3, EOT);
    p = play("0,0,2/3/1,1,0/2/s", "3", "0,0,0/4/2,1,0/2/n");
    assert_false(sow_over(&G, &p));
    assert_moves("0,0,0/4/2,1,0/2/n", "1,2");
    p = play("0,0,0/4/2,1,0/2/n", "2", "0,0,0/4/0,0,0/5/s");
    assert_final(&p, -1, -1);
    /* the capture empties North's row, North is to move: over, South sweeps */
    p = play("1,0,3/0/0,4,0/2/s", "1", "0,0,0/8/0,0,0/2/n");
    assert_final(&p, -6, 6);
    /* North's row empty but South to move after an extra turn: go on */
    p = play("0,1,1/0/0,0,0/2/s", "3", "0,1,0/1/0,0,0/2/s");
    assert_false(sow_over(&G, &p));
    p = play("0,1,0/1/0,0,0/2/s", "2", "0,0,0/2/0,0,0/2/n");
    assert_final(&p, 0, 0);
    p = pos("2,0,0/0/0,0,0/2/s");
    assert_false(sow_over(&G, &p));
    assert_moves("2,0,0/0/0,0,0/2/s", "1");

    /* end-on-turn + no-sweep */
    use(SOW_KALAH, 3, EOT | NS);
    p = play("0,0,2/3/1,1,0/2/s", "3,2", "0,0,0/4/2,0,1/2/s");
    assert_final(&p, 2, 2);

    /* default rules again: South's extra turn left North's row empty? It
     * cannot be; but a North row emptied by South's capture ends the game
     * even though South would have had seeds to play. */
    use(SOW_KALAH, 3, 0);
    assert_moves("2,0,0/0/0,0,0/2/s", "");
    assert_moves("0,1,1/0/0,0,0/2/s", "");
}

/* The pie rule changes only the solved value (test_refsolve): moves and
 * positions are those of plain Kalah. */
static void test_kalah_pie_same_moves(void **state)
{
    (void)state;
    use(SOW_KALAH, 4, PIE);
    play("1,0,2,0/0/1,0,5,1/0/s", "1", "0,0,2,0/6/1,0,0,1/0/n");
    assert_true(G.pie);
}

/* ------------------------------------------------------------------ */
/* Congkak                                                             */

static void test_congkak_relay(void **state)
{
    (void)state;
    use(SOW_CONGKAK, 3, 0);
    /* S1(4): S2 S3 st N1 -> N1 held 1: relay 2: N2 N3 -> N3 held 1: relay
     * 2: S1 S2 -> S2 held 1: relay 2: S3 st -> store: extra turn. Two
     * passes through the store, relays from opponent pits and an own pit. */
    play("4,0,0/0/1,1,1/0/s", "1", "1,0,2/2/0,2,0/0/s");
    /* relays that end in an own empty pit: capture, then North's row is
     * empty: game over, South sweeps */
    sow_pos p = play("0,0,2/0/1,2,1/0/s", "3", "0,0,0/6/0,0,0/0/n");
    assert_final(&p, -6, 6);
    /* a relay that itself laps the ring (Congkak(2): S1 S2 st N1 N2):
     * S1(3): S2 st N1 -> N1 held 6: relay 7: N2 S1 S2 st N1 N2 S1 (N1, its
     * origin, gets a seed again) -> S1 held 1: relay 2: S2 st: extra turn */
    use(SOW_CONGKAK, 2, 0);
    play("3,0/0/6,0/0/s", "1", "0,3/3/1,2/0/s");
    use(SOW_CONGKAK, 3, 0);
    /* North relays too: N1(4): N2 N3 her store S1 -> relay 2: S2 S3 ->
     * relay 2: N1 N2 -> relay 2: N3 store: extra turn */
    play("1,1,1/0/4,0,0/0/n", "1", "0,2,0/0/1,0,2/2/n");
}

static void test_congkak_landings(void **state)
{
    (void)state;
    use(SOW_CONGKAK, 4, 0);
    /* own empty pit, opposite non-empty: capture (S2 faces N3) */
    play("1,0,0,1/0/3,0,2,1/0/s", "1", "0,0,0,1/3/3,0,0,1/0/n");
    /* own empty pit, opposite empty: nothing, turn ends */
    play("1,0,0,1/0/3,2,0,1/0/s", "1", "0,1,0,1/0/3,2,0,1/0/n");
    /* dead seed in an empty opponent pit: the turn ends */
    play("1,0,0,2/0/0,1,0,1/0/s", "4", "1,0,0,0/1/1,1,0,1/0/n");
    /* store: extra turn */
    play("1,0,0,1/0/0,1,0,1/0/s", "4", "1,0,0,0/1/0,1,0,1/0/s");
    /* South's row is empty in the middle of the relay (after S4 is picked
     * up) while seeds are still in hand: the game goes on. S4(2): st N1 ->
     * relay 2: N2 N3 -> relay 3: N4 S1 S2 -> S2 was empty, faces N3 which
     * was just emptied: nothing. */
    sow_pos p = play("0,0,0,2/0/1,1,2,0/0/s", "4", "1,1,0,0/1/0,2,0,1/0/n");
    assert_false(sow_over(&G, &p));
    /* the end is checked once the move is over: a relay that empties the
     * mover's row ends the game, and the opponent sweeps */
    p = play("0,0,0,2/0/1,0,0,2/0/s", "4", "0,0,0,0/1/0,0,0,0/4/n");
    assert_final(&p, 3, -3);
    /* extra turn with the own row empty: over before it */
    p = play("0,0,0,1/0/1,0,0,2/0/s", "4", "0,0,0,0/1/0,0,0,0/3/s");
    assert_final(&p, -2, -2);
}

/* ------------------------------------------------------------------ */
/* The landing table (sow_game.land) against seed-by-seed sowing         */

/* The ring index of a naive hole, mover 0: her pits, her store (store
 * games), the opponent's pits (RULES.md, rule 1 of each game). */
static int nv_ring_index(const nv_rules *r, nv_hole h)
{
    int stores = r->game != SOW_TOGUZ;
    return h.side == 0 ? h.k : r->m + stores + h.k;
}

/* Every game, board width, pit and seed count: where the table says the
 * last seed lands and how many seeds each hole gets is what sowing one
 * seed at a time from an otherwise empty board gives (the first sowing:
 * no relay, no capture looked at). */
static void test_landing_table(void **state)
{
    (void)state;
    for (int id = 0; id < SOW_GAME_COUNT; id++) {
        for (int m = sow_pits_min((sow_game_id)id); m <= SOW_MAX_PITS; m++) {
            sow_config c = {(sow_game_id)id, m, 1, 0};
            sow_game g;
            assert_int_equal(sow_game_init(&g, &c), SOW_OK);
            nv_rules r = nv_rules_of(&c);
            int L = g.ring_len;
            for (int i = 0; i < m; i++)
                for (int s = 1; s <= SOW_MAX_TOTAL; s++) {
                    nv_state st;
                    memset(&st, 0, sizeof st);
                    st.pit[0][i] = s;
                    nv_hole last;
                    if (id == SOW_TOGUZ) {
                        last = nv_toguz_sow(&r, &st, i);
                    } else {
                        st.pit[0][i] = 0;
                        last = nv_sow_from(&r, &st, 0, (nv_hole){0, i}, s);
                    }
                    sow_land e = g.land[i][s];
                    int byte = e.byte, laps = e.laps, k = e.k, start = e.start;
                    int want = last.side == 0 ? (last.k == m ? SOW_B_STORE : last.k)
                                              : SOW_HALF + last.k;
                    assert_int_equal(byte, want);
                    assert_int_equal(nv_ring_index(&r, last), (start + k) % L);
                    for (int h = 0; h < L; h++) {
                        int d = (h - start - 1 + L) % L;
                        int got = h < m ? st.pit[0][h]
                                  : h == m && id != SOW_TOGUZ ? st.store[0]
                                                              : st.pit[1][h - L + m];
                        assert_int_equal(got, laps + (d < k));
                    }
                }
        }
    }
}

/* ------------------------------------------------------------------ */
/* Toguz Kumalak                                                       */

static void test_toguz_sowing(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 3, 0);
    /* origin first: S2(3) -> S2 S3 N1; N1 becomes 2: even, captured */
    play("0,3,0/0/1,1,1/0/s", "2", "0,1,1/2/0,1,1/0/n");
    /* singleton: the seed moves to the next pit */
    play("0,1,0/0/1,1,1/0/s", "2", "0,0,1/0/1,1,1/0/n");
    /* odd count (not 3) on the opponent's side: nothing */
    play("0,0,1/0/4,1,1/0/s", "3", "0,0,0/0/5,1,1/0/n");
    /* landing in an own pit: nothing, even if the count is even */
    play("2,1,0/0/1,1,1/0/s", "1", "1,2,0/0/1,1,1/0/n");
    /* a long sowing laps the ring (kazans are never sown): S1(8) from S1 */
    play("8,0,0/0/0,1,0/0/s", "1", "2,2,1/0/1,2,1/0/n");
    /* the same seed count from S1 with 7 seeds ends in S1: nothing */
    play("7,0,0/0/0,1,0/0/s", "1", "2,1,1/0/1,2,1/0/n");
    /* singleton that lands in the opponent's pit 1 making it even */
    play("0,0,1/0/1,1,1/0/s", "3", "0,0,0/2/0,1,1/0/n");
}

static void test_toguz_end(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 3, 0);
    /* the opponent's row empty does not end it: only the mover's */
    assert_moves("1,0,0/0/0,0,0/0/s", "1");
    sow_pos p = play("0,0,1/0/1,1,1/0/s", "3", "0,0,0/2/0,1,1/0/n");
    assert_false(sow_over(&G, &p));
    /* North moves, South has no seed: over, North sweeps her row */
    p = play("0,0,0/2/0,1,1/0/n", "2", "0,0,0/2/0,0,0/2/s");
    assert_final(&p, 0, 0);
    /* a hand-written finished position scores with the sweep */
    p = pos("0,0,0/10/1,2,0/5/s");
    assert_final(&p, 10 - 5 - 3, 2);
    /* seeds in a tuzdik cannot exist; the mover's only seeds... a row
     * whose only pit is the opponent's tuzdik is empty */
    p = pos("0,x,0/10/1,2,0/5/s");
    assert_final(&p, 2, 2);
    assert_refused("0,x,0/10/1,2,0/5/s", 1, SOW_E_OVER);
    /* perpetual play: the kazan difference for the mover, seeds in pits
     * counting for nobody (doc/rules.md Toguz 6) */
    p = pos("1,0,4/10/1,2,0/3/s");
    assert_int_equal(sow_perpetual_score(&G, &p), 7);
    p = pos("1,0,4/10/1,2,0/3/n");
    assert_int_equal(sow_perpetual_score(&G, &p), -7);
}

static void test_toguz_tuzdik(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 4, 0);
    /* S4(2): S4 N1; N1 becomes 3: declining (4) or claiming (4x) */
    assert_moves("0,0,0,2/0/2,0,0,1/0/s", "4,4x");
    play("0,0,0,2/0/2,0,0,1/0/s", "4", "0,0,0,1/0/3,0,0,1/0/n");
    sow_pos p = play("0,0,0,2/0/2,0,0,1/0/s", "4x", "0,0,0,1/3/x,0,0,1/0/n");
    assert_int_equal(sow_pos_tuzdik(&p, SOW_SOUTH), 1);
    assert_int_equal(sow_pos_tuzdik(&p, SOW_NORTH), 0);
    /* North claims South's pit 2: N4(3): N4 S1 S2 */
    p = play("1,2,0,0/0/0,0,0,3/0/n", "4x", "2,x,0,0/0/0,0,0,1/3/s");
    assert_int_equal(sow_pos_tuzdik(&p, SOW_NORTH), 2);

    /* restriction 1: she already has a tuzdik */
    assert_moves("0,0,0,2/5/2,x,0,1/0/s", "4");
    assert_refused("0,0,0,2/5/2,x,0,1/0/s", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    /* restriction 2: never the opponent's pit m. S4(5): S4 N1 N2 N3 N4 */
    assert_moves("0,0,0,5/0/1,1,1,2/0/s", "4");
    play("0,0,0,5/0/1,1,1,2/0/s", "4", "0,0,0,1/0/2,2,2,3/0/n");
    assert_refused("0,0,0,5/0/1,1,1,2/0/s", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    /* restriction 3: not the mirror of the opponent's tuzdik (same pit
     * number): North holds South's pit 1, so South may not claim N1 */
    assert_moves("x,0,0,2/0/2,0,0,1/3/s", "4");
    assert_refused("x,0,0,2/0/2,0,0,1/3/s", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    /* ...but with North's tuzdik on South's pit 2, N1 is fine */
    assert_moves("0,x,0,2/0/2,0,0,1/3/s", "4,4x");
    play("0,x,0,2/0/2,0,0,1/3/s", "4x", "0,x,0,1/3/x,0,0,1/3/n");
    /* a claim of a pit that does not get exactly 3 is refused */
    assert_refused("0,0,0,2/0/3,0,0,1/0/s", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);

    /* a full 9x9 game record with both claims (the example of
     * doc/notation.md), replayed by the library and the naive rules */
    use(SOW_TOGUZ, 9, 0);
    p = play("9,9,9,9,9,9,9,9,9/0/9,9,9,9,9,9,9,9,9/0/s",
             "2,8,1,8,6,8,2,5,7,2,6,5,3,4,4,5,7,1,5,2,9,9,7,7,9,9,8,5,5,2,6x,2,4,6x",
             "15,13,2,x,3,3,7,6,6/18/9,2,25,12,x,2,7,12,5/15/s");
    assert_int_equal(sow_pos_tuzdik(&p, SOW_SOUTH), 5);
    assert_int_equal(sow_pos_tuzdik(&p, SOW_NORTH), 4);

    /* no-tuzdik variant: the same landing generates no claim */
    use(SOW_TOGUZ, 4, NT);
    assert_moves("0,0,0,2/0/2,0,0,1/0/s", "4");
    assert_refused("0,0,0,2/0/2,0,0,1/0/s", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    play("0,0,0,2/0/2,0,0,1/0/s", "4", "0,0,0,1/0/3,0,0,1/0/n");
}

static void test_toguz_seeds_into_tuzdik(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 4, 0);
    /* South owns N2. S4(4): S4 N1 N2(-> South's kazan) N3; N3 even: capture */
    play("0,0,0,4/3/1,x,1,1/0/s", "4", "0,0,0,1/6/2,x,0,1/0/n");
    /* last seed into her own tuzdik: to her kazan, nothing else (N1 ends
     * even but is not where the last seed fell) */
    play("0,0,0,3/3/1,x,1,1/0/s", "4", "0,0,0,1/4/2,x,1,1/0/n");
    /* North owns S2: South's seed that falls there goes to North */
    play("4,x,0,0/0/1,1,1,1/3/s", "1", "1,x,1,1/0/1,1,1,1/4/n");
    /* North's N4(3): N4 S1 S2, her own tuzdik: to her kazan, nothing else */
    play("1,x,1,1/0/1,0,0,3/3/n", "4", "2,x,1,1/0/1,0,0,1/4/s");
    /* a lap over both tuzdiks (South owns N3, North owns S2) */
    play("9,x,0,0/0/0,0,x,0/0/s", "1", "2,x,1,1/1/1,1,x,1/1/n");
    /* the opponent's tuzdik in the mover's row cannot be played */
    assert_moves("0,x,0,1/0/1,1,1,1/3/s", "4");
    assert_refused("0,x,0,1/0/1,1,1,1/3/s", 1, SOW_E_MOVE);
}

/* Tuzdik corner cases (doc/rules.md, Toguz 2, 4, 5), each worked by hand
 * on the 4-pit board (ring S1..S4 N1..N4). Text: South's row / her kazan /
 * North's row / hers / mover; "x" in a row is the OTHER player's tuzdik. */
static void test_toguz_tuzdik_corners(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 4, 0);
    /* The last seed into the opponent's tuzdik in the mover's own row.
     * North owns S1. S4(6): S4 N1 N2 N3 N4 S1; the seed for S1 goes to
     * North's kazan, and the move ends there: N1, which now holds 2 (even),
     * is not where the last seed fell, so nothing is captured; no claim
     * is offered though South has no tuzdik. */
    assert_moves("x,0,0,6/0/1,0,0,0/0/s", "4");
    play("x,0,0,6/0/1,0,0,0/0/s", "4", "x,0,0,1/0/2,1,1,1/1/n");
    /* The last seed into the mover's own tuzdik when it would have made
     * 3 there: South owns N2 (empty, as a tuzdik always is). S4(3): S4 N1
     * N2 -> South's kazan. No claim (she has one, and the seed is gone),
     * no capture of N1 (2, even, but not the last pit). */
    assert_moves("0,0,0,3/0/1,x,2,0/0/s", "4");
    play("0,0,0,3/0/1,x,2,0/0/s", "4", "0,0,0,1/1/2,x,2,0/0/n");

    /* North's claims, the mirror of the South cases of test_toguz_tuzdik.
     * N4(3): N4 S1 S2; S2 becomes 3.
     * - free: "4x" claims S2 (see test_toguz_tuzdik);
     * - South owns N2: S2 is the mirrored pit (same number), refused; */
    assert_moves("1,2,0,0/3/0,x,0,3/0/n", "4");
    assert_refused("1,2,0,0/3/0,x,0,3/0/n", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    play("1,2,0,0/3/0,x,0,3/0/n", "4", "2,3,0,0/3/0,x,0,1/0/s");
    /* - South owns N3 instead: S2 may be claimed */
    assert_moves("1,2,0,0/3/0,0,x,3/0/n", "4,4x");
    play("1,2,0,0/3/0,0,x,3/0/n", "4x", "2,x,0,0/3/0,0,x,1/3/s");
    /* - North already owns S3: refused */
    assert_moves("1,2,x,0/0/0,0,0,3/3/n", "4");
    assert_refused("1,2,x,0/0/0,0,0,3/3/n", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    play("1,2,x,0/0/0,0,0,3/3/n", "4", "2,3,x,0/0/0,0,0,1/3/s");
    /* - South's pit m (S4): N4(5): N4 S1 S2 S3 S4; S4 becomes 3, refused */
    assert_moves("1,1,1,2/0/0,0,0,5/0/n", "4");
    assert_refused("1,1,1,2/0/0,0,0,5/0/n", 3 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    play("1,1,1,2/0/0,0,0,5/0/n", "4", "2,2,2,3/0/0,0,0,1/0/s");
    /* South's pit m-1 (S3) is fine: N4(4): N4 S1 S2 S3 */
    assert_moves("1,1,2,0/0/0,0,0,4/0/n", "4,4x");

    /* The end (rule 5) with seeds only next to tuzdiks. North owns S2,
     * South owns N3. North's N2(1) moves on to N3, South's tuzdik: to
     * South's kazan (10 -> 11). South to move has no seed outside
     * North's tuzdik: the game is over, and North's N4 (2 seeds, next to
     * South's tuzdik) goes to North, the row's owner (5 -> 7), not to the
     * tuzdik's owner. South's total 11, North's 7: +4. */
    sow_pos p = play("0,x,0,0/10/0,1,x,2/5/n", "2", "0,x,0,0/11/0,0,x,0/7/s");
    assert_final(&p, 4, 4);
    /* Without the move: the same ending position unswept scores alike. */
    p = pos("0,x,0,0/11/0,0,x,2/5/s");
    assert_final(&p, 4, 4);
    /* One seed next to the opponent's tuzdik is a move: not over. */
    assert_moves("0,x,1,0/11/0,0,x,2/5/s", "3");
    /* North to move with her only seeds in... none: N1 N2 N4 empty, N3
     * South's tuzdik; South's S3 and S4 (next to North's tuzdik S2) go to
     * South: 11 + 3 - 5 = +9 for South, -9 for North (to move). */
    p = pos("0,x,1,2/11/0,0,x,0/5/n");
    assert_final(&p, -9, 9);
}

/* ------------------------------------------------------------------ */
/* Checked play, position checks, configurations                       */

/* sow_end_reason sees the row that ran empty before the sweep hides it. */
static sow_end end_of(const char *from, const char *move)
{
    sow_pos p = pos(from);
    sow_move mv;
    int n;
    sow_end e;
    if (move)
        assert_int_equal(sow_moves_parse(&G, move, &mv, 1, &n), SOW_OK);
    assert_int_equal(sow_end_reason(&G, &p, move ? &mv : NULL, &e), SOW_OK);
    return e;
}

static void test_end_reason(void **state)
{
    (void)state;
    use(SOW_KALAH, 3, 0);
    /* South's own move empties her row; North sweeps her 3 (the final
     * position, both rows empty, cannot tell) */
    sow_end e = end_of("0,0,2/3/1,1,0/2/s", "3");
    assert_int_equal(e.to_move, SOW_NORTH);
    assert_true(e.empty[SOW_SOUTH] && !e.empty[SOW_NORTH]);
    assert_int_equal(e.left[SOW_NORTH], 3);
    assert_true(e.swept);
    assert_int_equal(e.total[SOW_SOUTH], 4);
    assert_int_equal(e.total[SOW_NORTH], 5);
    assert_int_equal(e.winner, SOW_NORTH);
    assert_false(e.tiebreak);
    /* a capture empties North's row; South sweeps hers */
    e = end_of("1,0,3/0/0,4,0/2/s", "1");
    assert_true(!e.empty[SOW_SOUTH] && e.empty[SOW_NORTH]);
    assert_int_equal(e.left[SOW_SOUTH], 3);
    assert_int_equal(e.total[SOW_SOUTH], 8);
    assert_int_equal(e.winner, SOW_SOUTH);
    /* errors: not over, illegal, already over */
    sow_pos p = pos("0,0,2/3/1,1,0/2/s");
    sow_move mv = 0;
    assert_int_equal(sow_end_reason(&G, &p, NULL, &e), SOW_E_POSITION);
    assert_int_equal(sow_end_reason(&G, &p, &mv, &e), SOW_E_MOVE);
    p = pos("0,1,2/3/1,1,0/2/s");
    mv = 1; /* pit 2 leaves pit 3 */
    assert_int_equal(sow_end_reason(&G, &p, &mv, &e), SOW_E_POSITION);
    p = pos("0,0,0/4/0,0,0/5/n");
    assert_int_equal(sow_end_reason(&G, &p, &mv, &e), SOW_E_OVER);
    /* the swept final position as given: both rows empty */
    e = end_of("0,0,0/4/0,0,0/5/n", NULL);
    assert_true(e.empty[SOW_SOUTH] && e.empty[SOW_NORTH]);
    assert_int_equal(e.winner, SOW_NORTH);

    /* no-sweep: the seeds left count for nobody */
    use(SOW_KALAH, 3, NS);
    e = end_of("1,0,3/0/0,4,0/2/s", "1");
    assert_false(e.swept);
    assert_int_equal(e.left[SOW_SOUTH], 3);
    assert_int_equal(e.total[SOW_SOUTH], 5);
    assert_int_equal(e.total[SOW_NORTH], 2);

    /* Chungkala: equal stores, the tie-break decides */
    use(SOW_CHUNGKALA, 4, 0);
    e = end_of("1,0,0,0/5/0,0,0,0/5/n", NULL);
    assert_int_equal(e.to_move, SOW_NORTH);
    assert_true(e.empty[SOW_NORTH]);
    assert_int_equal(e.winner, SOW_SOUTH);
    assert_true(e.tiebreak);
    e = end_of("0,0,0,0/5/0,0,0,0/5/n", NULL);
    assert_int_equal(e.winner, -1);
    assert_false(e.tiebreak);

    /* Toguz: North's move leaves South, to move, without a stone */
    use(SOW_TOGUZ, 3, 0);
    e = end_of("0,0,0/2/0,1,1/0/n", "2");
    assert_int_equal(e.to_move, SOW_SOUTH);
    assert_true(e.empty[SOW_SOUTH]);
    assert_int_equal(e.left[SOW_NORTH], 2);
    assert_int_equal(e.total[SOW_NORTH], 2);
    assert_int_equal(e.winner, -1);
}

/* More than half of all the seeds in a store decides the game. */
static void test_decided(void **state)
{
    (void)state;
    use(SOW_TOGUZ, 3, 0);
    sow_pos p = pos("1,0,0/10/1,2,0/5/s"); /* 10 of 19 */
    assert_int_equal(sow_decided(&G, &p), SOW_SOUTH);
    p = pos("1,0,4/10/1,2,0/3/s"); /* 10 of 21 */
    assert_int_equal(sow_decided(&G, &p), -1);
    p = pos("0,0,0/2/1,0,0/9/n"); /* North's 9 of 12 */
    assert_int_equal(sow_decided(&G, &p), SOW_NORTH);
    use(SOW_KALAH, 3, 0);
    p = pos("1,1,1/6/1,1,1/3/s"); /* 6 of 12: not more than half */
    assert_int_equal(sow_decided(&G, &p), -1);
}

static void test_play_errors(void **state)
{
    (void)state;
    use(SOW_KALAH, 4, 0);
    assert_refused("1,0,2,0/0/1,0,5,1/0/s", 1, SOW_E_MOVE);   /* empty pit */
    assert_refused("1,0,2,0/0/1,0,5,1/0/s", 4, SOW_E_MOVE);   /* pit 5 of 4 */
    assert_refused("1,0,2,0/0/1,0,5,1/0/s", 15, SOW_E_MOVE);
    assert_refused("1,0,2,0/0/1,0,5,1/0/s", 0 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    assert_refused("0,0,0,0/5/1,0,5,1/0/s", 0, SOW_E_OVER);
    assert_refused("0,0,0,0/5/1,0,5,1/0/s", 2, SOW_E_OVER);
    use(SOW_TOGUZ, 4, 0);
    assert_refused("1,0,2,0/0/1,0,5,1/0/n", 1, SOW_E_MOVE);   /* North's pit 2 empty */
    assert_refused("1,0,2,0/0/1,0,5,1/0/n", 0 | SOW_MOVE_CLAIM, SOW_E_MOVE);
    assert_refused("0,0,0,0/0/1,0,5,1/0/s", 0, SOW_E_OVER);
}

static void test_position_check(void **state)
{
    (void)state;
    use(SOW_KALAH, 4, 0);
    sow_pos ok = pos("1,0,2,0/0/1,0,5,1/0/s"), p;
    assert_int_equal(sow_position_check(&G, &ok), SOW_OK);
    /* side flags: both North, both South, a stray flag bit */
    p = ok;
    p.b[SOW_B_FLAGS] = 1;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p = ok;
    p.b[SOW_HALF + SOW_B_FLAGS] = 0;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p = ok;
    p.b[SOW_B_FLAGS] |= 2;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    /* seeds beyond pit m, or in the unused bytes */
    for (int h = 0; h < 2; h++)
        for (int k = 4; k < SOW_B_TUZDIK; k++) {
            p = ok;
            p.b[SOW_HALF * h + k] = 1;
            assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
        }
    /* more than 255 seeds */
    p = ok;
    p.b[SOW_B_STORE] = 200;
    p.b[SOW_HALF + SOW_B_STORE] = 50;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p.b[SOW_HALF + SOW_B_STORE] = 45; /* 10 + 200 + 45 = 255: fine */
    assert_int_equal(sow_position_check(&G, &p), SOW_OK);
    /* a tuzdik outside Toguz */
    p = ok;
    p.b[SOW_B_TUZDIK] = 2;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);

    use(SOW_TOGUZ, 4, 0);
    ok = pos("1,0,2,0/0/1,0,5,1/0/s");
    p = ok;
    p.b[SOW_B_TUZDIK] = 2; /* mover (South) owns North's pit 2, which is empty */
    assert_int_equal(sow_position_check(&G, &p), SOW_OK);
    p.b[SOW_B_TUZDIK] = 1; /* North's pit 1 holds a seed */
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p.b[SOW_B_TUZDIK] = 4; /* the opponent's pit m */
    p.b[SOW_HALF + 3] = 0;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p.b[SOW_B_TUZDIK] = 5; /* beyond m */
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p = ok;
    p.b[SOW_B_TUZDIK] = 2;          /* South owns N2 */
    p.b[SOW_HALF + SOW_B_TUZDIK] = 2; /* North owns S2: mirror */
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p.b[SOW_HALF + SOW_B_TUZDIK] = 3; /* North owns S3, which holds 2 */
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
    p.b[SOW_B_TUZDIK - 0] = 2;
    p.b[2] = 0;
    assert_int_equal(sow_position_check(&G, &p), SOW_OK);
    use(SOW_TOGUZ, 4, NT);
    p = ok;
    p.b[SOW_B_TUZDIK] = 2;
    assert_int_equal(sow_position_check(&G, &p), SOW_E_POSITION);
}

static void test_config(void **state)
{
    (void)state;
    for (int id = 0; id < SOW_GAME_COUNT; id++) {
        int lo = id == SOW_TOGUZ ? 2 : 1;
        assert_int_equal(sow_pits_min((sow_game_id)id), lo);
        for (int m = -1; m <= SOW_MAX_PITS + 2; m++) {
            sow_config c = {(sow_game_id)id, m, 1, 0};
            sow_game g;
            sow_err want = (m >= lo && m <= 9) ? SOW_OK : SOW_E_PITS;
            assert_int_equal(sow_config_check(&c), want);
            assert_int_equal(sow_game_init(&g, &c), want);
            if (m < 1 || m > 9)
                continue;
            int nmax = 255 / (2 * m);
            assert_int_equal(sow_seeds_max(m), nmax);
            c.seeds = 0;
            assert_int_equal(sow_config_check(&c), m >= lo ? SOW_E_SEEDS : SOW_E_PITS);
            c.seeds = nmax;
            assert_int_equal(sow_config_check(&c), want);
            c.seeds = nmax + 1;
            assert_int_equal(sow_config_check(&c), m >= lo ? SOW_E_SEEDS : SOW_E_PITS);
        }
        /* variants apply to their own game only */
        for (int i = 0; i < SOW_VAR_COUNT + 2; i++) {
            unsigned f = 1u << i;
            sow_config c = {(sow_game_id)id, 4, 3, f};
            bool applies = (id == SOW_KALAH && f <= PIE) || (id == SOW_TOGUZ && f == NT);
            assert_int_equal(sow_config_check(&c), applies ? SOW_OK : SOW_E_VARIANT);
            assert_int_equal((sow_variants_of((sow_game_id)id) & f) != 0, applies);
        }
    }
    sow_config c = {SOW_GAME_COUNT, 4, 3, 0};
    assert_int_equal(sow_config_check(&c), SOW_E_GAME);
    c.game = (sow_game_id)-1;
    assert_int_equal(sow_config_check(&c), SOW_E_GAME);
    c = (sow_config){SOW_KALAH, 4, 3, EC | EOT | NS | PIE};
    assert_int_equal(sow_config_check(&c), SOW_OK);

    /* the default boards of doc/rules.md */
    static const int dm[] = {6, 6, 7, 9}, dn[] = {4, 3, 7, 9};
    for (int id = 0; id < SOW_GAME_COUNT; id++) {
        sow_config_default((sow_game_id)id, &c);
        assert_int_equal(c.pits, dm[id]);
        assert_int_equal(c.seeds, dn[id]);
        assert_int_equal(c.variant, 0);
        assert_int_equal(sow_config_check(&c), SOW_OK);
    }

    /* names */
    sow_game_id id;
    assert_int_equal(sow_game_parse("kalah", &id), SOW_OK);
    assert_int_equal(id, SOW_KALAH);
    assert_int_equal(sow_game_parse("toguz", &id), SOW_OK);
    assert_int_equal(id, SOW_TOGUZ);
    assert_int_equal(sow_game_parse("chungkala", &id), SOW_OK);
    assert_int_equal(sow_game_parse("congkak", &id), SOW_OK);
    assert_int_equal(sow_game_parse("Kalah", &id), SOW_E_GAME);
    assert_int_equal(sow_game_parse("", &id), SOW_E_GAME);
    assert_int_equal(sow_game_parse("oware", &id), SOW_E_GAME);
    unsigned v;
    assert_int_equal(sow_variant_parse(SOW_KALAH, "", &v), SOW_OK);
    assert_int_equal(v, 0);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "empty-capture,pie", &v), SOW_OK);
    assert_int_equal(v, EC | PIE);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "end-on-turn,no-sweep", &v), SOW_OK);
    assert_int_equal(v, EOT | NS);
    assert_int_equal(sow_variant_parse(SOW_TOGUZ, "no-tuzdik", &v), SOW_OK);
    assert_int_equal(v, NT);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "no-tuzdik", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_TOGUZ, "pie", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_CHUNGKALA, "empty-capture", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_CONGKAK, "no-sweep", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "pie,", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_KALAH, ",pie", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "pies", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "pi", &v), SOW_E_VARIANT);
    assert_int_equal(sow_variant_parse(SOW_KALAH, "empty capture", &v), SOW_E_VARIANT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chungkala_seed_sow_4_from_pit_4),
        cmocka_unit_test(test_chungkala_seed_sow_8_from_right),
        cmocka_unit_test(test_chungkala_seed_extra_turn_chain),
        cmocka_unit_test(test_chungkala_seed_end_16_15),
        cmocka_unit_test(test_chungkala_rules),
        cmocka_unit_test(test_kalah_capture),
        cmocka_unit_test(test_kalah_laps),
        cmocka_unit_test(test_kalah_end_and_sweep),
        cmocka_unit_test(test_kalah_pie_same_moves),
        cmocka_unit_test(test_congkak_relay),
        cmocka_unit_test(test_congkak_landings),
        cmocka_unit_test(test_landing_table),
        cmocka_unit_test(test_toguz_sowing),
        cmocka_unit_test(test_toguz_end),
        cmocka_unit_test(test_end_reason),
        cmocka_unit_test(test_decided),
        cmocka_unit_test(test_toguz_tuzdik),
        cmocka_unit_test(test_toguz_seeds_into_tuzdik),
        cmocka_unit_test(test_toguz_tuzdik_corners),
        cmocka_unit_test(test_play_errors),
        cmocka_unit_test(test_position_check),
        cmocka_unit_test(test_config),
    };
    return cmocka_run_group_tests_name("rules", tests, NULL, NULL);
}
