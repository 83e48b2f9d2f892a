/* none.c - the ledger in a build without SQLite (meson feature `ledger`
 * off or libsqlite3-dev missing): every call refuses with a why that says
 * how to get it, so `--ledger` fails clearly instead of solving without
 * one. */
#include <stdio.h>

#include "sow/ledger.h"

#define NO_LEDGER "this build of sow has no ledger: install libsqlite3-dev and rebuild"

static sow_err none(char *why, size_t n)
{
    if (why && n)
        snprintf(why, n, "%s", NO_LEDGER);
    return SOW_E_MISSING;
}

bool sow_ledger_available(void)
{
    return false;
}

sow_err sow_ledger_open(const char *path, const sow_game *g, const sow_ledger_id *id,
                        sow_ledger **out, char *why, size_t why_size)
{
    *out = NULL;
    return none(why, why_size);
}

sow_err sow_ledger_read(const char *path, sow_ledger_id *id, sow_ledger **out, char *why,
                        size_t why_size)
{
    *out = NULL;
    return none(why, why_size);
}

void sow_ledger_close(sow_ledger *l)
{
}

sow_err sow_ledger_units(sow_ledger *l, sow_unit **units, size_t *n, char *why, size_t why_size)
{
    *units = NULL;
    *n = 0;
    return none(why, why_size);
}

void sow_ledger_journal(sow_ledger *l, sow_units_journal *out)
{
    *out = (sow_units_journal){0};
}

const char *sow_ledger_error(const sow_ledger *l)
{
    return "";
}

sow_err sow_ledger_get_status(sow_ledger *l, sow_ledger_status *st, char *why, size_t why_size)
{
    return none(why, why_size);
}
