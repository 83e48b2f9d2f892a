/* serve_guard.c - the intake of `sow serve`: slow clients, parameters,
 * cross-site requests (see serve_guard.h).
 *
 * Slow clients: libmicrohttpd's own timeout restarts with every byte, so a
 * client sending a header line every 20 s holds its connection for ever.
 * Each connection here carries a deadline; a watchdog thread shuts down
 * (shutdown(2), the connection's thread then closes it) every connection
 * past its deadline that is not inside the handler. The list and the
 * deadlines are under one mutex, and libmicrohttpd reports a connection
 * closed before it closes its socket, so the watchdog never shuts a
 * socket number that a new connection has taken. */
#include "serve_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>

#include "cli.h"

struct guard_conn {
    guard_conn *prev, *next;
    serve_guard *g;
    int fd;
    double deadline; /* cli_now() seconds */
    bool busy;       /* inside the handler: a solve has its own limit */
    bool cut;        /* shut down already */
};

void guard_init(serve_guard *g, const struct sockaddr_storage *bound, double send_time)
{
    memset(g, 0, sizeof *g);
    g->bound = *bound;
    if (bound->ss_family == AF_INET) {
        uint32_t a = ntohl(((const struct sockaddr_in *)bound)->sin_addr.s_addr);
        g->loopback = (a >> 24) == 127;
        g->wildcard = a == INADDR_ANY;
    } else {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)bound)->sin6_addr;
        g->loopback = IN6_IS_ADDR_LOOPBACK(a);
        g->wildcard = IN6_IS_ADDR_UNSPECIFIED(a);
    }
    g->send_time = send_time;
    pthread_mutex_init(&g->lock, NULL);
}

void guard_set_port(serve_guard *g, int port)
{
    __atomic_store_n(&g->port, port, __ATOMIC_RELEASE);
}

/* ---- slow clients ---------------------------------------------------- */

static guard_conn *conn_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return i ? i->socket_context : NULL;
}

void guard_on_connection(void *cls, struct MHD_Connection *c, void **socket_context,
                         enum MHD_ConnectionNotificationCode toe)
{
    serve_guard *g = cls;
    guard_conn *k = *socket_context;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *i =
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        k = calloc(1, sizeof *k);
        if (!k || !i) { /* unwatched: libmicrohttpd's idle timeout still holds */
            free(k);
            return;
        }
        k->g = g;
        k->fd = i->connect_fd;
        pthread_mutex_lock(&g->lock);
        k->deadline = cli_now() + g->send_time;
        k->next = g->conns;
        if (g->conns)
            g->conns->prev = k;
        g->conns = k;
        pthread_mutex_unlock(&g->lock);
        *socket_context = k;
    } else if (k) {
        pthread_mutex_lock(&g->lock);
        if (k->prev)
            k->prev->next = k->next;
        else
            g->conns = k->next;
        if (k->next)
            k->next->prev = k->prev;
        pthread_mutex_unlock(&g->lock);
        free(k);
        *socket_context = NULL;
    }
}

/* The connection's clock restarts: send_time seconds from now. */
static void rearm(struct MHD_Connection *c, bool busy)
{
    guard_conn *k = conn_of(c);
    if (!k)
        return;
    pthread_mutex_lock(&k->g->lock);
    k->busy = busy;
    k->deadline = cli_now() + k->g->send_time;
    pthread_mutex_unlock(&k->g->lock);
}

void guard_on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                        enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)con_cls;
    (void)toe;
    rearm(c, false); /* a kept-alive connection: the next request's turn */
}

void guard_enter(struct MHD_Connection *c)
{
    rearm(c, true);
}

void guard_leave(struct MHD_Connection *c)
{
    rearm(c, false);
}

