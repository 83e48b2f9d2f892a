/* test_units.c - the solve by work units (sow/units.h): the value it
 * combines from frontier answers equals the reference solver's on small
 * boards of every game at several frontier depths, with and without a
 * database; resuming from any part of an earlier run's answers gives the
 * same value and asks no question the answers decide; the bounds that
 * partial answers prove hold the value; bad depths and the pie opening are
 * refused; an interrupted solve reports bounds that hold the value; a
 * test of the root ("at least t?", sow_units_goal) answers as the
 * reference value does, with a move that proves a bound that holds, and
 * its answers serve an exact solve that resumes from them.
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
#include "sow/game.h"
#include "sow/plan.h"
#include "sow/refsolve.h"
#include "sow/rules.h"
#include "sow/search.h"
#include "sow/units.h"

/* The journal of a test: every answer kept, in order, and (split) every
 * answer and split in order. */
typedef struct kept {
    sow_unit u[4096];
    size_t n, asked, dropped;
    sow_unit all[4096];
    size_t nall, splits;
} kept;

static sow_err on_asked(void *ctx, sow_unit *u)
{
    ((kept *)ctx)->asked++;
    return SOW_OK;
}

static sow_err on_dropped(void *ctx, const sow_unit *u)
{
    assert_false(u->done);
    ((kept *)ctx)->dropped++;
    return SOW_OK;
}

static sow_err on_answered(void *ctx, const sow_unit *u)
{
    kept *k = ctx;
    assert_true(u->done);
    assert_false(u->split);
    assert_true(k->n < 4096 && k->nall < 4096);
    k->u[k->n++] = *u;
    k->all[k->nall++] = *u;
    return SOW_OK;
}

static sow_err on_split(void *ctx, const sow_unit *u)
{
    kept *k = ctx;
    assert_true(u->split);
    assert_false(u->done);
    /* It gave up past its budget, not before. */
    assert_true(u->max_nodes > 0 && u->nodes >= u->max_nodes);
    assert_true(k->nall < 4096);
    k->all[k->nall++] = *u;
    k->splits++;
    return SOW_OK;
}

static sow_plan plan_for(const sow_game *g, const sow_pos *p, bool db, int threads)
{
    sow_limits lim = {.memory = 256u << 20, .threads = threads, .value_only = true};
    if (!db || g->cycles)
        lim.no_db = true;
    sow_plan plan;
    assert_int_equal(sow_plan_make(g, p, &lim, &plan, NULL, 0), SOW_OK);
    return plan;
}

static int ref_score(const sow_game *g, const sow_pos *p)
{
    sow_solution s;
    assert_int_equal(sow_ref_solve(g, p, false, 256, &s), SOW_OK);
    return s.score;
}

/* Solves by units and checks the value and the best move against the
 * reference solver; returns the answers in *k. */
static void check_board(const sow_game *g, const sow_pos *p, int depth, bool db, int threads,
                        kept *k)
{
    int want = ref_score(g, p);
    sow_plan plan = plan_for(g, p, db, threads);
    sow_units_journal j = {on_asked, on_answered, k, on_dropped, NULL};
    sow_units_result r;
    k->n = k->asked = k->dropped = 0;
    char why[SOW_WHY];
    sow_err e = sow_units_solve(g, p, &plan, depth, NULL, 0, &j, NULL, &r, why, sizeof why);
    if (e)
        fail_msg("%s", why);
    assert_int_equal(r.score, want);
    assert_int_equal(r.lower, want);
    assert_int_equal(r.upper, want);
    assert_int_equal(r.units, k->n);
    /* Every question asked is answered, or given back: with one thread
     * none is (one at a time), with more the speculative ones in flight
     * when the solve ends are. */
    assert_int_equal(k->asked, k->n + k->dropped);
    if (threads == 1)
        assert_int_equal(k->dropped, 0);
    assert_true(k->dropped < (size_t)threads);
    /* The best move achieves the value. */
    sow_pos q = *p;
    sow_make(g, &q, r.best);
    int v = ref_score(g, &q);
    if (sow_pos_to_move(&q) != sow_pos_to_move(p))
        v = -v;
    assert_int_equal(v, want);
}

