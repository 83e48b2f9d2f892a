/* ledger.c - the ledger of a solve by work units in SQLite (sow/ledger.h,
 * doc/ledger.md). Every write is its own transaction in WAL mode with
 * synchronous=FULL: when a call returns, its row survives a power cut.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <sqlite3.h>

#include "msg.h"
#include "sow/ledger.h"
#include "sow/notation.h"
#include "sow/rules.h"

/* The format's name and version in `meta`: a file without them is not a
 * ledger, one with another version is refused. */
#define FORMAT_NAME "sow-ledger"
#define FORMAT_VERSION 1
/* A writer that finds the file locked (a reader mid-checkpoint) waits this
 * long before failing. */
#define BUSY_MS 10000

struct sow_ledger {
    sqlite3 *db;
    const sow_game *g;      /* for positions of units (writing only) */
    sow_pos root;
    int run;
    char path[4096];
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS units("
    " id INTEGER PRIMARY KEY,"
    " line TEXT NOT NULL,"
    " position TEXT NOT NULL,"
    " threshold INTEGER NOT NULL,"
    " state TEXT NOT NULL CHECK (state IN ('open', 'done', 'lost')),"
    " bound INTEGER,"
    " nodes INTEGER NOT NULL DEFAULT 0,"
    " cpu REAL NOT NULL DEFAULT 0,"
    " seconds REAL NOT NULL DEFAULT 0,"
    " worker INTEGER NOT NULL DEFAULT 0,"
    " run INTEGER NOT NULL,"
    " asked_at TEXT NOT NULL,"
    " answered_at TEXT);";

bool sow_ledger_available(void)
{
    return true;
}

/* The library's message helper (common/msg.h) under this file's name for
 * it, so that the calls below stay as they are. */
#define why_set sow_fail

static sow_err sql_fail(sow_ledger *l, char *why, size_t n, const char *what)
{
    int code = sqlite3_errcode(l->db);
    sow_err e = code == SQLITE_NOTADB || code == SQLITE_CORRUPT ? SOW_E_FORMAT : SOW_E_IO;
    return why_set(why, n, e, "%s: %s: %s", l->path, what, sqlite3_errmsg(l->db));
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
        return why_set(why, n, SOW_E_FORMAT, "%s is not a sow ledger", l->path);
    long version = meta_int(l, "version", &ok);
    if (!ok || version != FORMAT_VERSION)
        return why_set(why, n, SOW_E_FORMAT, "%s is a sow ledger of version %ld; this sow reads "
                       "version %d", l->path, version, FORMAT_VERSION);
    id->cfg.pits = (int)meta_int(l, "pits", &ok);
    id->cfg.seeds = (int)meta_int(l, "seeds", &ok);
    id->cfg.variant = (unsigned)meta_int(l, "variant", &ok);
    id->depth = (int)meta_int(l, "depth", &ok);
    ok = ok && meta_get(l, "game", game, sizeof game) &&
         meta_get(l, "position", id->position, sizeof id->position) &&
         sow_game_parse(game, &id->cfg.game) == SOW_OK;
    if (!ok)
        return why_set(why, n, SOW_E_FORMAT, "%s: the ledger's description of its solve is "
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

static sow_err write_id(sow_ledger *l, const sow_ledger_id *id, char *why, size_t n)
{
    char buf[32];
    sow_err e = exec(l, "BEGIN IMMEDIATE", why, n);
    if (e)
        return e;
    e = meta_put(l, "format", FORMAT_NAME);
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
    if (e) {
        sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL);
        return sql_fail(l, why, n, "cannot write the ledger");
    }
    return exec(l, "COMMIT", why, n);
}

static sow_err connect(const char *path, bool create, sow_ledger **out, char *why, size_t n)
{
    *out = NULL;
    struct stat sb;
    if (!create && stat(path, &sb) != 0)
        return why_set(why, n, SOW_E_IO, "%s: no such ledger", path);
    sow_ledger *l = calloc(1, sizeof *l);
    if (!l)
        return why_set(why, n, SOW_E_NOMEM, "out of memory");
    snprintf(l->path, sizeof l->path, "%s", path);
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    sow_err e = SOW_OK;
    if (sqlite3_open_v2(path, &l->db, flags, NULL) != SQLITE_OK) {
        e = l->db ? sql_fail(l, why, n, "cannot open")
                  : why_set(why, n, SOW_E_NOMEM, "out of memory");
    } else {
        sqlite3_busy_timeout(l->db, BUSY_MS);
        /* A file that is not SQLite fails at its first read, here. */
        e = exec(l, "PRAGMA journal_mode=WAL", why, n);
        if (e == SOW_E_FORMAT || (e && sqlite3_errcode(l->db) == SQLITE_NOTADB))
            e = why_set(why, n, SOW_E_FORMAT, "%s is not a sow ledger (not an SQLite file)",
                        path);
        e = e ? e : exec(l, "PRAGMA synchronous=FULL", why, n);
    }
    if (e) {
        sqlite3_close(l->db);
        free(l);
        return e;
    }
    *out = l;
    return SOW_OK;
}

static bool empty_db(sow_ledger *l)
{
    sqlite3_stmt *st;
    bool empty = false;
    if (sqlite3_prepare_v2(l->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == 0 &&
        sqlite3_step(st) == SQLITE_ROW)
        empty = sqlite3_column_int64(st, 0) == 0;
    sqlite3_finalize(st);
    return empty;
}

sow_err sow_ledger_open(const char *path, const sow_game *g, const sow_ledger_id *id,
                        sow_ledger **out, char *why, size_t why_size)
{
    sow_ledger *l;
    sow_err e = connect(path, true, &l, why, why_size);
    if (e)
        return e;
    l->g = g;
    if (sow_pos_parse(g, id->position, &l->root, NULL, 0)) {
        sow_ledger_close(l);
        return why_set(why, why_size, SOW_E_ARG, "the root position %s is not one of the game",
                       id->position);
    }
    bool fresh = empty_db(l);
    e = exec(l, schema, why, why_size);
    if (!e && fresh)
        e = write_id(l, id, why, why_size);
    sow_ledger_id have;
    if (!e)
        e = read_id(l, &have, why, why_size);
    if (!e && (have.cfg.game != id->cfg.game || have.cfg.pits != id->cfg.pits ||
               have.cfg.variant != id->cfg.variant ||
               strcmp(have.position, id->position) != 0 || have.depth != id->depth)) {
        char a[256], b[256];
        describe(&have, a, sizeof a);
        describe(id, b, sizeof b);
        e = why_set(why, why_size, SOW_E_MISMATCH,
                    "%s is the ledger of another solve (%s), not of this one (%s)", path, a, b);
    }
    if (!e) {
        bool ok = true;
        l->run = (int)meta_int(l, "runs", &ok) + 1;
        char buf[32];
        snprintf(buf, sizeof buf, "%d", l->run);
        /* What a run that stopped left open was lost with it. */
        e = exec(l, "BEGIN IMMEDIATE", why, why_size);
        e = e ? e : exec(l, "UPDATE units SET state = 'lost' WHERE state = 'open'", why, why_size);
        if (!e && meta_put(l, "runs", buf))
            e = sql_fail(l, why, why_size, "cannot write the ledger");
        e = e ? (sqlite3_exec(l->db, "ROLLBACK", NULL, NULL, NULL), e)
              : exec(l, "COMMIT", why, why_size);
    }
    if (e) {
        sow_ledger_close(l);
        return e;
    }
    *out = l;
    return SOW_OK;
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
        return SOW_E_IO;
    sqlite3_bind_text(st, 1, line, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, pos, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, u->threshold);
    sqlite3_bind_int(st, 4, u->worker);
    sqlite3_bind_int(st, 5, l->run);
    sqlite3_bind_text(st, 6, at, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return SOW_E_IO;
    u->ticket = sqlite3_last_insert_rowid(l->db);
    return SOW_OK;
}

static sow_err answered(void *ctx, const sow_unit *u)
{
    sow_ledger *l = ctx;
    sow_unit v = *u;
    if (!v.ticket) {
        sow_err e = asked(ctx, &v);
        if (e)
            return e;
    }
    char at[32];
    utc_now(at, sizeof at);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db,
                           "UPDATE units SET state = 'done', bound = ?, nodes = ?, cpu = ?, "
                           "seconds = ?, answered_at = ? WHERE id = ?",
                           -1, &st, NULL))
        return SOW_E_IO;
    sqlite3_bind_int(st, 1, u->bound);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)u->nodes);
    sqlite3_bind_double(st, 3, u->cpu_seconds);
    sqlite3_bind_double(st, 4, u->seconds);
    sqlite3_bind_text(st, 5, at, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 6, v.ticket);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SOW_OK : SOW_E_IO;
}

/* A question given back unanswered (the solve ended or stopped first). */
static sow_err dropped(void *ctx, const sow_unit *u)
{
    sow_ledger *l = ctx;
    if (!u->ticket)
        return SOW_OK;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db, "UPDATE units SET state = 'lost' WHERE id = ?", -1, &st, NULL))
        return SOW_E_IO;
    sqlite3_bind_int64(st, 1, u->ticket);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? SOW_OK : SOW_E_IO;
}