static void *watchdog(void *cls)
{
    serve_guard *g = cls;
    /* A quarter of the bound, so a connection is cut within 1.25 times it
     * (within 1 s of it for long bounds, 10 ms for the shortest). */
    double period = g->send_time / 4;
    period = period > 1 ? 1 : period < 0.01 ? 0.01 : period;
    struct timespec ts = {(time_t)period, (long)((period - (double)(time_t)period) * 1e9)};
    while (!__atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE)) {
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&g->lock);
        double now = cli_now();
        for (guard_conn *k = g->conns; k; k = k->next)
            if (!k->busy && !k->cut && now > k->deadline) {
                shutdown(k->fd, SHUT_RDWR);
                k->cut = true;
            }
        pthread_mutex_unlock(&g->lock);
    }
    return NULL;
}

bool guard_start(serve_guard *g)
{
    g->running = pthread_create(&g->watchdog, NULL, watchdog, g) == 0;
    return g->running;
}

void guard_stop(serve_guard *g)
{
    if (g->running) {
        __atomic_store_n(&g->stopping, 1, __ATOMIC_RELEASE);
        pthread_join(g->watchdog, NULL);
        g->running = false;
    }
    pthread_mutex_destroy(&g->lock);
}

/* ---- too many parameters --------------------------------------------- */

static const char refused_mark = 0;

bool guard_refused(const void *con_cls)
{
    return con_cls == &refused_mark;
}

/* Writes a whole 414 answer on the connection's socket and ends the
 * sending side. libmicrohttpd cannot queue an answer this early (the
 * request line only is read), and later it may have closed the connection
 * for want of memory; the answer is small, so it fits the fresh socket's
 * buffer at once. */
static void refuse_raw(struct MHD_Connection *c, size_t n)
{
    const union MHD_ConnectionInfo *i =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!i)
        return;
    char body[200], head[400];
    int blen = snprintf(body, sizeof body,
                        "{\"error\":\"too many parameters: %zu (the API reads game, pits, "
                        "seeds, variant, moves, position and time)\",\"status\":414}\n", n);
    int hlen = snprintf(head, sizeof head,
                        "HTTP/1.1 414 URI Too Long\r\nConnection: close\r\n"
                        "Content-Type: application/json\r\nCache-Control: no-store\r\n"
                        "X-Content-Type-Options: nosniff\r\nContent-Length: %d\r\n\r\n%s",
                        blen, body);
    if (hlen > 0 && (size_t)hlen < sizeof head)
        (void)!send(i->connect_fd, head, (size_t)hlen, MSG_NOSIGNAL);
    shutdown(i->connect_fd, SHUT_WR);
}

void *guard_on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    const char *q = strchr(uri, '?');
    if (!q)
        return NULL;
    size_t n = 1; /* libmicrohttpd's count is at most this: "a&" is one */
    for (const char *p = q + 1; *p; p++)
        n += *p == '&';
    if (n <= GUARD_MAX_PARAMS)
        return NULL;
    refuse_raw(c, n);
    return (void *)&refused_mark;
}

/* ---- the parameters' form -------------------------------------------- */

typedef struct param_scan {
    const char *const *known;
    unsigned seen; /* bit i: known[i] given */
    char *err;
    size_t errsize;
} param_scan;

static enum MHD_Result scan_param(void *cls, enum MHD_ValueKind kind, const char *key,
                                  size_t key_size, const char *value, size_t value_size)
{
    (void)kind;
    param_scan *s = cls;
    if (s->err[0])
        return MHD_NO; /* the first problem is the answer */
    int i = 0;
    while (s->known[i] && strcmp(key, s->known[i]) != 0)
        i++;
    if (strlen(key) != key_size || (value && strlen(value) != value_size))
        snprintf(s->err, s->errsize, "parameter '%s' contains a NUL byte (%%00)", key);
    else if (!s->known[i])
        snprintf(s->err, s->errsize, "unknown parameter '%s' (game, pits, seeds, variant, "
                 "moves, position, time)", key);
    else if (s->seen & (1u << i))
        snprintf(s->err, s->errsize, "parameter '%s' is given more than once", key);
    s->seen |= 1u << i;
    return s->err[0] ? MHD_NO : MHD_YES;
}