static void test_every_game(void **state)
{
    static const struct {
        sow_game_id id;
        int m, n;
        unsigned variant;
    } boards[] = {
        {SOW_KALAH, 3, 3, 0},
        {SOW_KALAH, 4, 2, 0},
        {SOW_KALAH, 3, 3, SOW_VAR_EMPTY_CAPTURE},
        {SOW_KALAH, 4, 2, SOW_VAR_END_ON_TURN},
        {SOW_CHUNGKALA, 3, 3, 0},
        {SOW_CHUNGKALA, 3, 2, 0},
        {SOW_CONGKAK, 4, 3, 0},
        {SOW_CONGKAK, 3, 3, 0},
        {SOW_TOGUZ, 2, 3, 0},
        {SOW_TOGUZ, 2, 2, 0},
    };
    static kept k;
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        sow_game g;
        game_of(&g, boards[b].id, boards[b].m, boards[b].n, boards[b].variant);
        sow_pos p;
        sow_game_start(&g, &p);
        for (int depth = 1; depth <= 5; depth += 2)
            for (int db = 0; db <= 1; db++)
                check_board(&g, &p, depth, db, 1 + db, &k);
    }
}

/* Positions a few moves into a game, to leave the starting position. */
static void test_positions(void **state)
{
    static kept k;
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 2, 0);
    /* The k-th legal move at each ply. */
    static const int lines[][3] = {{0, 1, 0}, {2, 0, 0}, {1, 3, 1}};
    for (int i = 0; i < 3; i++) {
        sow_pos p;
        sow_game_start(&g, &p);
        for (int d = 0; d < 3 && !sow_over(&g, &p); d++) {
            sow_move ms[SOW_MAX_MOVES];
            int n = sow_moves(&g, &p, ms);
            sow_make(&g, &p, ms[lines[i][d] % n]);
        }
        if (!sow_over(&g, &p))
            check_board(&g, &p, 2, false, 1, &k);
    }
}

/* Resuming from the first half, or every other, of a run's answers: the
 * same value, no answer asked again, and bounds that hold the value. */
