/* limits.c - the one reading of the limit options every command shares
 * (--threads, --memory, --time, --tt-mb, --db, --db-seeds, --no-db): the
 * same text means the same limit, with the same default, in every command
 * (Stockfish fills its LimitsType in one place). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "sow/db.h"
#include "sow/plan.h"
#include "sow/store.h"

#define MB (1ull << 20)

uint64_t cli_memory(const char *what, const char *text)
{
    /* strtoull would take a sign or leading blanks; a size starts with a digit. */
    if (!isdigit((unsigned char)text[0]))
        cli_fail("%s: expected a size such as 512 (MB), 512M or 4G, got '%s'", what, text);
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    bool range = errno == ERANGE;
    unsigned shift = 20; /* a plain number is MB, as solve always took it */
    if (*end) {
        switch (tolower((unsigned char)*end)) {
        case 'k': shift = 10; break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        case 't': shift = 40; break;
        default: shift = 0;
        }
        const char *unit = end + 1; /* after the suffix: nothing, B or iB */
        if (!shift || !(!*unit || strcasecmp(unit, "b") == 0 || strcasecmp(unit, "ib") == 0))
            cli_fail("%s: expected a size such as 512 (MB), 512M or 4G, got '%s'", what, text);
    }
    if (v == 0)
        cli_fail("%s: '%s' is not a positive size", what, text);
    if (range || v > (CLI_MEMORY_MAX >> shift))
        cli_fail("%s: '%s' is more than the largest size accepted, %lluT", what, text,
                 (unsigned long long)(CLI_MEMORY_MAX >> 40));
    uint64_t bytes = (uint64_t)v << shift;
    if (bytes < MB) /* the budgets are counted in whole MB */
        cli_fail("%s: '%s' is less than 1 MB", what, text);
    return bytes / MB * MB;
}

int cli_threads(const char *what, const char *text)
{
    return (int)cli_int(what, text, 1, CLI_THREADS_MAX);
}

int cli_default_threads(void)
{
    return sow_plan_default_threads();
}

uint64_t cli_default_memory(void)
{
    return sow_plan_default_memory();
}

bool cli_try_seconds(const char *what, const char *text, double *out, char *err,
                     size_t errsize)
{
    /* strtod would also take blanks, a sign, hex, "inf" and "nan": a
     * number of seconds is written in decimal digits, a point and an
     * exponent only. */
    bool decimal = (isdigit((unsigned char)text[0]) || text[0] == '.') &&
                   text[strspn(text, "0123456789.eE+-")] == '\0';
    char *end = (char *)text;
    errno = 0;
    double v = decimal ? strtod(text, &end) : 0;
    if (!decimal || end == text || *end || errno || !isfinite(v) || !(v > 0) ||
        v > CLI_SECONDS_MAX) {
        snprintf(err, errsize, "%s: expected seconds, a decimal number above 0 and at most "
                 "%.0f, got '%s'", what, CLI_SECONDS_MAX, text);
        return false;
    }
    *out = v;
    return true;
}

double cli_seconds(const char *what, const char *text)
{
    /* Room for the message, which echoes both whole. */
    size_t size = strlen(what) + strlen(text) + 128;
    char *err = malloc(size);
    if (!err)
        cli_fail("out of memory");
    double v;
    if (!cli_try_seconds(what, text, &v, err, size))
        cli_fail("%s", err);
    free(err);
    return v;
}

/* A note, not an error: the command goes on with the file rebuilt. */
static void on_damaged(void *ctx, const char *why)
{
    (void)ctx;
    fprintf(stderr, "sow: note: %s: rebuilding it\n", why);
}

const char *cli_store(void)
{
    static char root[4096];
    static int state; /* 0 not looked for yet, 1 there, -1 none */
    if (state)
        return state > 0 ? root : NULL;
    char why[4400];
    if (sow_store_default(root, sizeof root, why, sizeof why) == SOW_OK &&
        sow_store_init(root, why, sizeof why) == SOW_OK) {
        state = 1;
        return root;
    }
    /* Not worth failing a command for: it runs as it did before stores. */
    fprintf(stderr, "sow: note: %s; databases are built in memory only\n", why);
    state = -1;
    return NULL;
}

void cli_limits(const cli_limit_opts *o, sow_limits *out)
{
    memset(out, 0, sizeof *out);
    sow_db_set_damaged_hook(on_damaged, NULL);
    if (o->threads)
        out->threads = cli_threads("--threads", o->threads);
    if (o->memory)
        out->memory = cli_memory("--memory", o->memory);
    if (o->time)
        out->time_limit = cli_seconds("--time", o->time);
    if (o->tt_mb)
        out->tt_mb = (size_t)cli_int("--tt-mb", o->tt_mb, 1, CLI_TT_MB_MAX);
    out->db_dir = o->db_dir ? o->db_dir : o->no_db ? NULL : cli_store();
    if (o->db_seeds) {
        long k = cli_int("--db-seeds", o->db_seeds, 0, SOW_DB_MAX_SEEDS);
        out->db_seeds = k ? (int)k : -1;
    }
    /* --no-db with --db or --db-seeds K: the plan refuses it (SOW_E_ARG,
     * naming the options), for every command the same way. */
    out->no_db = o->no_db;
}
