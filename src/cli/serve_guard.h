/* serve_guard.h - what `sow serve` checks before a request reaches a
 * solve: how long a client takes to send it, the form of its parameters,
 * and which site asks (serve_guard.c). */
#ifndef SOW_CLI_SERVE_GUARD_H
#define SOW_CLI_SERVE_GUARD_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* The most parameters a request's URI may hold. The API reads seven;
 * past a few thousand libmicrohttpd 0.9.75 runs out of its per-connection
 * memory while splitting them and closes the connection without an answer,
 * so the guard answers 414 itself before that (guard_on_uri). */
#define GUARD_MAX_PARAMS 64

/* The defaults of --send-time (seconds) and --per-client: a browser opens
 * at most 6 connections to a server and sends a request in well under a
 * second. */
#define GUARD_SEND_TIME 10.0
#define GUARD_PER_CLIENT 16u

typedef struct guard_conn guard_conn;

typedef struct serve_guard {
    /* Which Host and Origin are this server's. */
    struct sockaddr_storage bound; /* --bind, with the family set */
    bool loopback; /* 127.0.0.0/8 or ::1: "localhost" is a name of it too */
    bool wildcard; /* 0.0.0.0 or ::: any Host (a classroom's many names) */
    int port;      /* the port listened on; atomic (--port 0 learns it late) */
    /* Slow clients: every connection not inside the handler must send a
     * whole request (or take its answer) within send_time seconds of its
     * opening, its previous request's end or its answer. */
    double send_time;
    pthread_mutex_t lock; /* guards conns and every guard_conn */
    guard_conn *conns;    /* the open connections, a doubly linked list */
    pthread_t watchdog;
    int stopping; /* atomic: the watchdog ends */
    bool running;
} serve_guard;

/* Sets g up for a server bound to *bound (port 0 until guard_set_port). */
void guard_init(serve_guard *g, const struct sockaddr_storage *bound, double send_time);
void guard_set_port(serve_guard *g, int port);
/* Starts the thread that cuts slow connections; false with errno set. */
bool guard_start(serve_guard *g);
/* Ends it; after MHD_stop_daemon (every connection closed). */
void guard_stop(serve_guard *g);

/* libmicrohttpd callbacks, with g as their closure:
 * MHD_OPTION_NOTIFY_CONNECTION, MHD_OPTION_NOTIFY_COMPLETED and
 * MHD_OPTION_URI_LOG_CALLBACK. */
void guard_on_connection(void *g, struct MHD_Connection *c, void **socket_context,
                         enum MHD_ConnectionNotificationCode toe);
void guard_on_completed(void *g, struct MHD_Connection *c, void **con_cls,
                        enum MHD_RequestTerminationCode toe);
void *guard_on_uri(void *g, const char *uri, struct MHD_Connection *c);
/* True when con_cls is guard_on_uri's mark of a request it answered
 * itself: the handler closes the connection. */
bool guard_refused(const void *con_cls);

/* Around the handler's work: the clock of the connection stops at
 * enter, and leave gives the answer send_time seconds to go out. */
void guard_enter(struct MHD_Connection *c);
void guard_leave(struct MHD_Connection *c);

/* 0 when the request may go on, else the HTTP status to refuse it with
 * and the reason in err[0..errsize). guard_check_site: the Host must name
 * this server (any Host on a wildcard bind); for the API (api true) the
 * Origin, Sec-Fetch-Site and Referer, when sent, must say the request
 * comes from this server's own page. guard_check_params: each parameter
 * is one of known (NULL-terminated), given once, without a NUL byte. */
unsigned guard_check_site(serve_guard *g, struct MHD_Connection *c, bool api, char *err,
                          size_t errsize);
unsigned guard_check_params(struct MHD_Connection *c, const char *const *known, char *err,
                            size_t errsize);

#endif
