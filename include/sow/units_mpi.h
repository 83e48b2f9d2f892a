/* sow/units_mpi.h - a solve by work units (sow/units.h) over Open MPI:
 * rank 0 is the manager (the tree above the frontier, the journal, which
 * questions matter), every other rank a worker that answers units with its
 * threads (a unit each), table and database. MPI does the transport (doc/ledger.md has
 * the messages).
 *
 * Every rank runs the same command, so each makes the same plan; a worker
 * loads the database files from plan->limits.db_dir once the manager has
 * built any missing ones (a node's ranks share them through the page
 * cache). A worker killed mid-run: Open MPI 4 (Debian) ends the whole job
 * (there is no fault tolerance without ULFM), so the recovery is the
 * ledger: the same mpirun command resumes where it stopped. Under
 * `mpirun --enable-recovery` the job goes on: the manager takes a worker
 * silent for 15 s (SOW_MPI_SILENCE_SECONDS) as dead and asks its units
 * of the others (doc/ledger.md).
 *
 * Built only with MPI (the meson feature `mpi`); without it
 * sow_units_mpi_available() is false and every other call fails with
 * SOW_E_MISSING and a why saying so.
 */
#ifndef SOW_UNITS_MPI_H
#define SOW_UNITS_MPI_H

#include <stdbool.h>
#include <stddef.h>

#include "sow/units.h"

/* Whether this build has MPI. Thread-safe. */
bool sow_units_mpi_available(void);

/* Whether this process was started by an MPI launcher (mpirun, srun):
 * from the environment, without initialising MPI. Thread-safe. */
bool sow_units_mpi_launched(void);

/* Initialises MPI (errors returned, not fatal), once, before any other
 * call: this rank and the number of ranks. SOW_E_MISSING, SOW_E_IO with a
 * one-line why. */
sow_err sow_units_mpi_init(int *rank, int *size, char *why, size_t why_size);

/* Ends MPI (after sow_units_mpi_init); every rank calls it. */
void sow_units_mpi_finalize(void);

/* Rank 0 of two or more: sow_units_solve_pool with every other rank as a
 * worker, as many questions in flight per worker as its threads (it
 * answers them at once, one a thread, over its one table); then tells the
 * workers to stop. Arguments, result and errors as sow_units_solve_pool; a worker's failure
 * (its database, a search error) or MPI's ends the solve with why saying
 * which. Every worker dead: SOW_E_IO with out->workers_lost the
 * number of workers and out->lower, upper the bounds proven so far. */
sow_err sow_units_mpi_manager(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                              int depth, const sow_unit *known, size_t nknown,
                              const sow_units_goal *goal, const sow_units_journal *j,
                              const sow_units_callbacks *cb, sow_units_result *out, char *why,
                              size_t why_size);

/* A rank above 0: answers the manager's units until it says stop (SOW_OK),
 * or its database fails (the manager reports why; SOW_E_* and *why here
 * too), or the manager failed before the solve (SOW_E_INTERRUPTED). */
sow_err sow_units_mpi_worker(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             char *why, size_t why_size);

#endif
