/* file.c - database files: header encoding, write through a temporary
 * name, mmap and checks (doc/db-format.md is the specification). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <xxhash.h>

#include "file.h"
#include "msg.h"
#include "pack.h"

/* Header, 64 bytes, every field little-endian:
 *
 *   off size  field
 *     0   8   magic "SOWDB\r\n\x1a"
 *     8   4   format version (2; 1 is read: int8 levels only)
 *    12   4   header size (64)
 *    16   4   game (0 kalah, 1 chungkala, 2 congkak)
 *    20   4   m, pits per side
 *    24   4   value-changing variant flags (SOW_VAR_*)
 *    28   4   k, seeds on the board of every entry
 *    32   4   entry encoding (1: int8 future score; 2: packed, pack.c)
 *    36   4   index scheme (1: combinadic rank, own pits then opp pits)
 *    40   4   score scale
 *    44   4   header check: low 32 bits of XXH64 (seed 0) of these 64
 *             bytes with bytes 44..47 zero
 *    48   8   entries, C(k+2m-1, 2m-1)
 *    56   8   XXH64 (seed 0) of the payload
 *    64   .   payload: `entries` bytes (encoding 1), or the packed
 *             level (encoding 2), its size given by its own counts
 */
static const uint8_t magic[8] = {'S', 'O', 'W', 'D', 'B', '\r', '\n', 0x1a};

static void put32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *b)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static uint64_t get64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static uint32_t header_check(const uint8_t *b)
{
    uint8_t t[SOW_DB_HEADER_SIZE];
    memcpy(t, b, sizeof t);
    memset(t + 44, 0, 4);
    return (uint32_t)XXH64(t, sizeof t, 0);
}

static void encode(const sow_db_header *h, uint8_t *b)
{
    memset(b, 0, SOW_DB_HEADER_SIZE);
    memcpy(b, magic, 8);
    put32(b + 8, h->version);
    put32(b + 12, SOW_DB_HEADER_SIZE);
    put32(b + 16, (uint32_t)h->game);
    put32(b + 20, (uint32_t)h->m);
    put32(b + 24, h->variant);
    put32(b + 28, (uint32_t)h->seeds);
    put32(b + 32, (uint32_t)h->encoding);
    put32(b + 36, (uint32_t)h->index);
    put32(b + 40, (uint32_t)h->score_scale);
    put64(b + 48, h->entries);
    put64(b + 56, h->checksum);
    put32(b + 44, header_check(b));
}

static sow_err decode(const uint8_t *b, const char *path, sow_db_header *h, char *why,
                      size_t n)
{
    if (memcmp(b, magic, 8) != 0) {
        return sow_fail(why, n, SOW_E_FORMAT, "%s: not a sow database file (bad magic)", path);
    }
    /* The version first: a newer one may check its header otherwise. */
    h->version = get32(b + 8);
    if (h->version > SOW_DB_VERSION) {
        return sow_fail(why, n, SOW_E_LIMIT,
            "%s: format version %u is newer than this sow reads (1 to %d): a newer sow wrote it",
            path, h->version, SOW_DB_VERSION);
    }
    if (header_check(b) != get32(b + 44)) {
        return sow_fail(why, n, SOW_E_CHECKSUM,
            "%s: the header is corrupt (header check mismatch)", path);
    }
    if (h->version < 1 || get32(b + 12) != SOW_DB_HEADER_SIZE) {
        return sow_fail(why, n, SOW_E_FORMAT,
            "%s: format version %u is not supported (this sow reads 1 to %d)",
            path, h->version, SOW_DB_VERSION);
    }
    h->game = (sow_game_id)get32(b + 16);
    h->m = (int)get32(b + 20);
    h->variant = get32(b + 24);
    h->seeds = (int)get32(b + 28);
    h->encoding = (int)get32(b + 32);
    h->index = (int)get32(b + 36);
    h->score_scale = (int)get32(b + 40);
    h->entries = get64(b + 48);
    h->checksum = get64(b + 56);
    if ((unsigned)h->game >= SOW_GAME_COUNT || h->m < 1 || h->m > SOW_MAX_PITS ||
        h->seeds < 0 || h->seeds > SOW_DB_MAX_SEEDS ||
        !(h->encoding == SOW_DB_ENC_INT8_FUTURE ||
          (h->encoding == SOW_DB_ENC_PACKED && h->version >= 2 &&
           h->index == SOW_DB_IDX_COMBINADIC && h->m <= 8)) ||
        h->index != (h->game == SOW_TOGUZ ? SOW_DB_IDX_TOGUZ : SOW_DB_IDX_COMBINADIC) ||
        (h->game == SOW_TOGUZ && h->m < 2) ||
        h->entries != (h->game == SOW_TOGUZ
                           ? sow_toguz_level_count(h->m, !(h->variant & SOW_VAR_NO_TUZDIK),
                                                   h->seeds)
                           : sow_index_count(2 * h->m, h->seeds))) {
        return sow_fail(why, n, SOW_E_FORMAT, "%s: the header's parameters are inconsistent", path);
    }
    return SOW_OK;
}

