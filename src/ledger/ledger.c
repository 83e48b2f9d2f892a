/* ledger.c - the ledger of a solve by work units in SQLite (sow/ledger.h,
 * doc/ledger.md). Every write is its own transaction in WAL mode with
 * synchronous=FULL: when a call returns, its row survives a power cut.
 * A ledger is created (tables and meta rows) in one transaction, so a
 * creation cut short leaves a file the next run takes up again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>
#define XXH_STATIC_LINKING_ONLY /* XXH64_state_t on the stack */
#include <xxhash.h>

#include "msg.h"
#include "sow/ledger.h"
#include "sow/notation.h"
#include "sow/rules.h"

/* The format's name and version in `meta`: a file without them is not a
 * ledger, one with another version is refused. Version 1 had no answer
 * checksums: it is read unchecked, and upgraded by sow_ledger_open.
 * Version 2 had no state 'split': it reads as it is, and is upgraded. */
#define FORMAT_NAME "sow-ledger"
#define FORMAT_VERSION 3
#define FORMAT_OLDEST 1
/* A writer that finds the file locked (a reader mid-checkpoint) waits this
 * long before failing. */
#define BUSY_MS 10000

struct sow_ledger {
    sqlite3 *db;
    const sow_game *g;      /* for positions of units (writing only) */
    sow_pos root;
    int run;
    int version;            /* of the file, FORMAT_OLDEST..FORMAT_VERSION */
    char path[4096];
    char why[SOW_LEDGER_WHY]; /* the journal's last failure */
};

#define UNITS_COLUMNS                                                                  \
    " id INTEGER PRIMARY KEY,"                                                         \
    " line TEXT NOT NULL,"                                                             \
    " position TEXT NOT NULL,"                                                         \
    " threshold INTEGER NOT NULL,"                                                     \
    " state TEXT NOT NULL CHECK (state IN ('open', 'done', 'lost', 'split')),"         \
    " bound INTEGER,"                                                                  \
    " nodes INTEGER NOT NULL DEFAULT 0,"                                               \
    " cpu REAL NOT NULL DEFAULT 0,"                                                    \
    " seconds REAL NOT NULL DEFAULT 0,"                                                \
    " worker INTEGER NOT NULL DEFAULT 0,"                                              \
    " run INTEGER NOT NULL,"                                                           \
    " asked_at TEXT NOT NULL,"                                                         \
    " answered_at TEXT,"                                                               \
    " checksum TEXT"

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS units(" UNITS_COLUMNS ");";

bool sow_ledger_available(void)
{
    return true;
}

/* "disk full (SQLITE_FULL)": the cause of the connection's last failure,
 * with SQLite's code so that a report can be looked up. */
static void cause(sqlite3 *db, char *buf, size_t n)
{
    static const struct {
        int code;
        const char *name;
    } names[] = {
        {SQLITE_FULL, "SQLITE_FULL"},         {SQLITE_IOERR, "SQLITE_IOERR"},
        {SQLITE_READONLY, "SQLITE_READONLY"}, {SQLITE_CANTOPEN, "SQLITE_CANTOPEN"},
        {SQLITE_CORRUPT, "SQLITE_CORRUPT"},   {SQLITE_NOTADB, "SQLITE_NOTADB"},
        {SQLITE_BUSY, "SQLITE_BUSY"},         {SQLITE_LOCKED, "SQLITE_LOCKED"},
        {SQLITE_PERM, "SQLITE_PERM"},         {SQLITE_NOMEM, "SQLITE_NOMEM"},
        {SQLITE_CONSTRAINT, "SQLITE_CONSTRAINT"},
    };
    int code = sqlite3_errcode(db), sys = sqlite3_system_errno(db);
    char other[32];
    const char *name = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !name; i++)
        if (names[i].code == code)
            name = names[i].name;
    if (!name) {
        snprintf(other, sizeof other, "SQLite error %d", code);
        name = other;
    }
    /* A full disk also shows as an I/O error (a short write of the WAL's
     * index): the system's errno tells. */
    bool os = code == SQLITE_IOERR || code == SQLITE_CANTOPEN || code == SQLITE_FULL;
    if (code == SQLITE_FULL || (os && (sys == ENOSPC || sys == EDQUOT)))
        snprintf(buf, n, "disk full (%s)", name);
    else if (os && sys)
        snprintf(buf, n, "%s (%s)", strerror(sys), name);
    else
        snprintf(buf, n, "%s (%s)", sqlite3_errmsg(db), name);
}

