/* test_search.c - the exact solver against the reference solver.
 *
 * For every game on the small boards the reference handles (m <= 4, small
 * n), the start position and positions reached by deterministic random
 * play are solved by both; value, outcome, best move's score and every
 * root move's score must be equal, with 1 and 2 threads, with and without
 * an oracle (an exact oracle built on the reference solver), with the pie
 * rule, and for Toguz with its cycles (the value, the best move and the
 * PV against the fixpoint reference, every root move against the path
 * method where it finishes: see path_checkable). Plus the transposition table's
 * packing, argument checks and the determinism of the fixed-depth search.
 *
 * `test_search_slow` (suite slow) adds bigger boards and Irving et al.'s
 * published Kalah values.
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "internal.h"
#include "key.h"
#include "tt.h"
#include "sow/db.h"
#include "sow/game.h"
#include "sow/notation.h"
#include "sow/refsolve.h"
#include "sow/rules.h"
#include "sow/search.h"

static size_t REF_MB = 256; /* the slow suite raises it */

/* ---- helpers ------------------------------------------------------------ */

/* An exact oracle from the reference solver: the future gain is the
 * reference score minus the banked store difference. Memoised on the
 * board (the future gain does not depend on stores or side to move), so
 * that the test stays fast; a lock keeps it thread-safe. */
#define ORACLE_SLOTS (1 << 16)
typedef struct ref_oracle {
    const sow_game *g;
    sow_pos key[ORACLE_SLOTS];
    int value[ORACLE_SLOTS];
    bool used[ORACLE_SLOTS];
    size_t count;
    sow_config cfg;
} ref_oracle;

static ref_oracle oracle_memo;

static int ref_probe(const void *ctx, const sow_pos *p)
{
    ref_oracle *o = (ref_oracle *)ctx;
    sow_pos k = *p;
    k.b[SOW_B_STORE] = k.b[SOW_HALF + SOW_B_STORE] = 0;
    k.b[SOW_B_FLAGS] = 0;
    k.b[SOW_HALF + SOW_B_FLAGS] = 1;
    uint64_t h = (k.w[0] * 0x9E3779B97F4A7C15ull) ^ (k.w[1] * 31) ^ (k.w[2] * 0xC2B2AE3D27D4EB4Full) ^ k.w[3];
    int v = 0;
    bool found = false;
#pragma omp critical(test_oracle)
    {
        for (size_t i = (size_t)(h >> 48);; i = (i + 1) % ORACLE_SLOTS) {
            if (!o->used[i])
                break;
            if (sow_pos_eq(&o->key[i], &k)) {
                v = o->value[i];
                found = true;
                break;
            }
        }
        if (!found) {
            sow_solution s;
            sow_err e = sow_ref_solve(o->g, &k, false, 16, &s);
            assert_int_equal(e, SOW_OK);
            v = s.score;
            size_t i = (size_t)(h >> 48);
            while (o->used[i])
                i = (i + 1) % ORACLE_SLOTS;
            if (o->count < ORACLE_SLOTS / 2) { /* keep the table half empty */
                o->count++;
                o->used[i] = true;
                o->key[i] = k;
                o->value[i] = v;
            }
        }
    }
    return v;
}

static void oracle_for(const sow_game *g)
{
    if (oracle_memo.g && memcmp(&oracle_memo.cfg, &g->cfg, sizeof g->cfg) == 0) {
        oracle_memo.g = g;
        return;
    }
    memset(&oracle_memo, 0, sizeof oracle_memo);
    oracle_memo.g = g;
    oracle_memo.cfg = g->cfg;
}

/* The reference solutions already computed: every test solves the same
 * positions, the reference solver is the slow part. */
#define REF_MEMO 1024
static struct {
    sow_config cfg;
    sow_pos p;
    bool pie;
    sow_ref_method method;
    sow_err e;
    sow_solution s;
} ref_memo[REF_MEMO];
static int ref_count;

static sow_err ref_solve_with(const sow_game *g, const sow_pos *p, bool pie, sow_ref_method mt,
                              sow_solution *out)
{
    for (int i = 0; i < ref_count; i++)
        if (ref_memo[i].pie == pie && ref_memo[i].method == mt && sow_pos_eq(&ref_memo[i].p, p) &&
            memcmp(&ref_memo[i].cfg, &g->cfg, sizeof g->cfg) == 0) {
            *out = ref_memo[i].s;
            return ref_memo[i].e;
        }
    sow_err e = sow_ref_solve_with(g, p, pie, REF_MB, mt, out);
    if (ref_count < REF_MEMO) {
        ref_memo[ref_count].cfg = g->cfg;
        ref_memo[ref_count].p = *p;
        ref_memo[ref_count].pie = pie;
        ref_memo[ref_count].method = mt;
        ref_memo[ref_count].e = e;
        ref_memo[ref_count].s = *out;
        ref_count++;
    }
    return e;
}

static sow_err ref_solve(const sow_game *g, const sow_pos *p, bool pie, sow_solution *out)
{
    return ref_solve_with(g, p, pie, SOW_REF_AUTO, out);
}

typedef struct setup {
    int threads;
    int oracle_seeds; /* -1: no oracle */
    size_t tt_mb;
    uint64_t solo_nodes; /* > 0: a probe's one-thread budget (search_set_solo_nodes) */
} setup;

/* Solves p with both solvers and checks every field. */
static void check_position(const sow_game *g, const sow_pos *p, bool pie, const setup *su,
                           int pv_check)
{
    sow_solution ref;
    sow_err e = ref_solve(g, p, pie, &ref);
    if (e == SOW_E_LIMIT)
        return; /* too big for the reference: nothing to compare */
    assert_int_equal(e, SOW_OK);

    if (su->oracle_seeds >= 0)
        oracle_for(g);
    sow_oracle oracle = {su->oracle_seeds, ref_probe, &oracle_memo, NULL, NULL, NULL, NULL};
    sow_search_options opt = {
        .threads = su->threads,
        .tt_mb = su->tt_mb,
        .oracle = su->oracle_seeds >= 0 ? &oracle : NULL,
        .pie_opening = pie,
        .pv_max = 64,
    };
    sow_search *s;
    assert_int_equal(sow_search_new(g, &opt, &s), SOW_OK);
    if (su->solo_nodes)
        search_set_solo_nodes(s, su->solo_nodes);
    sow_search_result r;
    e = sow_search_solve(s, p, &r);
    assert_int_equal(e, SOW_OK);
    char buf[SOW_POS_TEXT_MAX];
    sow_pos_format(g, p, buf, sizeof buf);
    if (r.sol.score != ref.score)
        fail_msg("%s %dx%d %s: score %d, reference %d", sow_game_name(g->cfg.game), g->m,
                 g->cfg.seeds, buf, r.sol.score, ref.score);
    assert_int_equal(r.sol.value, ref.value);
    assert_int_equal(r.sol.outcome, ref.outcome);
    assert_int_equal(r.sol.nmoves, ref.nmoves);
    /* Every move's score is what it banks plus the value of the position it
     * leads to (for Toguz with cycles too: the reference's fixpoint scoring,
     * doc/search.md "Cycles"), with or without an oracle. */
    for (int k = 0; k < ref.nmoves; k++) {
        assert_int_equal(r.sol.moves[k], ref.moves[k]);
        assert_true(r.move_exact[k]);
        if (r.sol.move_scores[k] != ref.move_scores[k])
            fail_msg("%s %dx%d %s move %d: score %d, reference %d", sow_game_name(g->cfg.game),
                     g->m, g->cfg.seeds, buf, k, r.sol.move_scores[k], ref.move_scores[k]);
    }
    if (ref.nmoves) {
        assert_true(r.sol.best >= 0 && r.sol.best < r.sol.nmoves);
        assert_int_equal(r.sol.move_scores[r.sol.best], ref.score);
        assert_int_equal(ref.move_scores[r.sol.best], ref.score);
        assert_true(r.pv_len >= 1);
        assert_int_equal(r.pv[0], r.sol.moves[r.sol.best]);
    }

    /* The principal variation is legal and, played out, keeps the value:
     * each move's reference score equals the position's (non-pie only). */
    if (!pie && ref.nmoves) {
        sow_pos x = *p;
        int score = ref.score;
        for (int i = 0; i < r.pv_len && i < pv_check; i++) {
            int mover = sow_pos_to_move(&x);
            assert_int_equal(sow_play(g, &x, r.pv[i]), SOW_OK);
            sow_solution c;
            assert_int_equal(ref_solve(g, &x, false, &c), SOW_OK);
            int cs = sow_pos_to_move(&x) == mover ? c.score : -c.score;
            assert_int_equal(cs, score);
            score = c.score;
        }
    }

    /* value_only gives the same value and an achieving best move. */
    if (!pie) {
        sow_search_free(s);
        opt.value_only = true;
        assert_int_equal(sow_search_new(g, &opt, &s), SOW_OK);
        e = sow_search_solve(s, p, &r);
        assert_int_equal(e, SOW_OK);
        assert_int_equal(r.sol.score, ref.score);
        if (ref.nmoves)
            assert_int_equal(ref.move_scores[r.sol.best], ref.score);
    }
    sow_search_free(s);
}

