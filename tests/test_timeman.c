/* test_timeman.c - sow/timeman.h: a move's share of the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sow/timeman.h"

static double t(double left, double inc, int togo, int ply)
{
    sow_clock c = {.left = left, .increment = inc, .moves_to_go = togo, .ply = ply, .overhead = 0};
    return sow_time_for_move(&c);
}

/* Never more than half of what is left, never nothing. */
static void test_bounds(void **state)
{
    (void)state;
    for (double left = 0.0005; left < 1000; left *= 3)
        for (int togo = 0; togo < 50; togo += 7) {
            double s = t(left, 0, togo, 30);
            assert_true(s > 0);
            assert_true(s <= 0.5 * left || s == 0.001);
        }
    assert_true(t(1, 100, 0, 0) <= 0.5); /* a huge increment still leaves half */
}

/* More moves to go, less time each; a bigger increment, more. */
static void test_shares(void **state)
{
    (void)state;
    assert_true(t(60, 0, 10, 0) > t(60, 0, 30, 0));
    assert_true(t(60, 1, 0, 20) > t(60, 0, 0, 20));
    double even = t(60, 0, 20, 0);
    assert_true(even > 2.9 && even < 3.1); /* 60 s over 20 moves */
    /* Late in a game the remaining moves are fewer, never below the floor. */
    assert_true(t(60, 0, 0, 60) > t(60, 0, 0, 0));
    assert_true(t(60, 0, 0, 400) == t(60, 0, 0, 600));
}

/* The overhead comes off the clock first; the default is used when < 0. */
static void test_overhead(void **state)
{
    (void)state;
    sow_clock c = {.left = 1, .moves_to_go = 1, .overhead = 0.5};
    assert_true(sow_time_for_move(&c) <= 0.25 + 1e-9);
    c.overhead = -1;
    assert_true(sow_time_for_move(&c) <= 0.5 * (1 - SOW_TIMEMAN_OVERHEAD) + 1e-9);
    c.left = 0.01; /* less than the overhead: the floor */
    assert_true(sow_time_for_move(&c) == 0.001);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_shares),
        cmocka_unit_test(test_overhead),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