static sow_err sql_fail(sow_ledger *l, char *why, size_t n, const char *what)
{
    int code = sqlite3_errcode(l->db);
    sow_err e = code == SQLITE_NOTADB || code == SQLITE_CORRUPT ? SOW_E_FORMAT : SOW_E_IO;
    char c[160];
    cause(l->db, c, sizeof c);
    return sow_fail(why, n, e, "%s: %s: %s", l->path, what, c);
}

static sow_err exec(sow_ledger *l, const char *sql, char *why, size_t n)
{
    if (sqlite3_exec(l->db, sql, NULL, NULL, NULL) != SQLITE_OK)
        return sql_fail(l, why, n, "cannot write the ledger");
    return SOW_OK;
}

/* One meta value as text into buf; false if missing. */
static bool meta_get(sow_ledger *l, const char *key, char *buf, size_t size)
{
    sqlite3_stmt *st;
    bool ok = false;
    if (sqlite3_prepare_v2(l->db, "SELECT value FROM meta WHERE key = ?", -1, &st, NULL))
        return false;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        snprintf(buf, size, "%s", (const char *)sqlite3_column_text(st, 0));
        ok = true;
    }
    sqlite3_finalize(st);
    return ok;
}

static long meta_int(sow_ledger *l, const char *key, bool *ok)
{
    char buf[64], *end;
    if (!meta_get(l, key, buf, sizeof buf)) {
        *ok = false;
        return 0;
    }
    long v = strtol(buf, &end, 10);
    if (*end || end == buf)
        *ok = false;
    return v;
}

static sow_err meta_put(sow_ledger *l, const char *key, const char *value)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db, "INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", -1,
                           &st, NULL))
        return SOW_E_IO;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SOW_OK : SOW_E_IO;
}

/* The solve a ledger serves, from its meta; SOW_E_FORMAT if not a ledger. */
static sow_err read_id(sow_ledger *l, sow_ledger_id *id, char *why, size_t n)
{
    char name[32] = "", game[32] = "";
    bool ok = true;
    memset(id, 0, sizeof *id);
    if (!meta_get(l, "format", name, sizeof name) || strcmp(name, FORMAT_NAME) != 0)
        return sow_fail(why, n, SOW_E_FORMAT, "%s is not a sow ledger", l->path);
    long version = meta_int(l, "version", &ok);
    if (!ok || version < FORMAT_OLDEST || version > FORMAT_VERSION)
        return sow_fail(why, n, SOW_E_FORMAT, "%s is a sow ledger of version %ld; this sow reads "
                       "versions %d to %d", l->path, version, FORMAT_OLDEST, FORMAT_VERSION);
    l->version = (int)version;
    id->cfg.pits = (int)meta_int(l, "pits", &ok);
    id->cfg.seeds = (int)meta_int(l, "seeds", &ok);
    id->cfg.variant = (unsigned)meta_int(l, "variant", &ok);
    id->depth = (int)meta_int(l, "depth", &ok);
    ok = ok && meta_get(l, "game", game, sizeof game) &&
         meta_get(l, "position", id->position, sizeof id->position) &&
         sow_game_parse(game, &id->cfg.game) == SOW_OK;
    if (!ok)
        return sow_fail(why, n, SOW_E_FORMAT, "%s: the ledger's description of its solve is "
                       "damaged", l->path);
    return SOW_OK;
}

/* "kalah, 6 pits, variant empty-capture, from 4,4,...; frontier 4 plies" */
static void describe(const sow_ledger_id *id, char *buf, size_t size)
{
    char var[96] = "";
    size_t at = 0;
    for (unsigned f = 1; f && at < sizeof var; f <<= 1)
        if (id->cfg.variant & f) {
            int w = snprintf(var + at, sizeof var - at, "%s%s", at ? "," : "",
                             sow_variant_name(f));
            at += w > 0 ? (size_t)w : 0;
        }
    snprintf(buf, size, "%s %d pits%s%s from %s, frontier %d plies",
             sow_game_name(id->cfg.game), id->cfg.pits, at ? " variant " : "", var,
             id->position, id->depth);
}