typedef struct board {
    sow_game_id game;
    int m, n;
    unsigned variant;
    int randoms; /* random positions besides the start */
} board;

/* Small boards of every game and variant; each solves in milliseconds
 * with the reference solver. */
static const board small_boards[] = {
    {SOW_KALAH, 2, 2, 0, 10},
    {SOW_KALAH, 3, 2, 0, 10},
    {SOW_KALAH, 3, 3, 0, 10},
    {SOW_KALAH, 4, 1, 0, 10},
    {SOW_KALAH, 4, 2, 0, 6},
    {SOW_KALAH, 3, 3, SOW_VAR_EMPTY_CAPTURE, 10},
    {SOW_KALAH, 4, 2, SOW_VAR_EMPTY_CAPTURE, 4},
    {SOW_KALAH, 3, 3, SOW_VAR_END_ON_TURN, 10},
    {SOW_KALAH, 3, 3, SOW_VAR_NO_SWEEP, 10},
    {SOW_KALAH, 3, 2, SOW_VAR_NO_SWEEP | SOW_VAR_END_ON_TURN | SOW_VAR_EMPTY_CAPTURE, 10},
    {SOW_CHUNGKALA, 2, 3, 0, 10},
    {SOW_CHUNGKALA, 3, 2, 0, 10},
    {SOW_CHUNGKALA, 3, 3, 0, 10},
    {SOW_CHUNGKALA, 4, 2, 0, 6},
    {SOW_CONGKAK, 3, 3, 0, 10},
    {SOW_CONGKAK, 4, 2, 0, 10},
    {SOW_CONGKAK, 4, 3, 0, 6},
    {SOW_TOGUZ, 2, 1, 0, 10},
    {SOW_TOGUZ, 2, 2, 0, 10},
    {SOW_TOGUZ, 2, 3, 0, 10},
    {SOW_TOGUZ, 2, 3, SOW_VAR_NO_TUZDIK, 10},
    {SOW_TOGUZ, 2, 2, SOW_VAR_NO_TUZDIK, 6},
    {SOW_TOGUZ, 2, 4, 0, 6},
    {SOW_TOGUZ, 2, 4, SOW_VAR_NO_TUZDIK, 6},
    {SOW_TOGUZ, 2, 5, 0, 4},
    {SOW_TOGUZ, 3, 1, 0, 6},
    {SOW_TOGUZ, 3, 1, SOW_VAR_NO_TUZDIK, 6},
    {SOW_TOGUZ, 3, 2, 0, 4},
};

/* Random positions a board gets: under sanitizers (scripts/sanitize sets
 * SOW_TEST_SANITIZED) a quarter, at least 2. They look for memory errors
 * and races, which the same code paths show on fewer positions; the
 * values are checked in full by the plain build's run. */
static int randoms_of(const board *b)
{
    const char *s = getenv("SOW_TEST_SANITIZED");
    if (!s || !*s || b->randoms <= 2)
        return b->randoms;
    return b->randoms / 4 > 2 ? b->randoms / 4 : 2;
}

static void check_boards(const board *bs, size_t nb, const setup *su)
{
    for (size_t i = 0; i < nb; i++) {
        sow_game g;
        game_of(&g, bs[i].game, bs[i].m, bs[i].n, bs[i].variant);
        sow_pos p;
        sow_game_start(&g, &p);
        check_position(&g, &p, false, su, 4);
        for (int k = 0, n = randoms_of(&bs[i]); k < n; k++) {
            random_position(&g, 1000 * i + (uint64_t)k, 1 + k % 9, &p);
            check_position(&g, &p, false, su, k < 2 ? 2 : 0);
        }
    }
}

/* ---- tests ----------------------------------------------------------------- */

static void test_tt_pack(void **state)
{
    (void)state;
    tt_data d = {-300, 255, 0x13, 17, 40};
    tt_data e = tt_unpack(tt_pack(&d));
    assert_int_equal(e.lower, -300);
    assert_int_equal(e.upper, 255);
    assert_int_equal(e.move, 0x13);
    assert_int_equal(e.draft, 17);
    assert_int_equal(e.work, 40);
    tt_data x = {-TT_BOUND_MAX, TT_BOUND_MAX, TT_NO_MOVE, TT_DRAFT_EXACT, 255};
    e = tt_unpack(tt_pack(&x));
    assert_int_equal(e.lower, -TT_BOUND_MAX);
    assert_int_equal(e.upper, TT_BOUND_MAX);
    assert_int_equal(e.move, TT_NO_MOVE);
    assert_int_equal(e.draft, TT_DRAFT_EXACT);
    assert_int_equal(e.work, 255);
}

static void test_tt_store_probe(void **state)
{
    (void)state;
    tt t;
    tt_shape(&t, 3, 0); /* not a power of two: indexing is by multiply */
    t.shared = true;
    t.b = calloc(t.nb, sizeof(tt_bucket));
    assert_non_null(t.b);
    tt_data d;
    assert_false(tt_probe(&t, 12345, &d));
    tt_store(&t, 12345, -4, 10, 2, TT_DRAFT_EXACT, 100);
    assert_true(tt_probe(&t, 12345, &d));
    assert_int_equal(d.lower, -4);
    assert_int_equal(d.upper, 10);
    assert_int_equal(d.move, 2);
    /* Same key, same draft: bounds intersect. */
    tt_store(&t, 12345, -10, 6, TT_NO_MOVE, TT_DRAFT_EXACT, 1);
    assert_true(tt_probe(&t, 12345, &d));
    assert_int_equal(d.lower, -4);
    assert_int_equal(d.upper, 6);
    assert_int_equal(d.move, 2);
    assert_int_equal(d.work, 7);
    /* A shallower draft never overwrites a deeper one of the same key. */
    tt_store(&t, 12345, 0, 0, 1, 3, 1000);
    assert_true(tt_probe(&t, 12345, &d));
    assert_int_equal(d.draft, TT_DRAFT_EXACT);
    /* A key that differs does not match, even in the same bucket. */
    assert_false(tt_probe(&t, 12345 ^ 1, &d));
    /* Keys are exact: a neighbouring code never matches. */
    assert_false(tt_probe(&t, 12345 ^ 1, &d));
    assert_false(tt_probe(&t, 12346, &d));
    /* A full bucket gives way to the newcomer, dropping the least work. */
    uint64_t keys[TT_WAYS + 1];
    tt_bucket *b = tt_bucket_of(&t, 777);
    int found = 0;
    for (uint64_t k = 1; found < TT_WAYS + 1; k++)
        if (k != 12345 && tt_bucket_of(&t, k) == b)
            keys[found++] = k;
    for (int i = 0; i < TT_WAYS; i++)
        assert_true(tt_store(&t, keys[i], -100 - i, 200 + i, (sow_move)i, TT_DRAFT_EXACT,
                             1ull << (10 + i)));
    /* Every way keeps its own fields (the last one's lie in three parts). */
    for (int i = 0; i < TT_WAYS; i++) {
        assert_true(tt_probe(&t, keys[i], &d));
        assert_int_equal(d.lower, -100 - i);
        assert_int_equal(d.upper, 200 + i);
        assert_int_equal(d.move, i);
        assert_int_equal(d.work, 11 + i);
    }
    tt_store(&t, keys[TT_WAYS], 1, 1, 0, TT_DRAFT_EXACT, 1);
    assert_false(tt_probe(&t, keys[0], &d));
    assert_true(tt_probe(&t, keys[TT_WAYS], &d));
    assert_int_equal(d.lower, 1);
    assert_true(tt_probe(&t, keys[TT_WAYS - 1], &d));
#if !TT_ATOMIC16
    /* While a writer stays inside the bucket (odd sequence), a probe
     * misses and another store is dropped, after their retries; afterwards
     * the entry reads again. */
    uint64_t seq = atomic_load(&b->seq);
    assert_int_equal(seq & 1, 0);
    atomic_store(&b->seq, seq + 1);
    assert_false(tt_probe(&t, keys[TT_WAYS], &d));
    assert_false(tt_store(&t, keys[TT_WAYS], 2, 2, 0, TT_DRAFT_EXACT, 1));
    atomic_store(&b->seq, seq + 2);
    assert_true(tt_probe(&t, keys[TT_WAYS], &d));
    assert_int_equal(d.lower, 1);
#endif
    free(t.b);
}

