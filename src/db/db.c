/* db.c - the sow_db handle: build in memory, load and save files. */
#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "file.h"
#include "msg.h"
#include "mem.h"
#include "pack.h"
#include "sow/db.h"
#include "sow/store.h"

typedef struct sow_db_priv {
    sow_db_map map[SOW_DB_MAX_SEEDS + 1];  /* loaded files */
    sow_huge own[SOW_DB_MAX_SEEDS + 1];    /* built or copied tables (huge pages) */
    sow_huge packed[SOW_DB_MAX_SEEDS + 1]; /* packed levels (pack.c's blob) */
    size_t packed_size[SOW_DB_MAX_SEEDS + 1];
    sow_db_pack view[SOW_DB_MAX_SEEDS + 1]; /* db->pack[k] */
    bool built[SOW_DB_MAX_SEEDS + 1];      /* computed by this open, not loaded */
    bool damaged[SOW_DB_MAX_SEEDS + 1];    /* its file is damaged: rebuilt */
    bool cut;                              /* keep_partial: cut short */
    bool copy_late;                        /* copy_deadline passed: in place */
    uint64_t entries[SOW_DB_MAX_SEEDS + 1]; /* each level's (sow_retro_level_size) */
} sow_db_priv;

bool sow_db_built(const sow_db *db, int k)
{
    return k >= 0 && k <= db->max_seeds && db->priv->built[k];
}

bool sow_db_cut(const sow_db *db)
{
    return db->priv->cut;
}

/* Is it past `deadline` (0: none), or is opt's *stop set? */
static bool past(const sow_db_options *opt, double deadline)
{
    return (opt->stop && __atomic_load_n(opt->stop, __ATOMIC_RELAXED)) ||
           (deadline > 0 && sow_retro_clock() >= deadline);
}

/* Is it past opt's deadline (or is *stop set)? */
static bool time_up(const sow_db_options *opt)
{
    return past(opt, opt->deadline);
}

/* Bytes a copy moves between two looks at the clock: a tenth of a second
 * from a cold disk (about 80 MB/s), a millisecond or two from memory. */
#define COPY_CHUNK ((size_t)8 << 20)

/* Copies n bytes from a mapped file to dst unless opt's copy deadline
 * passes first (or *stop is set): false then, and every later level of
 * this open is left in place too (db->priv->copy_late). A store on a cold
 * disk read 612 MB in 8.3 s for an analysis given 5 s
 * (doc/experiments.md, "A copy the clock can cut"). */
static bool copy_in_time(sow_db *db, void *dst, const void *src, size_t n,
                         const sow_db_options *opt)
{
    for (size_t o = 0; o < n; o += COPY_CHUNK) {
        if (past(opt, opt->copy_deadline)) {
            db->priv->copy_late = true;
            return false;
        }
        memcpy((char *)dst + o, (const char *)src + o, n - o < COPY_CHUNK ? n - o : COPY_CHUNK);
    }
    return true;
}

/* Keeps seed counts 0..k-1 only, since the build of k was cut: SOW_OK
 * with keep_partial if there is a seed count 0 left, else
 * SOW_E_INTERRUPTED with the reason ("WHAT seed count k"; what NULL: the
 * reason already in why). */
static sow_err cut_at(sow_db *db, int k, const sow_db_options *opt, const char *what, char *why,
                      size_t why_size)
{
    if (!opt->keep_partial || k < db->level_step) {
        if (what)
            sow_fail(why, why_size, SOW_E_INTERRUPTED, "%s seed count %d", what, k);
        return SOW_E_INTERRUPTED;
    }
    for (int j = k; j <= db->max_seeds; j++) {
        sow_db_file_unmap(&db->priv->map[j]);
        sow_huge_free(&db->priv->own[j]);
        sow_huge_free(&db->priv->packed[j]);
        db->table[j] = NULL;
        db->pack[j] = NULL;
        db->priv->built[j] = false;
    }
    db->max_seeds = k - db->level_step;
    db->priv->cut = true;
    return SOW_OK;
}

unsigned sow_db_variant(const sow_game *g)
{
    return g->cfg.variant & ~(unsigned)SOW_VAR_PIE;
}

void sow_db_file_name(const sow_game *g, int k, char *buf, size_t size)
{
    char fam[96];
    sow_store_family(g, fam, sizeof fam);
    snprintf(buf, size, "%s-k%d.sowdb", fam, k);
}

/* Every level at one byte a position: what a build holds before it packs
 * the levels (a level is kept packed only where that is smaller), so an
 * upper bound of the tables at any time. */