/* The meta rows of a new ledger (inside the caller's transaction). */
static sow_err write_id(sow_ledger *l, const sow_ledger_id *id, char *why, size_t n)
{
    char buf[32];
    sow_err e = meta_put(l, "format", FORMAT_NAME);
    snprintf(buf, sizeof buf, "%d", FORMAT_VERSION);
    e = e ? e : meta_put(l, "version", buf);
    e = e ? e : meta_put(l, "game", sow_game_name(id->cfg.game));
    snprintf(buf, sizeof buf, "%d", id->cfg.pits);
    e = e ? e : meta_put(l, "pits", buf);
    snprintf(buf, sizeof buf, "%d", id->cfg.seeds);
    e = e ? e : meta_put(l, "seeds", buf);
    snprintf(buf, sizeof buf, "%u", id->cfg.variant);
    e = e ? e : meta_put(l, "variant", buf);
    e = e ? e : meta_put(l, "position", id->position);
    snprintf(buf, sizeof buf, "%d", id->depth);
    e = e ? e : meta_put(l, "depth", buf);
    e = e ? e : meta_put(l, "runs", "0");
    return e ? sql_fail(l, why, n, "cannot write the ledger") : SOW_OK;
}

/* The checksum of an answer: XXH64 (seed 0) of the unit's line as text
 * with its terminating zero, then threshold and bound (int32), nodes
 * (uint64), cpu and seconds (IEEE-754 double bits), little-endian; as 16
 * hex digits (doc/ledger.md). */
static void answer_sum(const char *line, int threshold, int bound, uint64_t nodes, double cpu,
                       double seconds, char out[17])
{
    uint8_t b[32];
    uint64_t f[5] = {(uint32_t)threshold, (uint32_t)bound, nodes, 0, 0};
    memcpy(&f[3], &cpu, 8);
    memcpy(&f[4], &seconds, 8);
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 4; j++)
            b[4 * i + j] = (uint8_t)(f[i] >> (8 * j));
    for (int i = 2; i < 5; i++)
        for (int j = 0; j < 8; j++)
            b[8 + 8 * (i - 2) + j] = (uint8_t)(f[i] >> (8 * j));
    XXH64_state_t st;
    XXH64_reset(&st, 0);
    XXH64_update(&st, line, strlen(line) + 1);
    XXH64_update(&st, b, sizeof b);
    snprintf(out, 17, "%016llx", (unsigned long long)XXH64_digest(&st));
}

/* answer_sum as the SQL function sow_answer_sum(line, threshold, bound,
 * nodes, cpu, seconds), for upgrading a version-1 ledger in one UPDATE. */
static void sql_answer_sum(sqlite3_context *c, int argc, sqlite3_value **v)
{
    (void)argc;
    const char *line = (const char *)sqlite3_value_text(v[0]);
    char sum[17];
    answer_sum(line ? line : "", sqlite3_value_int(v[1]), sqlite3_value_int(v[2]),
               (uint64_t)sqlite3_value_int64(v[3]), sqlite3_value_double(v[4]),
               sqlite3_value_double(v[5]), sum);
    sqlite3_result_text(c, sum, -1, SQLITE_TRANSIENT);
}

/* Opens path read-only as immutable: for a ledger in a folder where
 * SQLite cannot make the WAL's index (-shm) and that has no WAL, so that
 * the file alone holds every committed row. */
static int open_immutable(const char *path, sqlite3 **db)
{
    char uri[3 * 4096 + 32] = "file:";
    size_t at = strlen(uri);
    for (const unsigned char *c = (const unsigned char *)path; *c && at + 4 < sizeof uri; c++)
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
            strchr("/-._~", *c))
            uri[at++] = (char)*c;
        else
            at += (size_t)snprintf(uri + at, sizeof uri - at, "%%%02X", *c);
    snprintf(uri + at, sizeof uri - at, "?immutable=1");
    return sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
}