/* Keys wider than 64 bits (the packed key, key.h): only the low 64 bits
 * are stored, and the bucket settles the rest. Keys equal in their low 64
 * bits and different above land in different buckets of one group, and
 * never match each other; every (bucket, low bits) pair is one key. */
static void test_tt_split(void **state)
{
    (void)state;
    tt t;
    tt_shape(&t, 7 * 16 + 5, 4); /* 7 groups of 16 buckets; 5 left unused */
    assert_int_equal(t.nb, 7 * 16);
    assert_int_equal(t.nbh, 7);
    t.shared = false;
    t.b = calloc(t.nb, sizeof(tt_bucket));
    assert_non_null(t.b);
    tt_data d;
    for (uint64_t hi = 0; hi < 16; hi++) {
        tt_key k = (tt_key)hi << 64 | 99;
        for (uint64_t h2 = 0; h2 < hi; h2++)
            assert_true(tt_index(&t, k) != tt_index(&t, (tt_key)h2 << 64 | 99));
        assert_true(tt_index(&t, k) < t.nb);
        assert_false(tt_probe(&t, k, &d));
        tt_store(&t, k, (int)hi, (int)hi, TT_NO_MOVE, TT_DRAFT_EXACT, 1);
        assert_true(tt_probe(&t, k, &d));
        assert_int_equal(d.lower, (int)hi);
    }
    for (uint64_t hi = 0; hi < 16; hi++) {
        assert_true(tt_probe(&t, (tt_key)hi << 64 | 99, &d));
        assert_int_equal(d.lower, (int)hi);
    }
    /* Every key of 8 + 4 bits has its own (bucket, low bits) pair. */
    uint8_t *seen = calloc(t.nb << 8, 1);
    assert_non_null(seen);
    for (uint64_t hi = 0; hi < 16; hi++)
        for (uint64_t lo = 0; lo < 256; lo++) {
            uint64_t at = tt_index(&t, (tt_key)hi << 64 | lo) << 8 | lo;
            assert_int_equal(seen[at], 0);
            seen[at] = 1;
        }
    free(seen);
    free(t.b);
}

/* The data a stress thread stores for key k: a function of k alone in every
 * field that identifies it, so a hit whose fields disagree with its key (a
 * torn read, or an entry of another key) is caught. */
static tt_data stress_data(uint64_t k, int thread)
{
    int v = (int)(k * 2654435761u % (2 * TT_BOUND_MAX + 1)) - TT_BOUND_MAX;
    tt_data d = {v, v, (sow_move)(k % 200), TT_DRAFT_EXACT, 1 + thread};
    return d;
}

typedef struct stress_arg {
    tt *t;
    int thread;
    uint64_t hits, bad;
} stress_arg;

static void *stress_thread(void *arg)
{
    stress_arg *a = arg;
    uint64_t rng = 12345 + (uint64_t)a->thread;
    for (int i = 0; i < 200000; i++) {
        uint64_t k = rng_next(&rng) % 64; /* few keys: many share a bucket */
        tt_data d;
        if (rng_next(&rng) & 1) {
            tt_data x = stress_data(k, a->thread);
            tt_store(a->t, k, x.lower, x.upper, x.move, x.draft, 1ull << x.work >> 1);
        } else if (tt_probe(a->t, k, &d)) {
            tt_data x = stress_data(k, 0);
            a->hits++;
            if (d.lower != x.lower || d.upper != x.upper || d.move != x.move ||
                d.draft != x.draft || d.work < 1 || d.work > 4)
                a->bad++;
        }
    }
    return NULL;
}

/* Threads storing and probing overlapping keys in a tiny table: every hit
 * must be exactly a value some thread stored for that key (runs under
 * ThreadSanitizer in scripts/sanitize). */
static void test_tt_threads(void **state)
{
    (void)state;
    tt t;
    tt_shape(&t, 5, 0);
    t.shared = true;
    t.b = calloc(t.nb, sizeof(tt_bucket));
    assert_non_null(t.b);
    enum { NT = 4 };
    pthread_t th[NT];
    stress_arg a[NT];
    for (int i = 0; i < NT; i++) {
        a[i] = (stress_arg){&t, i, 0, 0};
        assert_int_equal(pthread_create(&th[i], NULL, stress_thread, &a[i]), 0);
    }
    uint64_t hits = 0;
    for (int i = 0; i < NT; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(a[i].bad, 0);
        hits += a[i].hits;
    }
    assert_true(hits > 1000);
    free(t.b);
}

/* The table key (key.h) is exact: over every board of a few small games
 * (every seed count up to K = 2mn, every pair of tuzdiks), the keys are
 * distinct and fill 0 .. C(K+2m, 2m) * T^2 - 1. Toguz 9x9 does not fit,
 * nor does a Kalah(6,4) position given 255 seeds. */
