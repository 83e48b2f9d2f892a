/* test_toguz_db.c - Toguz databases (doc/retrograde.md, "Toguz").
 *
 * - The Toguz index (sow_toguz_rank_pos) is a bijection from every board
 *   with k seeds and every legal tuzdik state onto 0 .. level size - 1.
 * - Every entry satisfies the minimax equation (computed here with the
 *   public rules API), and every non-zero entry is well founded: the
 *   player it favours reaches it in finitely many moves (see
 *   check_founded), which together pin down the exact values with cycles.
 * - Entries plus the kazan difference equal the reference solver's score
 *   (random kazans, random side to move) on the boards it finishes.
 * - 1- and 2-thread builds are byte-identical.
 * Both with tuzdiks and with `no-tuzdik`, whose databases hold every other
 * seed count (level_step 2): each check runs on a database of each parity.
 * - Such a database's files, sizes and folder levels are those of its
 *   parity only, and a board of the other parity is solved right without
 *   it (the search and the reference solver leave it unused).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "helpers.h"
#include "sow/db.h"
#include "sow/notation.h"
#include "sow/plan.h"
#include "sow/refsolve.h"
#include "sow/rules.h"
#include "sow/search.h"
#include "toguz.h"

static uint64_t rng = 88172645463325252ull; /* xorshift64's state */

/* Every legal position (stores 0, South to move) with k seeds, listed
 * by brute force: each tuzdik state, each distribution of the seeds over
 * the 2m pits, tuzdik pits empty. */
typedef void (*visit_fn)(void *ctx, const sow_pos *p);

static void fill(const sow_game *g, sow_pos *p, int j, int left, visit_fn f, void *ctx)
{
    int m = g->m;
    if (j == 2 * m) {
        if (left == 0 && sow_position_check(g, p) == SOW_OK)
            f(ctx, p);
        return;
    }
    int b = j < m ? j : SOW_HALF + j - m;
    for (int c = 0; c <= left; c++) {
        p->b[b] = (uint8_t)c;
        fill(g, p, j + 1, left - c, f, ctx);
    }
    p->b[b] = 0;
}

static void each_position(const sow_game *g, int k, visit_fn f, void *ctx)
{
    int tmax = g->tuzdik ? g->m - 1 : 0;
    for (int t0 = 0; t0 <= tmax; t0++)
        for (int t1 = 0; t1 <= tmax; t1++) {
            sow_pos p;
            memset(&p, 0, sizeof p);
            p.b[SOW_HALF + SOW_B_FLAGS] = SOW_FLAG_NORTH;
            p.b[SOW_B_TUZDIK] = (uint8_t)t0;
            p.b[SOW_HALF + SOW_B_TUZDIK] = (uint8_t)t1;
            fill(g, &p, 0, k, f, ctx);
        }
}

/* ---- the index ---- */

typedef struct seen {
    const sow_index *ix;
    uint8_t *hit;
    uint64_t n, count;
    int k;
} seen;

static void see(void *ctx, const sow_pos *p)
{
    seen *s = ctx;
    unsigned k;
    uint64_t r = sow_toguz_rank_pos(s->ix, p, &k);
    assert_int_equal(k, s->k);
    assert_true(r < s->n);
    assert_int_equal(s->hit[r], 0);
    s->hit[r] = 1;
    s->count++;
}

static void test_index(void **state)
{
    (void)state;
    for (int m = 2; m <= 5; m++)
        for (int nt = 0; nt < 2; nt++) {
            sow_game g;
            game_of(&g, SOW_TOGUZ, m, 1, nt ? SOW_VAR_NO_TUZDIK : 0);
            sow_index ix;
            sow_index_init(&ix, 2 * m);
            for (int k = 0; k <= (m <= 3 ? 8 : 4); k++) {
                seen s = {.ix = &ix, .k = k, .n = sow_retro_level_size(&g, k)};
                s.hit = calloc(s.n, 1);
                each_position(&g, k, see, &s);
                assert_int_equal(s.count, s.n); /* onto */
                free(s.hit);
            }
        }
    /* 18 pits, 12 seeds: the sizes doc/retrograde.md gives */
    assert_int_equal(sow_toguz_level_count(9, true, 12),
                     51895935ull + 16ull * 30421755ull + 56ull * 17383860ull);
}