/* A reader's first read. Where SQLite cannot make the WAL's index (-shm:
 * a read-only disk) and no WAL is beside the file, the file alone holds
 * every committed row: it is then read as immutable. */
static sow_err first_read(sow_ledger *l, char *why, size_t n)
{
    static const char probe[] = "SELECT count(*) FROM sqlite_master";
    char wal[4200];
    struct stat sb;
    snprintf(wal, sizeof wal, "%s-wal", l->path);
    int rc = sqlite3_exec(l->db, probe, NULL, NULL, NULL);
    if (rc != SQLITE_OK && sqlite3_errcode(l->db) == SQLITE_CANTOPEN && stat(wal, &sb) != 0) {
        sqlite3_close(l->db);
        l->db = NULL;
        if (open_immutable(l->path, &l->db) != SQLITE_OK && !l->db)
            return sow_fail(why, n, SOW_E_NOMEM, "out of memory");
        rc = sqlite3_exec(l->db, probe, NULL, NULL, NULL);
    }
    return rc == SQLITE_OK ? SOW_OK : sql_fail(l, why, n, "cannot read the ledger");
}

static sow_err connect(const char *path, bool write, sow_ledger **out, char *why, size_t n)
{
    *out = NULL;
    struct stat sb;
    if (!write && stat(path, &sb) != 0)
        return sow_fail(why, n, SOW_E_IO, "%s: no such ledger", path);
    sow_ledger *l = calloc(1, sizeof *l);
    if (!l)
        return sow_fail(why, n, SOW_E_NOMEM, "out of memory");
    snprintf(l->path, sizeof l->path, "%s", path);
    /* A reader never writes: a ledger on a read-only disk, or one whose
     * folder it may not write to, can still be read. */
    int flags = write ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
    sow_err e = SOW_OK;
    if (sqlite3_open_v2(path, &l->db, flags, NULL) != SQLITE_OK) {
        e = l->db ? sql_fail(l, why, n, "cannot open")
                  : sow_fail(why, n, SOW_E_NOMEM, "out of memory");
    } else {
        sqlite3_busy_timeout(l->db, BUSY_MS);
        /* A file that is not SQLite fails at its first read, here. */
        e = write ? exec(l, "PRAGMA journal_mode=WAL", why, n) : first_read(l, why, n);
        if (e == SOW_E_FORMAT || (e && l->db && sqlite3_errcode(l->db) == SQLITE_NOTADB))
            e = sow_fail(why, n, SOW_E_FORMAT, "%s is not a sow ledger (not an SQLite file)",
                        path);
        e = e || !write ? e : exec(l, "PRAGMA synchronous=FULL", why, n);
        if (!e && write &&
            sqlite3_create_function(l->db, "sow_answer_sum", 6,
                                    SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_answer_sum,
                                    NULL, NULL) != SQLITE_OK)
            e = sql_fail(l, why, n, "cannot open");
    }
    if (e) {
        sqlite3_close(l->db);
        free(l);
        return e;
    }
    *out = l;
    return SOW_OK;
}

/* The single integer a query returns, into *v; false if it fails. */
static bool query_int(sow_ledger *l, const char *sql, sqlite3_int64 *v)
{
    sqlite3_stmt *st;
    bool ok = sqlite3_prepare_v2(l->db, sql, -1, &st, NULL) == SQLITE_OK &&
              sqlite3_step(st) == SQLITE_ROW;
    if (ok)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return ok;
}

/* Whether the file holds no ledger yet: no table but meta and units, and
 * those empty. Before creation was one transaction, a creation cut short
 * could leave the tables without their rows: such a file is blank too. */
