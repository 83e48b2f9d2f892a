/* common/error.c - the names of the error codes and the message helper
 * (common/msg.h). */
#include <stdarg.h>
#include <stdio.h>

#include "msg.h"
#include "sow/error.h"

const char *sow_err_name(sow_err e)
{
    static const char *const names[SOW_E_COUNT] = {
        [SOW_OK] = "no error",
        [SOW_E_GAME] = "unknown game",
        [SOW_E_VARIANT] = "bad variant",
        [SOW_E_PITS] = "pits per side out of range",
        [SOW_E_SEEDS] = "seeds per pit out of range",
        [SOW_E_MOVE] = "illegal move",
        [SOW_E_OVER] = "the game is over",
        [SOW_E_POSITION] = "bad position",
        [SOW_E_ARG] = "bad argument",
        [SOW_E_NOMEM] = "out of memory",
        [SOW_E_LIMIT] = "limit exceeded",
        [SOW_E_IO] = "input/output error",
        [SOW_E_FORMAT] = "bad file format",
        [SOW_E_CHECKSUM] = "checksum mismatch",
        [SOW_E_MISMATCH] = "file is for another game, board or variant",
        [SOW_E_MISSING] = "missing file or data",
        [SOW_E_INTERRUPTED] = "interrupted",
        [SOW_E_BUDGET] = "node budget exhausted",
    };
    if ((unsigned)e >= SOW_E_COUNT)
        return "unknown error";
    return names[e];
}

sow_err sow_fail(char *why, size_t why_size, sow_err e, const char *fmt, ...)
{
    if (why && why_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, why_size, fmt, ap);
        va_end(ap);
    }
    return e;
}
