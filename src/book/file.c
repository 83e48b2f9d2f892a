/* file.c - the book's file: save through a temporary name, load and
 * check (doc/book-format.md is the specification).
 *
 * Header, 64 bytes, every field little-endian:
 *
 *   off size  field
 *     0   8   magic "SOWBOOK\x1a"
 *     8   4   format version (SOW_BOOK_VERSION)
 *    12   4   header size (64)
 *    16   4   game (sow_game_id)
 *    20   4   m, pits per side
 *    24   4   n, seeds per pit at the start
 *    28   4   variant flags (SOW_VAR_*)
 *    32   4   plies
 *    36   4   flags: 1 complete, 2 hashed keys
 *    40   8   records
 *    48   8   the build's wall time, milliseconds
 *    56   8   XXH64 (seed 0) of bytes 0..55 and the records
 *    64   .   records, 24 bytes each, in strictly increasing key order:
 *
 *   off size  record field
 *     0   8   key hi (0 for a board code)
 *     8   8   key lo
 *    16   2   future gain, int16, score units, the mover's view
 *    18   1   best move (sow_move), 0xff: none
 *    19   1   depth (0 when exact)
 *    20   1   flags: 1 exact
 *    21   3   zero
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xxhash.h>

#include "internal.h"
#include "msg.h"
#include "sow/store.h"

static const uint8_t magic[8] = {'S', 'O', 'W', 'B', 'O', 'O', 'K', 0x1a};
enum { HEAD = 64, REC = 24 };

static void put(uint8_t *b, uint64_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *b, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}

static void encode_head(const sow_book *b, uint8_t *h)
{
    memset(h, 0, HEAD);
    memcpy(h, magic, sizeof magic);
    put(h + 8, SOW_BOOK_VERSION, 4);
    put(h + 12, HEAD, 4);
    put(h + 16, (uint64_t)b->g.cfg.game, 4);
    put(h + 20, (uint64_t)b->g.cfg.pits, 4);
    put(h + 24, (uint64_t)b->g.cfg.seeds, 4);
    put(h + 28, b->g.cfg.variant, 4);
    put(h + 32, (uint64_t)b->plies, 4);
    put(h + 36, (b->complete ? BOOK_COMPLETE : 0) | (b->hashed ? BOOK_HASHED : 0), 4);
    put(h + 40, b->n, 8);
    put(h + 48, (uint64_t)(b->seconds * 1000 + 0.5), 8);
}

static void encode_rec(const book_rec *r, uint8_t *o)
{
    memset(o, 0, REC);
    put(o, r->hi, 8);
    put(o + 8, r->lo, 8);
    put(o + 16, (uint16_t)r->future, 2);
    o[18] = r->move;
    o[19] = r->depth;
    o[20] = r->flags;
}

/* The whole file's bytes (malloc'd), checksum in place; NULL: no memory. */
static uint8_t *encode(sow_book *b, size_t *len)
{
    book_merge(b);
    *len = HEAD + (size_t)b->n * REC;
    uint8_t *buf = malloc(*len);
    if (!buf)
        return NULL;
    encode_head(b, buf);
    for (uint64_t i = 0; i < b->n; i++)
        encode_rec(&b->recs[i], buf + HEAD + i * REC);
    XXH64_state_t *st = XXH64_createState();
    if (!st) {
        free(buf);
        return NULL;
    }
    XXH64_reset(st, 0);
    XXH64_update(st, buf, 56);
    XXH64_update(st, buf + HEAD, *len - HEAD);
    put(buf + 56, XXH64_digest(st), 8);
    XXH64_freeState(st);
    return buf;
}