static sow_err blank(sow_ledger *l, bool *out, char *why, size_t n)
{
    sqlite3_int64 other, meta, units, rows = 0;
    if (!query_int(l, "SELECT count(*) FROM sqlite_master WHERE name NOT IN ('meta', 'units') "
                      "AND name NOT LIKE 'sqlite_autoindex_%'", &other) ||
        !query_int(l, "SELECT count(*) FROM sqlite_master WHERE name = 'meta'", &meta) ||
        !query_int(l, "SELECT count(*) FROM sqlite_master WHERE name = 'units'", &units) ||
        (meta && !query_int(l, "SELECT count(*) FROM meta", &rows)))
        return sql_fail(l, why, n, "cannot read the ledger");
    sqlite3_int64 more = 0;
    if (units && !query_int(l, "SELECT count(*) FROM units", &more))
        return sql_fail(l, why, n, "cannot read the ledger");
    *out = other == 0 && rows + more == 0;
    return SOW_OK;
}

/* A version-1 ledger gets its answers' checksums (taken as they stand:
 * nothing earlier can check them); a version-2 one the state 'split'
 * (SQLite cannot change a CHECK in place: the table is copied, its rows
 * and ids as they are). Inside the caller's transaction. */
static sow_err upgrade(sow_ledger *l, char *why, size_t n)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%d", FORMAT_VERSION);
    sow_err e = SOW_OK;
    if (l->version < 2)
        e = exec(l, "ALTER TABLE units ADD COLUMN checksum TEXT;"
                    "UPDATE units SET checksum = sow_answer_sum(line, threshold, bound, "
                    "nodes, cpu, seconds) WHERE state = 'done'", why, n);
    if (!e && l->version < 3)
        e = exec(l, "CREATE TABLE units_new(" UNITS_COLUMNS ");"
                    "INSERT INTO units_new SELECT * FROM units;"
                    "DROP TABLE units;"
                    "ALTER TABLE units_new RENAME TO units;", why, n);
    if (!e && meta_put(l, "version", buf))
        e = sql_fail(l, why, n, "cannot write the ledger");
    if (!e)
        l->version = FORMAT_VERSION;
    return e;
}

/* Inside the caller's transaction: creates the ledger if the file holds
 * none, checks that it serves id, upgrades it, marks what a run that
 * stopped left open as lost and counts this run. */
static sow_err begin_run(sow_ledger *l, const sow_ledger_id *id, char *why, size_t n)
{
    bool fresh = false;
    sow_err e = blank(l, &fresh, why, n);
    if (!e && fresh)
        e = exec(l, "DROP TABLE IF EXISTS meta; DROP TABLE IF EXISTS units;", why, n);
    if (!e && fresh)
        e = exec(l, schema, why, n);
    if (!e && fresh)
        e = write_id(l, id, why, n);
    sow_ledger_id have;
    if (!e)
        e = read_id(l, &have, why, n);
    if (!e && (have.cfg.game != id->cfg.game || have.cfg.pits != id->cfg.pits ||
               have.cfg.variant != id->cfg.variant ||
               strcmp(have.position, id->position) != 0 || have.depth != id->depth)) {
        char a[256], b[256];
        describe(&have, a, sizeof a);
        describe(id, b, sizeof b);
        return sow_fail(why, n, SOW_E_MISMATCH,
                       "%s is the ledger of another solve (%s), not of this one (%s)", l->path,
                       a, b);
    }
    if (!e && l->version < FORMAT_VERSION)
        e = upgrade(l, why, n);
    if (e)
        return e;
    bool ok = true;
    l->run = (int)meta_int(l, "runs", &ok) + 1;
    char buf[32];
    snprintf(buf, sizeof buf, "%d", l->run);
    /* What a run that stopped left open was lost with it. */
    e = exec(l, "UPDATE units SET state = 'lost' WHERE state = 'open'", why, n);
    if (!e && meta_put(l, "runs", buf))
        e = sql_fail(l, why, n, "cannot write the ledger");
    return e;
}

