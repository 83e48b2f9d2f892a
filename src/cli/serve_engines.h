/* serve_engines.h - `sow serve`'s resident engines (sow/engine.h): one
 * per board in use (game, pits, seeds, variant), shared by the requests
 * for that board one at a time, all of them within the server's --memory
 * (the least recently used idle engine goes when a board needs room). */
#ifndef SOW_CLI_SERVE_ENGINES_H
#define SOW_CLI_SERVE_ENGINES_H

#include <stdint.h>

#include "cli.h"
#include "sow/engine.h"

typedef struct serve_engines serve_engines;

/* total: the server's memory for every engine; each: one engine's bound
 * (the share of a solve slot: at most that many run at once, so total >=
 * slots x each leaves room for every running one). Engines search on one
 * thread each, with databases in db_dir (none for games that repeat),
 * stopping at *stop. NULL when out of memory. */
serve_engines *serve_engines_new(uint64_t total, uint64_t each, const char *db_dir,
                                 const sow_stop_flag *stop);

/* Frees every engine; none may be taken (the server has stopped). */
void serve_engines_free(serve_engines *se);

/* The engine of cg's board, for this request alone until
 * serve_engine_give: waits for a request on the same board until
 * `deadline` (cli_now's clock). NULL with why when it stayed busy or
 * could not be made. Thread-safe. */
sow_engine *serve_engine_take(serve_engines *se, const cli_game *cg, double deadline,
                              char *why, size_t why_size);

/* Gives back an engine taken by serve_engine_take. Thread-safe. */
void serve_engine_give(serve_engines *se, sow_engine *e);

#endif
