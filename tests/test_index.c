/* test_index.c - the combinatorial board index (sow/retro.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sow/retro.h"

static uint64_t binom(int n, int r)
{
    uint64_t c = 1;
    for (int i = 1; i <= r; i++)
        c = c * (uint64_t)(n - r + i) / (uint64_t)i;
    return c;
}

/* Every board of k seeds on P pits, by brute force, in any order: a
 * counter over P digits 0..k keeping those that sum to k. */
static uint64_t brute_count(int P, int k)
{
    uint8_t c[SOW_IDX_MAX_PARTS] = {0};
    uint64_t n = 0;
    for (;;) {
        int s = 0;
        for (int j = 0; j < P; j++)
            s += c[j];
        n += s == k;
        int j = 0;
        while (j < P && c[j] == k)
            c[j++] = 0;
        if (j == P)
            return n;
        c[j]++;
    }
}

static void test_count(void **state)
{
    (void)state;
    for (int P = 1; P <= 8; P++)
        for (int k = 0; k <= 6; k++) {
            assert_int_equal(sow_index_count(P, k), binom(k + P - 1, P - 1));
            if (P <= 6)
                assert_int_equal(sow_index_count(P, k), brute_count(P, k));
        }
    /* 6-pit Kalah, 24 seeds: C(35, 11). */
    assert_int_equal(sow_index_count(12, 24), 417225900ull);
    assert_int_equal(sow_index_count(18, 255), UINT64_MAX);
}

/* rank(unrank(r)) == r, next() walks (and prev() undoes it) the ranks in order, every board has k
 * seeds, and the walk ends exactly at the last rank: together a bijection. */
static void test_bijection(void **state)
{
    (void)state;
    sow_index ix;
    for (int P = 2; P <= 10; P += 2) {
        sow_index_init(&ix, P);
        for (int k = 0; k <= (P <= 6 ? 9 : 5); k++) {
            uint64_t n = sow_index_count(P, k);
            uint8_t c[SOW_IDX_MAX_PARTS], u[SOW_IDX_MAX_PARTS];
            sow_index_unrank(&ix, k, 0, c);
            assert_int_equal(c[P - 1], k); /* rank 0: all in the last pit */
            for (uint64_t r = 0; r < n; r++) {
                sow_index_unrank(&ix, k, r, u);
                assert_memory_equal(c, u, (size_t)P);
                assert_int_equal(sow_index_rank(&ix, c), r);
                int s = 0;
                for (int j = 0; j < P; j++)
                    s += c[j];
                assert_int_equal(s, k);
                uint8_t back[SOW_IDX_MAX_PARTS];
                memcpy(back, c, (size_t)P);
                bool more = sow_index_next(P, c);
                assert_int_equal(more, r + 1 < n);
                if (more) {
                    uint8_t prev[SOW_IDX_MAX_PARTS];
                    memcpy(prev, c, (size_t)P);
                    assert_true(sow_index_prev(P, prev));
                    assert_memory_equal(prev, back, (size_t)P);
                } else {
                    assert_int_equal(sow_index_prev(P, back), r > 0);
                }
            }
        }
    }
}

static void test_pos_roundtrip(void **state)
{
    (void)state;
    sow_index ix;
    for (int m = 1; m <= SOW_MAX_PITS; m++) {
        sow_index_init(&ix, 2 * m);
        srand(7 + m);
        for (int t = 0; t < 200; t++) {
            uint8_t c[SOW_IDX_MAX_PARTS], d[SOW_IDX_MAX_PARTS];
            int k = 0;
            for (int j = 0; j < 2 * m; j++)
                k += c[j] = (uint8_t)(rand() % 4);
            sow_pos p;
            sow_index_to_pos(m, c, &p);
            p.b[SOW_B_STORE] = 9; /* stores do not matter */
            sow_index_from_pos(m, &p, d);
            assert_memory_equal(c, d, (size_t)(2 * m));
            unsigned kk;
            assert_int_equal(sow_index_rank_pos(&ix, &p, &kk), sow_index_rank(&ix, c));
            assert_int_equal(kk, k);
        }
    }
}

/* The code over all seed counts (sow_index_code_pos) against brute force:
 * every board of P pits with at most K seeds gets a distinct code below
 * C(K+P, P) (so the codes are dense), boards with k seeds get exactly the
 * codes from C(k-1+P, P) on, and the count formula matches the number of
 * boards enumerated. */
static void test_code_all_seeds(void **state)
{
    (void)state;
    static const int cases[][2] = {{1, 9}, {2, 8}, {3, 6}, {4, 4}};
    for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
        int m = cases[t][0], K = cases[t][1], P = 2 * m;
        sow_index ix;
        sow_index_init(&ix, P);
        uint64_t ncodes = sow_index_codes(P, K);
        assert_int_equal(ncodes, binom(K + P, P));
        uint8_t *seen = calloc(ncodes, 1);
        assert_non_null(seen);
        uint8_t c[SOW_IDX_MAX_PARTS] = {0};
        uint64_t boards = 0;
        for (;;) {
            int k = 0;
            for (int j = 0; j < P; j++)
                k += c[j];
            if (k <= K) {
                sow_pos p;
                sow_index_to_pos(m, c, &p);
                uint64_t code = sow_index_code_pos(&ix, &p);
                assert_true(code < ncodes);
                assert_true(code >= (k ? binom(k - 1 + P, P) : 0));
                assert_true(code < binom(k + P, P));
                assert_int_equal(seen[code], 0);
                seen[code] = 1;
                boards++;
            }
            int j = 0;
            while (j < P && c[j] == K)
                c[j++] = 0;
            if (j == P)
                break;
            c[j]++;
        }
        assert_int_equal(boards, ncodes);
        free(seen);
    }
}

/* sow_index_rank_pos (prefix sums of the pit bytes, computed word-wise)
 * against sow_index_rank (a byte at a time) on boards up to the most seeds
 * a board holds, where a carry between bytes would show, with the other
 * bytes of the position (store, tuzdik, flags) all set. */
static void test_rank_pos_full(void **state)
{
    (void)state;
    sow_index ix;
    for (int m = 1; m <= SOW_MAX_PITS; m++) {
        sow_index_init(&ix, 2 * m);
        srand(99 + m);
        for (int t = 0; t < 2000; t++) {
            uint8_t c[SOW_IDX_MAX_PARTS] = {0};
            int k = t % 3 ? SOW_MAX_TOTAL - rand() % 8 : rand() % (SOW_MAX_TOTAL + 1);
            for (int left = k; left > 0;) {
                int j = rand() % (2 * m), x = 1 + rand() % left;
                if (c[j] + x > 255)
                    continue;
                c[j] = (uint8_t)(c[j] + x);
                left -= x;
            }
            sow_pos p;
            sow_index_to_pos(m, c, &p);
            for (int h = 0; h < 2; h++)
                for (int b = m; b < SOW_HALF; b++)
                    p.b[SOW_HALF * h + b] = (uint8_t)(0xa5 ^ b);
            unsigned kk;
            assert_int_equal(sow_index_rank_pos(&ix, &p, &kk), sow_index_rank(&ix, c));
            assert_int_equal(kk, k);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count),
        cmocka_unit_test(test_bijection),
        cmocka_unit_test(test_pos_roundtrip),
        cmocka_unit_test(test_code_all_seeds),
        cmocka_unit_test(test_rank_pos_full),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
