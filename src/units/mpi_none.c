/* mpi_none.c - sow/units_mpi.h in a build without MPI (meson feature
 * `mpi` off or Open MPI missing): every call refuses with a why that says
 * how to get it, so `--mpi` and a run under mpirun fail clearly instead of
 * solving alone as if they were one of many. */
#include <stdio.h>
#include <string.h>

#include "sow/units_mpi.h"

#define NO_MPI "this build of sow has no MPI: install openmpi-bin and libopenmpi-dev and rebuild"

static sow_err none(char *why, size_t n)
{
    if (why && n)
        snprintf(why, n, "%s", NO_MPI);
    return SOW_E_MISSING;
}

bool sow_units_mpi_available(void)
{
    return false;
}

sow_err sow_units_mpi_init(int *rank, int *size, char *why, size_t why_size)
{
    *rank = 0;
    *size = 1;
    return none(why, why_size);
}

void sow_units_mpi_finalize(void)
{
}

sow_err sow_units_mpi_manager(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                              int depth, const sow_unit *known, size_t nknown,
                              const sow_units_goal *goal, const sow_units_journal *j,
                              const sow_units_callbacks *cb, sow_units_result *out, char *why,
                              size_t why_size)
{
    memset(out, 0, sizeof *out);
    return none(why, why_size);
}

sow_err sow_units_mpi_worker(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             char *why, size_t why_size)
{
    return none(why, why_size);
}
