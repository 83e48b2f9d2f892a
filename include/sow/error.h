/* sow/error.h - the library's error codes and messages.
 *
 * Every fallible library function returns a sow_err. The library never
 * prints and never exits: the CLI turns a code and its message into one
 * line on stderr and exit status 2.
 *
 * Messages. A function that can fail with a detail the code alone does not
 * give (which file, which limit, what the input lacks) takes the caller's
 * buffer as its last two parameters, `char *why, size_t why_size`:
 *   - why may be NULL (no message wanted); SOW_WHY bytes hold any message;
 *   - after an error it holds one line: no newline, no final period, no
 *     "sow:" or command prefix (the caller adds those), naming the limits
 *     by the `sow` options that set them where there are such;
 *   - after SOW_OK its content means nothing;
 *   - result structs carry no message (a result is what was found; the
 *     message is why nothing, or only part, was).
 * A function whose codes say everything (sow_game_init, sow_retro_build,
 * sow_search_solve) takes no buffer: sow_err_name(e) is its message.
 * Inside the library one helper writes them (src/common/msg.h):
 *   return sow_fail(why, why_size, SOW_E_LIMIT, "more than %d seeds", k);
 */
#ifndef SOW_ERROR_H
#define SOW_ERROR_H

#include <signal.h>

typedef enum sow_err {
    SOW_OK = 0,
    SOW_E_GAME,        /* unknown game name */
    SOW_E_VARIANT,     /* unknown variant, or one that does not apply */
    SOW_E_PITS,        /* pits per side out of the supported range */
    SOW_E_SEEDS,       /* seeds per pit out of the supported range */
    SOW_E_MOVE,        /* malformed or illegal move */
    SOW_E_OVER,        /* a move after the game ended */
    SOW_E_POSITION,    /* malformed or impossible position */
    SOW_E_ARG,         /* any other bad argument */
    SOW_E_NOMEM,       /* allocation failed or the memory budget is too small */
    SOW_E_LIMIT,       /* the work exceeds a documented limit */
    SOW_E_IO,          /* file system error */
    SOW_E_FORMAT,      /* a file is not what it claims to be */
    SOW_E_CHECKSUM,    /* a file's checksum does not match */
    SOW_E_MISMATCH,    /* a file is for another game, board or variant */
    SOW_E_MISSING,     /* a needed file or seed count is missing */
    SOW_E_INTERRUPTED, /* the work was asked to stop */
    SOW_E_BUDGET,      /* the work passed the node budget it was given */
    SOW_E_COUNT
} sow_err;

/* Bytes of a message buffer that holds any message whole. */
#define SOW_WHY 320

/* A short, constant, human-readable name for an error code. */
const char *sow_err_name(sow_err e);

/* A stop flag, as the long calls take it (`const sow_stop_flag *stop`):
 * once it is non-zero the call stops soon with SOW_E_INTERRUPTED. Its type
 * is the one a signal handler may write. */
typedef volatile sig_atomic_t sow_stop_flag;

#endif