sow_err sow_ledger_open(const char *path, const sow_game *g, const sow_ledger_id *id,
                        sow_ledger **out, char *why, size_t why_size)
{
    struct stat sb;
    bool existed = stat(path, &sb) == 0;
    sow_ledger *l;
    sow_err e = connect(path, true, &l, why, why_size);
    if (!e) {
        l->g = g;
        if (sow_pos_parse(g, id->position, &l->root, NULL, 0))
            e = sow_fail(why, why_size, SOW_E_ARG, "the root position %s is not one of the game",
                        id->position);
    }
    if (!e) {
        /* One transaction: a ledger is created whole or not at all. */
        e = exec(l, "BEGIN IMMEDIATE", why, why_size);
        if (!e) {
            e = begin_run(l, id, why, why_size);
            e = e ? (sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL), e)
                  : exec(l, "COMMIT", why, why_size);
        }
    }
    if (!e) {
        *out = l;
        return SOW_OK;
    }
    if (l)
        sow_ledger_close(l);
    /* A file this call made and could not make a ledger (a full disk)
     * goes again: no file is better than an empty one. */
    if (!existed && e == SOW_E_IO) {
        char side[4200];
        unlink(path);
        snprintf(side, sizeof side, "%s-wal", path);
        unlink(side);
        snprintf(side, sizeof side, "%s-shm", path);
        unlink(side);
    }
    return e;
}

sow_err sow_ledger_read(const char *path, sow_ledger_id *id, sow_ledger **out, char *why,
                        size_t why_size)
{
    sow_ledger *l;
    sow_err e = connect(path, false, &l, why, why_size);
    if (e)
        return e;
    e = read_id(l, id, why, why_size);
    if (e) {
        sow_ledger_close(l);
        return e;
    }
    *out = l;
    return SOW_OK;
}

const char *sow_ledger_error(const sow_ledger *l)
{
    return l->why;
}

void sow_ledger_close(sow_ledger *l)
{
    if (!l)
        return;
    sqlite3_close(l->db);
    free(l);
}

static void utc_now(char *buf, size_t size)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static sow_err asked(void *ctx, sow_unit *u)
{
    sow_ledger *l = ctx;
    char line[SOW_UNITS_LINE_TEXT], pos[SOW_POS_TEXT_MAX], at[32];
    sow_units_line_format(u, line, sizeof line);
    sow_pos p = l->root;
    for (int d = 0; d < u->nline; d++)
        sow_make(l->g, &p, u->line[d]);
    sow_pos_format(l->g, &p, pos, sizeof pos);
    utc_now(at, sizeof at);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db,
                           "INSERT INTO units(line, position, threshold, state, worker, run, "
                           "asked_at) VALUES (?, ?, ?, 'open', ?, ?, ?)",
                           -1, &st, NULL))
        return sql_fail(l, l->why, sizeof l->why, "cannot record a question");
    sqlite3_bind_text(st, 1, line, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, pos, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, u->threshold);
    sqlite3_bind_int(st, 4, u->worker);
    sqlite3_bind_int(st, 5, l->run);
    sqlite3_bind_text(st, 6, at, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return sql_fail(l, l->why, sizeof l->why, "cannot record a question");
    u->ticket = sqlite3_last_insert_rowid(l->db);
    return SOW_OK;
}

/* u's row: its ticket, or (a question the journal was not told of) a
 * new row. */
static sow_err row_of(sow_ledger *l, const sow_unit *u, int64_t *id)
{
    sow_unit v = *u;
    sow_err e = v.ticket ? SOW_OK : asked(l, &v);
    *id = v.ticket;
    return e;
}

static sow_err answered(void *ctx, const sow_unit *u)
{
    sow_ledger *l = ctx;
    int64_t id;
    sow_err e = row_of(l, u, &id);
    if (e)
        return e;
    char at[32], line[SOW_UNITS_LINE_TEXT], sum[17];
    utc_now(at, sizeof at);
    sow_units_line_format(u, line, sizeof line);
    answer_sum(line, u->threshold, u->bound, u->nodes, u->cpu_seconds, u->seconds, sum);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db,
                           "UPDATE units SET state = 'done', bound = ?, nodes = ?, cpu = ?, "
                           "seconds = ?, answered_at = ?, checksum = ? WHERE id = ?",
                           -1, &st, NULL))
        return sql_fail(l, l->why, sizeof l->why, "cannot record an answer");
    sqlite3_bind_int(st, 1, u->bound);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)u->nodes);
    sqlite3_bind_double(st, 3, u->cpu_seconds);
    sqlite3_bind_double(st, 4, u->seconds);
    sqlite3_bind_text(st, 5, at, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 6, sum, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 7, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SOW_OK
                             : sql_fail(l, l->why, sizeof l->why, "cannot record an answer");
}

