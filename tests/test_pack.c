/* test_pack.c - packed database levels (src/db/pack.c): every entry of
 * small databases of Kalah(4..6), Chungkala and Congkak decodes to its
 * int8 value, with the full window and with a narrow one that forces
 * escapes; a packed level stays under its family's measured bound
 * (scripts/db-escapes writes it: run it again if not); a blob whose sizes
 * disagree is refused; one whose bounds are damaged is never read outside
 * itself; a build reading the levels below packed writes the same bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "pack.h"
#include "sow/db.h"

static sow_db *open_db(sow_game *g, sow_game_id id, int m, int K, bool unpacked)
{
    sow_config c = {id, m, 1, 0};
    assert_int_equal(sow_game_init(g, &c), SOW_OK);
    sow_db_options o = {.threads = 2, .unpacked = unpacked};
    sow_db *db;
    char why[256];
    assert_int_equal(sow_db_open(g, K, NULL, &o, &db, why, sizeof why), SOW_OK);
    return db;
}

/* Packs level k with the window, checks every entry; returns its escapes. */
static uint64_t check_level(const sow_db *db, int k, int window, size_t *bytes)
{
    int m = db->m;
    uint64_t n = sow_index_count(2 * m, k);
    sow_huge mem;
    size_t size;
    char why[256];
    assert_int_equal(sow_pack_encode(&db->ix, m, k, db->table[k], n, window, 2, SIZE_MAX, &mem,
                                     &size, why,
                                     sizeof why),
                     SOW_OK);
    /* One thread packs the same bytes; a budget one byte short refuses. */
    sow_huge one;
    size_t size1;
    assert_int_equal(sow_pack_encode(&db->ix, m, k, db->table[k], n, window, 1, SIZE_MAX, &one,
                                     &size1, why, sizeof why),
                     SOW_OK);
    assert_int_equal(size1, size);
    assert_memory_equal(one.map, mem.map, size);
    sow_huge_free(&one);
    assert_int_equal(sow_pack_encode(&db->ix, m, k, db->table[k], n, window, 2, size - 1, &one,
                                     &size1, why, sizeof why),
                     SOW_E_LIMIT);
    assert_null(one.map);
    sow_db_pack pk;
    assert_int_equal(sow_pack_view(mem.map, size, m, k, n, &pk, why, sizeof why), SOW_OK);
    assert_int_equal(sow_pack_view(mem.map, size - 1, m, k, n, &pk, why, sizeof why),
                     SOW_E_FORMAT);
    assert_int_equal(sow_pack_view(mem.map, size, m, k + 1, sow_index_count(2 * m, k + 1), &pk,
                                   why, sizeof why),
                     SOW_E_FORMAT);
    assert_int_equal(sow_pack_view(mem.map, size, m, k, n, &pk, why, sizeof why), SOW_OK);
    int8_t *out = malloc(n);
    assert_non_null(out);
    memset(out, 0x5a, n);
    sow_pack_decode(&pk, &db->ix, m, k, out);
    assert_memory_equal(out, db->table[k], n);
    /* Every escape is a real one: its nibble says so and its rank decodes. */
    for (uint64_t i = 0; i < pk.nesc; i++) {
        uint64_t r = pk.esc[i] >> 8;
        assert_true(r < n);
        assert_int_equal((pk.nib[r >> 1] >> (4 * (r & 1))) & 15, 15);
        assert_int_equal(sow_db_pack_escape_(&pk, r), db->table[k][r]);
    }
    free(out);
    *bytes = size;
    uint64_t nesc = pk.nesc;
    sow_huge_free(&mem);
    return nesc;
}

/* The database as sow_db_open packs it probes every board as the one kept
 * at a byte a position, from positions (sow_db_probe's inline path) and by
 * rank, and takes no more than sow_db_bytes says. */
static void check_probes(const sow_game *g, const sow_db *bytes, const sow_db *db, int K)
{
    int m = g->m;
    assert_false(bytes->packed);
    assert_true(db->packed);
    assert_true(sow_db_size(db) < sow_db_size(bytes));
    assert_true(sow_db_size(bytes) <= sow_db_bytes(g, K));
    assert_true(db->pack[K] && !db->table[K]);
    for (int k = 0; k <= K; k++) {
        uint64_t n = sow_index_count(2 * m, k);
        uint8_t c[SOW_IDX_MAX_PARTS];
        sow_index_unrank(&db->ix, k, 0, c);
        for (uint64_t r = 0; r < n; r++) {
            sow_pos p;
            sow_index_to_pos(m, c, &p);
            sow_db_prefetch(db, &p);
            assert_int_equal(sow_db_probe(db, &p), sow_db_probe(bytes, &p));
            assert_int_equal(sow_db_at(db, k, r), bytes->table[k][r]);
            sow_index_next(2 * m, c);
        }
    }
}

