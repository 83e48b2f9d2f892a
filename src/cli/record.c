/* record.c - the game record `save FILE` writes (play.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "play.h"

bool record_format(const sow_game *g, const sow_move *moves, int n, char *buf, size_t size)
{
    (void)g; /* the record notations to come depend on the game */
    size_t len = 0;
    if (size == 0)
        return false;
    buf[0] = '\0';
    for (int k = 0; k < n; k++) {
        char mt[8];
        sow_move_format(moves[k], mt, sizeof mt);
        int w = snprintf(buf + len, size - len, "%s%s", k ? "," : "", mt);
        if (w < 0 || (size_t)w >= size - len)
            return false;
        len += (size_t)w;
    }
    return true;
}

int record_save(const char *path, const sow_game *g, const sow_move *moves, int n)
{
    static char text[CLI_MAX_HISTORY * 4 + 2];
    if (!record_format(g, moves, n, text, sizeof text - 1))
        return ENAMETOOLONG;
    strcat(text, "\n");
    /* The temporary file sits next to the target so rename stays within one
     * file system, which is what makes it atomic. */
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
        return ENAMETOOLONG;
    FILE *f = fopen(tmp, "w");
    if (!f)
        return errno;
    int err = 0;
    if (fputs(text, f) == EOF || fflush(f) != 0 || fsync(fileno(f)) != 0)
        err = errno ? errno : EIO;
    if (fclose(f) != 0 && !err)
        err = errno;
    if (!err && rename(tmp, path) != 0)
        err = errno;
    if (err)
        unlink(tmp);
    return err;
}