static void test_key_exact(void **state)
{
    (void)state;
    static const int cases[][3] = {
        {SOW_KALAH, 2, 3}, {SOW_KALAH, 3, 1}, {SOW_TOGUZ, 3, 1}, {SOW_TOGUZ, 4, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sow_game g;
        game_of(&g, (sow_game_id)cases[c][0], cases[c][1], cases[c][2], 0);
        static search_key k;
        key_init(&k, &g);
        int m = g.m, P = 2 * m, T = g.tuzdik ? m : 1, K = 2 * m * cases[c][2];
        assert_true(k.max_seeds >= K);
        k.mode = KEY_CODE;
        k.exact = true;
        uint64_t count = sow_index_codes(P, K) * (uint64_t)T * (uint64_t)T;
        uint8_t *seen = calloc(count, 1);
        assert_non_null(seen);
        uint8_t pits[2 * SOW_MAX_PITS] = {0};
        uint64_t n = 0;
        for (;;) {
            int sum = 0;
            for (int j = 0; j < P; j++)
                sum += pits[j];
            for (int t0 = 0; sum <= K && t0 < T; t0++)
                for (int t1 = 0; t1 < T; t1++) {
                    sow_pos p;
                    memset(&p, 0, sizeof p);
                    memcpy(p.b, pits, (size_t)m);
                    memcpy(p.b + SOW_HALF, pits + m, (size_t)m);
                    p.b[SOW_B_TUZDIK] = (uint8_t)t0;
                    p.b[SOW_HALF + SOW_B_TUZDIK] = (uint8_t)t1;
                    p.b[SOW_B_STORE] = (uint8_t)(n % 3); /* stores are not keyed */
                    tt_key wide = key_of(&k, &p);
                    assert_true(wide < count);
                    uint64_t key = (uint64_t)wide;
                    assert_int_equal(seen[key], 0);
                    seen[key] = 1;
                    n++;
                }
            int j = 0;
            while (j < P && pits[j] == K)
                pits[j++] = 0;
            if (j == P)
                break;
            pits[j]++;
        }
        assert_int_equal(n, count);
        free(seen);
    }
    sow_game big;
    sow_pos p;
    game_of(&big, SOW_TOGUZ, 9, 9, 0);
    sow_game_start(&big, &p);
    assert_false(sow_search_exact(&big, &p));
    static search_key kb;
    key_init(&kb, &big);
    assert_true(kb.max_seeds < 162);
    /* The solver refuses what it cannot key exactly. */
    sow_search_options opt = {.threads = 1, .tt_mb = 1};
    sow_search *s;
    static sow_search_result r;
    assert_int_equal(sow_search_new(&big, &opt, &s), SOW_OK);
    assert_int_equal(sow_search_solve(s, &p, &r), SOW_E_LIMIT);
    sow_search_free(s);
    /* Kalah(6,4) keys up to its 48 seeds, but not a position of 255. */
    game_of(&big, SOW_KALAH, 6, 4, 0);
    sow_game_start(&big, &p);
    assert_true(sow_search_exact(&big, &p));
    assert_int_equal(sow_pos_parse(&big, "40,40,40,40,40,35/0/10,10,0,0,0,0/0/s", &p, NULL, 0), SOW_OK);
    assert_false(sow_search_exact(&big, &p));
    assert_int_equal(sow_search_new(&big, &opt, &s), SOW_OK);
    assert_int_equal(sow_search_solve(s, &p, &r), SOW_E_LIMIT);
    sow_search_free(s);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The packed key (key.h): each pit's count and each tuzdik in its own
 * field, so the key gives the board back. Over every board a few small
 * games' packed keys hold (and both tuzdiks), the fields read back and the
 * keys are distinct; on Kalah(6,4), whose keys have 72 bits, random boards
 * read back; a root with more seeds than the fields hold takes the code. */
static void test_key_packed(void **state)
{
    (void)state;
    static const int cases[][3] = {
        {SOW_KALAH, 2, 3}, {SOW_KALAH, 3, 1}, {SOW_TOGUZ, 3, 1}, {SOW_TOGUZ, 4, 1}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sow_game g;
        game_of(&g, (sow_game_id)cases[c][0], cases[c][1], cases[c][2], 0);
        static search_key k;
        key_init(&k, &g);
        int m = g.m, P = 2 * m, T = g.tuzdik ? m : 1, K = k.packed_seeds;
        assert_true(K >= 2 * m * cases[c][2]);
        assert_int_equal(k.split, 0);
        k.mode = KEY_PACKED;
        uint64_t count = sow_index_codes(P, K) * (uint64_t)T * (uint64_t)T, n = 0;
        uint64_t *keys = malloc(count * sizeof *keys);
        assert_non_null(keys);
        uint8_t pits[2 * SOW_MAX_PITS] = {0};
        for (;;) {
            int sum = 0;
            for (int j = 0; j < P; j++)
                sum += pits[j];
            for (int t0 = 0; sum <= K && t0 < T; t0++)
                for (int t1 = 0; t1 < T; t1++) {
                    sow_pos p;
                    memset(&p, 0, sizeof p);
                    memcpy(p.b, pits, (size_t)m);
                    memcpy(p.b + SOW_HALF, pits + m, (size_t)m);
                    p.b[SOW_B_TUZDIK] = (uint8_t)t0;
                    p.b[SOW_HALF + SOW_B_TUZDIK] = (uint8_t)t1;
                    p.b[SOW_B_STORE] = (uint8_t)(n % 3); /* stores are not keyed */
                    tt_key key = key_of(&k, &p);
                    for (int j = 0; j < P; j++)
                        assert_int_equal((uint64_t)(key >> (k.b * j)) & ((1u << k.b) - 1), pits[j]);
                    if (k.tb) {
                        assert_int_equal((uint64_t)(key >> (k.b * P)) & ((1u << k.tb) - 1), t0);
                        assert_int_equal((uint64_t)(key >> (k.b * P + k.tb)), t1);
                    } else {
                        assert_int_equal((uint64_t)(key >> (k.b * P)), 0);
                    }
                    keys[n++] = (uint64_t)key;
                }
            int j = 0;
            while (j < P && pits[j] == K)
                pits[j++] = 0;
            if (j == P)
                break;
            pits[j]++;
        }
        assert_int_equal(n, count);
        qsort(keys, n, sizeof *keys, cmp_u64);
        for (uint64_t i = 1; i < n; i++)
            assert_true(keys[i - 1] < keys[i]);
        free(keys);
    }
    sow_game g;
    game_of(&g, SOW_KALAH, 6, 4, 0);
    static search_key k;
    key_init(&k, &g);
    assert_int_equal(k.b, 6);
    assert_int_equal(k.split, 8);
    assert_int_equal(k.packed_seeds, 63);
    k.mode = KEY_PACKED;
    uint64_t rng = 7;
    for (int i = 0; i < 100000; i++) {
        sow_pos p;
        memset(&p, 0, sizeof p);
        uint8_t pits[12];
        int left = 63;
        for (int j = 0; j < 12; j++) {
            pits[j] = (uint8_t)(rng_next(&rng) % (uint64_t)(left + 1) * (i % 3 == 0 ? 1 : (j == i % 12)));
            left -= pits[j];
        }
        memcpy(p.b, pits, 6);
        memcpy(p.b + SOW_HALF, pits + 6, 6);
        tt_key key = key_of(&k, &p);
        for (int j = 0; j < 12; j++)
            assert_int_equal((uint64_t)(key >> (6 * j)) & 63, pits[j]);
        assert_int_equal((uint64_t)(key >> 72), 0);
    }
    /* The solver on both sides of the packed key's reach: a 64-seed root
     * takes the code (and clears the packed entries), then 48 seeds the
     * packed key again; each agrees with a fresh search. */
    static const char *const roots[] = {
        "0,0,0,0,0,1/40/0,0,0,0,1,1/51/s", "0,0,0,0,0,1/0/63,0,0,0,0,0/0/s",
        "0,0,0,0,0,1/40/0,0,0,0,1,1/51/s"};
    sow_search_options opt = {.threads = 1, .tt_mb = 1};
    sow_search *s, *fresh;
    static sow_search_result r, rf;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        sow_pos p;
        assert_int_equal(sow_pos_parse(&g, roots[i], &p, NULL, 0), SOW_OK);
        assert_int_equal(sow_search_solve(s, &p, &r), SOW_OK);
        assert_int_equal(search_key_mode(s), i == 1 ? KEY_CODE : KEY_PACKED);
        assert_int_equal(sow_search_new(&g, &opt, &fresh), SOW_OK);
        assert_int_equal(sow_search_solve(fresh, &p, &rf), SOW_OK);
        assert_int_equal(r.sol.score, rf.sol.score);
        sow_search_free(fresh);
    }
    sow_search_free(s);
}

static void test_args(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 3, 2, 0);
    sow_search *s;
    sow_search_options opt = {.threads = 0, .tt_mb = 1};
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_E_ARG);
    opt.threads = 1;
    opt.tt_mb = 0;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_E_ARG);
    opt.tt_mb = 1;
    opt.pie_opening = true; /* not a pie game */
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    sow_pos p;
    sow_game_start(&g, &p);
    sow_search_result r;
    assert_int_equal(sow_search_solve(s, &p, &r), SOW_E_ARG);
    sow_search_free(s);
    opt.pie_opening = false;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    p.b[5] = 7; /* a pit beyond m */
    assert_int_equal(sow_search_solve(s, &p, &r), SOW_E_POSITION);
    int score;
    uint64_t nodes;
    sow_game_start(&g, &p);
    assert_int_equal(sow_search_depth(s, &p, -1, &score, &nodes), SOW_E_ARG);
    sow_search_free(s);
}

