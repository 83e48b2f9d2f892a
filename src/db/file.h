/* file.h - database files: private write and map (doc/db-format.md). */
#ifndef SOW_DB_FILE_H
#define SOW_DB_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "sow/db.h"

/* Writes header + payload (h->payload bytes of data) to dir/name through a
 * temporary name in dir (name.tmp.PID), fsyncs the file, renames it into
 * place and fsyncs dir. h->version and h->checksum are set here. */
sow_err sow_db_file_write(const char *dir, const char *name, sow_db_header *h,
                          const void *data, char *why, size_t why_size);

/* Removes the temporaries (NAME.tmp.PID) in dir of builds whose process
 * is gone: of the file name, or of every file if name is "". */
void sow_db_remove_stale_temps(const char *dir, const char *name);

/* Removes the lock files (NAME.lock) in dir that no build holds: those
 * of killed builds. */
void sow_db_remove_stale_locks(const char *dir);

/* A mapped, checked file. */
typedef struct sow_db_map {
    void *base;
    size_t len;
    const int8_t *data; /* the payload */
} sow_db_map;

/* How much of a file sow_db_file_map checks: the header (and the size)
 * only; the payload's checksum too unless the file carries the stamp of an
 * earlier check of this very file (file.c); the checksum always. */
typedef enum { SOW_DB_CHECK_HEADER, SOW_DB_CHECK_ONCE, SOW_DB_CHECK_FULL } sow_db_check;

/* Maps and checks path (as sow_db_file_check, to the extent asked); the
 * payload stays mapped with MADV_RANDOM for probing. A payload checked and
 * found right is stamped (an extended attribute, where the file system
 * keeps them). */
sow_err sow_db_file_map(const char *path, sow_db_check check, sow_db_header *h,
                        sow_db_map *map, char *why, size_t why_size);
void sow_db_file_unmap(sow_db_map *map);
/* Asks the kernel to read a mapped file into the page cache behind the
 * probes of a database held in place (MADV_WILLNEED: it does not wait). */
void sow_db_file_read_ahead(const sow_db_map *map);

/* Does the header describe seed count k of g's database? SOW_E_MISMATCH
 * (or SOW_E_FORMAT) with a reason if not. */
sow_err sow_db_header_match(const sow_db_header *h, const sow_game *g, int k,
                            char *why, size_t why_size);

#endif
