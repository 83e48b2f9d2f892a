/* record.c - game records in the players' notation: the text `sow play`
 * prints and writes (--print-record, --record-out, the interactive `save`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "play.h"
#include "sow/notation.h"

char *record_text(const sow_game *g, const sow_pos *start, const sow_move *moves, int n)
{
    size_t size = (size_t)n * SOW_RECORD_MOVE_MAX + 8;
    char *text = malloc(size);
    if (text && sow_record_format(g, start, moves, n, text, size, NULL) != SOW_OK) {
        free(text); /* unreachable: the moves were played, the size is the bound */
        text = NULL;
    }
    return text;
}

int record_save(const char *path, const char *text)
{
    /* The temporary file sits next to the target so rename stays within one
     * file system, which is what makes it atomic. */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return ENAMETOOLONG;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return errno;
    int err = 0;
    if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f) != 0 ||
        fsync(fileno(f)) != 0)
        err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err)
        unlink(tmp);
    return err;
}