sow_err sow_book_save(const sow_book *cb, const char *path, char *why, size_t why_size)
{
    size_t len;
    uint8_t *buf = encode((sow_book *)cb, &len); /* the merge keeps its content */
    if (!buf)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    bool ok = f && fwrite(buf, 1, len, f) == len;
    ok = f && fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
    int err = errno;
    if (f && fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    free(buf);
    if (!ok || rename(tmp, path) != 0) {
        if (ok)
            err = errno;
        unlink(tmp);
        return sow_fail(why, why_size, SOW_E_IO, "cannot write the book %s: %s", path,
                        strerror(err));
    }
    return SOW_OK;
}

/* path's bytes (malloc'd). */
static sow_err slurp(const char *path, uint8_t **out, size_t *len, char *why, size_t why_size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return sow_fail(why, why_size, errno == ENOENT ? SOW_E_MISSING : SOW_E_IO,
                        "cannot read the book %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return sow_fail(why, why_size, SOW_E_IO, "the book %s is not a file", path);
    }
    *len = (size_t)st.st_size;
    *out = malloc(*len ? *len : 1);
    bool ok = *out && fread(*out, 1, *len, f) == *len;
    fclose(f);
    if (!ok) {
        free(*out);
        return sow_fail(why, why_size, *out ? SOW_E_IO : SOW_E_NOMEM,
                        "cannot read the book %s", path);
    }
    return SOW_OK;
}

/* The header's checks, the game set up into b. */
static sow_err check_head(const uint8_t *h, size_t len, const char *path, sow_book *b,
                          char *why, size_t why_size)
{
    if (len < HEAD || memcmp(h, magic, sizeof magic) != 0)
        return sow_fail(why, why_size, SOW_E_FORMAT, "%s is not a sow book", path);
    if (get(h + 8, 4) != SOW_BOOK_VERSION || get(h + 12, 4) != HEAD)
        return sow_fail(why, why_size, SOW_E_FORMAT,
                        "%s is a book of format version %u; this sow reads version %d", path,
                        (unsigned)get(h + 8, 4), SOW_BOOK_VERSION);
    uint64_t n = get(h + 40, 8);
    if (n > (len - HEAD) / REC || HEAD + n * REC != len)
        return sow_fail(why, why_size, SOW_E_FORMAT,
                        "the book %s is truncated or has trailing bytes", path);
    XXH64_state_t *st = XXH64_createState();
    if (!st)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    XXH64_reset(st, 0);
    XXH64_update(st, h, 56);
    XXH64_update(st, h + HEAD, len - HEAD);
    bool sum_ok = XXH64_digest(st) == get(h + 56, 8);
    XXH64_freeState(st);
    if (!sum_ok)
        return sow_fail(why, why_size, SOW_E_CHECKSUM,
                        "the book %s is damaged (its checksum does not match)", path);
    sow_config c = {.game = (sow_game_id)get(h + 16, 4), .pits = (int)get(h + 20, 4),
                    .seeds = (int)get(h + 24, 4), .variant = (unsigned)get(h + 28, 4)};
    uint32_t flags = (uint32_t)get(h + 36, 4);
    if (get(h + 16, 4) >= SOW_GAME_COUNT || sow_game_init(&b->g, &c) != SOW_OK ||
        b->g.pie || get(h + 32, 4) > SOW_BOOK_MAX_PLIES || (flags & ~3u))
        return sow_fail(why, why_size, SOW_E_FORMAT, "the book %s describes no valid game",
                        path);
    b->plies = (int)get(h + 32, 4);
    b->complete = flags & BOOK_COMPLETE;
    b->seconds = (double)get(h + 48, 8) / 1000;
    if (!book_keys_init(b))
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    if (b->hashed != ((flags & BOOK_HASHED) != 0))
        return sow_fail(why, why_size, SOW_E_FORMAT, "the book %s has the wrong kind of key",
                        path);
    b->n = b->sorted = b->cap = n;
    return SOW_OK;
}

/* The records, each checked: key order, fields in range. */
static sow_err read_recs(const uint8_t *buf, const char *path, sow_book *b, char *why,
                         size_t why_size)
{
    b->recs = malloc((b->n ? b->n : 1) * sizeof *b->recs);
    if (!b->recs)
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    for (uint64_t i = 0; i < b->n; i++) {
        const uint8_t *o = buf + HEAD + i * REC;
        book_rec *r = &b->recs[i];
        *r = (book_rec){.hi = get(o, 8), .lo = get(o + 8, 8), .future = (int16_t)get(o + 16, 2),
                        .move = o[18], .depth = o[19], .flags = o[20]};
        bool ok = (r->flags & ~REC_EXACT) == 0 && !(o[21] | o[22] | o[23]) &&
                  (r->move == REC_NO_MOVE || (r->move & SOW_MOVE_PIT_MASK) < b->g.m) &&
                  (i == 0 || book_key_cmp(&b->recs[i - 1], r) < 0) && (b->hashed || !r->hi);
        if (!ok)
            return sow_fail(why, why_size, SOW_E_FORMAT, "the book %s has a bad record (%llu)",
                            path, (unsigned long long)i);
    }
    return SOW_OK;
}

/* "kalah 6x4 empty-capture" for messages. */
static void describe(const sow_config *c, char *buf, size_t size)
{
    int len = snprintf(buf, size, "%s %dx%d", sow_game_name(c->game), c->pits, c->seeds);
    for (int i = 0; i < SOW_VAR_COUNT && len > 0 && (size_t)len < size; i++)
        if (c->variant & (1u << i))
            len += snprintf(buf + len, size - (size_t)len, " %s", sow_variant_name(1u << i));
}

sow_err sow_book_load(const char *path, const sow_game *g, sow_book **out, char *why,
                      size_t why_size)
{
    *out = NULL;
    uint8_t *buf = NULL;
    size_t len = 0;
    sow_err err = slurp(path, &buf, &len, why, why_size);
    if (err)
        return err;
    sow_book *b = calloc(1, sizeof *b);
    if (!b) {
        free(buf);
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    }
    err = check_head(buf, len, path, b, why, why_size);
    if (!err && g && memcmp(&g->cfg, &b->g.cfg, sizeof g->cfg) != 0) {
        char mine[96], theirs[96];
        describe(&b->g.cfg, theirs, sizeof theirs);
        describe(&g->cfg, mine, sizeof mine);
        err = sow_fail(why, why_size, SOW_E_MISMATCH, "the book %s is for %s, not %s", path,
                       theirs, mine);
    }
    if (!err)
        err = read_recs(buf, path, b, why, why_size);
    free(buf);
    if (err) {
        sow_book_free(b);
        return err;
    }
    *out = b;
    return SOW_OK;
}

void sow_book_path(const sow_game *g, const char *dir, char *buf, size_t size)
{
    char folder[4096], fam[96];
    sow_store_resolve(g, dir, folder, sizeof folder);
    sow_store_family(g, fam, sizeof fam);
    snprintf(buf, size, "%s/%s-n%d.sowbook", folder, fam, g->cfg.seeds);
}