size_t sow_db_bytes(const sow_game *g, int max_seeds)
{
    /* sum_{k<=K} C(k+P-1, P-1) = C(K+P, P) (hockey stick). */
    uint64_t total = 0;
    for (int k = sow_db_level_first(g, max_seeds); k <= max_seeds; k += g->level_step) {
        uint64_t c = sow_retro_level_size(g, k);
        if (c == UINT64_MAX || total + c < total || total + c > SIZE_MAX - sizeof(sow_db))
            return SIZE_MAX;
        total += c;
    }
    return (size_t)total + sizeof(sow_db) + sizeof(sow_db_priv);
}

void sow_db_close(sow_db *db)
{
    if (!db)
        return;
    if (db->priv) {
        for (int k = 0; k <= SOW_DB_MAX_SEEDS; k++) {
            sow_db_file_unmap(&db->priv->map[k]);
            sow_huge_free(&db->priv->own[k]);
            sow_huge_free(&db->priv->packed[k]);
        }
        free(db->priv);
    }
    free(db);
}

/* The pid a lock file names, 0 if it names none (yet). */
static long lock_holder(int fd)
{
    char buf[32];
    ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
    if (r <= 0)
        return 0;
    buf[r] = '\0';
    long pid = strtol(buf, NULL, 10);
    return pid > 0 ? pid : 0;
}

/* Takes the build lock of one file: flock(2) on PATH.lock, for its
 * build, so that two processes never build one file twice while each may
 * load the files the other finished. It is polled rather than waited for
 * in flock() so that opt->stop and opt->deadline are seen even when a
 * signal handler restarts system calls. The holder unlinks the lock file
 * before letting go; a process that locked a file already unlinked (it had
 * opened it just before) sees that its inode is no longer the lock file's
 * and tries again on the new one. A lock file left by a killed build is
 * locked by nobody: the next build takes it. */
static sow_err lock_file(const char *file, const sow_db_options *opt, int *out, char *why,
                         size_t n)
{
    char path[4500];
    snprintf(path, sizeof path, "%s%s", file, SOW_DB_LOCK_SUFFIX);
    bool told = false;
    for (;;) {
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) {
            return sow_fail(why, n, SOW_E_IO,
                "cannot create the lock file %s: %s", path, strerror(errno));
        }
        while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK && errno != EINTR) {
                sow_fail(why, n, SOW_E_IO, "cannot lock %s: %s", path, strerror(errno));
                close(fd);
                return SOW_E_IO;
            }
            if (time_up(opt)) {
                sow_fail(why, n, SOW_E_INTERRUPTED,
                    "interrupted while waiting for the build of pid %ld of %s",
                           lock_holder(fd), file);
                close(fd);
                return SOW_E_INTERRUPTED;
            }
            if (!told && opt->wait)
                opt->wait(opt->wait_ctx, file, lock_holder(fd));
            told = true;
            nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
        }
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
            a.st_ino == b.st_ino) {
            char pid[32];
            int len = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
            /* Only for the message of whoever waits: a failure is harmless. */
            if (ftruncate(fd, 0) == 0)
                (void)!pwrite(fd, pid, (size_t)len, 0);
            *out = fd;
            return SOW_OK;
        }
        close(fd);
    }
}

static void unlock_file(const char *file, int fd)
{
    char path[4500];
    snprintf(path, sizeof path, "%s%s", file, SOW_DB_LOCK_SUFFIX);
    unlink(path);
    close(fd);
}

/* Is level k's file in the family folder fdir (a regular file)? *st its
 * stat. By name only: a file is checked when it is loaded. */