/* ---- the minimax equation and well-foundedness ---- */

typedef struct bell {
    const sow_game *g;
    const sow_db *db;
    int k;
    uint8_t *ok;     /* founded entries of level k, by index */
    int changed;
    uint64_t nonzero, checked;
} bell;

static int seeds(const sow_game *g, const sow_pos *p)
{
    int s = 0;
    for (int i = 1; i <= g->m; i++)
        s += sow_pos_pit(p, SOW_SOUTH, i) + sow_pos_pit(p, SOW_NORTH, i);
    return s;
}

/* Score of move mv for p's mover, with the database for the child;
 * *inside: the child is in p's level (then *qi is its index). */
static int move_score(const bell *b, const sow_pos *p, sow_move mv, bool *inside, uint64_t *qi)
{
    sow_pos q = *p;
    sow_make(b->g, &q, mv);
    *inside = false;
    if (sow_over(b->g, &q))
        return -sow_terminal_score(b->g, &q);
    int d = q.b[SOW_B_STORE] - q.b[SOW_HALF + SOW_B_STORE];
    unsigned k;
    *qi = sow_toguz_rank_pos(&b->db->ix, &q, &k);
    *inside = (int)k == seeds(b->g, p);
    return -(d + sow_db_probe(b->db, &q));
}

static void bellman(void *ctx, const sow_pos *p)
{
    bell *b = ctx;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(b->g, p, mv);
    int v = sow_db_probe(b->db, p);
    sow_db_loc l; /* found once, read later: the same entry */
    sow_db_locate(b->db, p, &l);
    assert_int_equal(sow_db_read(b->db, &l), v);
    int best = n ? -1000 : sow_terminal_score(b->g, p);
    for (int i = 0; i < n; i++) {
        bool in;
        uint64_t qi;
        int s = move_score(b, p, mv[i], &in, &qi);
        best = s > best ? s : best;
    }
    if (best != v) {
        char t[SOW_POS_TEXT_MAX];
        sow_pos_format(b->g, p, t, sizeof t);
        fail_msg("m=%d variant=%#x %s: entry %d, best move %d", b->g->m, b->g->cfg.variant, t,
                 v, best);
    }
    b->checked++;
}

/* One round of the well-foundedness check: an entry v > 0 is founded if a
 * move scores v by leaving the level (or ending the game) or by going to
 * a founded child; v < 0 if every move that scores v stays in the level
 * and goes to a founded child, or leaves it. Exits' values are exact by
 * induction on the level. So a founded v > 0 is a strategy that gets v in
 * finitely many moves, and v < 0 one for the opponent; with the minimax
 * equation everywhere, the values are the game's, cycles scoring 0. */
static void found(void *ctx, const sow_pos *p)
{
    bell *b = ctx;
    unsigned k;
    uint64_t pi = sow_toguz_rank_pos(&b->db->ix, p, &k);
    int v = sow_db_probe(b->db, p);
    if (v == 0 || b->ok[pi])
        return;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(b->g, p, mv);
    bool good = n == 0 || v < 0;
    for (int i = 0; i < n; i++) {
        bool in;
        uint64_t qi = 0;
        int s = move_score(b, p, mv[i], &in, &qi);
        if (s != v)
            continue;
        bool f = !in || b->ok[qi];
        if (v > 0 && f)
            good = true;
        if (v < 0 && !f)
            good = false;
    }
    if (good) {
        b->ok[pi] = 1;
        b->changed = 1;
    }
}