/* A question given back unanswered (the solve ended or stopped first),
 * with what was spent on it: lost work, and a lower bound on its cost
 * (a campaign's accounting; not an answer, so no checksum). */
static sow_err dropped(void *ctx, const sow_unit *u)
{
    sow_ledger *l = ctx;
    if (!u->ticket)
        return SOW_OK;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db, "UPDATE units SET state = 'lost', nodes = ?, cpu = ?, "
                           "seconds = ? WHERE id = ?", -1, &st, NULL))
        return sql_fail(l, l->why, sizeof l->why, "cannot record a unit given back");
    sqlite3_bind_int64(st, 1, (sqlite3_int64)u->nodes);
    sqlite3_bind_double(st, 2, u->cpu_seconds);
    sqlite3_bind_double(st, 3, u->seconds);
    sqlite3_bind_int64(st, 4, u->ticket);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SOW_OK
                             : sql_fail(l, l->why, sizeof l->why, "cannot record a unit given back");
}

/* A question past its budget: its node is split (u->split). Like a
 * question given back, what was spent on it is kept; the state tells a
 * later run to split the node again. */
static sow_err split(void *ctx, const sow_unit *u)
{
    sow_ledger *l = ctx;
    int64_t id;
    sow_err e = row_of(l, u, &id);
    if (e)
        return e;
    char at[32];
    utc_now(at, sizeof at);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db, "UPDATE units SET state = 'split', nodes = ?, cpu = ?, "
                           "seconds = ?, answered_at = ? WHERE id = ?", -1, &st, NULL))
        return sql_fail(l, l->why, sizeof l->why, "cannot record a split");
    sqlite3_bind_int64(st, 1, (sqlite3_int64)u->nodes);
    sqlite3_bind_double(st, 2, u->cpu_seconds);
    sqlite3_bind_double(st, 3, u->seconds);
    sqlite3_bind_text(st, 4, at, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, id);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SOW_OK : sql_fail(l, l->why, sizeof l->why, "cannot record a split");
}

void sow_ledger_journal(sow_ledger *l, sow_units_journal *out)
{
    *out = (sow_units_journal){asked, answered, l, dropped, split};
}

/* Whether the checksum of the done row at st (column 9) is that of its
 * answer x as read. */
static bool sum_ok(sqlite3_stmt *st, const sow_unit *x)
{
    const char *line = (const char *)sqlite3_column_text(st, 0);
    const char *have = (const char *)sqlite3_column_text(st, 9);
    char want[17];
    answer_sum(line, x->threshold, x->bound, x->nodes, x->cpu_seconds, x->seconds, want);
    return have && strcmp(have, want) == 0;
}

