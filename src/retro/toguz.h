/* toguz.h - the Toguz Kumalak level builder (private to src/retro). */
#ifndef SOW_RETRO_TOGUZ_H
#define SOW_RETRO_TOGUZ_H

#include "sow/retro.h"

/* Is the job to stop now (its stop flag set, or its deadline past)? */
bool sow_retro_job_stopped(const sow_retro_job *job);

/* sow_retro_build for a Toguz game (doc/retrograde.md, "Toguz"). */
sow_err sow_retro_build_toguz(const sow_retro_job *job);

/* Scratch bytes of building level k (the largest component's arrays):
 * with predecessor lists where their 32-bit indices reach, else lean. */
size_t sow_retro_toguz_scratch(const sow_game *g, int k);

/* ... the least of the two builders (the lean one's, at m >= 1). */
size_t sow_retro_toguz_scratch_least(const sow_game *g, int k);

/* sow_retro_lean for a Toguz game. */
bool sow_retro_toguz_lean(const sow_game *g, int k, size_t scratch_max);

/* For tests: the in-level moves of level k (made as the builder makes
 * them) whose parent the lean builder's undoing of moves does not find
 * from the child; *moves gets how many in-level moves there are. 0 means
 * its worklist misses nothing. */
uint64_t sow_retro_toguz_missed_preds(const sow_game *g, const sow_index *ix, int k,
                                      uint64_t *moves);

#endif