static void count_unfounded(void *ctx, const sow_pos *p)
{
    bell *b = ctx;
    unsigned k;
    uint64_t pi = sow_toguz_rank_pos(&b->db->ix, p, &k);
    int v = sow_db_probe(b->db, p);
    if (v != 0) {
        b->nonzero++;
        if (!b->ok[pi]) {
            char t[SOW_POS_TEXT_MAX];
            sow_pos_format(b->g, p, t, sizeof t);
            fail_msg("m=%d variant=%#x %s: entry %d is not reached in finitely many moves",
                     b->g->m, b->g->cfg.variant, t, v);
        }
    }
}

/* The tops of the databases a check opens for K: K, and K - 1 where a
 * database holds every other seed count (both parities then); *n many. */
static void tops(const sow_game *g, int K, int top[2], int *n)
{
    top[0] = K;
    top[1] = K - 1;
    *n = g->level_step > 1 ? 2 : 1;
}

static void test_bellman(void **state)
{
    (void)state;
    static const int mk[][2] = {{2, 14}, {3, 10}, {4, 7}, {5, 5}};
    for (size_t t = 0; t < sizeof mk / sizeof mk[0]; t++)
        for (int nt = 0; nt < 2; nt++) {
            sow_game g;
            game_of(&g, SOW_TOGUZ, mk[t][0], 1, nt ? SOW_VAR_NO_TUZDIK : 0);
            int top[2], ntop;
            tops(&g, mk[t][1], top, &ntop);
            for (int u = 0; u < ntop; u++) {
                sow_db *db;
                char why[256];
                assert_int_equal(sow_db_open(&g, top[u], NULL, NULL, &db, why, sizeof why), SOW_OK);
                uint64_t nonzero = 0;
                for (int k = 0; k <= top[u]; k++) {
                    if (!sow_db_level_in(&g, top[u], k)) {
                        assert_null(db->table[k]);
                        continue;
                    }
                    bell b = {.g = &g, .db = db, .k = k};
                    each_position(&g, k, bellman, &b);
                    assert_int_equal(b.checked, sow_retro_level_size(&g, k));
                    b.ok = calloc(sow_retro_level_size(&g, k), 1);
                    do {
                        b.changed = 0;
                        each_position(&g, k, found, &b);
                    } while (b.changed);
                    each_position(&g, k, count_unfounded, &b);
                    nonzero += b.nonzero;
                    free(b.ok);
                }
                assert_true(nonzero > 0);
                sow_db_close(db);
            }
        }
}

/* ---- the reference solver ---- */

typedef struct refc {
    const sow_game *g;
    const sow_db *db;
    int every;       /* check one position in `every` */
    uint64_t i, checked, cyc;
} refc;

static void against_ref(void *ctx, const sow_pos *p0)
{
    refc *r = ctx;
    if (r->i++ % (uint64_t)r->every)
        return;
    sow_pos p = *p0;
    p.b[SOW_B_STORE] = (uint8_t)(xorshift64(&rng) % 20);
    p.b[SOW_HALF + SOW_B_STORE] = (uint8_t)(xorshift64(&rng) % 20);
    if (xorshift64(&rng) & 1) {
        p.b[SOW_B_FLAGS] = SOW_FLAG_NORTH;
        p.b[SOW_HALF + SOW_B_FLAGS] = 0;
    }
    sow_solution s;
    assert_int_equal(sow_ref_solve(r->g, &p, false, 16, &s), SOW_OK);
    int got = p.b[SOW_B_STORE] - p.b[SOW_HALF + SOW_B_STORE] + sow_db_probe(r->db, &p);
    if (got != s.score) {
        char t[SOW_POS_TEXT_MAX];
        sow_pos_format(r->g, &p, t, sizeof t);
        fail_msg("m=%d variant=%#x %s: db %d, reference %d", r->g->m, r->g->cfg.variant, t, got,
                 s.score);
    }
    r->checked++;
}