static void test_finished(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 3, 2, 0);
    sow_pos p;
    char why[64];
    assert_int_equal(sow_pos_parse(&g, "0,0,0/5/1,0,0/6/s", &p, why, sizeof why), SOW_OK);
    sow_search_options opt = {.threads = 1, .tt_mb = 1, .pv_max = 8};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    sow_search_result r;
    assert_int_equal(sow_search_solve(s, &p, &r), SOW_OK);
    assert_int_equal(r.sol.nmoves, 0);
    assert_int_equal(r.sol.best, -1);
    assert_int_equal(r.sol.value, -2);
    assert_int_equal(r.sol.outcome, SOW_LOSS);
    assert_int_equal(r.pv_len, 0);
    sow_search_free(s);
}

static void test_small_1thread(void **state)
{
    (void)state;
    setup su = {1, -1, 4, 0};
    check_boards(small_boards, sizeof small_boards / sizeof small_boards[0], &su);
}

static void test_small_2threads(void **state)
{
    (void)state;
    setup su = {2, -1, 4, 0};
    check_boards(small_boards, sizeof small_boards / sizeof small_boards[0], &su);
}

/* Probes that outgrow their start on one thread and go on as a team, on
 * the table the start filled (a budget of one node: every probe past the
 * first poll), with and without an oracle. */
static void test_small_2threads_team(void **state)
{
    (void)state;
    setup su = {2, -1, 4, 1};
    check_boards(small_boards, sizeof small_boards / sizeof small_boards[0], &su);
    su.oracle_seeds = 4;
    check_boards(small_boards, 5, &su);
}

/* A tiny table forces replacements and collisions of buckets. */
static void test_small_tiny_table(void **state)
{
    (void)state;
    setup su = {2, -1, 1, 0};
    check_boards(small_boards, sizeof small_boards / sizeof small_boards[0], &su);
}

static void test_small_oracle(void **state)
{
    (void)state;
    /* Toguz too: its oracle is exact with cycles (check_position). */
    for (int seeds = 2; seeds <= 6; seeds += 4) {
        setup su = {1, seeds, 4, 0};
        check_boards(small_boards, sizeof small_boards / sizeof small_boards[0], &su);
        su.threads = 2;
        check_boards(small_boards, 5, &su);
    }
}

static void test_pie(void **state)
{
    (void)state;
    static const int sizes[][2] = {{2, 2}, {3, 2}, {3, 3}, {4, 2}};
    for (int t = 1; t <= 2; t++)
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            sow_game g;
            game_of(&g, SOW_KALAH, sizes[i][0], sizes[i][1], SOW_VAR_PIE);
            sow_pos p;
            sow_game_start(&g, &p);
            setup su = {t, -1, 4, 0};
            check_position(&g, &p, true, &su, 0);
            game_of(&g, SOW_KALAH, sizes[i][0], sizes[i][1], SOW_VAR_PIE | SOW_VAR_EMPTY_CAPTURE);
            check_position(&g, &p, true, &su, 0);
        }
}

/* Irving et al. (2000), Table 9, Kalah with empty capture: the boards that
 * solve in well under a second. */
static void test_irving_small(void **state)
{
    (void)state;
    static const int cases[][3] = {{4, 1, 2}, {4, 2, 6}, {4, 3, 8}, {5, 1, 0}, {5, 2, 0},
                                   {6, 1, 2}, {3, 3, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (cases[i][0] == 3)
            continue; /* not in the table */
        sow_game g;
        game_of(&g, SOW_KALAH, cases[i][0], cases[i][1], SOW_VAR_EMPTY_CAPTURE);
        sow_pos p;
        sow_game_start(&g, &p);
        /* The value on 1 and 2 threads (2: ABDADA on every probe with at
         * least 16 seeds), then every move's value on 1 and 2 threads (2:
         * a move per thread, idle threads joining): the same scores. */
        static const struct {
            int threads;
            bool value_only;
        } runs[] = {{1, true}, {2, true}, {1, false}, {2, false}};
        sow_search_result r1;
        for (size_t j = 0; j < sizeof runs / sizeof runs[0]; j++) {
            sow_search_options opt = {.threads = runs[j].threads, .tt_mb = 16,
                                      .value_only = runs[j].value_only};
            sow_search *s;
            assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
            sow_search_result r;
            assert_int_equal(sow_search_solve(s, &p, &r), SOW_OK);
            if (r.sol.value != cases[i][2])
                fail_msg("kalah(%d,%d) empty-capture, %d threads: %d, published %+d",
                         cases[i][0], cases[i][1], opt.threads, r.sol.value, cases[i][2]);
            if (!runs[j].value_only && runs[j].threads == 1)
                r1 = r;
            else if (!runs[j].value_only)
                for (int k = 0; k < r.sol.nmoves; k++)
                    assert_int_equal(r.sol.move_scores[k], r1.sol.move_scores[k]);
            sow_search_free(s);
        }
    }
}

/* The fixed-depth search: deterministic node counts on one thread from a
 * cleared table, and exact once the depth covers the whole game. */
static void test_depth(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 6, 4, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    sow_search_options opt = {.threads = 1, .tt_mb = 8};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    int s1, s2;
    uint64_t n1, n2;
    assert_int_equal(sow_search_depth(s, &p, 8, &s1, &n1), SOW_OK);
    sow_search_clear(s);
    assert_int_equal(sow_search_depth(s, &p, 8, &s2, &n2), SOW_OK);
    assert_int_equal(s1, s2);
    assert_int_equal(n1, n2);
    assert_true(n1 > 100);
    sow_search_free(s);

    game_of(&g, SOW_KALAH, 3, 2, 0);
    sow_game_start(&g, &p);
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    sow_solution ref;
    assert_int_equal(sow_ref_solve(&g, &p, false, REF_MB, &ref), SOW_OK);
    assert_int_equal(sow_search_depth(s, &p, 100, &s1, &n1), SOW_OK);
    assert_int_equal(s1, ref.score);
    sow_search_free(s);
}

/* sow_search_depths: on one thread, the same scores and nodes as
 * sow_search_depth one position after the other; on two, each position's
 * full-depth score is the reference's, and bad depths are refused. */
static void test_depths(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 2, 0);
    sow_pos ps[8];
    int depths[8], got[8];
    sow_game_start(&g, &ps[0]);
    int n = 1;
    sow_move ms[SOW_MAX_MOVES];
    int nm = sow_moves(&g, &ps[0], ms);
    for (int k = 0; k < nm && n < 8; k++, n++) {
        ps[n] = ps[0];
        sow_make(&g, &ps[n], ms[k]);
    }
    for (int i = 0; i < n; i++)
        depths[i] = 3 + i % 3;
    sow_search_options opt = {.threads = 1, .tt_mb = 8};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    uint64_t all = 0, nodes;
    for (int i = 0; i < n; i++) {
        int v;
        uint64_t ni;
        assert_int_equal(sow_search_depth(s, &ps[i], depths[i], &v, &ni), SOW_OK);
        got[i] = v;
        all += ni;
    }
    sow_search_clear(s);
    int batch[8];
    assert_int_equal(sow_search_depths(s, ps, depths, n, batch, &nodes), SOW_OK);
    assert_int_equal(nodes, all);
    for (int i = 0; i < n; i++)
        assert_int_equal(batch[i], got[i]);
    sow_search_free(s);

    opt.threads = 2;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    for (int i = 0; i < n; i++)
        depths[i] = 100;
    assert_int_equal(sow_search_depths(s, ps, depths, n, batch, &nodes), SOW_OK);
    for (int i = 0; i < n; i++) {
        sow_solution ref;
        assert_int_equal(sow_ref_solve(&g, &ps[i], false, REF_MB, &ref), SOW_OK);
        assert_int_equal(batch[i], ref.score);
    }
    depths[1] = -1;
    assert_int_equal(sow_search_depths(s, ps, depths, n, batch, &nodes), SOW_E_ARG);
    sow_search_free(s);
}

/* sow_search_depths after a solve that a time limit interrupted, on the
 * same solver: every score set, and equal to a fresh solver's (the
 * interrupted solve left its workers' stop marks behind). The positions
 * are endgames searched to their end, so their scores are exact whatever
 * the table holds. */