sow_err sow_ledger_units(sow_ledger *l, sow_unit **units, size_t *n, char *why, size_t why_size)
{
    *units = NULL;
    *n = 0;
    sow_ledger_id id;
    sow_err e = read_id(l, &id, why, why_size);
    if (e)
        return e;
    sow_game g;
    if (sow_game_init(&g, &id.cfg))
        return sow_fail(why, why_size, SOW_E_FORMAT, "%s: the ledger names no valid game",
                       l->path);
    sqlite3_stmt *st;
    /* A version-1 ledger has no checksums to check. */
    if (sqlite3_prepare_v2(l->db,
                           l->version >= 2 ? "SELECT line, threshold, state, bound, nodes, cpu, "
                                             "seconds, worker, id, checksum FROM units ORDER BY id"
                                           : "SELECT line, threshold, state, bound, nodes, cpu, "
                                             "seconds, worker, id FROM units ORDER BY id",
                           -1, &st, NULL))
        return sql_fail(l, why, why_size, "cannot read the ledger");
    size_t cap = 0;
    sow_unit *u = NULL;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 256;
            sow_unit *v = realloc(u, cap * sizeof *v);
            if (!v) {
                e = sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
                break;
            }
            u = v;
        }
        sow_unit *x = &u[*n];
        memset(x, 0, sizeof *x);
        const char *line = (const char *)sqlite3_column_text(st, 0);
        const char *state = (const char *)sqlite3_column_text(st, 2);
        if (!line || !state || sow_units_line_parse(&g, line, x)) {
            e = sow_fail(why, why_size, SOW_E_FORMAT, "%s: unit %zu has a damaged line",
                        l->path, *n + 1);
            break;
        }
        x->threshold = sqlite3_column_int(st, 1);
        x->done = strcmp(state, "done") == 0;
        x->split = strcmp(state, "split") == 0;
        if (x->done && sqlite3_column_type(st, 3) == SQLITE_NULL) {
            e = sow_fail(why, why_size, SOW_E_FORMAT, "%s: unit %zu is done without an answer",
                        l->path, *n + 1);
            break;
        }
        x->bound = sqlite3_column_int(st, 3);
        x->nodes = (uint64_t)sqlite3_column_int64(st, 4);
        x->cpu_seconds = sqlite3_column_double(st, 5);
        x->seconds = sqlite3_column_double(st, 6);
        x->worker = sqlite3_column_int(st, 7);
        if (x->done && l->version >= 2 && !sum_ok(st, x)) {
            e = sow_fail(why, why_size, SOW_E_CHECKSUM, "%s: unit %lld (line %s, threshold %d) "
                        "fails its checksum: its answer was changed after it was written; the "
                        "ledger is refused", l->path, (long long)sqlite3_column_int64(st, 8),
                        line, x->threshold);
            break;
        }
        /* 'lost' and 'open' are both not done; worker < 0 tells lost. */
        if (strcmp(state, "lost") == 0)
            x->worker = -1;
        (*n)++;
    }
    if (!e && rc != SQLITE_DONE)
        e = sql_fail(l, why, why_size, "cannot read the ledger");
    sqlite3_finalize(st);
    if (e) {
        free(u);
        *n = 0;
        return e;
    }
    *units = u;
    return SOW_OK;
}

sow_err sow_ledger_get_status(sow_ledger *l, sow_ledger_status *st, char *why, size_t why_size)
{
    memset(st, 0, sizeof *st);
    sow_err e = read_id(l, &st->id, why, why_size);
    if (e)
        return e;
    bool ok = true;
    st->runs = (int)meta_int(l, "runs", &ok);
    sow_game g;
    sow_pos root;
    if (sow_game_init(&g, &st->id.cfg) || sow_pos_parse(&g, st->id.position, &root, NULL, 0))
        return sow_fail(why, why_size, SOW_E_FORMAT, "%s: the ledger names no valid game or "
                       "position", l->path);
    sow_unit *u;
    size_t n;
    if ((e = sow_ledger_units(l, &u, &n, why, why_size)))
        return e;
    for (size_t i = 0; i < n; i++) {
        if (u[i].done) {
            st->done++;
            st->nodes += u[i].nodes;
            st->cpu_seconds += u[i].cpu_seconds;
        } else if (u[i].split) {
            st->splits++;
            st->split_nodes += u[i].nodes;
            st->split_cpu += u[i].cpu_seconds;
        } else if (u[i].worker < 0) {
            st->lost++;
            st->lost_nodes += u[i].nodes;
            st->lost_cpu += u[i].cpu_seconds;
        } else {
            st->open++;
        }
    }
    e = sow_units_prove(&g, &root, st->id.depth, u, n, &st->bounds);
    free(u);
    sow_units_bounds none;
    if (!e && !(e = sow_units_prove(&g, &root, st->id.depth, NULL, 0, &none))) {
        st->seeds_lower = none.lower;
        st->seeds_upper = none.upper;
    }
    if (e)
        return sow_fail(why, why_size, e, "%s: the ledger's frontier: %s", l->path,
                       sow_err_name(e));
    st->solved = st->bounds.lower == st->bounds.upper;
    st->remaining_cpu = st->solved ? 0
                        : st->done ? (double)(st->bounds.frontier - st->bounds.exact) *
                                         st->cpu_seconds / (double)st->done
                                   : -1;
    return SOW_OK;
}
