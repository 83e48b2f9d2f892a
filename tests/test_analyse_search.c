/* test_analyse_search.c - the depth-limited search's ordering and
 * reductions (src/search/order.h) against what sow_analyse promises: at
 * every depth, every value or bound labelled exact is the exact solver's
 * (a reduced search never claims a proof it does not have; the exact
 * solver is itself checked against the reference solver in test_search),
 * and
 * on one thread the same analysis gives the same lines, scores and node
 * counts, depth by depth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "sow/analyse.h"
#include "sow/game.h"
#include "sow/rules.h"
#include "sow/search.h"

static const struct {
    sow_game_id id;
    int m, n;
    unsigned variant;
} boards[] = {
    {SOW_KALAH, 4, 3, 0},     {SOW_KALAH, 4, 4, 0},   {SOW_CHUNGKALA, 4, 3, 0},
    {SOW_CONGKAK, 4, 3, 0},   {SOW_CONGKAK, 4, 4, 0}, {SOW_TOGUZ, 3, 3, 0},
};
#define NBOARDS (sizeof boards / sizeof boards[0])

/* What the depth callback checks against. */
typedef struct claims {
    const sow_solution *ref;
    bool per_move; /* the solver's move scores are analyse's (no cycles) */
    int depths_open;   /* depths >= 3 completed before the value was proven */
    int moves_checked; /* exact move labels compared at such depths */
    const char *what;
} claims;

static void check_depth(void *ctx, const sow_analyse_info *in)
{
    claims *c = ctx;
    if (in->exact && in->score != c->ref->score)
        fail_msg("%s: depth %d claims exact %d, solver %d", c->what, in->depth, in->score,
                 c->ref->score);
    if (in->exact || in->depth < 3)
        return;
    c->depths_open++;
    for (int i = 0; c->per_move && i < in->nmoves; i++) {
        if (!in->move_exact[i])
            continue;
        c->moves_checked++;
        int v = in->move_scores[i], r = c->ref->move_scores[i];
        if (in->move_bound[i] ? r > v : r != v)
            fail_msg("%s: depth %d move %d exact %s %d, solver %d", c->what, in->depth, i,
                     in->move_bound[i] ? "bound" : "value", v, r);
    }
}

/* The evaluation of a check: the game's own, none (the stores), or one far
 * above any position's worth (ten seeds a non-empty pit, five an extra
 * turn or a seed banked), under which the analysis's pruning by the
 * evaluation (reverse futility) cuts nearly everywhere it may: none of
 * those cuts may be taken for a proof. */
typedef enum { EVAL_OWN, EVAL_MATERIAL, EVAL_WILD } eval_kind;

static void check_board(size_t bi, int threads, eval_kind kind, sow_reductions red, int *open,
                        int *moves)
{
    sow_game g;
    game_of(&g, boards[bi].id, boards[bi].m, boards[bi].n, boards[bi].variant);
    sow_search_options so = {.threads = threads, .tt_mb = 8};
    sow_search *a, *x;
    assert_int_equal(sow_search_new(&g, &so, &a), SOW_OK);
    assert_int_equal(sow_search_new(&g, &so, &x), SOW_OK);
    sow_eval_params w;
    sow_eval_default(&g, &w);
    if (kind == EVAL_WILD)
        w = (sow_eval_params){.mobility = 1000, .extra = 500, .capture = 500};
    static sow_analyse_info in;
    static sow_search_result r;
    const sow_solution *ref = &r.sol;
    char what[96];
    for (uint64_t seed = 0; seed < 3; seed++) {
        sow_pos p;
        random_live_position(&g, seed, (int)(3 * seed), &p);
        assert_int_equal(sow_search_solve(x, &p, &r), SOW_OK);
        for (int i = 0; i < ref->nmoves; i++)
            assert_true(r.move_exact[i]);
        snprintf(what, sizeof what, "%s %dx%d seed %d threads %d%s%s", sow_game_name(boards[bi].id),
                 boards[bi].m, boards[bi].n, (int)seed, threads,
                 kind == EVAL_MATERIAL ? " material" : kind == EVAL_WILD ? " wild" : "",
                 red == SOW_REDUCE_DEEP ? " deep" : "");
        claims c = {.ref = ref, .per_move = !g.cycles, .what = what};
        sow_analyse_options ao = {.eval = kind == EVAL_MATERIAL ? NULL : &w,
                                  .reductions = red,
                                  .on_depth = check_depth,
                                  .ctx = &c};
        sow_search_clear(a);
        assert_int_equal(sow_analyse(a, &p, &ao, &in), SOW_OK);
        if (!in.exact || in.score != ref->score)
            fail_msg("%s: analyse %d%s at depth %d, solver %d", what, in.score,
                     in.exact ? " exact" : "", in.depth, ref->score);
        *open += c.depths_open;
        *moves += c.moves_checked;
    }
    sow_search_free(a);
    sow_search_free(x);
}