static void test_depths_after_interrupt(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 6, 5, 0);
    sow_pos start, ps[8];
    int depths[8], n = 0;
    sow_game_start(&g, &start);
    for (uint64_t seed = 1; n < 8; seed++) {
        sow_pos *p = &ps[n];
        *p = start;
        sow_move ms[SOW_MAX_MOVES];
        int nm;
        while (sow_seeds_on_board(&g, p) > 12 && (nm = sow_moves(&g, p, ms)) > 0)
            sow_make(&g, p, ms[rng_next(&seed) % (uint64_t)nm]);
        if (!sow_over(&g, p))
            depths[n++] = 100;
    }
    sow_search_options opt = {.threads = 2, .tt_mb = 8, .time_limit = 0.05};
    sow_search *s, *fresh;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    static sow_search_result r;
    assert_int_equal(sow_search_solve(s, &start, &r), SOW_E_INTERRUPTED);
    sow_search_set_time_limit(s, 0);
    int got[8], want[8];
    uint64_t nodes;
    for (int i = 0; i < n; i++)
        got[i] = want[i] = INT32_MIN;
    assert_int_equal(sow_search_depths(s, ps, depths, n, got, &nodes), SOW_OK);
    opt.time_limit = 0;
    assert_int_equal(sow_search_new(&g, &opt, &fresh), SOW_OK);
    assert_int_equal(sow_search_depths(fresh, ps, depths, n, want, &nodes), SOW_OK);
    for (int i = 0; i < n; i++) {
        assert_int_not_equal(want[i], INT32_MIN);
        assert_int_equal(got[i], want[i]);
    }
    sow_search_free(fresh);
    sow_search_free(s);
}

/* Calls that follow a unit test (sow_search_test, whose path above the
 * node the solver keeps during the call) on a game with cycles: a solve
 * and a depth search give a fresh solver's values. */
static void test_after_unit(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_TOGUZ, 3, 3, 0);
    sow_pos line[3];
    sow_game_start(&g, &line[0]);
    for (int i = 1; i < 3; i++) {
        sow_move ms[SOW_MAX_MOVES];
        assert_true(sow_moves(&g, &line[i - 1], ms) > 0);
        line[i] = line[i - 1];
        sow_make(&g, &line[i], ms[0]);
    }
    sow_search_options opt = {.threads = 1, .tt_mb = 8};
    sow_search *s, *fresh;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    assert_int_equal(sow_search_new(&g, &opt, &fresh), SOW_OK);
    int b;
    uint64_t n;
    assert_int_equal(sow_search_test(s, line, 3, 0, 0, &b, &n), SOW_OK);
    static sow_search_result r, rf;
    assert_int_equal(sow_search_solve(s, &line[1], &r), SOW_OK);
    assert_int_equal(sow_search_solve(fresh, &line[1], &rf), SOW_OK);
    assert_int_equal(r.sol.score, rf.sol.score);
    for (int k = 0; k < r.sol.nmoves; k++)
        assert_int_equal(r.sol.move_scores[k], rf.sol.move_scores[k]);
    int v, vf;
    assert_int_equal(sow_search_test(s, line, 3, 0, 0, &b, &n), SOW_OK);
    assert_int_equal(sow_search_depth(s, &line[1], 6, &v, &n), SOW_OK);
    assert_int_equal(sow_search_depth(fresh, &line[1], 6, &vf, &n), SOW_OK);
    assert_int_equal(v, vf);
    sow_search_free(fresh);
    sow_search_free(s);
}

/* Tests side by side: two threads, each asking its own questions on its
 * own worker over one table, get the reference's answers; outside
 * begin/end, and for a worker out of range, the call is refused. */
typedef struct side_job {
    sow_search *s;
    int k;
    const sow_pos *line; /* the root and one child */
    int score;           /* the child's reference score */
    bool ok;
} side_job;

static void *side_main(void *arg)
{
    side_job *j = arg;
    j->ok = true;
    for (int t = j->score - 3; t <= j->score + 3; t++) {
        int b;
        uint64_t n;
        if (sow_search_test_on(j->s, j->k, j->line, 2, t, 0, &b, &n) != SOW_OK ||
            (b >= t) != (j->score >= t) || (b >= t ? j->score < b : j->score > b))
            j->ok = false;
    }
    return NULL;
}

static void test_side_by_side(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 2, 0);
    sow_pos root;
    sow_game_start(&g, &root);
    sow_move ms[SOW_MAX_MOVES];
    int nm = sow_moves(&g, &root, ms);
    assert_true(nm >= 2);
    sow_pos line[2][2];
    side_job jobs[2];
    sow_search_options opt = {.threads = 2, .tt_mb = 8};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    int b;
    uint64_t n;
    line[0][0] = line[1][0] = root;
    line[0][1] = line[1][1] = root;
    sow_make(&g, &line[0][1], ms[0]);
    sow_make(&g, &line[1][1], ms[1]);
    assert_int_equal(sow_search_test_on(s, 0, line[0], 2, 0, 0, &b, &n), SOW_E_ARG);
    assert_int_equal(sow_search_tests_begin(s, &root), SOW_OK);
    assert_int_equal(sow_search_test_on(s, 2, line[0], 2, 0, 0, &b, &n), SOW_E_ARG);
    pthread_t th[2];
    for (int k = 0; k < 2; k++) {
        sow_solution ref;
        assert_int_equal(sow_ref_solve(&g, &line[k][1], false, REF_MB, &ref), SOW_OK);
        jobs[k] = (side_job){s, k, line[k], ref.score, false};
        assert_int_equal(pthread_create(&th[k], NULL, side_main, &jobs[k]), 0);
    }
    for (int k = 0; k < 2; k++) {
        pthread_join(th[k], NULL);
        assert_true(jobs[k].ok);
    }
    assert_true(sow_search_tests_nodes(s) > 0);
    sow_search_tests_cancel(s);
    assert_int_equal(sow_search_test_on(s, 0, line[0], 2, 0, 0, &b, &n), SOW_E_INTERRUPTED);
    sow_search_tests_end(s);
    sow_search_free(s);
}

/* A test's node budget (here 1: the search looks at its count every 1024
 * nodes): past it the test gives up (SOW_E_BUDGET), alone
 * or on one worker side by side, and what it stored leaves later tests
 * right: the same question without a budget gets the reference's answer,
 * on the worker that gave up too. */
static void test_budget(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 3, 5, 0);
    sow_pos line[1]; /* the start: the tests ask about it */
    sow_game_start(&g, &line[0]);
    sow_solution ref;
    assert_int_equal(sow_ref_solve(&g, &line[0], false, REF_MB, &ref), SOW_OK);
    for (int threads = 1; threads <= 2; threads++) {
        sow_search_options opt = {.threads = threads, .tt_mb = 8};
        sow_search *s;
        assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
        int b;
        uint64_t n;
        assert_int_equal(sow_search_test(s, line, 1, ref.score, 1, &b, &n), SOW_E_BUDGET);
        assert_true(n >= 1024); /* the first look at the count */
        assert_int_equal(sow_search_test(s, line, 1, ref.score, 0, &b, &n), SOW_OK);
        assert_int_equal(b, ref.score); /* score >= b >= t = score */
        sow_search_clear(s);
        assert_int_equal(sow_search_tests_begin(s, &line[0]), SOW_OK);
        assert_int_equal(sow_search_test_on(s, 0, line, 1, ref.score + 1, 1, &b, &n),
                         SOW_E_BUDGET);
        assert_true(n >= 1024); /* the first look at the count */
        assert_int_equal(sow_search_test_on(s, 0, line, 1, ref.score + 1, 0, &b, &n), SOW_OK);
        assert_int_equal(b, ref.score); /* score <= b < t = score + 1 */
        if (threads == 2) {
            assert_int_equal(sow_search_test_on(s, 1, line, 1, ref.score, 0, &b, &n), SOW_OK);
            assert_int_equal(b, ref.score);
        }
        sow_search_tests_end(s);
        sow_search_free(s);
    }
}