unsigned guard_check_params(struct MHD_Connection *c, const char *const *known, char *err,
                            size_t errsize)
{
    param_scan s = {known, 0, err, errsize};
    err[0] = '\0';
    MHD_get_connection_values_n(c, MHD_GET_ARGUMENT_KIND, scan_param, &s);
    return err[0] ? MHD_HTTP_BAD_REQUEST : 0;
}

/* ---- which site asks ------------------------------------------------- */

/* Whether the Host header's host[0..len) is this server's address (or
 * "localhost" for a loopback one). */
static bool host_is_bound(const serve_guard *g, const char *host, size_t len)
{
    char name[64];
    bool bracket = len >= 2 && host[0] == '[' && host[len - 1] == ']';
    if (bracket) {
        host++;
        len -= 2;
    }
    if (len == 0 || len >= sizeof name)
        return false;
    memcpy(name, host, len);
    name[len] = '\0';
    if (!bracket && g->loopback && strcasecmp(name, "localhost") == 0)
        return true;
    if (g->bound.ss_family == AF_INET) {
        struct in_addr a;
        return !bracket && inet_pton(AF_INET, name, &a) == 1 &&
               a.s_addr == ((const struct sockaddr_in *)&g->bound)->sin_addr.s_addr;
    }
    struct in6_addr a;
    return bracket && inet_pton(AF_INET6, name, &a) == 1 &&
           memcmp(&a, &((const struct sockaddr_in6 *)&g->bound)->sin6_addr, sizeof a) == 0;
}

/* Whether the Host header names this server: its address and its port
 * (none: 80). A page that a DNS name rebinds to 127.0.0.1 sends its own
 * name, and is refused here. */
static bool host_is_ours(serve_guard *g, const char *host)
{
    const char *end = host + strlen(host);
    const char *colon = strrchr(host, ':');
    const char *close = strrchr(host, ']');
    int port = 80;
    if (colon && (!close || colon > close)) {
        char *e;
        long p = strtol(colon + 1, &e, 10);
        if (colon[1] < '0' || colon[1] > '9' || *e || p > 65535)
            return false;
        port = (int)p;
        end = colon;
    }
    return port == __atomic_load_n(&g->port, __ATOMIC_ACQUIRE) &&
           host_is_bound(g, host, (size_t)(end - host));
}

/* Whether url is http://HOST, then its end or a path: the server's own
 * origin as the browser writes it. */
static bool same_origin(const char *url, const char *host)
{
    size_t n = strlen(host);
    if (!host[0] || strncasecmp(url, "http://", 7) != 0 || strncasecmp(url + 7, host, n) != 0)
        return false;
    char next = url[7 + n];
    return next == '\0' || next == '/' || next == '?' || next == '#';
}

static const char *header(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
}

unsigned guard_check_site(serve_guard *g, struct MHD_Connection *c, bool api, char *err,
                          size_t errsize)
{
    const char *host = header(c, "Host");
    if (!g->wildcard && !(host && host_is_ours(g, host))) {
        snprintf(err, errsize, "Host '%s' is not this server's address (use the address it "
                 "prints, or localhost)", host ? host : "");
        return MHD_HTTP_FORBIDDEN;
    }
    if (!api)
        return 0; /* the page itself may be linked from anywhere */
    const char *origin = header(c, "Origin");
    const char *site = header(c, "Sec-Fetch-Site");
    const char *referer = header(c, "Referer");
    const char *why = NULL;
    if (origin && !(host && strncasecmp(origin, "http://", 7) == 0 &&
                    strcasecmp(origin + 7, host) == 0))
        why = "Origin"; /* "null" too: a sandboxed or file: page */
    else if (site && strcmp(site, "same-origin") != 0 && strcmp(site, "none") != 0)
        why = "Sec-Fetch-Site";
    else if (referer && !(host && same_origin(referer, host)))
        why = "Referer";
    if (!why)
        return 0;
    snprintf(err, errsize, "cross-site request refused (%s: %s): the API answers this "
             "server's own page only", why, why[0] == 'O' ? origin : why[0] == 'S' ? site
                                                                        : referer);
    return MHD_HTTP_FORBIDDEN;
}