/* Every exact label at every depth is right, with the evaluation, without
 * it and with a wild one, on one thread and two, with the game's late-move
 * reductions and with deep ones on every board. */
static void test_exact_labels(void **state)
{
    (void)state;
    int open = 0, moves = 0;
    for (size_t i = 0; i < NBOARDS; i++) {
        check_board(i, 1, EVAL_OWN, SOW_REDUCE_GAME, &open, &moves);
        check_board(i, 1, EVAL_MATERIAL, SOW_REDUCE_GAME, &open, &moves);
        check_board(i, 1, EVAL_WILD, SOW_REDUCE_GAME, &open, &moves);
        check_board(i, 2, EVAL_OWN, SOW_REDUCE_GAME, &open, &moves);
        check_board(i, 1, EVAL_OWN, SOW_REDUCE_DEEP, &open, &moves);
        check_board(i, 1, EVAL_WILD, SOW_REDUCE_DEEP, &open, &moves);
    }
    /* The searches ran deep enough to reduce, and labelled moves exact
     * before the root was proven. */
    assert_true(open > 100);
    assert_true(moves > 100);
}

/* One run's results, depth by depth. */
typedef struct trace {
    int n;
    uint64_t nodes[SOW_ANALYSE_MAX_DEPTH + 1];
    int score[SOW_ANALYSE_MAX_DEPTH + 1], best[SOW_ANALYSE_MAX_DEPTH + 1];
    int scores[SOW_ANALYSE_MAX_DEPTH + 1][SOW_MAX_MOVES];
    sow_move pv[SOW_ANALYSE_MAX_DEPTH + 1][SOW_PV_MAX];
    int pv_len[SOW_ANALYSE_MAX_DEPTH + 1];
} trace;

static void record(void *ctx, const sow_analyse_info *in)
{
    trace *t = ctx;
    int d = t->n++;
    t->nodes[d] = in->nodes;
    t->score[d] = in->score;
    t->best[d] = in->best;
    memcpy(t->scores[d], in->move_scores, sizeof t->scores[d]);
    memcpy(t->pv[d], in->pv, sizeof t->pv[d]);
    t->pv_len[d] = in->pv_len;
}

static void run(const sow_game *g, sow_search *s, int depth, trace *t)
{
    sow_pos p;
    sow_game_start(g, &p);
    sow_eval_params w;
    sow_eval_default(g, &w);
    static sow_analyse_info in;
    memset(t, 0, sizeof *t);
    sow_analyse_options ao = {.max_depth = depth, .eval = &w, .on_depth = record, .ctx = t};
    assert_int_equal(sow_analyse(s, &p, &ao, &in), SOW_OK);
    assert_int_equal(t->n, depth);
}

/* Two fresh solvers, and the first again after a clear, give the same
 * trace: exact keys (Kalah 6x4) and hashed ones (Toguz 9x9, Congkak
 * 7x7), deep enough that reductions, killers and history all act. */
static void test_deterministic(void **state)
{
    (void)state;
    static const struct {
        sow_game_id id;
        int m, n, depth;
    } cases[] = {{SOW_KALAH, 6, 4, 10}, {SOW_TOGUZ, 9, 9, 6}, {SOW_CONGKAK, 7, 7, 8}};
    static trace t1, t2, t3;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sow_game g;
        game_of(&g, cases[i].id, cases[i].m, cases[i].n, 0);
        sow_search_options so = {.threads = 1, .tt_mb = 8};
        sow_search *a, *b;
        assert_int_equal(sow_search_new(&g, &so, &a), SOW_OK);
        assert_int_equal(sow_search_new(&g, &so, &b), SOW_OK);
        run(&g, a, cases[i].depth, &t1);
        run(&g, b, cases[i].depth, &t2);
        sow_search_clear(a);
        run(&g, a, cases[i].depth, &t3);
        assert_true(t1.nodes[cases[i].depth - 1] > 1000);
        assert_memory_equal(&t1, &t2, sizeof t1);
        assert_memory_equal(&t1, &t3, sizeof t1);
        sow_search_free(a);
        sow_search_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_labels),
        cmocka_unit_test(test_deterministic),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