void sow_ledger_journal(sow_ledger *l, sow_units_journal *out)
{
    *out = (sow_units_journal){asked, answered, l, dropped};
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
        return why_set(why, why_size, SOW_E_FORMAT, "%s: the ledger names no valid game",
                       l->path);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(l->db,
                           "SELECT line, threshold, state, bound, nodes, cpu, seconds, worker "
                           "FROM units ORDER BY id",
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
                e = why_set(why, why_size, SOW_E_NOMEM, "out of memory");
                break;
            }
            u = v;
        }
        sow_unit *x = &u[*n];
        memset(x, 0, sizeof *x);
        const char *line = (const char *)sqlite3_column_text(st, 0);
        const char *state = (const char *)sqlite3_column_text(st, 2);
        if (!line || !state || sow_units_line_parse(&g, line, x)) {
            e = why_set(why, why_size, SOW_E_FORMAT, "%s: unit %zu has a damaged line",
                        l->path, *n + 1);
            break;
        }
        x->threshold = sqlite3_column_int(st, 1);
        x->done = strcmp(state, "done") == 0;
        if (x->done && sqlite3_column_type(st, 3) == SQLITE_NULL) {
            e = why_set(why, why_size, SOW_E_FORMAT, "%s: unit %zu is done without an answer",
                        l->path, *n + 1);
            break;
        }
        x->bound = sqlite3_column_int(st, 3);
        x->nodes = (uint64_t)sqlite3_column_int64(st, 4);
        x->cpu_seconds = sqlite3_column_double(st, 5);
        x->seconds = sqlite3_column_double(st, 6);
        x->worker = sqlite3_column_int(st, 7);
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
        return why_set(why, why_size, SOW_E_FORMAT, "%s: the ledger names no valid game or "
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
        } else if (u[i].worker < 0) {
            st->lost++;
        } else {
            st->open++;
        }
    }
    e = sow_units_prove(&g, &root, st->id.depth, u, n, &st->bounds);
    free(u);
    if (e)
        return why_set(why, why_size, e, "%s: the ledger's frontier: %s", l->path,
                       sow_err_name(e));
    st->solved = st->bounds.lower == st->bounds.upper;
    st->remaining_cpu = st->solved ? 0
                        : st->done ? (double)(st->bounds.frontier - st->bounds.exact) *
                                         st->cpu_seconds / (double)st->done
                                   : -1;
    return SOW_OK;
}