static void test_against_reference(void **state)
{
    (void)state;
    /* (m, K, check one in `every` of the largest levels) */
    static const int mk[][3] = {{2, 7, 1}, {3, 4, 1}, {4, 3, 1}};
    for (size_t t = 0; t < sizeof mk / sizeof mk[0]; t++)
        for (int nt = 0; nt < 2; nt++) {
            sow_game g;
            game_of(&g, SOW_TOGUZ, mk[t][0], 1, nt ? SOW_VAR_NO_TUZDIK : 0);
            int top[2], ntop;
            tops(&g, mk[t][1], top, &ntop);
            for (int u = 0; u < ntop; u++) {
                sow_db *db;
                char why[256];
                assert_int_equal(sow_db_open(&g, top[u], NULL, NULL, &db, why, sizeof why),
                                 SOW_OK);
                for (int k = sow_db_level_first(&g, top[u]); k <= top[u]; k += g.level_step) {
                    refc r = {.g = &g, .db = db, .every = k < 3 ? 1 : mk[t][2]};
                    each_position(&g, k, against_ref, &r);
                    assert_true(r.checked > 0);
                }
                sow_db_close(db);
            }
        }
}

/* sow_ref_solve_above: the fixpoint above a database gives every move the
 * score the whole fixpoint gives it, on positions of several levels above
 * the database (starts and random plays of boards with more seeds). */
static void test_above_database(void **state)
{
    (void)state;
    /* (m, seeds per pit, K) */
    static const int mk[][3] = {{2, 3, 4}, {2, 4, 5}, {3, 2, 4}};
    int checked = 0, levels_above = 0, fewer = 0;
    for (size_t t = 0; t < sizeof mk / sizeof mk[0]; t++)
        for (int nt = 0; nt < 2; nt++) {
            sow_config sc = {SOW_TOGUZ, mk[t][0], mk[t][1], nt ? SOW_VAR_NO_TUZDIK : 0};
            sow_game g;
            assert_int_equal(sow_game_init(&g, &sc), SOW_OK);
            sow_db *db;
            char why[256];
            assert_int_equal(sow_db_open(&g, mk[t][2], NULL, NULL, &db, why, sizeof why),
                             SOW_OK);
            sow_oracle o;
            sow_plan_oracle(db, mk[t][2], &o);
            for (int r = 0; r < 6; r++) {
                sow_pos p;
                sow_game_start(&g, &p);
                for (int i = 0; i < 2 * r; i++) {
                    sow_move ms[SOW_MAX_MOVES];
                    int n = sow_moves(&g, &p, ms);
                    sow_pos q = p;
                    sow_make(&g, &q, ms[xorshift64(&rng) % (uint64_t)n]);
                    if (sow_over(&g, &q))
                        break;
                    p = q;
                }
                int seeds = 0;
                for (int i = 0; i < g.m; i++)
                    seeds += p.b[i] + p.b[SOW_HALF + i];
                if (seeds <= mk[t][2])
                    continue;
                static sow_solution a, w;
                assert_int_equal(sow_ref_solve_above(&g, &p, &o, 256, 0, &a), SOW_OK);
                assert_int_equal(sow_ref_solve_with(&g, &p, false, 1024, SOW_REF_FIXPOINT, &w),
                                 SOW_OK);
                assert_int_equal(a.nmoves, w.nmoves);
                assert_int_equal(a.score, w.score);
                for (int k = 0; k < a.nmoves; k++)
                    assert_int_equal(a.move_scores[k], w.move_scores[k]);
                assert_true(a.nodes <= w.nodes); /* only the levels above */
                fewer += a.nodes < w.nodes;
                checked++;
                levels_above += seeds - mk[t][2];
            }
            sow_db_close(db);
        }
    assert_true(checked >= 15 && levels_above >= 2 * checked && fewer >= checked / 2);
}