static void check_game(sow_game_id id, int m, int K)
{
    sow_game g;
    sow_db *db = open_db(&g, id, m, K, true);
    sow_db *packed = open_db(&g, id, m, K, false);
    check_probes(&g, db, packed, K);
    sow_db_close(packed);
    uint64_t forced = 0;
    for (int k = 0; k <= K; k++) {
        size_t bytes;
        check_level(db, k, SOW_PACK_WINDOW, &bytes);
        assert_true(bytes <= sow_pack_bound((int)id, 0, m, k));
        forced += check_level(db, k, 3, &bytes);
    }
    /* A window of 3 values cannot hold these levels. */
    assert_true(forced > 0);
    sow_db_close(db);
}

static void kalah4(void **state)
{
    (void)state;
    check_game(SOW_KALAH, 4, 20);
}

/* The measured escapes (escapes.c): a family not measured gets the
 * default; a measured one never expects fewer at more seeds, nor less
 * than it measured, nor more than every entry. */
static void escape_share(void **state)
{
    (void)state;
    assert_true(sow_pack_escape_share(SOW_TOGUZ, 0, 9, 30) == SOW_PACK_ESCAPES_DEFAULT);
    assert_true(sow_pack_escape_share(SOW_KALAH, SOW_VAR_PIE, 6, 30) ==
                SOW_PACK_ESCAPES_DEFAULT);
    for (int i = 0; i < sow_pack_escapes_fitted_count; i++) {
        const sow_pack_escapes *e = &sow_pack_escapes_fitted[i];
        double last = 0;
        for (int k = 0; k <= SOW_DB_MAX_SEEDS; k++) {
            double s = sow_pack_escape_share(e->game, e->variant, e->m, k);
            assert_true(s >= last && s >= e->share && s <= 1.0);
            last = s;
        }
    }
}

static void kalah5(void **state)
{
    (void)state;
    check_game(SOW_KALAH, 5, 10);
}

static void kalah6(void **state)
{
    (void)state;
    check_game(SOW_KALAH, 6, 9);
}

static void chungkala(void **state)
{
    (void)state;
    check_game(SOW_CHUNGKALA, 6, 8);
}

static void congkak(void **state)
{
    (void)state;
    check_game(SOW_CONGKAK, 7, 7);
}

/* The build reading the levels below packed (sow_retro_job.pack) writes
 * every level byte for byte as the build reading them at a byte: each
 * level k of db (held at a byte) built again with the levels below packed
 * in one of three ways: every one, with a window of 3 codes (escapes on
 * most levels: the escape path of the build's read), and every other one
 * (both forms in one build). Two threads, the threaded path on every level. */