static bool level_file(const sow_game *g, const char *fdir, int k, struct stat *st)
{
    char name[128], path[4400];
    sow_db_file_name(g, k, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", fdir, name);
    return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

int sow_db_dir_levels(const sow_game *g, const char *dir, int like)
{
    char fdir[4096];
    sow_store_resolve(g, dir, fdir, sizeof fdir);
    struct stat st;
    int step = g->level_step, k = like >= 0 ? like % step - step : -1;
    while (k + step <= SOW_DB_MAX_SEEDS && level_file(g, fdir, k + step, &st))
        k += step;
    return k < 0 ? -1 : k;
}

uint64_t sow_db_dir_bytes(const sow_game *g, const char *dir, int k)
{
    char fdir[4096];
    sow_store_resolve(g, dir, fdir, sizeof fdir);
    uint64_t sum = 0;
    struct stat st;
    for (int j = sow_db_level_first(g, k); j <= k; j += g->level_step) {
        if (!level_file(g, fdir, j, &st))
            return 0;
        sum += (uint64_t)st.st_size;
    }
    return sum;
}

/* Does db hold level k (as int8 or packed)? */
static bool held(const sow_db *db, int k)
{
    return db->table[k] || db->pack[k];
}

/* Can level k (n entries) be packed? The combinadic index with m <= 8
 * pits a side (sow_db_probe's fast path), and a level large enough that a
 * packed form without escapes is smaller than its bytes; its rows' codes
 * fit 32 bits (sow_db_loc). */
static bool level_packable(bool toguz, int m, int k, uint64_t n)
{
    return !toguz && m <= 8 && sow_pack_rows(m, k) < (1ull << 32) &&
           sow_pack_bytes(n, sow_pack_rows(m, k), 0) < n;
}

static bool packable(const sow_db *db, int k)
{
    return level_packable(db->toguz, db->m, k, db->priv->entries[k]);
}

/* Level k of g packed, with the escapes measured for g's family. */
static size_t family_bound(const sow_game *g, int k)
{
    return sow_pack_bound(g->cfg.game, sow_db_variant(g), g->m, k);
}

/* What the budget check counts for level k (n entries) packed: its
 * family's measured escapes (sow_pack_bound), and under n (else it stays
 * at a byte). */
static size_t packed_max(const sow_game *g, int k, uint64_t n)
{
    size_t bound = family_bound(g, k);
    return bound < n ? bound : (size_t)n - 1;
}

/* What building level k (n entries) takes beside the tables: the larger
 * of its builder's scratch (the fastest way's, or the least it can take)
 * and, if it is packed (packs), its packed form at most (packed_max) with
 * the packer's scratch. */
static size_t level_extra(const sow_game *g, int k, uint64_t n, bool packs, bool least)
{
    size_t blob = packs ? packed_max(g, k, n) + sow_pack_scratch_bytes(g->m, k) : 0;
    size_t scratch = least ? sow_retro_scratch_least(g, k) : sow_retro_scratch_bytes(g, k);
    return scratch > blob ? scratch : blob;
}

/* Packs int8 level k into *blob (*size bytes) if it is packable and packs
 * into at most max_size bytes; else leaves *blob empty. */
static sow_err encode_level(int k, const sow_db *db, int threads, size_t max_size,
                            sow_huge *blob, uint64_t *size, char *why, size_t why_size)
{
    *blob = (sow_huge){0};
    if (!packable(db, k))
        return SOW_OK;
    size_t bytes;
    char w[256];
    sow_err e = sow_pack_encode(&db->ix, db->m, k, db->table[k], db->priv->entries[k],
                                SOW_PACK_WINDOW, threads, max_size, blob, &bytes, w, sizeof w);
    if (e == SOW_E_LIMIT) {
        *blob = (sow_huge){0};
        return SOW_OK;
    }
    if (e)
        return sow_fail(why, why_size, e, "%s", w);
    *size = bytes;
    return SOW_OK;
}

/* Bytes the database takes now: the levels it holds, and itself. */
static size_t held_bytes(const sow_db *db)
{
    size_t total = sizeof(sow_db) + sizeof(sow_db_priv);
    for (int k = 0; k <= db->max_seeds; k++)
        total += db->pack[k] ? db->priv->packed_size[k]
                 : db->table[k] ? (size_t)db->priv->entries[k] : 0;
    return total;
}

/* Level k's int8 file, mapped: probed there (in_place) or from a copy. */
static void hold_int8(int k, const sow_db_options *opt, sow_db *db)
{
    sow_db_priv *pv = db->priv;
    size_t n = (size_t)pv->entries[k];
    db->table[k] = pv->map[k].data;
    /* Probes are random: in the file's 4 KB pages nearly each one also
     * misses the TLB. A copy in huge pages spares most of those misses. */
    int8_t *t = opt->in_place || pv->copy_late ? NULL
                                               : (int8_t *)sow_huge_alloc(n, &pv->own[k]);
    if (t && !copy_in_time(db, t, pv->map[k].data, n, opt)) {
        sow_huge_free(&pv->own[k]);
        t = NULL;
    }
    if (t) {
        mprotect(t, n, PROT_READ);
        sow_db_file_unmap(&pv->map[k]);
        db->table[k] = t;
    } else if (opt->read_ahead) {
        sow_db_file_read_ahead(&pv->map[k]);
    }
}

/* Level k packed in data[0..size) (a mapped file's payload): probed there
 * (in_place), from a copy, or decoded to int8 (unpacked). SOW_E_FORMAT if
 * its sizes disagree, SOW_E_NOMEM. */
static sow_err hold_packed(int k, const void *data, size_t size, const sow_db_options *opt,
                           sow_db *db, char *why, size_t why_size)
{
    sow_db_priv *pv = db->priv;
    sow_err e = sow_pack_view(data, size, db->m, k, pv->entries[k], &pv->view[k], why, why_size);
    if (e)
        return e;
    if (opt->unpacked) {
        int8_t *t = (int8_t *)sow_huge_alloc((size_t)pv->entries[k], &pv->own[k]);
        if (!t)
            return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory for seed count %d", k);
        sow_pack_decode(&pv->view[k], &db->ix, db->m, k, t);
        mprotect(t, (size_t)pv->entries[k], PROT_READ);
        sow_db_file_unmap(&pv->map[k]);
        db->table[k] = t;
        return SOW_OK;
    }
    void *copy = opt->in_place || pv->copy_late ? NULL : sow_huge_alloc(size, &pv->packed[k]);
    if (copy && !copy_in_time(db, copy, data, size, opt)) {
        sow_huge_free(&pv->packed[k]);
        copy = NULL;
    }
    if (copy) {
        mprotect(copy, size, PROT_READ);
        sow_db_file_unmap(&pv->map[k]);
        e = sow_pack_view(copy, size, db->m, k, pv->entries[k], &pv->view[k], why, why_size);
        assert(e == SOW_OK);
    } else if (opt->read_ahead) {
        sow_db_file_read_ahead(&pv->map[k]);
    }
    pv->packed_size[k] = size;
    db->pack[k] = &pv->view[k];
    db->table[k] = NULL;
    db->packed = true;
    return SOW_OK;
}

/* Loads seed count k from dir if its file is there: SOW_OK with
 * db->table[k] or db->pack[k] set, SOW_E_MISSING (why untouched) if there is no file, any
 * other error with a reason. */
static sow_err load_level(const sow_game *g, int k, const char *dir, const sow_db_options *opt,
                          sow_db *db, char *why, size_t why_size)
{
    sow_db_priv *pv = db->priv;
    char name[128], path[4096], w[512];
    sow_db_file_name(g, k, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    sow_db_header h;
    sow_err e = sow_db_file_map(path, opt->no_verify ? SOW_DB_CHECK_HEADER : SOW_DB_CHECK_ONCE,
                                &h, &pv->map[k], w, sizeof w);
    if (e == SOW_E_MISSING)
        return e;
    if (e) {
        return sow_fail(why, why_size, e, "%s", w);
    }
    if ((e = sow_db_header_match(&h, g, k, w, sizeof w)) != SOW_OK) {
        sow_db_file_unmap(&pv->map[k]);
        return sow_fail(why, why_size, e, "%s: %s", path, w);
    }
    /* The store's last use of the file (sow_store_prune): set even where
     * the filesystem keeps no access times; a read-only file stays as is. */
    utimensat(AT_FDCWD, path, (const struct timespec[2]){{0, UTIME_NOW}, {0, UTIME_OMIT}}, 0);
    if (h.encoding == SOW_DB_ENC_PACKED)
        e = hold_packed(k, pv->map[k].data, (size_t)h.payload, opt, db, w, sizeof w);
    else
        hold_int8(k, opt, db);
    if (e) {
        sow_db_file_unmap(&pv->map[k]);
        return sow_fail(why, why_size, e, "%s: %s", path, w);
    }
    return SOW_OK;
}

static sow_db_damaged_fn damaged_hook;
static void *damaged_hook_ctx;

void sow_db_set_damaged_hook(sow_db_damaged_fn fn, void *ctx)
{
    __atomic_store_n(&damaged_hook_ctx, ctx, __ATOMIC_RELAXED);
    __atomic_store_n(&damaged_hook, fn, __ATOMIC_RELEASE);
}

/* Tells opt->damaged, or else the hook, that a file is damaged. */
static void tell_damaged(const sow_db_options *opt, const char *w)
{
    if (opt->damaged) {
        opt->damaged(opt->damaged_ctx, w);
        return;
    }
    sow_db_damaged_fn fn = __atomic_load_n(&damaged_hook, __ATOMIC_ACQUIRE);
    if (fn)
        fn(__atomic_load_n(&damaged_hook_ctx, __ATOMIC_RELAXED), w);
}

/* Loads seed count k from dir as load_level, but a damaged file is, when
 * building, SOW_E_MISSING (it is built again: the rename of the rebuilt
 * one replaces it), opt->damaged told once. */
static sow_err try_level(const sow_game *g, int k, const char *dir, const sow_db_options *opt,
                         sow_db *db, char *why, size_t why_size)
{
    char w[512];
    sow_err e = load_level(g, k, dir, opt, db, w, sizeof w);
    if (!opt->no_build && (e == SOW_E_FORMAT || e == SOW_E_CHECKSUM || e == SOW_E_MISMATCH)) {
        if (!db->priv->damaged[k])
            tell_damaged(opt, w);
        db->priv->damaged[k] = true;
        return SOW_E_MISSING;
    }
    if (e && e != SOW_E_MISSING)
        sow_fail(why, why_size, e, "%s", w);
    return e;
}

/* Loads every seed count of dir not in the db yet; *missing counts the
 * positions of those without a file. A bad file fails before any work
 * when only loading; when building, a damaged one is built again. */
static sow_err load_all(const sow_game *g, const char *dir, const sow_db_options *opt,
                        sow_db *db, uint64_t *missing, char *why, size_t why_size)
{
    *missing = 0;
    for (int k = sow_db_level_first(g, db->max_seeds); k <= db->max_seeds; k += g->level_step) {
        if (held(db, k))
            continue;
        sow_err e = try_level(g, k, dir, opt, db, why, why_size);
        if (e == SOW_E_MISSING && opt->no_build) {
            char name[128];
            sow_db_file_name(g, k, name, sizeof name);
            return sow_fail(why, why_size, e,
                "seed count %d is missing: no %s in %s", k, name, dir);
        }
        if (e == SOW_E_MISSING)
            *missing += sow_retro_level_size(g, k);
        else if (e)
            return e;
    }
    return SOW_OK;
}

/* A build in progress: its progress report and the rate of its last seed
 * count, which decides, with a deadline, whether the next one starts. */
typedef struct build_state {
    sow_progress base;
    double t0;
    double rate;  /* positions/s of the last seed count built (a large one:
                     a small one's time is mostly fixed costs) */
    int saved;    /* files written */
    /* Copies at a byte of levels held packed, for the build to read:
     * it reads a packed level about a quarter slower than bytes
     * (doc/experiments.md, "A build reading packed levels"). */
    sow_huge copy[SOW_DB_MAX_SEEDS + 1];
} build_state;

/* The bytes the copies hold: their levels' entries (what bytes_below
 * counts; an allocation's length is rounded up to its pages). */
static size_t copies_bytes(const build_state *b, const sow_db *db)
{
    size_t sum = 0;
    for (int j = 0; j <= db->max_seeds; j++)
        sum += b->copy[j].map ? (size_t)db->priv->entries[j] : 0;
    return sum;
}

/* The levels below k as the build of k reads them (tab, pack): every one
 * held packed at a byte if the budget has room for all their bytes beside
 * `need` (what the build takes with the copies there are), else the one
 * just below only (most reads are of it) if there is room for that, else
 * none. A copy that is not decoded for want of memory leaves the level
 * read packed. */
static void bytes_below(sow_db *db, int k, build_state *b, size_t need,
                        const sow_db_options *opt, const int8_t **tab,
                        const sow_db_pack **pack)
{
    sow_db_priv *pv = db->priv;
    size_t now = copies_bytes(b, db), all = 0;
    for (int j = 0; j < k; j++)
        all += db->pack[j] ? (size_t)pv->entries[j] : 0;
    int below = k - db->level_step; /* the level just below k */
    size_t one = below >= 0 && db->pack[below] ? (size_t)pv->entries[below] : 0;
    int from = k; /* levels from..k-1 at a byte */
    if (!opt->memory || need - now + all <= opt->memory)
        from = 0;
    else if (need - now + one <= opt->memory)
        from = below;
    for (int j = 0; j <= SOW_DB_MAX_SEEDS; j++)
        if (j < from || j >= k || !db->pack[j])
            sow_huge_free(&b->copy[j]);
    for (int j = 0; j < k; j++) {
        tab[j] = db->table[j];
        pack[j] = db->pack[j];
        if (j < from || !db->pack[j])
            continue;
        if (!b->copy[j].map) {
            int8_t *t = (int8_t *)sow_huge_alloc((size_t)pv->entries[j], &b->copy[j]);
            if (!t)
                continue;
            sow_pack_decode(db->pack[j], &db->ix, db->m, j, t);
        }
        tab[j] = b->copy[j].map;
        pack[j] = NULL;
    }
}

/* Builds seed count k (and saves it to dir, if any), unless the deadline
 * says it cannot end in time. */
static sow_err build_one(const sow_game *g, int k, const char *dir, const sow_db_options *opt,
                         sow_db *db, build_state *b, char *why, size_t why_size)
{
    sow_db_priv *pv = db->priv;
    uint64_t n = sow_retro_level_size(g, k);
    if (opt->deadline > 0) {
        double now = sow_retro_clock();
        if (now >= opt->deadline)
            return cut_at(db, k, opt, "the deadline came before building", why, why_size);
        if (now + (double)n / b->rate > opt->deadline)
            return cut_at(db, k, opt, "no time left to build", why, why_size);
    }
    /* The open checked the peak it expected (sow_db_build_bytes); what is
     * held may be more (a level from a version 1 file stays at a byte, a
     * level with many escapes too), so the budget is checked again. Copies
     * at a byte of the levels below come on top where there is room. */
    bool packs = packable(db, k) && (dir || !opt->unpacked);
    /* The builder takes the fastest way that fits the budget (scratch_max). */
    size_t base = held_bytes(db) + (size_t)n, scratch_max = 0;
    size_t peak = base + level_extra(g, k, n, packs, false);
    if (opt->memory) {
        scratch_max = opt->memory > base ? opt->memory - base : 1;
        if (peak > opt->memory)
            peak = base + level_extra(g, k, n, packs, true);
    }
    if (opt->memory && peak > opt->memory) {
        return sow_fail(why, why_size, SOW_E_NOMEM,
            "building seed count %d needs %.2f GB (%.0f MB) with the levels held, over the "
            "memory budget of %.2f GB (%.0f MB)", k, (double)peak / 1e9,
            (double)peak / 1048576.0, (double)opt->memory / 1e9,
            (double)opt->memory / 1048576.0);
    }
    int8_t *t = (int8_t *)sow_huge_alloc((size_t)n, &pv->own[k]);
    if (!t) {
        return sow_fail(why, why_size, SOW_E_NOMEM,
            "out of memory for seed count %d (%.2f GB)", k, (double)n / 1e9);
    }
    /* The levels below are read at a byte where there is room, else
     * where they are held (packed). */
    const int8_t *tab[SOW_DB_MAX_SEEDS + 1] = {0};
    const sow_db_pack *pack[SOW_DB_MAX_SEEDS + 1] = {0};
    bytes_below(db, k, b, peak + copies_bytes(b, db), opt, tab, pack);
    sow_retro_job job = {
        .g = g, .ix = &db->ix, .k = k, .tab = tab, .pack = pack, .out = t,
        .threads = opt->threads, .progress = opt->progress,
        .progress_ctx = opt->progress_ctx, .base = b->base, .t0 = b->t0, .stop = opt->stop,
        .deadline = opt->deadline, .scratch_max = scratch_max,
    };
    double start = sow_retro_clock();
    sow_err e = sow_retro_build(&job);
    if (e == SOW_E_INTERRUPTED)
        return cut_at(db, k, opt, "interrupted while building", why, why_size);
    if (e) {
        return sow_fail(why, why_size, e, "cannot build seed count %d", k);
    }
    double took = sow_retro_clock() - start;
#ifdef __GLIBC__
    /* The builder's scratch is many allocations that the heap keeps
     * resident once freed; the budget counts it or the packed level, not
     * both, so its pages go back before the level is packed. */
    malloc_trim(0);
#endif
    if (n >= SOW_DB_RATE_MIN && took > 0)
        b->rate = (double)n / took;
    b->base.all_done += n;
    db->table[k] = t;
    pv->built[k] = true;
    /* Packed (if that is smaller) for its file, and held so unless every
     * level is to be held at a byte. */
    sow_db_header h = {
        .game = g->cfg.game, .m = g->m, .variant = sow_db_variant(g), .seeds = k,
        .encoding = SOW_DB_ENC_INT8_FUTURE,
        .index = db->toguz ? SOW_DB_IDX_TOGUZ : SOW_DB_IDX_COMBINADIC,
        .score_scale = g->score_scale, .entries = n, .payload = n,
    };
    sow_huge blob = {0};
    if (dir || !opt->unpacked) {
        /* Under a budget, no larger than the room beside what is held,
         * which is at least the estimate the peak counted (packed_max):
         * a level that escapes more than its family's measure still packs
         * where the budget has room. */
        size_t max = (size_t)n - 1;
        if (opt->memory) {
            size_t used = held_bytes(db) + copies_bytes(b, db) + sow_pack_scratch_bytes(g->m, k);
            size_t room = opt->memory > used ? opt->memory - used : 0;
            max = room < max ? room : max;
        }
        if ((e = encode_level(k, db, job.threads, max, &blob, &h.payload, why, why_size)))
            return e;
    }
    if (blob.map)
        h.encoding = SOW_DB_ENC_PACKED;
    if (dir) {
        char name[128];
        sow_db_file_name(g, k, name, sizeof name);
        sow_db_remove_stale_temps(dir, name);
        e = sow_db_file_write(dir, name, &h, blob.map ? blob.map : (void *)t, why, why_size);
        if (e) {
            sow_huge_free(&blob);
            return e;
        }
        b->saved++;
    }
    if (blob.map && !opt->unpacked) {
        e = sow_pack_view(blob.map, (size_t)h.payload, g->m, k, n, &pv->view[k], why, why_size);
        assert(e == SOW_OK);
        mprotect(blob.map, (size_t)h.payload, PROT_READ);
        pv->packed[k] = blob;
        pv->packed_size[k] = (size_t)h.payload;
        db->pack[k] = &pv->view[k];
        db->table[k] = NULL;
        db->packed = true;
        /* Its bytes stay for the next level's build (bytes_below). */
        b->copy[k] = pv->own[k];
        pv->own[k] = (sow_huge){0};
        return SOW_OK;
    }
    sow_huge_free(&blob);
    mprotect(t, (size_t)n, PROT_READ);
    return SOW_OK;
}

/* Builds (and saves to dir, if any) every seed count that has no table yet,
 * in increasing order. With a dir, each under its file's lock, after
 * which it may turn out to be there: built meanwhile by the process that
 * held the lock. *saved counts the files written. */
static sow_err build_missing(const sow_game *g, const char *dir, const sow_db_options *opt,
                             sow_db *db, uint64_t total, int *saved, char *why, size_t why_size)
{
    build_state b = {.base = {.max_seeds = db->max_seeds, .all_total = total},
                     .t0 = sow_retro_clock(), .rate = SOW_DB_START_RATE};
    if (dir) {
        /* What killed builds left: the next build is the one to clean. */
        sow_db_remove_stale_temps(dir, "");
        sow_db_remove_stale_locks(dir);
    }
    sow_err e = SOW_OK;
    for (int k = sow_db_level_first(g, db->max_seeds); k <= db->max_seeds && !e;
         k += g->level_step) {
        if (held(db, k))
            continue;
        if (!dir) {
            e = build_one(g, k, dir, opt, db, &b, why, why_size);
            continue;
        }
        char name[128], path[4400];
        sow_db_file_name(g, k, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        int lock = -1;
        e = lock_file(path, opt, &lock, why, why_size);
        if (e == SOW_E_INTERRUPTED)
            e = cut_at(db, k, opt, NULL, why, why_size);
        if (e)
            break;
        /* Another process may have built it meanwhile. */
        e = try_level(g, k, dir, opt, db, why, why_size);
        if (e == SOW_E_MISSING)
            e = build_one(g, k, dir, opt, db, &b, why, why_size);
        unlock_file(path, lock);
    }
    *saved = b.saved;
    for (int j = 0; j <= SOW_DB_MAX_SEEDS; j++)
        sow_huge_free(&b.copy[j]);
    /* A cut ends the loop with SOW_OK and max_seeds lowered below k. */
    return e;
}

size_t sow_db_size(const sow_db *db)
{
    size_t total = sizeof(sow_db) + sizeof(sow_db_priv);
    for (int k = 0; k <= db->max_seeds; k++)
        total += db->pack[k] ? db->priv->packed_size[k]
                             : (size_t)db->priv->entries[k];
    return total;
}

void sow_db_level_copy(const sow_db *db, int k, int8_t *out)
{
    assert(k >= 0 && k <= db->max_seeds);
    if (db->table[k])
        memcpy(out, db->table[k], (size_t)db->priv->entries[k]);
    else
        sow_pack_decode(db->pack[k], &db->ix, db->m, k, out);
}

size_t sow_db_build_bytes(const sow_game *g, int max_seeds, const char *dir, bool unpacked)
{
    char fdir[4096];
    if (dir) { /* a store: its folder for g's family */
        sow_store_resolve(g, dir, fdir, sizeof fdir);
        dir = fdir;
    }
    bool toguz = g->landing == SOW_LAND_TOGUZ;
    uint64_t below = 0, n = 0;
    for (int k = sow_db_level_first(g, max_seeds); k <= max_seeds; k += g->level_step) {
        n = sow_retro_level_size(g, k);
        if (n == UINT64_MAX)
            return SIZE_MAX;
        if (k == max_seeds)
            break;
        uint64_t size = !unpacked && level_packable(toguz, g->m, k, n)
                            ? (uint64_t)family_bound(g, k) : n;
        struct stat st;
        if (!unpacked && dir && level_file(g, dir, k, &st))
            size = (uint64_t)st.st_size; /* held as its file holds it */
        below += size < n ? size : n;
    }
    uint64_t extra =
        level_extra(g, max_seeds, n, level_packable(toguz, g->m, max_seeds, n), true);
    uint64_t total = below + n + extra + sizeof(sow_db) + sizeof(sow_db_priv);
    return total < below || total > SIZE_MAX ? SIZE_MAX : (size_t)total;
}

/* What sow_db_open needs (sow_db_open_bytes); *building: a level is
 * missing from dir (or there is no dir). */
static size_t open_bytes(const sow_game *g, int max_seeds, const char *dir, bool unpacked,
                         bool *building)
{
    size_t bytes = sow_db_bytes(g, max_seeds);
    uint64_t files = dir ? sow_db_dir_bytes(g, dir, max_seeds) : 0; /* 0: one is missing */
    *building = files == 0;
    if (*building)
        return sow_db_build_bytes(g, max_seeds, dir, unpacked);
    return !unpacked && files < bytes ? (size_t)files : bytes;
}

size_t sow_db_open_bytes(const sow_game *g, int max_seeds, const char *dir, bool unpacked)
{
    bool building;
    return open_bytes(g, max_seeds, dir, unpacked, &building);
}

/* SOW_E_NOMEM with the reason if need is over opt->memory. */
static sow_err over_budget(const sow_game *g, int max_seeds, size_t need,
                           const sow_db_options *opt, char *why, size_t why_size)
{
    if (need != SIZE_MAX && !(opt->memory && need > opt->memory))
        return SOW_OK;
    /* In GB and in the MB (2^20 bytes) the CLI's --memory counts. */
    return sow_fail(why, why_size, SOW_E_NOMEM,
        "the database up to %d seeds on %d pits needs %.2f GB "
        "(%.0f MB), over the memory budget of %.2f GB (%.0f MB)", max_seeds, g->m,
        (double)need / 1e9, (double)need / 1048576.0, (double)opt->memory / 1e9,
        (double)opt->memory / 1048576.0);
}

sow_err sow_db_open(const sow_game *g, int max_seeds, const char *dir,
                    const sow_db_options *opt, sow_db **out, char *why, size_t why_size)
{
    static const sow_db_options defaults = {0};
    if (!opt)
        opt = &defaults;
    *out = NULL;
    if (why && why_size)
        why[0] = '\0';
    if (sow_retro_supported(g) != SOW_OK) {
        return sow_fail(why, why_size, SOW_E_ARG,
            "%s on %d pits has no database", sow_game_name(g->cfg.game),
                   g->m);
    }
    if (max_seeds < 0) {
        return sow_fail(why, why_size, SOW_E_ARG, "the seed count must be >= 0, not %d", max_seeds);
    }
    int lim = sow_retro_max_seeds(g);
    if (max_seeds > lim) {
        return sow_fail(why, why_size, SOW_E_LIMIT,
            "%s databases go up to %d seeds (int8 entries), not %d",
            sow_game_name(g->cfg.game), lim, max_seeds);
    }
    /* A store: the family's folder in it, made on first use. */
    const char *root = dir && sow_store_is(dir) ? dir : NULL;
    char fdir[4096];
    if (root) {
        sow_store_resolve(g, root, fdir, sizeof fdir);
        dir = fdir;
    }
    /* Checked again for a build if a file turns out to be damaged. */
    bool building;
    size_t need = open_bytes(g, max_seeds, dir, opt->unpacked, &building);
    sow_err e = over_budget(g, max_seeds, need, opt, why, why_size);
    if (e)
        return e;

    /* Every check that needs no folder has passed: only now create one. */
    bool created = false;
    if (dir && (opt->make_dir || root) && !opt->no_build) {
        if (mkdir(dir, root ? 0700 : 0777) == 0) {
            created = true;
        } else if (errno != EEXIST) {
            return sow_fail(why, why_size, SOW_E_IO, "cannot create %s: %s", dir, strerror(errno));
        }
    }
    struct stat st;
    if (dir && stat(dir, &st) != 0) {
        return sow_fail(why, why_size, SOW_E_IO,
            "cannot open the folder %s: %s", dir, strerror(errno));
    }
    if (dir && !S_ISDIR(st.st_mode)) {
        return sow_fail(why, why_size, SOW_E_IO, "%s is not a directory", dir);
    }

    sow_db *db = calloc(1, sizeof *db);
    sow_db_priv *pv = calloc(1, sizeof *pv);
    if (!db || !pv) {
        free(db);
        free(pv);
        sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
        if (created)
            rmdir(dir);
        return SOW_E_NOMEM;
    }
    db->priv = pv;
    /* Only the seed counts it holds have entries (sow_db_level_in). */
    for (int k = sow_db_level_first(g, max_seeds); k <= max_seeds; k += g->level_step)
        pv->entries[k] = sow_retro_level_size(g, k);
    db->m = g->m;
    db->max_seeds = max_seeds;
    db->level_step = g->level_step;
    db->score_scale = g->score_scale;
    db->toguz = g->landing == SOW_LAND_TOGUZ;
    sow_index_init(&db->ix, 2 * g->m);

    int saved = 0;
    uint64_t missing = 0;
    if (!dir) {
        for (int k = sow_db_level_first(g, max_seeds); k <= max_seeds; k += g->level_step)
            missing += sow_retro_level_size(g, k);
    } else {
        e = load_all(g, dir, opt, db, &missing, why, why_size);
        /* A file is there but damaged: it is built. */
        if (!e && missing && !building)
            e = over_budget(g, max_seeds, sow_db_build_bytes(g, max_seeds, dir, opt->unpacked),
                            opt, why, why_size);
    }
    if (!e && missing)
        e = build_missing(g, dir, opt, db, missing, &saved, why, why_size);
    if (e) {
        sow_db_close(db);
        /* A folder this call made and left without a file goes again; the
         * rmdir fails, harmlessly, if another process put a file in it. */
        if (created && !saved)
            rmdir(dir);
        return e;
    }
    if (root && saved) {
        /* What this open uses is its family's: the others make room. */
        char fam[96];
        sow_store_family(g, fam, sizeof fam);
        sow_store_prune(root, sow_store_budget(root), fam, NULL, NULL, NULL, NULL, 0);
    }
    *out = db;
    return SOW_OK;
}