static void test_resume(void **state)
{
    static kept full, again;
    sow_game g;
    game_of(&g, SOW_CHUNGKALA, 3, 3, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    check_board(&g, &p, 3, false, 1, &full);
    assert_true(full.n >= 4);
    int want = ref_score(&g, &p);
    static sow_unit part[4096];
    for (int mode = 0; mode < 3; mode++) {
        size_t n = 0;
        for (size_t i = 0; i < full.n; i++)
            if (mode == 0 ? i < full.n / 2 : mode == 1 ? i % 2 == 0 : true)
                part[n++] = full.u[i];
        /* An unanswered question is ignored. */
        part[n] = full.u[0];
        part[n].done = false;
        part[n].bound = 1000;
        sow_units_bounds b;
        assert_int_equal(sow_units_prove(&g, &p, 3, part, n + 1, &b), SOW_OK);
        assert_true(b.lower <= want && want <= b.upper);
        if (mode == 2)
            assert_int_equal(b.lower, b.upper);
        sow_plan plan = plan_for(&g, &p, false, 1);
        sow_units_journal j = {on_asked, on_answered, &again, NULL, NULL};
        again.n = again.asked = 0;
        sow_units_result r;
        assert_int_equal(sow_units_solve(&g, &p, &plan, 3, part, n + 1, &j, NULL, &r, NULL, 0),
                         SOW_OK);
        assert_int_equal(r.score, want);
        assert_int_equal(r.reused, n);
        assert_true(again.n <= full.n - n);
        if (mode == 2)
            assert_int_equal(again.n, 0);
        /* No question the given answers decide is asked again. */
        for (size_t i = 0; i < again.n; i++)
            for (size_t m = 0; m < n; m++)
                assert_false(again.u[i].nline == part[m].nline &&
                             memcmp(again.u[i].line, part[m].line, (size_t)part[m].nline) == 0 &&
                             again.u[i].threshold == part[m].threshold);
    }
}

/* "Score >= t?" at the root for every t around the value, on 1 and 2
 * threads: decided as the reference value says, bounds that hold the
 * value, a proving move when it holds; then an exact solve given the
 * test's answers reuses them all and finds the value. */
static void check_goal(sow_game_id id, int m, int n, int threads)
{
    static kept k, again;
    sow_game g;
    game_of(&g, id, m, n, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    int want = ref_score(&g, &p), s = g.score_scale;
    sow_plan plan = plan_for(&g, &p, false, threads);
    for (int t = want - 3 * s; t <= want + 3 * s; t++) {
        sow_units_goal goal = {true, t, 0};
        sow_units_journal j = {on_asked, on_answered, &k, on_dropped, NULL};
        k.n = k.asked = k.dropped = 0;
        sow_units_result r;
        char why[SOW_WHY];
        sow_err e = sow_units_solve_pool(&g, &p, &plan, 3, NULL, 0, &goal, NULL, &j, NULL, &r,
                                         why, sizeof why);
        if (e)
            fail_msg("%s", why);
        assert_true(r.lower <= want && want <= r.upper);
        assert_int_equal(r.lower >= t, want >= t);
        assert_true(r.lower >= t || r.upper < t);
        assert_int_equal(r.has_best, r.lower >= t || r.exact);
        if (r.exact)
            assert_int_equal(r.score, want);
        if (r.lower >= t) {
            sow_pos q = p;
            sow_make(&g, &q, r.best);
            int v = ref_score(&g, &q);
            assert_true((sow_pos_to_move(&q) != sow_pos_to_move(&p) ? -v : v) >= t);
        }
        sow_units_journal j2 = {on_asked, on_answered, &again, NULL, NULL};
        again.n = again.asked = 0;
        assert_int_equal(sow_units_solve(&g, &p, &plan, 3, k.u, k.n, &j2, NULL, &r, NULL, 0),
                         SOW_OK);
        assert_int_equal(r.score, want);
        assert_int_equal(r.reused, k.n);
    }
}

static void test_goal(void **state)
{
    for (int threads = 1; threads <= 2; threads++) {
        check_goal(SOW_KALAH, 3, 3, threads);
        check_goal(SOW_KALAH, 4, 2, threads);
        check_goal(SOW_CHUNGKALA, 3, 3, threads);
        check_goal(SOW_CONGKAK, 3, 3, threads);
    }
}

/* Units with a node budget (sow_units_goal.split_nodes): the nodes of
 * those past it are split, and the value is still the reference's, on
 * 1 and 2 threads, for an exact solve and a test of the root (from a
 * frontier of one ply, whose units are the biggest). Resumed
 * from part of what that run recorded (its answers and splits, in order)
 * or all of it: the splits are made again (the frontier grows as much),
 * the value is the same, no split node is asked about again, and all of
 * it proves the value without a question. */
static void check_split(sow_game_id id, int m, int n, uint64_t budget, int threads)
{
    static kept k, again;
    sow_game g;
    game_of(&g, id, m, n, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    int want = ref_score(&g, &p);
    sow_plan plan = plan_for(&g, &p, false, threads);
    for (int test = 0; test <= 1; test++) {
        sow_units_goal goal = {test == 1, want, budget};
        sow_units_journal j = {on_asked, on_answered, &k, on_dropped, on_split};
        memset(&k, 0, sizeof k);
        sow_units_result r;
        char why[SOW_WHY];
        sow_err e = sow_units_solve_pool(&g, &p, &plan, 1, NULL, 0, &goal, NULL, &j, NULL, &r,
                                         why, sizeof why);
        if (e)
            fail_msg("%s", why);
        assert_true(r.lower <= want && want <= r.upper);
        if (test)
            assert_true(r.lower >= want);
        else
            assert_int_equal(r.score, want);
        /* The budget is small enough that some unit of the exact solve
         * passed it (a test may need one cheap unit). */
        if (!test && k.splits == 0)
            fail_msg("game %d %dx%d, test %d: no unit passed %llu nodes (%zu asked)", (int)id,
                     m, n, test, (unsigned long long)budget, k.asked);
        assert_int_equal(r.splits, k.splits);
        assert_int_equal(k.asked, k.n + k.dropped + k.splits);
        if (threads == 1)
            assert_int_equal(k.dropped, 0);
        sow_units_bounds all, none;
        assert_int_equal(sow_units_prove(&g, &p, 1, k.all, k.nall, &all), SOW_OK);
        assert_int_equal(sow_units_prove(&g, &p, 1, NULL, 0, &none), SOW_OK);
        assert_true(all.lower <= want && want <= all.upper);
        if (!test)
            assert_int_equal(all.lower, all.upper);
        assert_true(all.frontier > none.frontier || k.splits == 0);
        assert_int_equal(r.frontier, all.frontier);
        /* Resumed from the first half of the record, then from all of it. */
        for (int half = 1; half >= 0; half--) {
            size_t given = half ? k.nall / 2 : k.nall;
            sow_units_journal j2 = {on_asked, on_answered, &again, NULL, on_split};
            memset(&again, 0, sizeof again);
            goal.test = false;
            assert_int_equal(sow_units_solve_pool(&g, &p, &plan, 1, k.all, given, &goal, NULL,
                                                  &j2, NULL, &r, why, sizeof why),
                             SOW_OK);
            assert_int_equal(r.score, want);
            for (size_t i = 0; i < again.nall; i++)
                for (size_t s = 0; s < given; s++)
                    assert_false(k.all[s].split && again.all[i].nline == k.all[s].nline &&
                                 memcmp(again.all[i].line, k.all[s].line,
                                        (size_t)k.all[s].nline * sizeof(sow_move)) == 0);
            if (!half && !test)
                assert_int_equal(again.asked, 0);
        }
    }
}

/* Many splits (Kalah 4x4, budget 1, one ply: about 90), enough that the
 * tree outgrows its first allocation and moves while the solve holds it
 * (ASan's run finds a stale pointer): the value is the monolithic
 * search's (the reference solver's table is too small for this board;
 * test_search checks the search against it). */
static void test_split_many(void **state)
{
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 4, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    sow_search_options so = {.threads = 1, .tt_mb = 16, .value_only = true};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &so, &s), SOW_OK);
    sow_search_result want;
    assert_int_equal(sow_search_solve(s, &p, &want), SOW_OK);
    sow_search_free(s);
    static kept k;
    for (int threads = 1; threads <= 2; threads++) {
        sow_plan plan = plan_for(&g, &p, false, threads);
        sow_units_goal goal = {false, 0, 1};
        sow_units_journal j = {on_asked, on_answered, &k, on_dropped, on_split};
        memset(&k, 0, sizeof k);
        sow_units_result r;
        char why[SOW_WHY];
        if (sow_units_solve_pool(&g, &p, &plan, 1, NULL, 0, &goal, NULL, &j, NULL, &r, why,
                                 sizeof why))
            fail_msg("%s", why);
        assert_int_equal(r.score, want.sol.score);
        assert_true(k.splits >= 60);
        assert_true(r.frontier + r.splits > 256); /* the tree's first 256 nodes */
    }
}

static void test_split(void **state)
{
    /* A budget of 1: every unit that reaches the search's first look at
     * its node count (1024 nodes) splits. Congkak's small boards have no
     * such unit (its units are the same code). */
    for (int threads = 1; threads <= 2; threads++) {
        check_split(SOW_KALAH, 3, 5, 1, threads);
        check_split(SOW_CHUNGKALA, 4, 2, 1, threads);
        check_split(SOW_TOGUZ, 3, 3, 1, threads);
    }
}

static void test_refused(void **state)
{
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 3, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    sow_plan plan = plan_for(&g, &p, false, 1);
    sow_units_result r;
    char why[SOW_WHY] = "";
    assert_int_equal(sow_units_solve(&g, &p, &plan, 0, NULL, 0, NULL, NULL, &r, why, sizeof why),
                     SOW_E_ARG);
    assert_true(strlen(why) > 0);
    /* No buffer (sow/error.h): the same code. */
    assert_int_equal(sow_units_solve(&g, &p, &plan, SOW_UNITS_MAX_FRONTIER + 1, NULL, 0, NULL, NULL,
                                     &r, NULL, 0),
                     SOW_E_ARG);
    sow_units_bounds b;
    assert_int_equal(sow_units_prove(&g, &p, 0, NULL, 0, &b), SOW_E_ARG);
    sow_game gp;
    game_of(&gp, SOW_KALAH, 4, 3, SOW_VAR_PIE);
    sow_pos pp;
    sow_game_start(&gp, &pp);
    sow_limits lim = {.memory = 64u << 20, .threads = 1, .no_db = true, .pie_opening = true};
    assert_int_equal(sow_plan_make(&gp, &pp, &lim, &plan, NULL, 0), SOW_OK);
    assert_int_equal(sow_units_solve(&gp, &pp, &plan, 2, NULL, 0, NULL, NULL, &r, NULL, 0),
                     SOW_E_ARG);
}

/* A journal error stops the solve; the stop flag interrupts it with
 * bounds that hold the value. */
static sow_err refuse(void *ctx, const sow_unit *u)
{
    int *left = ctx;
    return --*left < 0 ? SOW_E_IO : SOW_OK;
}

/* Sets the stop flag after a number of answers: a Ctrl-C in mid-solve. */
typedef struct stopper {
    sow_stop_flag stop;
    int left;
} stopper;

static sow_err stop_after(void *ctx, const sow_unit *u)
{
    stopper *st = ctx;
    if (--st->left <= 0)
        st->stop = 1;
    return SOW_OK;
}

/* A journal that fails, a stop flag set before and during the solve: the
 * bounds still hold the value; with one thread and with several units at
 * once (src/units/pool.c), whose units under way are stopped too. */
static void test_stopped(void **state)
{
    for (int threads = 1; threads <= 2; threads++) {
        sow_game g;
        game_of(&g, SOW_KALAH, 4, 2, 0);
        sow_pos p;
        sow_game_start(&g, &p);
        int want = ref_score(&g, &p);
        sow_plan plan = plan_for(&g, &p, false, threads);
        int left = 2;
        sow_units_journal j = {NULL, refuse, &left, NULL, NULL};
        sow_units_result r;
        assert_int_equal(sow_units_solve(&g, &p, &plan, 3, NULL, 0, &j, NULL, &r, NULL, 0),
                         SOW_E_IO);
        assert_int_equal(r.units, 2);
        assert_true(r.lower <= want && want <= r.upper);
        sow_stop_flag stop = 1;
        plan.limits.stop = &stop;
        assert_int_equal(sow_units_solve(&g, &p, &plan, 3, NULL, 0, NULL, NULL, &r, NULL, 0),
                         SOW_E_INTERRUPTED);
        assert_true(r.lower <= want && want <= r.upper);
        assert_true(r.lower < r.upper);

        plan = plan_for(&g, &p, false, threads);
        stopper st = {0, 3};
        plan.limits.stop = &st.stop;
        sow_units_journal js = {NULL, stop_after, &st, NULL, NULL};
        assert_int_equal(sow_units_solve(&g, &p, &plan, 3, NULL, 0, &js, NULL, &r, NULL, 0),
                         SOW_E_INTERRUPTED);
        assert_true(r.units >= 3);
        assert_true(r.lower <= want && want <= r.upper);
    }
}

static void test_line_text(void **state)
{
    sow_game g;
    game_of(&g, SOW_TOGUZ, 9, 9, 0);
    sow_unit u;
    assert_int_equal(sow_units_line_parse(&g, "3,7x,1", &u), SOW_OK);
    assert_int_equal(u.nline, 3);
    char buf[SOW_UNITS_LINE_TEXT];
    sow_units_line_format(&u, buf, sizeof buf);
    assert_string_equal(buf, "3,7x,1");
    assert_int_not_equal(sow_units_line_parse(&g, "3,,1", &u), SOW_OK);
    /* SOW_UNITS_MAX_DEPTH (24) moves, and one more. */
    assert_int_equal(
        sow_units_line_parse(&g, "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", &u), SOW_OK);
    assert_int_not_equal(
        sow_units_line_parse(&g, "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1", &u), SOW_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_game), cmocka_unit_test(test_positions),
        cmocka_unit_test(test_resume),     cmocka_unit_test(test_refused),
        cmocka_unit_test(test_stopped),    cmocka_unit_test(test_line_text),
        cmocka_unit_test(test_goal),       cmocka_unit_test(test_split),
        cmocka_unit_test(test_split_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
