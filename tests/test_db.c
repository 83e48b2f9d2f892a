/* test_db.c - database files: round trip, resume, and refusal of every kind
 * of bad file (truncated, flipped bytes, other game / board / variant,
 * missing seed count). The bad files are made here from good ones. */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "sow/db.h"

static char dir[64];
static char why[512];

static void rm_dir_files(const char *d)
{
    DIR *dd = opendir(d);
    if (!dd)
        return;
    struct dirent *e;
    char p[600];
    while ((e = readdir(dd)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(p, sizeof p, "%s/%s", d, e->d_name);
        unlink(p);
    }
    closedir(dd);
}

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/sow_test_db.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rm_dir_files(dir);
    rmdir(dir);
    return 0;
}

static void game(sow_game *g, sow_game_id id, int m, unsigned v)
{
    sow_config c = {id, m, 1, v};
    assert_int_equal(sow_game_init(g, &c), SOW_OK);
}

static void path_of(const sow_game *g, int k, char *p, size_t n)
{
    char name[128];
    sow_db_file_name(g, k, name, sizeof name);
    snprintf(p, n, "%s/%s", dir, name);
}

static void copy_file(const char *from, const char *to)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    assert_non_null(a);
    assert_non_null(b);
    int ch;
    while ((ch = fgetc(a)) != EOF)
        fputc(ch, b);
    fclose(a);
    fclose(b);
}

static void flip_byte(const char *p, long off)
{
    int fd = open(p, O_RDWR);
    assert_true(fd >= 0);
    uint8_t b;
    assert_int_equal(pread(fd, &b, 1, off), 1);
    b ^= 0x10;
    assert_int_equal(pwrite(fd, &b, 1, off), 1);
    close(fd);
}

static void assert_same(const sow_db *a, const sow_db *b, int K, int m)
{
    for (int k = 0; k <= K; k++)
        assert_memory_equal(a->table[k], b->table[k], sow_index_count(2 * m, k));
}

static sow_err reopen(const sow_game *g, int K)
{
    sow_db_options o = {.no_build = true};
    sow_db *db = NULL;
    why[0] = '\0';
    sow_err e = sow_db_open(g, K, dir, &o, &db, why, sizeof why);
    if (!e)
        sow_db_close(db);
    else
        assert_null(db);
    return e;
}

