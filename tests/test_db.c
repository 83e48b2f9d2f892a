/* test_db.c - database files: round trip, resume, and refusal of every kind
 * of bad file (truncated, flipped bytes, other game / board / variant,
 * missing seed count), and the stamp of a file checked once. The bad
 * files are made here from good ones. Then
 * the folder lock between builds, and a folder made by the open itself. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <xxhash.h>

#include "sow/db.h"
#include "sow/store.h"

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
    for (int k = 0; k <= K; k++) {
        uint64_t n = sow_index_count(2 * m, k);
        int8_t *x = malloc(n), *y = malloc(n);
        assert_non_null(x);
        assert_non_null(y);
        sow_db_level_copy(a, k, x);
        sow_db_level_copy(b, k, y);
        assert_memory_equal(x, y, n);
        free(x);
        free(y);
    }
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

/* What sow_db_options.damaged was told. */
struct damaged_log {
    int calls;
    char text[2048];
};

static void on_damaged(void *ctx, const char *w)
{
    struct damaged_log *log = ctx;
    log->calls++;
    size_t at = strlen(log->text);
    snprintf(log->text + at, sizeof log->text - at, "%s\n", w);
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
    /* A flipped byte anywhere in the header; in the version field it
     * reads as a newer version (refused, not rebuilt over). */
    for (long off = 0; off < SOW_DB_HEADER_SIZE; off++) {
        copy_file(saved, p);
        flip_byte(p, off);
        sow_err e = reopen(&g, K);
        if (off >= 8 && off < 12)
            assert_int_equal(e, SOW_E_LIMIT);
        else
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

    /* A damaged file of a seed count to build is rebuilt (told once, the
     * file named), to the same bytes; the others are loaded. */
    struct damaged_log log = {0};
    sow_db_options ob = {.damaged = on_damaged, .damaged_ctx = &log};
    char p7[256];
    path_of(&g, 7, p7, sizeof p7);
    assert_int_equal(truncate(p7, 100), 0);
    copy_file(p4, p);
    assert_int_equal(sow_db_open(&g, K, dir, &ob, &disk, why, sizeof why), SOW_OK);
    assert_same(mem, disk, K, m);
    for (int k = 0; k <= K; k++)
        assert_int_equal(sow_db_built(disk, k), k == 5 || k == 7);
    sow_db_close(disk);
    assert_int_equal(log.calls, 2);
    assert_non_null(strstr(log.text, "-k5.sowdb: the file holds seed count 4"));
    assert_non_null(strstr(log.text, "-k7.sowdb: truncated (100 bytes"));
    assert_int_equal(reopen(&g, K), SOW_OK);
    /* A budget that holds the files but not a build of the top seed count:
     * enough while its file is good, refused once it is damaged. */
    char p9[256];
    path_of(&g, K, p9, sizeof p9);
    snprintf(saved, sizeof saved, "%s.saved", p9);
    copy_file(p9, saved);
    ob.memory = sow_db_bytes(&g, K) + sow_retro_scratch_bytes(&g, K) - 1;
    assert_int_equal(sow_db_open(&g, K, dir, &ob, &disk, why, sizeof why), SOW_OK);
    sow_db_close(disk);
    assert_int_equal(truncate(p9, 100), 0);
    assert_int_equal(sow_db_open(&g, K, dir, &ob, &disk, why, sizeof why), SOW_E_NOMEM);
    assert_non_null(strstr(why, "over the memory budget"));
    copy_file(saved, p9);
    unlink(saved);

    /* Pie shares the files of the game without it. */
    sow_game gp;
    game(&gp, SOW_KALAH, m, SOW_VAR_PIE);
    assert_int_equal(reopen(&gp, K), SOW_OK);
    sow_db_close(mem);
}

static void put_le(uint8_t *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

/* Writes seed count k of db to path as a file of the given version with
 * int8 entries (doc/db-format.md's header, its check recomputed). */
static void write_int8_file(const char *path, const sow_game *g, const sow_db *db, int k,
                            uint32_t version)
{
    uint64_t n = sow_index_count(2 * g->m, k);
    int8_t *t = malloc(n);
    assert_non_null(t);
    sow_db_level_copy(db, k, t);
    uint8_t b[SOW_DB_HEADER_SIZE] = {'S', 'O', 'W', 'D', 'B', '\r', '\n', 0x1a};
    put_le(b + 8, version, 4);
    put_le(b + 12, SOW_DB_HEADER_SIZE, 4);
    put_le(b + 16, (uint64_t)g->cfg.game, 4);
    put_le(b + 20, (uint64_t)g->m, 4);
    put_le(b + 24, sow_db_variant(g), 4);
    put_le(b + 28, (uint64_t)k, 4);
    put_le(b + 32, SOW_DB_ENC_INT8_FUTURE, 4);
    put_le(b + 36, SOW_DB_IDX_COMBINADIC, 4);
    put_le(b + 40, (uint64_t)g->score_scale, 4);
    put_le(b + 48, n, 8);
    put_le(b + 56, XXH64(t, n, 0), 8);
    put_le(b + 44, (uint32_t)XXH64(b, sizeof b, 0), 4);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, sizeof b, f), sizeof b);
    assert_int_equal(fwrite(t, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    free(t);
}

/* Format versions: files are written packed where that is smaller; a
 * version 1 file (int8) is read as it is; a newer version is
 * refused, never rebuilt over; a damaged packed payload is detected. */
static void test_versions(void **state)
{
    (void)state;
    rm_dir_files(dir);
    const int K = 9, m = 3;
    sow_game g;
    game(&g, SOW_KALAH, m, 0);
    sow_db *mem, *disk;
    assert_int_equal(sow_db_open(&g, K, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_true(mem->packed && mem->pack[K]);
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &disk, why, sizeof why), SOW_OK);
    assert_true(disk->pack[K] && !disk->table[K]);
    assert_same(mem, disk, K, m);
    sow_db_close(disk);
    /* Loaded packed, unpacked for a build of two more seed counts, held
     * packed again after it; a version 1 level is not (below). */
    assert_int_equal(sow_db_open(&g, K + 2, dir, NULL, &disk, why, sizeof why), SOW_OK);
    assert_false(sow_db_built(disk, K));
    assert_true(sow_db_built(disk, K + 2));
    for (int k = K; k <= K + 2; k++)
        assert_true(disk->pack[k] && !disk->table[k]);
    sow_db_close(disk);
    for (int k = K + 1; k <= K + 2; k++) {
        char q[256];
        path_of(&g, k, q, sizeof q);
        assert_int_equal(unlink(q), 0);
    }

    char p[256], saved[300];
    path_of(&g, K, p, sizeof p);
    sow_db_header h;
    struct stat st;
    assert_int_equal(sow_db_file_check(p, false, &h, why, sizeof why), SOW_OK);
    assert_int_equal(h.version, SOW_DB_VERSION);
    assert_int_equal(h.encoding, SOW_DB_ENC_PACKED);
    assert_true(h.payload < h.entries);
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_size, SOW_DB_HEADER_SIZE + (long)h.payload);
    snprintf(saved, sizeof saved, "%s.saved", p);
    copy_file(p, saved);

    /* Damaged packed payloads: a flipped byte in g, in the nibbles, in the
     * escape count; truncated. Loading refuses them, a build rebuilds. */
    long offs[] = {SOW_DB_HEADER_SIZE + 320, st.st_size - 1, SOW_DB_HEADER_SIZE + 16};
    for (int i = 0; i < 3; i++) {
        copy_file(saved, p);
        flip_byte(p, offs[i]);
        sow_err e = reopen(&g, K);
        assert_true(e == SOW_E_CHECKSUM || e == SOW_E_FORMAT);
    }
    assert_int_equal(truncate(p, st.st_size - 1), 0);
    assert_int_equal(reopen(&g, K), SOW_E_FORMAT);
    assert_non_null(strstr(why, "truncated"));
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &disk, why, sizeof why), SOW_OK);
    assert_true(sow_db_built(disk, K));
    assert_same(mem, disk, K, m);
    sow_db_close(disk);

    /* Version 1 (int8): loaded at a byte a position (not encoded again by
     * every process), the file left as it is. */
    write_int8_file(p, &g, mem, K, 1);
    sow_db_options o = {.no_build = true};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &disk, why, sizeof why), SOW_OK);
    assert_true(disk->table[K] && !disk->pack[K]);
    assert_same(mem, disk, K, m);
    sow_db_close(disk);
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &disk, why, sizeof why), SOW_OK);
    assert_false(sow_db_built(disk, K));
    sow_db_close(disk);
    assert_int_equal(sow_db_file_check(p, false, &h, why, sizeof why), SOW_OK);
    assert_int_equal(h.version, 1);
    assert_int_equal(h.payload, h.entries);

    /* A newer version, its header otherwise sound: refused with one line,
     * loading or building, and not rebuilt over. */
    write_int8_file(p, &g, mem, K, SOW_DB_VERSION + 1);
    assert_int_equal(reopen(&g, K), SOW_E_LIMIT);
    assert_non_null(strstr(why, "newer"));
    assert_null(strchr(why, '\n'));
    struct damaged_log log = {0};
    sow_db_options ob = {.damaged = on_damaged, .damaged_ctx = &log};
    disk = NULL;
    assert_int_equal(sow_db_open(&g, K, dir, &ob, &disk, why, sizeof why), SOW_E_LIMIT);
    assert_null(disk);
    assert_int_equal(log.calls, 0);
    assert_int_equal(sow_db_file_check(p, false, &h, why, sizeof why), SOW_E_LIMIT);
    copy_file(saved, p);
    unlink(saved);
    sow_db_close(mem);
}