/* A database without tuzdik holds the seed counts of its top's parity
 * only: their files alone, their bytes, the folder's levels by the
 * board's parity; a board of the other parity is not covered, and the
 * search and the reference solver solve it right without the database
 * (sow_oracle: the levels max_seeds - j * level_step only). */
static void test_level_step(void **state)
{
    (void)state;
    sow_game g, t;
    game_of(&g, SOW_TOGUZ, 3, 2, SOW_VAR_NO_TUZDIK);
    game_of(&t, SOW_TOGUZ, 3, 2, 0);
    assert_int_equal(g.level_step, 2);
    assert_int_equal(t.level_step, 1);
    assert_int_equal(sow_db_bytes(&g, 8) - sow_db_bytes(&g, 6), sow_retro_level_size(&g, 8));
    assert_int_equal(sow_db_bytes(&g, 7) - sow_db_bytes(&g, 5), sow_retro_level_size(&g, 7));
    assert_int_equal(sow_db_bytes(&t, 8) - sow_db_bytes(&t, 7), sow_retro_level_size(&t, 8));
    char dir[] = "/tmp/sow-test-step-XXXXXX";
    assert_non_null(mkdtemp(dir));
    sow_db_options o = {.threads = 1};
    sow_db *db;
    char why[256], name[128], path[512];
    assert_int_equal(sow_db_open(&g, 8, dir, &o, &db, why, sizeof why), SOW_OK);
    for (int k = 0; k <= 8; k++) {
        sow_db_file_name(&g, k, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        FILE *f = fopen(path, "rb");
        assert_true((f != NULL) == (k % 2 == 0));
        if (f)
            fclose(f);
        assert_true((db->table[k] != NULL) == sow_db_level_in(&g, 8, k));
    }
    assert_int_equal(sow_db_dir_levels(&g, dir, 12), 8);
    assert_int_equal(sow_db_dir_levels(&g, dir, 11), -1);
    assert_true(sow_db_covers(db, &g, 12) && sow_db_covers(db, &g, 4));
    assert_false(sow_db_covers(db, &g, 11));

    sow_oracle oracle;
    sow_plan_oracle(db, db->max_seeds, &oracle);
    sow_pos even, odd;
    sow_game_start(&g, &even); /* 12 seeds */
    odd = even;
    odd.b[1]--; /* 11 */
    static sow_solution ref, got;
    assert_int_equal(sow_db_probe_root(db, &g, &odd, false, &got), SOW_E_ARG);
    const sow_pos *ps[] = {&even, &odd};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(sow_ref_solve(&g, ps[i], false, 64, &ref), SOW_OK);
        assert_int_equal(sow_ref_solve_above(&g, ps[i], &oracle, 64, 0, &got), SOW_OK);
        assert_int_equal(got.score, ref.score);
        sow_search *s;
        sow_search_options so = {.threads = 1, .tt_mb = 4};
        assert_int_equal(sow_search_new(&g, &so, &s), SOW_OK);
        sow_search_set_oracle(s, &oracle);
        static sow_search_result r;
        assert_int_equal(sow_search_solve(s, ps[i], &r), SOW_OK);
        assert_int_equal(r.sol.score, ref.score);
        for (int k = 0; k < ref.nmoves; k++)
            assert_int_equal(r.sol.move_scores[k], ref.move_scores[k]);
        /* The even board reaches the database, the odd one never. */
        assert_true(i == 0 ? r.oracle_probes > 0 : r.oracle_probes == 0);
        sow_search_free(s);
    }
    sow_db_close(db);

    /* The other parity beside it: the folder's levels for odd boards. */
    assert_int_equal(sow_db_open(&g, 7, dir, &o, &db, why, sizeof why), SOW_OK);
    sow_db_close(db);
    assert_int_equal(sow_db_dir_levels(&g, dir, 11), 7);
    assert_int_equal(sow_db_dir_levels(&g, dir, 12), 8);
    for (int k = 0; k <= 8; k++) {
        sow_db_file_name(&g, k, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        assert_int_equal(unlink(path), 0);
    }
    assert_int_equal(rmdir(dir), 0);
}

static void test_threads(void **state)
{
    (void)state;
    for (int nt = 0; nt < 2; nt++) {
        sow_game g;
        game_of(&g, SOW_TOGUZ, 4, 1, nt ? SOW_VAR_NO_TUZDIK : 0);
        sow_db *d1, *d2;
        char why[256];
        int K = 9 - nt; /* even: a no-tuzdik board's own */
        assert_int_equal(sow_db_open(&g, K, NULL, &(sow_db_options){.threads = 1}, &d1, why,
                                     sizeof why), SOW_OK);
        assert_int_equal(sow_db_open(&g, K, NULL, &(sow_db_options){.threads = 2}, &d2, why,
                                     sizeof why), SOW_OK);
        for (int k = sow_db_level_first(&g, K); k <= K; k += g.level_step) {
            uint64_t n = sow_retro_level_size(&g, k);
            assert_memory_equal(d1->table[k], d2->table[k], n);
            /* every component on 2 threads */
            int8_t *t = malloc(n);
            sow_retro_job job = {.g = &g, .ix = &d1->ix, .k = k, .tab = d1->table, .out = t,
                                 .threads = 2, .serial_below = 1};
            assert_int_equal(sow_retro_build(&job), SOW_OK);
            assert_memory_equal(d1->table[k], t, n);
            free(t);
        }
        sow_db_close(d1);
        sow_db_close(d2);
    }
}

/* ---- the lean builder ---- */

/* Its worklist finds every parent: each in-level move, made as the
 * builder makes it, is among the moves undone from its child. */
static void test_lean_preds(void **state)
{
    (void)state;
    static const int top[] = {0, 0, 16, 9, 7, 5};
    for (int nt = 0; nt < 2; nt++)
        for (int m = 2; m <= 5; m++) {
            sow_game g;
            game_of(&g, SOW_TOGUZ, m, 1, nt ? SOW_VAR_NO_TUZDIK : 0);
            sow_index ix;
            sow_index_init(&ix, 2 * m);
            uint64_t all = 0;
            for (int k = 1; k <= top[m]; k++) {
                uint64_t moves;
                assert_int_equal(sow_retro_toguz_missed_preds(&g, &ix, k, &moves), 0);
                all += moves;
            }
            assert_true(all > 1000); /* the check saw moves */
        }
}

/* The lean builder (a scratch budget below the lists') writes the same
 * bytes as the lists, on 1 and 2 threads. */
static void test_lean_build(void **state)
{
    (void)state;
    for (int nt = 0; nt < 2; nt++) {
        sow_game g;
        game_of(&g, SOW_TOGUZ, 4, 1, nt ? SOW_VAR_NO_TUZDIK : 0);
        sow_db *d;
        char why[256];
        int K = 9 - nt;
        assert_int_equal(sow_db_open(&g, K, NULL, &(sow_db_options){.threads = 1}, &d, why,
                                     sizeof why), SOW_OK);
        for (int k = sow_db_level_first(&g, K); k <= K; k += g.level_step) {
            uint64_t n = sow_retro_level_size(&g, k);
            assert_true(sow_retro_scratch_least(&g, k) < sow_retro_scratch_bytes(&g, k));
            for (int th = 1; th <= 2; th++) {
                int8_t *t = malloc(n);
                sow_retro_job job = {.g = &g, .ix = &d->ix, .k = k, .tab = d->table, .out = t,
                                     .threads = th, .serial_below = 1, .scratch_max = 1};
                assert_int_equal(sow_retro_build(&job), SOW_OK);
                assert_memory_equal(d->table[k], t, n);
                free(t);
            }
        }
        sow_db_close(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_bellman),
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_above_database),
        cmocka_unit_test(test_level_step),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_lean_preds),
        cmocka_unit_test(test_lean_build),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