static void check_build_packed(sow_game_id id, int m, int K, unsigned variant)
{
    sow_game g;
    sow_config cfg = {id, m, 1, variant};
    assert_int_equal(sow_game_init(&g, &cfg), SOW_OK);
    sow_db_options o = {.threads = 2, .unpacked = true};
    sow_db *db;
    char why[256];
    assert_int_equal(sow_db_open(&g, K, NULL, &o, &db, why, sizeof why), SOW_OK);
    sow_huge mem[3][SOW_DB_MAX_SEEDS + 1];
    sow_db_pack view[3][SOW_DB_MAX_SEEDS + 1];
    const int windows[3] = {SOW_PACK_WINDOW, 3, SOW_PACK_WINDOW};
    uint64_t escapes = 0;
    for (int w = 0; w < 3; w++)
        for (int k = 0; k < K; k++) {
            uint64_t n = sow_index_count(2 * m, k);
            size_t size;
            assert_int_equal(sow_pack_encode(&db->ix, m, k, db->table[k], n, windows[w], 2,
                                             SIZE_MAX, &mem[w][k], &size, why, sizeof why),
                             SOW_OK);
            assert_int_equal(sow_pack_view(mem[w][k].map, size, m, k, n, &view[w][k], why,
                                           sizeof why),
                             SOW_OK);
            escapes += w == 1 ? view[w][k].nesc : 0;
        }
    assert_true(escapes > 0);
    for (int k = 1; k <= K; k++) {
        uint64_t n = sow_index_count(2 * m, k);
        int8_t *out = malloc(n);
        assert_non_null(out);
        for (int w = 0; w < 3; w++) {
            const int8_t *tab[SOW_DB_MAX_SEEDS + 1] = {0};
            const sow_db_pack *pack[SOW_DB_MAX_SEEDS + 1] = {0};
            for (int j = 0; j < k; j++) {
                if (w == 2 && j % 2)
                    tab[j] = db->table[j];
                else
                    pack[j] = &view[w][j];
            }
            memset(out, 0x5a, n);
            sow_retro_job job = {.g = &g, .ix = &db->ix, .k = k, .tab = tab, .pack = pack,
                                 .out = out, .threads = 2, .serial_below = 1};
            assert_int_equal(sow_retro_build(&job), SOW_OK);
            assert_memory_equal(out, db->table[k], n);
        }
        free(out);
    }
    for (int w = 0; w < 3; w++)
        for (int k = 0; k < K; k++)
            sow_huge_free(&mem[w][k]);
    /* Within the least budget the build needs (sow_db_build_bytes), which
     * has no room for copies at a byte of all the levels below, the open
     * builds the same database. */
    size_t least = sow_db_build_bytes(&g, K, NULL, false);
    sow_db_options lean = {.threads = 2, .memory = least};
    sow_db *packed;
    sow_err e = sow_db_open(&g, K, NULL, &lean, &packed, why, sizeof why);
    if (e)
        fail_msg("%s", why);
    assert_true(packed->packed);
    for (int k = 0; k <= K; k++)
        for (uint64_t r = 0; r < sow_index_count(2 * m, k); r++)
            if (sow_db_at(packed, k, r) != db->table[k][r])
                fail_msg("seed count %d, rank %llu", k, (unsigned long long)r);
    sow_db_close(packed);
    lean.memory = least - 1;
    assert_int_equal(sow_db_open(&g, K, NULL, &lean, &packed, why, sizeof why), SOW_E_NOMEM);
    sow_db_close(db);
}

static void build_packed(void **state)
{
    (void)state;
    check_build_packed(SOW_KALAH, 6, 12, 0);
    check_build_packed(SOW_KALAH, 4, 14, SOW_VAR_EMPTY_CAPTURE);
    check_build_packed(SOW_KALAH, 5, 12, SOW_VAR_END_ON_TURN);
    check_build_packed(SOW_CHUNGKALA, 6, 10, 0);
    check_build_packed(SOW_CONGKAK, 7, 9, 0);
    check_build_packed(SOW_CHUNGKALA, 3, 14, 0);
}

/* A level whose g and f are damaged (a file read without its checksum)
 * decodes to wrong values but reads nothing outside the level: the blob
 * sits right after a page that faults on any access, and g + f at their
 * lowest would index dict 256 bytes before the blob's start. */
static void damaged_bounds(void **state)
{
    (void)state;
    sow_game g;
    sow_db *db = open_db(&g, SOW_KALAH, 4, 8, true);
    int m = db->m, k = 8;
    uint64_t n = sow_index_count(2 * m, k);
    sow_huge mem;
    size_t size;
    char why[256];
    assert_int_equal(sow_pack_encode(&db->ix, m, k, db->table[k], n, SOW_PACK_WINDOW, 1,
                                     SIZE_MAX, &mem, &size, why, sizeof why),
                     SOW_OK);
    size_t page = (size_t)sysconf(_SC_PAGESIZE), span = page + (size + page - 1) / page * page;
    uint8_t *area = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(area != MAP_FAILED);
    assert_int_equal(mprotect(area, page, PROT_NONE), 0);
    uint8_t *blob = area + page;
    memcpy(blob, mem.map, size);
    sow_db_pack pk;
    assert_int_equal(sow_pack_view(blob, size, m, k, n, &pk, why, sizeof why), SOW_OK);
    uint64_t rows = sow_pack_rows(m, k);
    memset((int8_t *)pk.g, INT8_MIN, rows);
    memset((int8_t *)pk.f, INT8_MIN, rows);
    int8_t *out = malloc(n);
    assert_non_null(out);
    sow_pack_decode(&pk, &db->ix, m, k, out);
    assert_memory_not_equal(out, db->table[k], n);
    free(out);
    munmap(area, span);
    sow_huge_free(&mem);
    sow_db_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escape_share), cmocka_unit_test(kalah4),
        cmocka_unit_test(kalah5), cmocka_unit_test(kalah6),
        cmocka_unit_test(chungkala), cmocka_unit_test(congkak), cmocka_unit_test(damaged_bounds),
        cmocka_unit_test(build_packed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
