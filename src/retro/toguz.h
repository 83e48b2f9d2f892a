/* toguz.h - the Toguz Kumalak level builder (private to src/retro). */
#ifndef SOW_RETRO_TOGUZ_H
#define SOW_RETRO_TOGUZ_H

#include "sow/retro.h"

/* Is the job to stop now (its stop flag set, or its deadline past)? */
bool sow_retro_job_stopped(const sow_retro_job *job);

/* sow_retro_build for a Toguz game (doc/retrograde.md, "Toguz"). */
sow_err sow_retro_build_toguz(const sow_retro_job *job);

/* Scratch bytes of building level k (the largest component's arrays). */
size_t sow_retro_toguz_scratch(const sow_game *g, int k);

#endif