/* An interrupted solve (stop flag or time limit) says what it had proven:
 * bounds that hold the true value, and a best move if it had one. */
static void test_interrupt(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 4, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    static sow_search_result r, full;
    for (int threads = 1; threads <= 2; threads++) {
        sow_stop_flag stop = 1;
        sow_search_options opt = {.threads = threads, .tt_mb = 8, .stop = &stop};
        sow_search *s;
        assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
        assert_int_equal(sow_search_solve(s, &p, &r), SOW_E_INTERRUPTED);
        assert_true(r.lower <= r.upper);
        stop = 0;
        sow_search_clear(s);
        assert_int_equal(sow_search_solve(s, &p, &full), SOW_OK);
        assert_int_equal(full.lower, full.sol.score);
        assert_int_equal(full.upper, full.sol.score);
        assert_true(r.lower <= full.sol.score && full.sol.score <= r.upper);
        /* A time limit that cuts the root value's MTD(f) short. */
        sow_search_clear(s);
        sow_search_set_time_limit(s, 0.02);
        sow_err e = sow_search_solve(s, &p, &r);
        assert_true(e == SOW_OK || e == SOW_E_INTERRUPTED);
        assert_true(r.lower <= full.sol.score && full.sol.score <= r.upper);
        if (r.sol.best >= 0)
            assert_true(r.sol.best < r.sol.nmoves);
        sow_search_free(s);
    }
}

/* The stop flag is what a signal handler may write (sow_stop_flag): a
 * handler's flag stops a solve. The signal is raised from the progress
 * report, so the solve is under way. */
static sow_stop_flag stop_by_signal;

static void on_stop_signal(int sig)
{
    (void)sig;
    stop_by_signal = 1;
}

static void raise_stop(void *ctx, const sow_search_progress *pr)
{
    (void)ctx;
    (void)pr;
    raise(SIGUSR1);
}

static void test_stop_signal(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 6, 5, 0);
    sow_pos p;
    sow_game_start(&g, &p);
    void (*old)(int) = signal(SIGUSR1, on_stop_signal);
    sow_search_options opt = {.threads = 1, .tt_mb = 8, .stop = &stop_by_signal,
                              .progress = raise_stop, .progress_every = 1e-9};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    static sow_search_result r;
    assert_int_equal(sow_search_solve(s, &p, &r), SOW_E_INTERRUPTED);
    assert_int_equal(stop_by_signal, 1);
    sow_search_free(s);
    signal(SIGUSR1, old);
}

/* ---- with the real endgame database as oracle ---------------------------- */

static int db_probe(const void *ctx, const sow_pos *p)
{
    return sow_db_probe(ctx, p);
}

static void db_prefetch(const void *ctx, const sow_pos *p)
{
    sow_db_prefetch(ctx, p);
}

static const int8_t *db_entry(const void *ctx, const sow_pos *p)
{
    return sow_db_entry(ctx, p);
}

static void db_locate(const void *ctx, const sow_pos *p, sow_oracle_loc *loc)
{
    _Static_assert(sizeof(sow_db_loc) <= sizeof *loc, "a database's place fits the oracle's");
    sow_db_loc l;
    sow_db_locate(ctx, p, &l);
    memcpy(loc, &l, sizeof l); /* copied, not aliased: the two types differ */
}

static int db_read(const void *ctx, const sow_oracle_loc *loc)
{
    sow_db_loc l;
    memcpy(&l, loc, sizeof l);
    return sow_db_read(ctx, &l);
}

/* Solves the start of (game, m, n, variant) with a database up to K seeds
 * and `threads` threads; returns the value (margin). */
static int solve_with_db(sow_game_id id, int m, int n, unsigned variant, int K, int threads,
                         sow_search_result *r)
{
    sow_game g;
    game_of(&g, id, m, n, variant);
    sow_db *db = NULL;
    char why[200];
    if (K > 0)
        assert_int_equal(sow_db_open(&g, K, NULL, NULL, &db, why, sizeof why), SOW_OK);
    sow_oracle oracle = {K, db_probe, db, db_prefetch, db && !db->packed ? db_entry : NULL,
                         db && db->packed ? db_locate : NULL, db && db->packed ? db_read : NULL};
    sow_search_options opt = {.threads = threads, .tt_mb = 64, .oracle = db ? &oracle : NULL,
                              .value_only = true, .pv_max = 16};
    sow_search *s;
    assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
    sow_pos p;
    sow_game_start(&g, &p);
    assert_int_equal(sow_search_solve(s, &p, r), SOW_OK);
    sow_search_free(s);
    sow_db_close(db);
    return r->sol.value;
}

/* The database as oracle on small boards: the same values as the
 * reference (every root move), 1 and 2 threads. */
static void test_small_db(void **state)
{
    (void)state;
    static const board boards[] = {
        {SOW_KALAH, 3, 3, 0, 6},         {SOW_KALAH, 4, 2, SOW_VAR_EMPTY_CAPTURE, 4},
        {SOW_CHUNGKALA, 3, 3, 0, 6},     {SOW_CONGKAK, 4, 3, 0, 4},
        {SOW_KALAH, 3, 3, SOW_VAR_NO_SWEEP | SOW_VAR_END_ON_TURN, 6},
    };
    for (size_t i = 0; i < sizeof boards / sizeof boards[0]; i++) {
        sow_game g;
        game_of(&g, boards[i].game, boards[i].m, boards[i].n, boards[i].variant);
        sow_db *db, *bytes;
        char why[200];
        sow_db_options unpacked = {.unpacked = true};
        assert_int_equal(sow_db_open(&g, 8, NULL, NULL, &db, why, sizeof why), SOW_OK);
        assert_int_equal(sow_db_open(&g, 8, NULL, &unpacked, &bytes, why, sizeof why), SOW_OK);
        /* t = 1: children probed through probe and prefetch (levels packed
         * where they pack), one thread; t = 2, 3: through entry (read where
         * the oracle says, every level a byte a position), 1 and 2
         * threads; t = 4, 5: through locate and read (the packed levels
         * again), 1 and 2 threads. */
        sow_oracle oracle = {8, db_probe, db, db_prefetch, NULL, NULL, NULL};
        sow_oracle by_entry = {8, db_probe, bytes, NULL, db_entry, NULL, NULL};
        sow_oracle by_place = {8, db_probe, db, NULL, NULL, db_locate, db_read};
        const sow_oracle *oracles[] = {&oracle, &by_entry, &by_entry, &by_place, &by_place};
        for (int t = 1; t <= 5; t++) {
            sow_search_options opt = {.threads = t == 3 || t == 5 ? 2 : 1, .tt_mb = 4,
                                      .oracle = oracles[t - 1], .pv_max = 8};
            sow_search *s;
            assert_int_equal(sow_search_new(&g, &opt, &s), SOW_OK);
            for (int k = 0; k <= boards[i].randoms; k++) {
                sow_pos p;
                random_position(&g, 77 * i + (uint64_t)k, k ? 1 + k % 7 : 0, &p);
                sow_solution ref;
                assert_int_equal(ref_solve(&g, &p, false, &ref), SOW_OK);
                sow_search_result r;
                assert_int_equal(sow_search_solve(s, &p, &r), SOW_OK);
                assert_int_equal(r.sol.score, ref.score);
                for (int j = 0; j < ref.nmoves; j++)
                    assert_int_equal(r.sol.move_scores[j], ref.move_scores[j]);
            }
            sow_search_free(s);
        }
        sow_db_close(db);
        sow_db_close(bytes);
    }
}

/* A database loaded from files answers every probe the same whether its
 * tables are copied into huge pages (the default) or probed where the
 * files are mapped (in_place), and the same as the database built in
 * memory: every board of every seed count. */
