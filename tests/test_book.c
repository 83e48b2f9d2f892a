/* test_book.c - opening books (sow/book.h, sow/book_build.h): a complete
 * exact book of small boards checked position by position against the
 * reference solver (every position within its plies there, each value
 * and best move right); the file's round trip, and damaged, truncated,
 * foreign and other-version files refused; 128-bit keys; the resident
 * engine answering from a book (sow/engine.h); a build's deadline and
 * resume; balanced openings against a naive walk and the reference
 * solver. No timing is asserted. */
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
#include "sow/book.h"
#include "sow/book_build.h"
#include "sow/engine.h"
#include "sow/refsolve.h"
#include "sow/rules.h"

static sow_engine *engine(const sow_game *g)
{
    sow_limits lim = {.memory = 256ull << 20, .threads = 1};
    sow_engine *e;
    char why[SOW_WHY];
    if (sow_engine_new(g, &lim, &e, why, sizeof why))
        fail_msg("sow_engine_new: %s", why);
    return e;
}

static sow_book *built(const sow_game *g, int plies, sow_engine *e)
{
    sow_book *b;
    char why[SOW_WHY];
    assert_int_equal(sow_book_new(g, plies, &b, why, sizeof why), SOW_OK);
    sow_book_build_options o = {.exact = true};
    sow_book_build_result r;
    if (sow_book_build(e, b, &o, &r, why, sizeof why))
        fail_msg("sow_book_build: %s", why);
    assert_false(r.stopped);
    assert_int_equal(r.last.done, r.last.total);
    return b;
}

static int ref_score(const sow_game *g, const sow_pos *p)
{
    sow_solution s;
    assert_int_equal(sow_ref_solve(g, p, false, 512, &s), SOW_OK);
    return s.score;
}

/* Walks every line of at most `left` plies from p (a naive walk, no
 * transposition merging: the book must hold each position it meets),
 * checking each unfinished position's entry against the reference. */
static void walk(const sow_game *g, const sow_book *b, const sow_pos *p, int left, int *checked)
{
    if (sow_over(g, p))
        return;
    sow_book_entry en;
    assert_true(sow_book_find(b, p, &en));
    assert_true(en.exact);
    int v = ref_score(g, p);
    assert_int_equal(sow_book_score(g, p, &en), v);
    /* The best move keeps the value. */
    sow_pos c = *p;
    assert_int_equal(sow_play(g, &c, (sow_move)en.move), SOW_OK);
    int cv = sow_over(g, &c) ? sow_terminal_score(g, &c) : ref_score(g, &c);
    assert_int_equal(sow_pos_to_move(&c) == sow_pos_to_move(p) ? cv : -cv, v);
    (*checked)++;
    if (left == 0)
        return;
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(g, p, mv);
    for (int k = 0; k < n; k++) {
        sow_pos q = *p;
        sow_make(g, &q, mv[k]);
        walk(g, b, &q, left - 1, checked);
    }
}

static void check_complete(sow_game_id id, int m, int n, int plies)
{
    sow_game g;
    game_of(&g, id, m, n, 0);
    sow_engine *e = engine(&g);
    sow_book *b = built(&g, plies, e);
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    assert_true(bi.complete);
    assert_false(bi.hashed);
    assert_int_equal(bi.positions, bi.exact);
    uint64_t per[SOW_BOOK_MAX_PLIES + 1], total = 0;
    assert_int_equal(sow_book_count(&g, plies, per, NULL, 0), SOW_OK);
    for (int d = 0; d <= plies; d++)
        total += per[d];
    assert_int_equal(total, bi.positions);
    sow_pos s;
    sow_game_start(&g, &s);
    int checked = 0;
    walk(&g, b, &s, plies, &checked);
    assert_true((uint64_t)checked >= bi.positions); /* transpositions met more than once */
    sow_book_free(b);
    sow_engine_free(e);
}

static void test_complete_kalah(void **state)
{
    (void)state;
    check_complete(SOW_KALAH, 3, 3, 5);
}

