/* mpi_launched.c - sow_units_mpi_launched (sow/units_mpi.h), in every
 * build: a build without MPI still has to know it was started by mpirun,
 * to refuse instead of solving alone as one of many. */
#include <stdlib.h>

#include "sow/units_mpi.h"

bool sow_units_mpi_launched(void)
{
    return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}
