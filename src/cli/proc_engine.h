/* proc_engine.h - another program that speaks sow's engine protocol
 * (doc/engine-protocol.md), driven through pipes: `sow match --a
 * cmd='...'` plays it. Any program will do, sow's own `sow engine` too. */
#ifndef SOW_CLI_PROC_ENGINE_H
#define SOW_CLI_PROC_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct proc_engine proc_engine;

/* Starts `cmd` (a shell command line, run by /bin/sh -c) and shakes hands
 * (`sow` ... `sowok`) within `timeout` seconds. NULL with why[] on failure
 * (the program could not start, died, or did not answer). */
proc_engine *proc_start(const char *cmd, double timeout, char *why, size_t why_size);

/* Sends one line (no newline in it); false with why[] if the program is gone. */
bool proc_send(proc_engine *e, const char *line, char *why, size_t why_size);

/* Reads lines until one that starts with `prefix` (then copied to out),
 * for at most `timeout` seconds. Lines that start with "info string error"
 * are kept in the last-error buffer (proc_last_error). False with why[]
 * on timeout or end of output. */
bool proc_expect(proc_engine *e, const char *prefix, double timeout, char *out, size_t out_size,
                 char *why, size_t why_size);

/* The last "info string error ..." line the program wrote ("" if none). */
const char *proc_last_error(const proc_engine *e);

/* Sends `quit`, waits up to a second, then kills the program; frees e.
 * NULL is a no-op. */
void proc_stop(proc_engine *e);

#endif
