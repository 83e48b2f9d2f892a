/* proc_engine.c - driving an engine program through pipes: see
 * proc_engine.h. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "proc_engine.h"

#define LINE_BYTES 65536

struct proc_engine {
    pid_t pid;
    int to, from;           /* its stdin (we write), its stdout (we read) */
    char buf[LINE_BYTES];   /* what was read and not yet consumed */
    size_t len;
    char last_error[512];
};

static void say_why(char *why, size_t n, const char *fmt, const char *a, const char *b)
{
    snprintf(why, n, fmt, a, b);
}

proc_engine *proc_start(const char *cmd, double timeout, char *why, size_t why_size)
{
    int in[2], out[2];
    /* A program that dies must not kill the match with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    if (pipe(in) || pipe(out)) {
        say_why(why, why_size, "cannot create pipes for '%s': %s", cmd, strerror(errno));
        return NULL;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        say_why(why, why_size, "cannot start '%s': %s", cmd, strerror(errno));
        return NULL;
    }
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    fcntl(in[1], F_SETFD, FD_CLOEXEC);
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    proc_engine *e = calloc(1, sizeof *e);
    if (!e) {
        close(in[1]), close(out[0]);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        say_why(why, why_size, "out of memory starting '%s'%s", cmd, "");
        return NULL;
    }
    e->pid = pid, e->to = in[1], e->from = out[0];
    char line[256], w[512];
    if (!proc_send(e, "sow", w, sizeof w) ||
        !proc_expect(e, "sowok", timeout, line, sizeof line, w, sizeof w)) {
        say_why(why, why_size, "'%s' does not speak the engine protocol: %s", cmd, w);
        proc_stop(e);
        return NULL;
    }
    return e;
}

bool proc_send(proc_engine *e, const char *line, char *why, size_t why_size)
{
    size_t n = strlen(line);
    char *msg = malloc(n + 1);
    if (!msg) {
        snprintf(why, why_size, "out of memory");
        return false;
    }
    memcpy(msg, line, n);
    msg[n] = '\n';
    size_t done = 0;
    while (done < n + 1) {
        ssize_t k = write(e->to, msg + done, n + 1 - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            snprintf(why, why_size, "the engine has gone (writing: %s)", strerror(errno));
            free(msg);
            return false;
        }
        done += (size_t)k;
    }
    free(msg);
    return true;
}

/* Takes one whole line from the buffer, if there is one. */
static bool take_line(proc_engine *e, char *out, size_t size)
{
    char *nl = memchr(e->buf, '\n', e->len);
    if (!nl) {
        if (e->len == sizeof e->buf) { /* an endless line: cut it */
            nl = e->buf + e->len - 1;
        } else {
            return false;
        }
    }
    size_t n = (size_t)(nl - e->buf);
    size_t c = n < size - 1 ? n : size - 1;
    memcpy(out, e->buf, c);
    out[c] = '\0';
    if (c && out[c - 1] == '\r')
        out[c - 1] = '\0';
    memmove(e->buf, nl + 1, e->len - n - 1);
    e->len -= n + 1;
    return true;
}

bool proc_expect(proc_engine *e, const char *prefix, double timeout, char *out, size_t out_size,
                 char *why, size_t why_size)
{
    double end = cli_now() + timeout;
    size_t plen = strlen(prefix);
    for (;;) {
        char line[LINE_BYTES];
        while (take_line(e, line, sizeof line)) {
            if (strncmp(line, "info string error", 17) == 0)
            {
                size_t n = strnlen(line, sizeof e->last_error - 1);
                memcpy(e->last_error, line, n);
                e->last_error[n] = '\0';
            }
            if (strncmp(line, prefix, plen) == 0 && (line[plen] == 0 || line[plen] == ' ')) {
                snprintf(out, out_size, "%s", line);
                return true;
            }
        }
        double left = end - cli_now();
        if (left <= 0) {
            snprintf(why, why_size, "no '%s' within %.1f s", prefix, timeout);
            return false;
        }
        struct pollfd p = {.fd = e->from, .events = POLLIN};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            continue;
        ssize_t k = read(e->from, e->buf + e->len, sizeof e->buf - e->len);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            snprintf(why, why_size, "the engine ended before '%s'", prefix);
            return false;
        }
        e->len += (size_t)k;
    }
}

const char *proc_last_error(const proc_engine *e)
{
    return e->last_error;
}

void proc_stop(proc_engine *e)
{
    if (!e)
        return;
    char why[128];
    proc_send(e, "quit", why, sizeof why);
    close(e->to);
    for (int i = 0; i < 100; i++) { /* a second, then kill */
        if (waitpid(e->pid, NULL, WNOHANG) == e->pid)
            goto gone;
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    kill(e->pid, SIGKILL);
    waitpid(e->pid, NULL, 0);
gone:
    close(e->from);
    free(e);
}