static void test_complete_chungkala(void **state)
{
    (void)state;
    check_complete(SOW_CHUNGKALA, 3, 3, 4); /* score scale 3: the tie-break */
}

static void test_complete_toguz(void **state)
{
    (void)state;
    check_complete(SOW_TOGUZ, 3, 2, 3); /* tuzdiks in the key, cycles */
}

/* A temporary file name in the test's folder. */
static void temp_name(char *buf, size_t size, const char *tag)
{
    snprintf(buf, size, "test_book.%ld.%s", (long)getpid(), tag);
}

static void write_bytes(const char *path, const uint8_t *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

static uint8_t *read_bytes(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*n);
    assert_int_equal(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static sow_err load(const char *path, const sow_game *g, char *why)
{
    sow_book *b = NULL;
    sow_err err = sow_book_load(path, g, &b, why, SOW_WHY);
    sow_book_free(b);
    return err;
}

static void test_file(void **state)
{
    (void)state;
    sow_game g, other;
    game_of(&g, SOW_KALAH, 4, 3, 0);
    game_of(&other, SOW_KALAH, 4, 4, 0);
    sow_engine *e = engine(&g);
    sow_book *b = built(&g, 3, e);
    char path[256], bad[256], why[SOW_WHY];
    temp_name(path, sizeof path, "sowbook");
    temp_name(bad, sizeof bad, "bad");
    assert_int_equal(sow_book_save(b, path, why, sizeof why), SOW_OK);
    /* The round trip: every entry the same. */
    sow_book *c;
    assert_int_equal(sow_book_load(path, &g, &c, why, sizeof why), SOW_OK);
    sow_book_info bi, ci;
    sow_book_info_get(b, &bi);
    sow_book_info_get(c, &ci);
    assert_int_equal(bi.positions, ci.positions);
    assert_int_equal(bi.plies, ci.plies);
    assert_true(ci.complete);
    for (uint64_t i = 0; i < ci.positions; i++) {
        sow_book_entry x, y;
        uint64_t xh, xl, yh, yl;
        sow_book_at(b, i, &x, &xh, &xl);
        sow_book_at(c, i, &y, &yh, &yl);
        assert_true(x.future == y.future && x.move == y.move && x.exact == y.exact &&
                    x.depth == y.depth);
        assert_true(xh == yh && xl == yl);
    }
    sow_book_free(c);
    /* Another board's book. */
    assert_int_equal(load(path, &other, why), SOW_E_MISMATCH);
    assert_non_null(strstr(why, "kalah 4x3"));
    size_t n;
    uint8_t *bytes = read_bytes(path, &n);
    /* One bit flipped anywhere: the checksum (or the header's checks). */
    for (size_t at = 0; at < n; at += 7) {
        bytes[at] ^= 0x10;
        write_bytes(bad, bytes, n);
        sow_err err = load(bad, &g, why);
        assert_true(err == SOW_E_CHECKSUM || err == SOW_E_FORMAT);
        assert_null(strchr(why, '\n'));
        bytes[at] ^= 0x10;
    }
    /* Truncated, extended, empty, not a book, another version. */
    write_bytes(bad, bytes, n - 1);
    assert_int_equal(load(bad, &g, why), SOW_E_FORMAT);
    write_bytes(bad, bytes, 10);
    assert_int_equal(load(bad, &g, why), SOW_E_FORMAT);
    write_bytes(bad, bytes, 0);
    assert_int_equal(load(bad, &g, why), SOW_E_FORMAT);
    write_bytes(bad, (const uint8_t *)"sow database store\n", 19);
    assert_int_equal(load(bad, &g, why), SOW_E_FORMAT);
    bytes[8] = SOW_BOOK_VERSION + 1;
    write_bytes(bad, bytes, n);
    assert_int_equal(load(bad, &g, why), SOW_E_FORMAT);
    assert_non_null(strstr(why, "version"));
    assert_int_equal(load("test_book.no-such-file", &g, why), SOW_E_MISSING);
    free(bytes);
    unlink(bad);
    unlink(path);
    sow_book_free(b);
    sow_engine_free(e);
}

static void test_hashed_keys(void **state)
{
    (void)state;
    sow_game g, pie;
    game_of(&g, SOW_TOGUZ, 9, 9, 0);
    sow_book *b;
    assert_int_equal(sow_book_new(&g, 2, &b, NULL, 0), SOW_OK);
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    assert_true(bi.hashed);
    /* Distinct boards, distinct entries; the stores play no part. */
    uint64_t seed = 7;
    sow_pos ps[40];
    for (int i = 0; i < 40; i++) {
        random_play(&g, seed + (uint64_t)i, 1 + i % 8, true, &ps[i]);
        sow_book_entry en = {.future = i - 20, .move = 0, .depth = i % 30};
        assert_int_equal(sow_book_put(b, &ps[i], &en, NULL, 0), SOW_OK);
    }
    for (int i = 0; i < 40; i++) {
        sow_book_entry en;
        assert_true(sow_book_find(b, &ps[i], &en));
        sow_pos q = ps[i];
        q.b[SOW_B_STORE] ^= 1; /* another store, the same future */
        sow_book_entry eq;
        assert_true(sow_book_find(b, &q, &eq));
        assert_int_equal(en.future, eq.future);
    }
    /* An estimate does not replace an exact value. */
    sow_book_entry ex = {.future = 5, .move = 1, .exact = true};
    sow_book_entry es = {.future = 9, .move = 2, .depth = 12};
    assert_int_equal(sow_book_put(b, &ps[0], &ex, NULL, 0), SOW_OK);
    assert_int_equal(sow_book_put(b, &ps[0], &es, NULL, 0), SOW_OK);
    sow_book_entry got;
    assert_true(sow_book_find(b, &ps[0], &got));
    assert_true(got.exact && got.future == 5 && got.move == 1);
    sow_book_free(b);
    /* The pie rule: no book. */
    game_of(&pie, SOW_KALAH, 4, 3, SOW_VAR_PIE);
    assert_int_equal(sow_book_new(&pie, 2, &b, NULL, 0), SOW_E_ARG);
}

/* The engine answers every position of the book from it, its value the
 * reference's; every move's value where the children are in the book
 * too; a position beyond the book goes to the search. */
static void test_engine_answers(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 3, 3, 0);
    sow_engine *builder = engine(&g);
    sow_book *b = built(&g, 2, builder);
    sow_engine_free(builder);
    sow_engine *e = engine(&g);
    assert_int_equal(sow_engine_set_book(e, b), SOW_OK);
    sow_pos s, deep;
    sow_game_start(&g, &s);
    sow_engine_question q = {.seconds = 30};
    sow_engine_answer a;
    char why[SOW_WHY];
    assert_int_equal(sow_engine_evaluate(e, &s, &q, &a, why, sizeof why), SOW_OK);
    assert_true(a.book && sow_engine_from_book(e));
    assert_int_equal(a.how, SOW_ENGINE_EXACT);
    assert_int_equal(a.sol.score, ref_score(&g, &s));
    assert_int_equal(a.sol.nodes, 0);
    q.all_moves = true;
    sow_solution ref;
    assert_int_equal(sow_ref_solve(&g, &s, false, 512, &ref), SOW_OK);
    assert_int_equal(sow_engine_evaluate(e, &s, &q, &a, why, sizeof why), SOW_OK);
    assert_true(a.book);
    for (int k = 0; k < a.sol.nmoves; k++) {
        assert_true(a.move_exact[k]);
        assert_int_equal(a.sol.move_scores[k], ref.move_scores[k]);
    }
    /* Ply 2 is in the book, its children (ply 3) are not: every move's
     * value comes from the search. */
    random_play(&g, 3, 2, true, &deep);
    assert_int_equal(sow_engine_evaluate(e, &deep, &q, &a, why, sizeof why), SOW_OK);
    assert_false(a.book || sow_engine_from_book(e));
    assert_int_equal(a.sol.score, ref_score(&g, &deep));
    /* The analysis's question. */
    sow_analyse_options ao = {.multipv = 1};
    sow_analyse_info in;
    assert_int_equal(sow_engine_analyse(e, &s, 0, &ao, &in, why, sizeof why), SOW_OK);
    assert_true(sow_engine_from_book(e) && in.exact);
    assert_int_equal(in.score, ref_score(&g, &s));
    /* Another game's book is refused. */
    sow_game other;
    game_of(&other, SOW_KALAH, 4, 3, 0);
    sow_book *ob;
    assert_int_equal(sow_book_new(&other, 1, &ob, NULL, 0), SOW_OK);
    assert_int_equal(sow_engine_set_book(e, ob), SOW_E_MISMATCH);
    assert_int_equal(sow_engine_evaluate(e, &s, &q, &a, why, sizeof why), SOW_OK);
    assert_false(a.book);
    sow_engine_free(e);
}

/* A deadline already past: nothing judged, the book not complete; the
 * same book resumed completes it, judging only what was missing. */
static void test_deadline_resume(void **state)
{
    (void)state;
    sow_game g;
    game_of(&g, SOW_KALAH, 4, 3, 0);
    sow_engine *e = engine(&g);
    sow_book *b;
    assert_int_equal(sow_book_new(&g, 3, &b, NULL, 0), SOW_OK);
    sow_book_build_options o = {.exact = true, .deadline = 1e-9};
    sow_book_build_result r;
    char why[SOW_WHY];
    assert_int_equal(sow_book_build(e, b, &o, &r, why, sizeof why), SOW_OK);
    assert_true(r.stopped);
    assert_int_equal(r.solved, 0);
    sow_book_info bi;
    sow_book_info_get(b, &bi);
    assert_false(bi.complete);
    /* Half of ply 2 by hand, then the build does the rest. */
    sow_book *full = built(&g, 2, e);
    sow_book_info fi;
    sow_book_info_get(full, &fi);
    for (uint64_t i = 0; i < fi.positions / 2; i++) {
        sow_pos p;
        random_play(&g, i + 1, (int)(i % 3), true, &p);
        sow_book_entry en;
        if (sow_book_find(full, &p, &en))
            assert_int_equal(sow_book_put(b, &p, &en, NULL, 0), SOW_OK);
    }
    sow_book_info_get(b, &bi);
    uint64_t had = bi.positions;
    o.deadline = 0;
    assert_int_equal(sow_book_build(e, b, &o, &r, why, sizeof why), SOW_OK);
    assert_false(r.stopped);
    assert_int_equal(r.solved, r.last.total - had);
    sow_book_info_get(b, &bi);
    assert_true(bi.complete);
    /* An analysis build needs a time; an exact one a board the solver takes. */
    o = (sow_book_build_options){.exact = false};
    assert_int_equal(sow_book_build(e, b, &o, &r, why, sizeof why), SOW_E_ARG);
    sow_book_free(full);
    sow_book_free(b);
    sow_engine_free(e);
}

/* ---- balanced openings ---------------------------------------------------- */

/* A board as the book keys it: the pits and tuzdiks, not the stores. */
typedef struct board_key {
    uint8_t k[2 * SOW_MAX_PITS + 2];
    int ply;
} board_key;

static board_key key_of_pos(const sow_game *g, const sow_pos *p)
{
    board_key bk = {0};
    memcpy(bk.k, p->b, (size_t)g->m);
    memcpy(bk.k + g->m, p->b + SOW_HALF, (size_t)g->m);
    bk.k[2 * g->m] = p->b[SOW_B_TUZDIK];
    bk.k[2 * g->m + 1] = p->b[SOW_HALF + SOW_B_TUZDIK];
    return bk;
}

/* Every line of at most `left` plies, naively (no merging): each board's
 * fewest plies from the start, in keys[0..*n). */
static void min_plies(const sow_game *g, const sow_pos *p, int ply, int left, board_key *keys,
                      int *n, int cap)
{
    if (sow_over(g, p))
        return;
    board_key bk = key_of_pos(g, p);
    bk.ply = ply;
    int i = 0;
    while (i < *n && memcmp(keys[i].k, bk.k, sizeof bk.k) != 0)
        i++;
    if (i == *n) {
        assert_true(*n < cap);
        keys[(*n)++] = bk;
    } else if (ply < keys[i].ply) {
        keys[i].ply = ply;
    }
    if (left == 0)
        return;
    sow_move mv[SOW_MAX_MOVES];
    int nm = sow_moves(g, p, mv);
    for (int k = 0; k < nm; k++) {
        sow_pos q = *p;
        sow_make(g, &q, mv[k]);
        min_plies(g, &q, ply + 1, left - 1, keys, n, cap);
    }
}

/* sow_book_openings on a complete exact book: every opening's line is
 * legal, of the ply asked, its margin South's by the reference solver,
 * within the bound, most balanced first; with no bound, one opening per
 * board whose fewest plies from the start are the ply asked. */
static void check_openings(sow_game_id id, int m, int n, int plies)
{
    sow_game g;
    game_of(&g, id, m, n, 0);
    sow_engine *e = engine(&g);
    sow_book *b = built(&g, plies, e);
    static board_key keys[4096];
    int nkeys = 0;
    sow_pos s;
    sow_game_start(&g, &s);
    min_plies(&g, &s, 0, plies, keys, &nkeys, 4096);
    char why[SOW_WHY];
    for (int ply = 1; ply <= plies; ply++) {
        int boards = 0;
        for (int i = 0; i < nkeys; i++)
            boards += keys[i].ply == ply;
        sow_book_opening *all, *some;
        uint64_t nall, nsome, positions, missing;
        assert_int_equal(sow_book_openings(b, ply, 1000, &all, &nall, &positions, &missing, why, sizeof why),
                         SOW_OK);
        assert_int_equal(missing, 0);
        assert_int_equal(nall, (uint64_t)boards);
        int within = abs(all[nall / 2].margin); /* a bound that splits them */
        uint64_t inside = 0;
        for (uint64_t i = 0; i < nall; i++) {
            const sow_book_opening *o = &all[i];
            assert_int_equal(o->plies, ply);
            assert_true(o->exact);
            sow_pos p;
            sow_game_start(&g, &p);
            for (int k = 0; k < o->plies; k++)
                assert_int_equal(sow_play(&g, &p, o->moves[k]), SOW_OK);
            assert_false(sow_over(&g, &p));
            int v = sow_score_margin(&g, ref_score(&g, &p));
            assert_int_equal(sow_pos_to_move(&p) == SOW_SOUTH ? v : -v, o->margin);
            if (i > 0)
                assert_true(abs(all[i - 1].margin) <= abs(o->margin));
            inside += abs(o->margin) <= within;
        }
        assert_int_equal(sow_book_openings(b, ply, within, &some, &nsome, &positions, &missing, why,
                                           sizeof why), SOW_OK);
        assert_int_equal(nsome, inside);
        for (uint64_t i = 0; i < nsome; i++)
            assert_true(abs(some[i].margin) <= within);
        free(all);
        free(some);
    }
    sow_book_opening *o;
    uint64_t no, positions, missing;
    assert_int_equal(sow_book_openings(b, plies + 1, 0, &o, &no, &positions, &missing, why, sizeof why),
                     SOW_E_ARG);
    assert_int_equal(sow_book_openings(b, 1, -1, &o, &no, &positions, &missing, why, sizeof why), SOW_E_ARG);
    sow_book_free(b);
    sow_engine_free(e);
}

static void test_openings(void **state)
{
    (void)state;
    check_openings(SOW_KALAH, 3, 3, 4);
    check_openings(SOW_CHUNGKALA, 3, 3, 4); /* score scale 3: margins, not scores */
    check_openings(SOW_TOGUZ, 3, 2, 3);     /* tuzdiks in the key */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_complete_kalah),   cmocka_unit_test(test_complete_chungkala),
        cmocka_unit_test(test_complete_toguz),   cmocka_unit_test(test_file),
        cmocka_unit_test(test_hashed_keys),      cmocka_unit_test(test_engine_answers),
        cmocka_unit_test(test_deadline_resume),  cmocka_unit_test(test_openings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