static void test_interrupted_resumes(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_CONGKAK, 3, 0);
    const int K = 10;
    sow_stop_flag stop = 1;
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

/* What the wait callback saw, and what it does: copy the files a build
 * elsewhere made into the folder and let go of the lock (as the build
 * holding it would), or ask to stop. */
typedef struct waited {
    int calls;
    long holder;
    char file[600];
    const char *from;  /* folder to copy every file from, or NULL */
    int lock_fd;       /* released after the copy */
    const char *lock;  /* its path */
    sow_stop_flag *stop;
} waited;

static void on_wait(void *ctx, const char *file, long holder)
{
    waited *w = ctx;
    w->calls++;
    w->holder = holder;
    snprintf(w->file, sizeof w->file, "%s", file);
    if (w->stop)
        *w->stop = 1;
    if (!w->from)
        return;
    DIR *dd = opendir(w->from);
    struct dirent *e;
    char a[600], b[600];
    while ((e = readdir(dd)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(a, sizeof a, "%s/%s", w->from, e->d_name);
        snprintf(b, sizeof b, "%s/%s", dir, e->d_name);
        copy_file(a, b);
    }
    closedir(dd);
    unlink(w->lock);
    close(w->lock_fd);
}

/* The lock file of seed count k's file. */
static void lock_of(const sow_game *g, int k, char *p, size_t n)
{
    path_of(g, k, p, n - 8);
    strcat(p, SOW_DB_LOCK_SUFFIX);
}

/* Holds the lock file p as another process's build would, naming pid. */
static int hold_lock(const char *p, long pid)
{
    int fd = open(p, O_RDWR | O_CREAT, 0644);
    assert_true(fd >= 0);
    assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
    dprintf(fd, "%ld\n", pid);
    return fd;
}

static void test_lock(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_KALAH, 3, 0);
    const int K = 8;
    char other[128], lock0[600], lock5[600], p[256], p5[256];
    snprintf(other, sizeof other, "%s/other", dir);
    lock_of(&g, 0, lock0, sizeof lock0);
    lock_of(&g, 5, lock5, sizeof lock5);
    path_of(&g, 0, p, sizeof p);
    path_of(&g, 5, p5, sizeof p5);
    sow_db *db, *mem;
    assert_int_equal(sow_db_open(&g, K, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    for (int k = 0; k <= K; k++)
        assert_true(sow_db_built(mem, k));

    /* Held: the open waits, says by whom and for which file, and stops
     * when asked to. */
    int fd = hold_lock(lock0, 4242);
    sow_stop_flag stop = 0;
    waited w = {.stop = &stop};
    sow_db_options o = {.stop = &stop, .wait = on_wait, .wait_ctx = &w};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_null(db);
    assert_int_equal(w.calls, 1);
    assert_int_equal(w.holder, 4242);
    assert_string_equal(w.file, p);
    assert_non_null(strstr(why, "waiting for the build of pid 4242 of"));
    /* Nothing was written, and the lock file is still the holder's. */
    assert_int_equal(access(p, F_OK), -1);
    assert_int_equal(access(lock0, F_OK), 0);

    /* Once the holder has saved the files and let go, they are loaded,
     * not built again. */
    assert_int_equal(mkdir(other, 0777), 0);
    assert_int_equal(sow_db_open(&g, K, other, NULL, &db, why, sizeof why), SOW_OK);
    sow_db_close(db);
    waited w2 = {.from = other, .lock_fd = fd, .lock = lock0};
    sow_db_options o2 = {.wait = on_wait, .wait_ctx = &w2};
    assert_int_equal(sow_db_open(&g, K, dir, &o2, &db, why, sizeof why), SOW_OK);
    assert_int_equal(w2.calls, 1);
    for (int k = 0; k <= K; k++)
        assert_false(sow_db_built(db, k));
    assert_same(mem, db, K, 3);
    sow_db_close(db);
    /* No build needed: no lock taken, none left. */
    assert_int_equal(access(lock0, F_OK), -1);

    /* One file's lock held: the files below it are there; with a deadline
     * and keep_partial the open waits until the deadline, then gives
     * them. */
    unlink(p5);
    fd = hold_lock(lock5, 4243);
    w = (waited){0};
    o = (sow_db_options){.wait = on_wait, .wait_ctx = &w, .keep_partial = true,
                         .deadline = sow_retro_clock() + 0.2};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    assert_true(sow_retro_clock() >= o.deadline);
    assert_int_equal(w.calls, 1);
    assert_string_equal(w.file, p5);
    assert_true(sow_db_cut(db));
    assert_int_equal(db->max_seeds, 4);
    assert_same(mem, db, 4, 3);
    sow_db_close(db);
    unlink(lock5);
    close(fd);

    /* A build that finds the lock free takes it, builds only what is
     * missing, and removes the lock file when done. */
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &db, why, sizeof why), SOW_OK);
    for (int k = 0; k <= K; k++)
        assert_int_equal(sow_db_built(db, k), k == 5);
    assert_same(mem, db, K, 3);
    sow_db_close(db);
    assert_int_equal(access(lock5, F_OK), -1);

    /* A stale lock file (its process was killed, so nobody holds the
     * lock) does not stop a build. */
    unlink(p5);
    FILE *f = fopen(lock5, "w");
    fputs("999999999\n", f);
    fclose(f);
    w = (waited){0};
    o = (sow_db_options){.wait = on_wait, .wait_ctx = &w};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    assert_int_equal(w.calls, 0);
    assert_true(sow_db_built(db, 5));
    sow_db_close(db);
    assert_int_equal(access(lock5, F_OK), -1);
    sow_db_close(mem);
    rm_dir_files(other);
    rmdir(other);
}