sow_err sow_db_header_match(const sow_db_header *h, const sow_game *g, int k, char *why,
                            size_t n)
{
    if (h->game != g->cfg.game || h->m != g->m || h->variant != sow_db_variant(g)) {
        char want[64], got[64];
        sow_game gg;
        sow_config c = {h->game, h->m, 1, h->variant};
        if (sow_game_init(&gg, &c) == SOW_OK)
            sow_db_file_name(&gg, h->seeds, got, sizeof got);
        else
            snprintf(got, sizeof got, "game %d m %d variant %#x", (int)h->game, h->m,
                     h->variant);
        sow_db_file_name(g, k, want, sizeof want);
        return sow_fail(why, n, SOW_E_MISMATCH,
            "the file holds %s, not %s (other game, board or variant)", got, want);
    }
    if (h->seeds != k) {
        return sow_fail(why, n, SOW_E_MISMATCH,
            "the file holds seed count %d, expected %d", h->seeds, k);
    }
    if (h->score_scale != g->score_scale) {
        return sow_fail(why, n, SOW_E_MISMATCH,
            "the file's score scale %d is not the game's %d", h->score_scale,
            g->score_scale);
    }
    return SOW_OK;
}

static sow_err write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        size_t part = len < (1u << 30) ? len : (1u << 30);
        ssize_t w = write(fd, p, part);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return SOW_E_IO;
        }
        p += w;
        len -= (size_t)w;
    }
    return SOW_OK;
}

sow_err sow_db_file_write(const char *dir, const char *name, sow_db_header *h,
                          const void *data, char *why, size_t n)
{
    char path[4096], tmp[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    h->version = SOW_DB_VERSION;
    h->checksum = XXH64(data, h->payload, 0);
    uint8_t hb[SOW_DB_HEADER_SIZE];
    encode(h, hb);

    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return sow_fail(why, n, SOW_E_IO, "cannot create %s: %s", tmp, strerror(errno));
    }
    sow_err e = write_all(fd, hb, sizeof hb);
    if (!e)
        e = write_all(fd, data, h->payload);
    if (!e && fsync(fd) != 0)
        e = SOW_E_IO;
    int saved = errno;
    if (close(fd) != 0 && !e) {
        saved = errno;
        e = SOW_E_IO;
    }
    if (!e && rename(tmp, path) != 0) {
        saved = errno;
        e = SOW_E_IO;
    }
    if (e) {
        unlink(tmp);
        return sow_fail(why, n, e, "cannot write %s: %s", path, strerror(saved));
    }
    /* The rename itself is durable only once the directory is synced. */
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        fsync(dfd);
        close(dfd);
    }
    return SOW_OK;
}

/* The checked stamp: an extended attribute saying that this file's payload
 * once matched its checksum, and as what file (40 bytes, little-endian):
 *
 *   off size  field
 *     0   8   the payload's XXH64, as the header gives it
 *     8   8   st_size
 *    16   8   st_ino
 *    24   8   st_mtim.tv_sec
 *    32   8   st_mtim.tv_nsec
 *
 * A write changes the modification time, a replacement (a rebuild renames
 * a new file into place) the inode: either voids the stamp, and the next
 * open checks the payload again. A file modified in the last STAMP_AGE
 * seconds is not stamped: a write within the same clock tick as the last
 * would leave its time unchanged (git's "racy clean" files). Where the file
 * system keeps no user attributes, or the file is not ours to mark, every
 * open checks (doc/db-format.md, "Reading"). */
#define STAMP_NAME "user.sow.checked"
#define STAMP_SIZE 40
#define STAMP_AGE 2

static void stamp_of(const struct stat *st, uint64_t checksum, uint8_t *b)
{
    put64(b, checksum);
    put64(b + 8, (uint64_t)st->st_size);
    put64(b + 16, (uint64_t)st->st_ino);
    put64(b + 24, (uint64_t)st->st_mtim.tv_sec);
    put64(b + 32, (uint64_t)st->st_mtim.tv_nsec);
}

static bool stamped(int fd, const struct stat *st, uint64_t checksum)
{
    uint8_t want[STAMP_SIZE], got[STAMP_SIZE];
    stamp_of(st, checksum, want);
    return fgetxattr(fd, STAMP_NAME, got, sizeof got) == (ssize_t)sizeof got &&
           memcmp(want, got, sizeof want) == 0;
}

static void stamp(int fd, const struct stat *st, uint64_t checksum)
{
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) != 0 || now.tv_sec - st->st_mtim.tv_sec < STAMP_AGE)
        return;
    uint8_t b[STAMP_SIZE];
    stamp_of(st, checksum, b);
    (void)fsetxattr(fd, STAMP_NAME, b, sizeof b, 0); /* best effort: unmarked files are checked */
}