static void test_db_loaded_copies(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 3, 3, 0);
    const int K = 9;
    char dir[] = "/tmp/sow-test-search-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char why[256];
    sow_db *built, *copied, *mapped;
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &built, why, sizeof why), SOW_OK);
    sow_db_options o = {.no_build = true, .unpacked = true};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &copied, why, sizeof why), SOW_OK);
    o.in_place = true;
    o.read_ahead = true; /* the kernel reads the files ahead: the same probes */
    o.unpacked = false;
    assert_int_equal(sow_db_open(&g, K, dir, &o, &mapped, why, sizeof why), SOW_OK);
    /* The files of the larger seed counts are saved packed. */
    assert_true(mapped->packed && built->packed && !copied->packed);
    for (int k = 0; k <= K; k++) {
        /* The copy is a table of its own, 2 MB aligned for huge pages; the
         * mapped file's payload starts after the 64-byte header. */
        assert_int_equal((uintptr_t)copied->table[k] & (((uintptr_t)2 << 20) - 1), 0);
        /* (A packed level's dict lies 64 bytes into its payload.) */
        if (mapped->table[k])
            assert_int_equal((uintptr_t)mapped->table[k] & 4095, SOW_DB_HEADER_SIZE);
        else
            assert_int_equal((uintptr_t)mapped->pack[k]->dict & 4095, SOW_DB_HEADER_SIZE + 64);
        uint64_t n = sow_index_count(2 * g.m, k);
        uint8_t c[SOW_IDX_MAX_PARTS];
        sow_index_unrank(&built->ix, k, 0, c);
        for (uint64_t r = 0; r < n; r++) {
            sow_pos p;
            sow_index_to_pos(g.m, c, &p);
            int v = sow_db_probe(built, &p);
            assert_int_equal(sow_db_probe(copied, &p), v);
            assert_int_equal(sow_db_probe(mapped, &p), v);
            /* ... and found once, read later: the same (packed or not). */
            const sow_db *dbs[] = {built, copied, mapped};
            for (int d = 0; d < 3; d++) {
                sow_db_loc l;
                sow_db_locate(dbs[d], &p, &l);
                assert_int_equal(sow_db_read(dbs[d], &l), v);
            }
            assert_int_equal(sow_index_next(2 * g.m, c), r + 1 < n);
        }
    }
    sow_db_close(built);
    sow_db_close(copied);
    sow_db_close(mapped);
    for (int k = 0; k <= K; k++) {
        char name[128], path[512];
        sow_db_file_name(&g, k, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(dir), 0);
}

/* ---- slow: published values ---------------------------------------------- */

/* Irving, Donkers & Uiterwijk (2000), Table 9 (empty capture), with a
 * database as oracle; and the standard rule's (6,3) = +2. */
static void test_irving_table9(void **state)
{
    (void)state;
    static const int cases[][4] = {
        /* m, n, value, database seeds */
        {4, 4, 2, 16}, {4, 5, 2, 16}, {4, 6, 0, 18}, {5, 3, 8, 16},
        {5, 4, 12, 16}, {6, 2, 10, 16}, {6, 3, 2, 16},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sow_search_result r;
        int v = solve_with_db(SOW_KALAH, cases[i][0], cases[i][1], SOW_VAR_EMPTY_CAPTURE,
                              cases[i][3], 2, &r);
        if (v != cases[i][2])
            fail_msg("kalah(%d,%d) empty-capture: %d, published %+d", cases[i][0], cases[i][1],
                     v, cases[i][2]);
        print_message("kalah(%d,%d) empty-capture = %+d (%llu nodes, %.1f s)\n", cases[i][0],
                      cases[i][1], v, (unsigned long long)r.sol.nodes, r.seconds);
    }
    sow_search_result r;
    assert_int_equal(solve_with_db(SOW_KALAH, 6, 3, 0, 16, 2, &r), 2);
}

/* Every root move's value on many random positions: each move's MTD(f)
 * starts from the bound the value search proved (no move beats the value)
 * and from a shallow search's guess, under a table too small to keep what
 * the value search stored, with and without an oracle, 1 and 2 threads. A
 * bound taken on the wrong side of a move's value shows as a wrong score. */
static void test_moves_random(void **state)
{
    (void)state;
    static const board boards[] = {
        {SOW_KALAH, 4, 3, 0, 40},     {SOW_KALAH, 5, 2, SOW_VAR_EMPTY_CAPTURE, 30},
        {SOW_CHUNGKALA, 3, 3, 0, 30}, {SOW_CONGKAK, 4, 3, 0, 30},
        {SOW_TOGUZ, 2, 4, 0, 20},
    };
    size_t nb = sizeof boards / sizeof boards[0];
    setup su = {1, -1, 1, 0};
    check_boards(boards, nb, &su);
    su.threads = 2;
    su.oracle_seeds = 6;
    su.tt_mb = 4;
    check_boards(boards, nb, &su);
}

/* Bigger boards than the fast suite against the reference solver. */
static void test_medium_vs_reference(void **state)
{
    (void)state;
    static const board boards[] = {
        {SOW_KALAH, 4, 3, 0, 4},     {SOW_KALAH, 4, 3, SOW_VAR_EMPTY_CAPTURE, 4},
        {SOW_CHUNGKALA, 4, 3, 0, 4}, {SOW_CONGKAK, 4, 4, 0, 4},
        {SOW_KALAH, 4, 3, SOW_VAR_END_ON_TURN, 2},
        {SOW_TOGUZ, 3, 3, 0, 4},     {SOW_TOGUZ, 3, 3, SOW_VAR_NO_TUZDIK, 4},
        {SOW_TOGUZ, 4, 1, 0, 4},     {SOW_TOGUZ, 2, 5, SOW_VAR_NO_TUZDIK, 4},
    };
    setup su = {2, -1, 64, 0};
    check_boards(boards, sizeof boards / sizeof boards[0], &su);
    su.oracle_seeds = 10;
    su.threads = 1;
    check_boards(boards, 2, &su);
}

int main(int argc, char **argv)
{
    /* Thousands of tiny parallel searches: libgomp's idle threads would
     * spin between them (its default wait policy) and eat the other core.
     * The policy is read when libgomp loads, so set it and start again. */
    if (!getenv("OMP_WAIT_POLICY")) {
        setenv("OMP_WAIT_POLICY", "passive", 1);
        execv("/proc/self/exe", argv);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tt_pack),
        cmocka_unit_test(test_tt_store_probe),
        cmocka_unit_test(test_tt_split),
        cmocka_unit_test(test_key_packed),
        cmocka_unit_test(test_tt_threads),
        cmocka_unit_test(test_key_exact),
        cmocka_unit_test(test_args),
        cmocka_unit_test(test_finished),
        cmocka_unit_test(test_small_1thread),
        cmocka_unit_test(test_small_2threads),
        cmocka_unit_test(test_small_2threads_team),
        cmocka_unit_test(test_small_tiny_table),
        cmocka_unit_test(test_small_oracle),
        cmocka_unit_test(test_pie),
        cmocka_unit_test(test_small_db),
        cmocka_unit_test(test_db_loaded_copies),
        cmocka_unit_test(test_irving_small),
        cmocka_unit_test(test_depth),
        cmocka_unit_test(test_depths),
        cmocka_unit_test(test_depths_after_interrupt),
        cmocka_unit_test(test_after_unit),
        cmocka_unit_test(test_side_by_side), cmocka_unit_test(test_budget),
        cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_stop_signal),
    };
    /* The longest check on its own (`test_search random`, its own meson
     * test), so that the two halves run side by side within their time
     * limits on a loaded machine. */
    const struct CMUnitTest random[] = {
        cmocka_unit_test(test_moves_random),
    };
    const struct CMUnitTest slow[] = {
        cmocka_unit_test(test_medium_vs_reference),
        cmocka_unit_test(test_irving_table9),
    };
    if (argc > 1 && strcmp(argv[1], "random") == 0)
        return cmocka_run_group_tests(random, NULL, NULL);
    if (argc > 1 && strcmp(argv[1], "slow") == 0) {
        REF_MB = 2048;
        return cmocka_run_group_tests(slow, NULL, NULL);
    }
    return cmocka_run_group_tests(tests, NULL, NULL);
}