static void test_round_trip_and_refusals(void **state)
{
    (void)state;
    const int K = 9, m = 3;
    sow_game g;
    game(&g, SOW_KALAH, m, 0);
    sow_db *mem, *disk;
    assert_int_equal(sow_db_open(&g, K, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &disk, why, sizeof why), SOW_OK);
    assert_same(mem, disk, K, m);
    sow_db_close(disk);

    /* Load only, from the files. */
    sow_db_options o = {.no_build = true};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &disk, why, sizeof why), SOW_OK);
    assert_same(mem, disk, K, m);
    sow_db_close(disk);

    /* What the header says. */
    char p[256], saved[300];
    sow_db_header h;
    path_of(&g, 5, p, sizeof p);
    assert_int_equal(sow_db_file_check(p, false, &h, why, sizeof why), SOW_OK);
    assert_int_equal(h.game, SOW_KALAH);
    assert_int_equal(h.m, m);
    assert_int_equal(h.seeds, 5);
    assert_int_equal(h.entries, sow_index_count(2 * m, 5));
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, SOW_DB_HEADER_SIZE + (long)h.entries);
    snprintf(saved, sizeof saved, "%s.saved", p);
    copy_file(p, saved);

    /* Truncated by one byte; then cut into the header. */
    assert_int_equal(truncate(p, st.st_size - 1), 0);
    assert_int_equal(reopen(&g, K), SOW_E_FORMAT);
    assert_non_null(strstr(why, "truncated"));
    assert_int_equal(truncate(p, 20), 0);
    assert_int_equal(reopen(&g, K), SOW_E_FORMAT);
    assert_non_null(strstr(why, "truncated"));

    /* A trailing byte. */
    copy_file(saved, p);
    FILE *f = fopen(p, "ab");
    fputc(0, f);
    fclose(f);
    assert_int_equal(reopen(&g, K), SOW_E_FORMAT);
    assert_non_null(strstr(why, "trailing"));

    /* A flipped byte in the payload, first and last entries and middle. */
    long offs[] = {SOW_DB_HEADER_SIZE, SOW_DB_HEADER_SIZE + (long)h.entries / 2,
                   st.st_size - 1};
    for (int i = 0; i < 3; i++) {
        copy_file(saved, p);
        flip_byte(p, offs[i]);
        assert_int_equal(reopen(&g, K), SOW_E_CHECKSUM);
        assert_non_null(strstr(why, "checksum"));
    }
    /* A flipped byte anywhere in the header. */
    for (long off = 0; off < SOW_DB_HEADER_SIZE; off++) {
        copy_file(saved, p);
        flip_byte(p, off);
        sow_err e = reopen(&g, K);
        assert_true(e == SOW_E_CHECKSUM || e == SOW_E_FORMAT);
    }
    /* Not a database at all. */
    f = fopen(p, "wb");
    for (int i = 0; i < 200; i++)
        fputc('x', f);
    fclose(f);
    assert_int_equal(reopen(&g, K), SOW_E_FORMAT);
    assert_non_null(strstr(why, "magic"));

    /* The file of another seed count under this name. */
    char p4[256];
    path_of(&g, 4, p4, sizeof p4);
    copy_file(p4, p);
    assert_int_equal(reopen(&g, K), SOW_E_MISMATCH);
    assert_non_null(strstr(why, "seed count 4"));
    copy_file(saved, p);
    assert_int_equal(reopen(&g, K), SOW_OK);

    /* Files of another game, board or variant under this name. */
    struct { sow_game_id id; int m; unsigned v; } others[] = {
        {SOW_CHUNGKALA, m, 0}, {SOW_CONGKAK, m, 0}, {SOW_KALAH, 2, 0},
        {SOW_KALAH, m, SOW_VAR_EMPTY_CAPTURE}, {SOW_KALAH, m, SOW_VAR_NO_SWEEP},
    };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        sow_game go;
        game(&go, others[i].id, others[i].m, others[i].v);
        sow_db *d2;
        assert_int_equal(sow_db_open(&go, 5, dir, NULL, &d2, why, sizeof why), SOW_OK);
        sow_db_close(d2);
        char po[256];
        path_of(&go, 5, po, sizeof po);
        copy_file(po, p);
        assert_int_equal(reopen(&g, K), SOW_E_MISMATCH);
        assert_non_null(strstr(why, "other game, board or variant"));
    }
    copy_file(saved, p);
    unlink(saved);

    /* A missing seed count: refused when only loading... */
    unlink(p4);
    assert_int_equal(reopen(&g, K), SOW_E_MISSING);
    assert_non_null(strstr(why, "seed count 4 is missing"));
    /* ... rebuilt (and only it) otherwise, to the same bytes. A stale
     * temporary file from a dead build is ignored and cleaned up. */
    char stale[300];
    snprintf(stale, sizeof stale, "%s.tmp.999999999", p4);
    f = fopen(stale, "wb");
    fputs("half a file", f);
    fclose(f);
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &disk, why, sizeof why), SOW_OK);
    assert_same(mem, disk, K, m);
    sow_db_close(disk);
    assert_int_equal(access(stale, F_OK), -1);
    assert_int_equal(reopen(&g, K), SOW_OK);

    /* Pie shares the files of the game without it. */
    sow_game gp;
    game(&gp, SOW_KALAH, m, SOW_VAR_PIE);
    assert_int_equal(reopen(&gp, K), SOW_OK);
    sow_db_close(mem);
}

static void test_interrupted_resumes(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_CONGKAK, 3, 0);
    const int K = 10;
    volatile int stop = 1;
    sow_db_options o = {.stop = &stop};
    sow_db *db = NULL;
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_null(db);
    /* Nothing that looks complete was left. */
    char p[256];
    for (int k = 0; k <= K; k++) {
        path_of(&g, k, p, sizeof p);
        assert_int_equal(access(p, F_OK), -1);
    }
    assert_int_equal(reopen(&g, K), SOW_E_MISSING);
    /* A partial database (up to 6) then the rest. */
    sow_db *part, *full, *mem;
    assert_int_equal(sow_db_open(&g, 6, dir, NULL, &part, why, sizeof why), SOW_OK);
    sow_db_close(part);
    assert_int_equal(reopen(&g, K), SOW_E_MISSING);
    assert_non_null(strstr(why, "seed count 7"));
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &full, why, sizeof why), SOW_OK);
    assert_int_equal(sow_db_open(&g, K, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_same(mem, full, K, 3);
    sow_db_close(full);
    sow_db_close(mem);
}

static void test_bad_dir(void **state)
{
    (void)state;
    sow_game g;
    game(&g, SOW_KALAH, 2, 0);
    sow_db *db;
    assert_int_equal(sow_db_open(&g, 3, "/nonexistent/dir", NULL, &db, why, sizeof why),
                     SOW_E_IO);
    assert_non_null(strstr(why, "/nonexistent/dir"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_refusals),
        cmocka_unit_test(test_interrupted_resumes),
        cmocka_unit_test(test_bad_dir),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