sow_err sow_db_file_map(const char *path, sow_db_check check, sow_db_header *h,
                        sow_db_map *map, char *why, size_t n)
{
    memset(map, 0, sizeof *map);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        sow_err e = errno == ENOENT ? SOW_E_MISSING : SOW_E_IO;
        return sow_fail(why, n, e, "cannot open %s: %s", path, strerror(errno));
    }
    struct stat st;
    uint8_t hb[SOW_DB_HEADER_SIZE];
    if (fstat(fd, &st) != 0) {
        sow_fail(why, n, SOW_E_IO, "cannot stat %s: %s", path, strerror(errno));
        close(fd);
        return SOW_E_IO;
    }
    /* A folder under a file's name is no damaged file to rebuild. */
    if (!S_ISREG(st.st_mode)) {
        sow_fail(why, n, SOW_E_IO, "%s is not a regular file", path);
        close(fd);
        return SOW_E_IO;
    }
    if (st.st_size < SOW_DB_HEADER_SIZE ||
        pread(fd, hb, sizeof hb, 0) != (ssize_t)sizeof hb) {
        sow_fail(why, n, SOW_E_FORMAT,
            "%s: truncated (%lld bytes, shorter than the %d-byte header)", path,
            (long long)st.st_size, SOW_DB_HEADER_SIZE);
        close(fd);
        return SOW_E_FORMAT;
    }
    sow_err e = decode(hb, path, h, why, n);
    if (e) {
        close(fd);
        return e;
    }
    h->payload = h->entries;
    if (h->encoding == SOW_DB_ENC_PACKED) {
        /* The packed level's size follows from its escape count (pack.c's
         * layout, offset 16); nesc is bounded so that it cannot wrap. */
        uint8_t nb[8];
        uint64_t nesc = UINT64_MAX;
        if (st.st_size >= SOW_DB_HEADER_SIZE + SOW_PACK_HEAD &&
            pread(fd, nb, sizeof nb, SOW_DB_HEADER_SIZE + 16) == (ssize_t)sizeof nb)
            nesc = get64(nb);
        h->payload = nesc <= h->entries
                         ? sow_pack_bytes(h->entries, sow_pack_rows(h->m, h->seeds), nesc)
                         : SOW_PACK_HEAD;
    }
    uint64_t want = SOW_DB_HEADER_SIZE + h->payload;
    if ((uint64_t)st.st_size != want) {
        sow_fail(why, n, SOW_E_FORMAT, "%s: %s (%lld bytes, the header says %llu)", path,
            (uint64_t)st.st_size < want ? "truncated" : "has trailing bytes",
            (long long)st.st_size, (unsigned long long)want);
        close(fd);
        return SOW_E_FORMAT;
    }
    void *base = mmap(NULL, (size_t)want, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) {
        sow_fail(why, n, SOW_E_IO, "cannot map %s: %s", path, strerror(errno));
        close(fd);
        return SOW_E_IO;
    }
    map->base = base;
    map->len = (size_t)want;
    map->data = (const int8_t *)base + SOW_DB_HEADER_SIZE;
    if (check == SOW_DB_CHECK_FULL ||
        (check == SOW_DB_CHECK_ONCE && !stamped(fd, &st, h->checksum))) {
        madvise(base, map->len, MADV_SEQUENTIAL);
        if (XXH64(map->data, h->payload, 0) != h->checksum) {
            sow_fail(why, n, SOW_E_CHECKSUM, "%s: checksum mismatch (the file is corrupt)", path);
            sow_db_file_unmap(map);
            close(fd);
            return SOW_E_CHECKSUM;
        }
        stamp(fd, &st, h->checksum);
    }
    close(fd);
    /* Probes jump around the table: no read-ahead. */
    madvise(base, map->len, MADV_RANDOM);
    return SOW_OK;
}

void sow_db_file_read_ahead(const sow_db_map *map)
{
    /* Asynchronous: the kernel queues the reads and returns; a probe that
     * gets there first waits for its page only, as it would have anyway. */
    if (map->base)
        madvise(map->base, map->len, MADV_WILLNEED);
}

void sow_db_file_unmap(sow_db_map *map)
{
    if (map->base)
        munmap(map->base, map->len);
    memset(map, 0, sizeof *map);
}

sow_err sow_db_file_check(const char *path, bool skip_payload, sow_db_header *h, char *why,
                          size_t n)
{
    sow_db_map map;
    sow_err e = sow_db_file_map(path, skip_payload ? SOW_DB_CHECK_HEADER : SOW_DB_CHECK_FULL, h,
                                &map, why, n);
    if (!e)
        sow_db_file_unmap(&map);
    return e;
}

void sow_db_remove_stale_temps(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t len = strlen(name);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *t = strstr(e->d_name, ".tmp.");
        if (!t || (len && ((size_t)(t - e->d_name) != len || strncmp(e->d_name, name, len) != 0)))
            continue;
        char *end;
        long pid = strtol(t + 5, &end, 10);
        if (pid <= 0 || *end || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

void sow_db_remove_stale_locks(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    size_t sl = strlen(".sowdb" SOW_DB_LOCK_SUFFIX);
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len <= sl || strcmp(e->d_name + len - sl, ".sowdb" SOW_DB_LOCK_SUFFIX) != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        /* Held: a build is running. Free: its build was killed; whoever
         * opened it meanwhile finds it unlinked once locked and tries again. */
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            unlink(path);
        close(fd);
    }
    closedir(d);
}