/* Another process's build saves some levels while this open waits: they
 * are loaded and the levels above them built from them. The build reads
 * the levels below as bytes, so a packed one loaded meanwhile (9 is the
 * first Kalah(3) level that packs smaller) is held at a byte until the
 * build ends, then packed again (under ThreadSanitizer a CI run's store
 * test crashed here: the build read a packed level's missing bytes). */
static void test_lock_then_build(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_KALAH, 3, 0);
    const int K = 11, J = 9;
    char part[128], lock0[600];
    snprintf(part, sizeof part, "%s/part", dir);
    lock_of(&g, 0, lock0, sizeof lock0);
    sow_db *db, *mem;
    assert_int_equal(sow_db_open(&g, K, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_int_equal(mkdir(part, 0777), 0);
    assert_int_equal(sow_db_open(&g, J, part, NULL, &db, why, sizeof why), SOW_OK);
    assert_true(db->pack[J] != NULL);
    sow_db_close(db);
    waited w = {.from = part, .lock_fd = hold_lock(lock0, 4244), .lock = lock0};
    sow_db_options o = {.wait = on_wait, .wait_ctx = &w};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    assert_int_equal(w.calls, 1);
    for (int k = 0; k <= K; k++)
        assert_int_equal(sow_db_built(db, k), k > J);
    for (int k = J; k <= K; k++)
        assert_true(db->pack[k] && !db->table[k]);
    assert_same(mem, db, K, 3);
    sow_db_close(db);
    sow_db_close(mem);
    rm_dir_files(part);
    rmdir(part);
}

static void test_make_dir(void **state)
{
    (void)state;
    sow_game g;
    game(&g, SOW_CONGKAK, 3, 0);
    char sub[128];
    snprintf(sub, sizeof sub, "%s/made", dir);
    sow_db *db;
    /* Refused before any folder is made: over the budget. */
    sow_db_options o = {.make_dir = true, .memory = 1000};
    assert_int_equal(sow_db_open(&g, 8, sub, &o, &db, why, sizeof why), SOW_E_NOMEM);
    assert_int_equal(access(sub, F_OK), -1);
    o.memory = 0;
    /* Interrupted before saving a file: the folder it made goes again. */
    sow_stop_flag stop = 1;
    o.stop = &stop;
    assert_int_equal(sow_db_open(&g, 8, sub, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_int_equal(access(sub, F_OK), -1);
    /* Without make_dir a missing folder is an error, not made. */
    assert_int_equal(sow_db_open(&g, 8, sub, NULL, &db, why, sizeof why), SOW_E_IO);
    assert_int_equal(access(sub, F_OK), -1);
    /* Made, filled, and no lock file left. */
    stop = 0;
    assert_int_equal(sow_db_open(&g, 8, sub, &o, &db, why, sizeof why), SOW_OK);
    sow_db_close(db);
    char p[600];
    snprintf(p, sizeof p, "%s/congkak-m3-k8.sowdb%s", sub, SOW_DB_LOCK_SUFFIX);
    assert_int_equal(access(p, F_OK), -1);
    snprintf(p, sizeof p, "%s/congkak-m3-k8.sowdb", sub);
    assert_int_equal(access(p, F_OK), 0);
    /* A folder it did not make is never removed, even empty. */
    rm_dir_files(sub);
    stop = 1;
    assert_int_equal(sow_db_open(&g, 8, sub, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_int_equal(access(sub, F_OK), 0);
    rmdir(sub);
}

/* A deadline already past: nothing is built; keep_partial gives what the
 * folder holds (or SOW_E_INTERRUPTED if not even seed count 0), without
 * it the open is SOW_E_INTERRUPTED. */
static void test_deadline_past(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_KALAH, 3, 0);
    const int K = 10;
    sow_db *db = NULL, *mem;
    sow_db_options o = {.deadline = sow_retro_clock() - 1, .keep_partial = true};
    assert_int_equal(sow_db_open(&g, K, NULL, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_null(db);
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_null(db);
    assert_non_null(strstr(why, "seed count 0"));
    char p[256];
    path_of(&g, 0, p, sizeof p);
    assert_int_equal(access(p, F_OK), -1);

    /* Seed count 7's file without 6's is of no use: not kept. */
    assert_int_equal(sow_db_open(&g, 7, dir, NULL, &db, why, sizeof why), SOW_OK);
    assert_false(sow_db_cut(db));
    sow_db_close(db);
    path_of(&g, 6, p, sizeof p);
    assert_int_equal(unlink(p), 0);
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    assert_true(sow_db_cut(db));
    assert_int_equal(db->max_seeds, 5);
    assert_int_equal(sow_db_open(&g, 5, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_same(mem, db, 5, 3);
    for (int k = 0; k <= 5; k++)
        assert_false(sow_db_built(db, k));
    sow_db_close(db);
    sow_db_close(mem);

    o.keep_partial = false;
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_null(db);
    assert_non_null(strstr(why, "seed count 6"));
    /* Everything there already: nothing to build, nothing cut. */
    assert_int_equal(sow_db_open(&g, 4, dir, &o, &db, why, sizeof why), SOW_OK);
    assert_false(sow_db_cut(db));
    assert_int_equal(db->max_seeds, 4);
    sow_db_close(db);
}

/* Progress that, once seed count `at` is complete, waits until `until`
 * (sow_retro_clock) has passed: the deadline falls between two seed
 * counts. */
typedef struct slow_at {
    int at;
    double until;
} slow_at;

static void on_progress_slow(void *ctx, const sow_progress *pr)
{
    slow_at *s = ctx;
    if (pr->seeds == s->at && pr->done == pr->total)
        while (sow_retro_clock() <= s->until)
            usleep(1000);
}

/* A deadline that passes between seed counts 6 and 7: 0..6 are kept,
 * saved and probe right; 7 is never started. */
static void test_deadline_between_levels(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_CONGKAK, 3, 0);
    const int K = 12;
    sow_db *db = NULL, *mem;
    slow_at s = {.at = 6, .until = sow_retro_clock() + 0.3};
    sow_db_options o = {.deadline = s.until, .keep_partial = true,
                        .progress = on_progress_slow, .progress_ctx = &s};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    assert_true(sow_db_cut(db));
    assert_int_equal(db->max_seeds, 6);
    for (int k = 0; k <= 6; k++)
        assert_true(sow_db_built(db, k));
    assert_false(sow_db_built(db, 7));
    assert_int_equal(sow_db_open(&g, 6, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_same(mem, db, 6, 3);
    sow_db_close(db);
    sow_db_close(mem);
    assert_int_equal(sow_db_dir_levels(&g, dir, 0), 6);

    /* Without keep_partial: interrupted, the levels done still saved. */
    rm_dir_files(dir);
    s.until = sow_retro_clock() + 0.3;
    o.deadline = s.until;
    o.keep_partial = false;
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_E_INTERRUPTED);
    assert_null(db);
    assert_int_equal(sow_db_dir_levels(&g, dir, 0), 6);
    /* The next open goes on from there. */
    assert_int_equal(sow_db_open(&g, K, dir, NULL, &db, why, sizeof why), SOW_OK);
    assert_false(sow_db_cut(db));
    assert_false(sow_db_built(db, 6));
    assert_true(sow_db_built(db, 7));
    sow_db_close(db);
}

/* A deadline well before a build of several seconds could end: the open
 * returns soon after it (a seed count in progress is stopped, or one that
 * cannot end in time is not started) with what it finished. */
static void test_deadline_mid_build(void **state)
{
    (void)state;
    rm_dir_files(dir);
    sow_game g;
    game(&g, SOW_KALAH, 6, 0);
    const int K = 17;
    sow_db *db = NULL, *mem;
    double t0 = sow_retro_clock();
    sow_db_options o = {.deadline = t0 + 0.25, .keep_partial = true, .threads = 1};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    double took = sow_retro_clock() - t0;
    assert_true(took < 0.25 + 0.2);
    assert_true(sow_db_cut(db));
    assert_true(db->max_seeds < K);
    assert_int_equal(sow_db_dir_levels(&g, dir, 0), db->max_seeds);
    int k = db->max_seeds;
    assert_int_equal(sow_db_open(&g, k, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    assert_same(mem, db, k, 6);
    /* A position with k seeds on the board probes as the full build. */
    sow_pos p = {0};
    p.b[0] = (uint8_t)k;
    assert_int_equal(sow_db_probe(db, &p), sow_db_probe(mem, &p));
    sow_db_close(db);
    sow_db_close(mem);
    rm_dir_files(dir);
}

/* Sets a file's access time (the store's last use) to t seconds. */
static void set_atime(const char *p, time_t t)
{
    struct timespec ts[2] = {{t, 0}, {0, UTIME_OMIT}};
    assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
}

/* A store: where it is, an open through it (the family's folder), its
 * listing, and the pruning order: least recently used family first, its
 * highest seed count first, the spared family never. */
static void test_store(void **state)
{
    (void)state;
    char root[128], p[600], why2[512];
    snprintf(root, sizeof root, "%s/st/ore", dir);
    /* Where: SOW_DB, else XDG_CACHE_HOME/sow, else HOME/.cache/sow. */
    setenv("SOW_DB", root, 1);
    setenv("XDG_CACHE_HOME", "/x", 1);
    setenv("HOME", "/h", 1);
    assert_int_equal(sow_store_default(p, sizeof p, why2, sizeof why2), SOW_OK);
    assert_string_equal(p, root);
    setenv("SOW_DB", "", 1);
    assert_int_equal(sow_store_default(p, sizeof p, why2, sizeof why2), SOW_OK);
    assert_string_equal(p, "/x/sow");
    unsetenv("XDG_CACHE_HOME");
    assert_int_equal(sow_store_default(p, sizeof p, why2, sizeof why2), SOW_OK);
    assert_string_equal(p, "/h/.cache/sow");
    unsetenv("HOME");
    assert_int_equal(sow_store_default(p, sizeof p, why2, sizeof why2), SOW_E_IO);

    assert_false(sow_store_is(root));
    assert_int_equal(sow_store_init(root, why2, sizeof why2), SOW_OK);
    assert_true(sow_store_is(root));
    struct stat st;
    assert_int_equal(stat(root, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);

    sow_game k3, c3;
    game(&k3, SOW_KALAH, 3, SOW_VAR_EMPTY_CAPTURE);
    game(&c3, SOW_CONGKAK, 3, 0);
    char fam[96];
    sow_store_family(&k3, fam, sizeof fam);
    assert_string_equal(fam, "kalah-m3-empty-capture");
    /* Its inverse, for every game and set of flags a family can have. */
    for (int id = 0; id < SOW_GAME_COUNT; id++)
        for (unsigned v = 0; v < 1u << SOW_VAR_COUNT; v++) {
            sow_config c = {(sow_game_id)id, 7, 1, v}, back;
            sow_game x;
            if (sow_game_init(&x, &c) != SOW_OK || sow_db_variant(&x) != v)
                continue;
            sow_store_family(&x, fam, sizeof fam);
            assert_int_equal(sow_store_family_config(fam, &back), SOW_OK);
            assert_true(back.game == c.game && back.pits == 7 && back.variant == v);
        }
    sow_config bad;
    assert_int_equal(sow_store_family_config("kalah-m3-nonsense", &bad), SOW_E_ARG);
    assert_int_equal(sow_store_family_config("nogame-m3", &bad), SOW_E_ARG);
    assert_int_equal(sow_store_family_config("kalah", &bad), SOW_E_ARG);
    sow_db *db, *mem;
    assert_int_equal(sow_db_open(&k3, 8, root, NULL, &db, why, sizeof why), SOW_OK);
    sow_db_close(db);
    assert_int_equal(sow_db_open(&c3, 8, root, NULL, &db, why, sizeof why), SOW_OK);
    sow_db_close(db);
    snprintf(p, sizeof p, "%s/kalah-m3-empty-capture/kalah-m3-empty-capture-k8.sowdb", root);
    assert_int_equal(access(p, F_OK), 0);
    assert_int_equal(sow_db_dir_levels(&k3, root, 0), 8);
    /* Loaded back through the store, not built. */
    assert_int_equal(sow_db_open(&k3, 8, root, NULL, &db, why, sizeof why), SOW_OK);
    assert_int_equal(sow_db_open(&k3, 8, NULL, NULL, &mem, why, sizeof why), SOW_OK);
    for (int k = 0; k <= 8; k++)
        assert_false(sow_db_built(db, k));
    assert_same(mem, db, 8, 3);
    sow_db_close(db);
    sow_db_close(mem);

    sow_store_level *v;
    size_t n;
    uint64_t total = 0, top = 0;
    assert_int_equal(sow_store_list(root, &v, &n, why2, sizeof why2), SOW_OK);
    assert_int_equal(n, 18);
    assert_string_equal(v[0].family, "congkak-m3");
    assert_int_equal(v[8].seeds, 8);
    assert_string_equal(v[9].family, "kalah-m3-empty-capture");
    for (size_t i = 0; i < n; i++)
        total += v[i].bytes;
    top = v[17].bytes;
    /* The kalah family used long ago (its lower files even earlier: still
     * its highest goes first, as the lower ones are what it is built from). */
    for (size_t i = 9; i < n; i++) {
        snprintf(p, sizeof p, "%s/%s/%s-k%d.sowdb", root, v[i].family, v[i].family,
                 v[i].seeds);
        set_atime(p, 1000000 + v[i].seeds);
    }
    free(v);
    uint64_t freed;
    assert_int_equal(sow_store_prune(root, total - 1, NULL, NULL, NULL, &freed, why2,
                                     sizeof why2), SOW_OK);
    assert_int_equal(freed, top);
    snprintf(p, sizeof p, "%s/kalah-m3-empty-capture/kalah-m3-empty-capture-k8.sowdb", root);
    assert_int_equal(access(p, F_OK), -1);
    assert_int_equal(sow_db_dir_levels(&k3, root, 0), 7);
    /* Spared: nothing of the kalah family goes, the congkak one does. */
    assert_int_equal(sow_store_prune(root, 0, "kalah-m3-empty-capture", NULL, NULL, &freed,
                                     why2, sizeof why2), SOW_OK);
    assert_int_equal(sow_db_dir_levels(&k3, root, 0), 7);
    assert_int_equal(sow_db_dir_levels(&c3, root, 0), -1);
    assert_int_equal(sow_store_prune(root, 0, NULL, NULL, NULL, &freed, why2, sizeof why2),
                     SOW_OK);
    assert_int_equal(sow_store_list(root, &v, &n, why2, sizeof why2), SOW_OK);
    assert_int_equal(n, 0);
    free(v);
    /* The budget kept in the mark. */
    assert_int_equal(sow_store_set_budget(root, 12345, why2, sizeof why2), SOW_OK);
    assert_int_equal(sow_store_budget(root), 12345);
    assert_int_equal(sow_store_set_budget(root, 0, why2, sizeof why2), SOW_OK);
    assert_true(sow_store_budget(root) > 0);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s/st'", dir);
    assert_int_equal(system(cmd), 0);
}

/* Sets p's modification time to t (seconds, nanoseconds). */
static void set_mtime(const char *p, time_t sec, long nsec)
{
    struct timespec ts[2] = {{.tv_nsec = UTIME_OMIT}, {.tv_sec = sec, .tv_nsec = nsec}};
    assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
}

/* A payload checked once is stamped, and a load then skips its checksum
 * while the file is as it was stamped: a write voids the stamp (a new
 * modification time), a file freshly written is not stamped, and the full
 * check (sow db verify's) hashes it whatever the stamp says. The one change
 * a stamp cannot see, a byte changed with the modification time put back,
 * is what shows that a load skipped the hash. */
static void test_checked_stamp(void **state)
{
    (void)state;
    const int K = 6, m = 3;
    sow_game g;
    game(&g, SOW_KALAH, m, 0);
    rm_dir_files(dir);
    sow_db *db;
    sow_db_options o = {0};
    assert_int_equal(sow_db_open(&g, K, dir, &o, &db, why, sizeof why), SOW_OK);
    sow_db_close(db);
    char p[256];
    path_of(&g, K, p, sizeof p);
    uint8_t st_buf[64];
    /* Just written: loading checks it but does not stamp it. */
    assert_int_equal(reopen(&g, K), SOW_OK);
    if (getxattr(p, "user.sow.checked", st_buf, sizeof st_buf) < 0 && errno == ENOTSUP) {
        print_message("no user attributes on %s: every load checks (skipped)\n", dir);
        return;
    }
    assert_true(getxattr(p, "user.sow.checked", st_buf, sizeof st_buf) < 0);
    /* An hour old: the next load checks it and stamps it. */
    time_t old = time(NULL) - 3600;
    set_mtime(p, old, 123456789);
    assert_int_equal(reopen(&g, K), SOW_OK);
    assert_int_equal(getxattr(p, "user.sow.checked", st_buf, sizeof st_buf), 40);
    /* A byte changed: a new modification time, the stamp void. */
    flip_byte(p, SOW_DB_HEADER_SIZE + 3);
    assert_int_equal(reopen(&g, K), SOW_E_CHECKSUM);
    /* The same byte changed with the time put back: the stamp matches, the
     * load trusts it (the hash skipped), and the full check still finds it. */
    set_mtime(p, old, 123456789);
    assert_int_equal(reopen(&g, K), SOW_OK);
    sow_db_header h;
    assert_int_equal(sow_db_file_check(p, false, &h, why, sizeof why), SOW_E_CHECKSUM);
    /* Put right, the full check stamps it again (an hour old). */
    flip_byte(p, SOW_DB_HEADER_SIZE + 3);
    set_mtime(p, old, 5);
    assert_int_equal(removexattr(p, "user.sow.checked"), 0);
    assert_int_equal(sow_db_file_check(p, false, &h, why, sizeof why), SOW_OK);
    assert_int_equal(getxattr(p, "user.sow.checked", st_buf, sizeof st_buf), 40);
    assert_int_equal(reopen(&g, K), SOW_OK);
    rm_dir_files(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_and_refusals),
        cmocka_unit_test(test_checked_stamp),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_interrupted_resumes),
        cmocka_unit_test(test_bad_dir),
        cmocka_unit_test(test_lock),
        cmocka_unit_test(test_lock_then_build),
        cmocka_unit_test(test_make_dir),
        cmocka_unit_test(test_deadline_past),
        cmocka_unit_test(test_deadline_between_levels),
        cmocka_unit_test(test_deadline_mid_build),
        cmocka_unit_test(test_store),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
