/* sow/ledger.h - the ledger of a solve by work units (sow/units.h): an
 * SQLite file that every answered unit is written to at once, so that the
 * same solve, run again after a kill, a power cut or Ctrl-C, resumes from
 * what it holds and loses at most the unit in flight.
 *
 * The file (doc/ledger.md): WAL journal, synchronous=FULL (an answer is on
 * disk when sow_ledger_answered returns), one transaction per write (a new
 * ledger's tables and meta rows are one: created whole or not at all). A
 * table `meta` holds what defines the solve (game, pits, variant, root
 * position, frontier depth): a ledger is refused for any other. A table
 * `units` holds every question: its line from the root, the frontier
 * position, the threshold, its state ('open' while in flight, 'done' with
 * the answer, 'lost' when a later run found it still open or it was given
 * back, 'split' when it passed its node budget: sow/units.h), nodes, CPU and
 * wall seconds, and an XXH64 checksum of each answer with its unit, checked
 * whenever the units are read.
 *
 * Built only with SQLite (the meson feature `ledger`); without it
 * sow_ledger_available() is false and every other call fails with
 * SOW_E_MISSING and a why saying so.
 */
#ifndef SOW_LEDGER_H
#define SOW_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/error.h"
#include "sow/game.h"
#include "sow/notation.h"
#include "sow/units.h"

/* Length of a why string, terminator included. */
#define SOW_LEDGER_WHY 320

/* What defines a solve: a ledger serves only this one. */
typedef struct sow_ledger_id {
    sow_config cfg;                     /* game, pits, seeds, variant */
    char position[SOW_POS_TEXT_MAX];    /* the root (sow/notation.h) */
    int depth;                          /* the frontier, plies */
} sow_ledger_id;

typedef struct sow_ledger sow_ledger;

/* Whether this build has the ledger (SQLite). Thread-safe. */
bool sow_ledger_available(void);

/* Opens the ledger at `path` for the solve `id`: created if missing (or
 * if the file holds none yet: an SQLite file without tables, or with the
 * ledger's tables empty), resumed if it is this solve's (its units left
 * open by a run that stopped are marked lost; a version-1 ledger is
 * upgraded: its answers get their checksums; a version-2 one gets the
 * state 'split'), refused otherwise:
 * SOW_E_MISMATCH (another solve's), SOW_E_FORMAT (not a sow ledger),
 * SOW_E_IO (the why names the file and the cause, e.g. "disk full
 * (SQLITE_FULL)"), SOW_E_MISSING (no SQLite in this build), with a
 * one-line why. A file this call created and could not make a ledger is
 * removed again. `g` (for id->cfg) must outlive the ledger. Not
 * thread-safe on one ledger. */
sow_err sow_ledger_open(const char *path, const sow_game *g, const sow_ledger_id *id,
                        sow_ledger **out, char *why, size_t why_size);

/* Opens an existing ledger to read it (status, export), read-only (a
 * ledger on a read-only disk or in a folder this process may not write
 * to can be read): *id says what it solves. Errors as sow_ledger_open
 * (SOW_E_IO also when it is missing). */
sow_err sow_ledger_read(const char *path, sow_ledger_id *id, sow_ledger **out, char *why,
                        size_t why_size);

void sow_ledger_close(sow_ledger *l);

/* Every unit of the ledger, oldest first, into *units (malloc'd, the
 * caller frees) and *n. SOW_E_NOMEM, SOW_E_IO, SOW_E_FORMAT (a damaged
 * row), SOW_E_CHECKSUM (an answer that is not the one written: the why
 * names its unit). */
sow_err sow_ledger_units(sow_ledger *l, sow_unit **units, size_t *n, char *why, size_t why_size);

/* The journal of sow_units_solve writing into l: a question is written
 * 'open' when asked, 'done' with its answer once answered, 'lost' when
 * given back, 'split' when it passed its budget. */
void sow_ledger_journal(sow_ledger *l, sow_units_journal *out);

/* Why the journal's last write failed, one line naming the file and the
 * cause ("k43.ledger: cannot record an answer: disk full (SQLITE_FULL)");
 * "" if none did. Valid until sow_ledger_close. */
const char *sow_ledger_error(const sow_ledger *l);

/* What the ledger says about its solve. */
typedef struct sow_ledger_status {
    sow_ledger_id id;
    uint64_t done, open, lost;   /* units by state ('open': in flight now, or
                                    left by a run that stopped uncleanly) */
    uint64_t nodes;
    double cpu_seconds;          /* of the answered units */
    uint64_t lost_nodes;         /* spent on units given back unanswered (a */
    double lost_cpu;             /* stopped run's; 0 for one killed under them) */
    uint64_t splits;             /* units past their budget, their nodes split */
    uint64_t split_nodes;        /* and what was spent on them */
    double split_cpu;
    int runs;                    /* times a solve opened it */
    sow_units_bounds bounds;     /* proven at the root by the answers */
    int seeds_lower, seeds_upper;/* what the root's bounds are with no answer
                                    (the seeds' span over the tree above the
                                    frontier): a bound still equal is none */
    bool solved;                 /* bounds.lower == bounds.upper */
    /* A rough estimate of the CPU still needed: the frontier nodes not yet
     * exact times the mean CPU of an answered unit (0 when solved; -1
     * before any answer). */
    double remaining_cpu;
} sow_ledger_status;

/* Reads the status (the bounds by sow_units_prove over every answer).
 * Errors as sow_ledger_units, and the game's (a ledger whose meta names
 * no valid game: SOW_E_FORMAT). */
sow_err sow_ledger_get_status(sow_ledger *l, sow_ledger_status *st, char *why, size_t why_size);

#endif
