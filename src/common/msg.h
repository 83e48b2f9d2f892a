/* common/msg.h - the library's error messages (the convention is in
 * include/sow/error.h). */
#ifndef SOW_COMMON_MSG_H
#define SOW_COMMON_MSG_H

#include <stddef.h>

#include "sow/error.h"

/* Writes one line (printf's fmt) into why[0..why_size) and returns e, so
 * that a failure is `return sow_fail(why, why_size, SOW_E_..., "...")`.
 * A NULL why (or why_size 0) is left alone. */
sow_err sow_fail(char *why, size_t why_size, sow_err e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* For a function that adds a message only where none was given yet (a
 * default after the specific ones): the caller's buffer, or else `own`, a
 * SOW_WHY-byte buffer of its own; emptied either way. */
static inline char *sow_why_or(char *why, size_t *why_size, char *own)
{
    if (!why || !*why_size) {
        why = own;
        *why_size = SOW_WHY;
    }
    why[0] = 0;
    return why;
}

#endif
