/* cmd_serve.c - `sow serve`: the page and a JSON API over HTTP, on
 * libmicrohttpd (Debian's libmicrohttpd-dev).
 *
 * One thread per connection (libmicrohttpd's own), so a long solve only
 * holds its own connection. Solves and analyses take a slot of a counting
 * semaphore first: at most --max-solves run at once, each on one thread
 * and within its memory share, so a burst of requests queues (up to
 * --queue seconds) and is then refused with 503 instead of exhausting the
 * machine. Every solve is cut at a time limit and says so. The answers
 * are the CLI's own JSON (cli_solve_print, cli_play_json). */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "cli.h"
#include "serve_engines.h"
#include "serve_guard.h"
#include "sow/plan.h"
#include "web_assets.h"

static const char usage[] =
    "usage: sow serve [--port P] [--bind ADDR] [--db DIR] [--max-solves N]\n"
    "                 [--time S] [--queue S] [--memory SIZE] [--per-client N]\n"
    "                 [--send-time S]\n"
    "\n"
    "Serves the page (play against perfect play in a browser) and a JSON API:\n"
    "  GET /api/play     the position after moves: sow play --json\n"
    "  GET /api/solve    the exact value: sow solve --json (cut at the time\n"
    "                    limit: interrupted true, reason \"time limit\")\n"
    "  GET /api/analyse  every move's value within the time limit: exact where\n"
    "                    solved, else the best move so far or an estimate;\n"
    "                    db_cut true when the time kept its database small;\n"
    "                    book true when the opening book answered it\n"
    "Parameters: game, pits, seeds, variant, moves, position (as the options\n"
    "of sow solve), time (seconds, at most --time: the request's wall time from\n"
    "its arrival, its wait for a slot and its database included). Bad requests\n"
    "get 400 and {\"error\": ...} (an unknown or repeated parameter, a NUL byte\n"
    "in one; 414 past 64 parameters); 503 when every solve slot stays busy for\n"
    "--queue seconds. HEAD checks the parameters but runs nothing. A request\n"
    "line over 256 KB is refused by libmicrohttpd itself: 414 with its own\n"
    "HTML page, not JSON (it answers before the server sees the line).\n"
    "\n"
    "Only this server's own page may use the API: a request whose Origin,\n"
    "Sec-Fetch-Site or Referer shows another site gets 403, and so does a Host\n"
    "that is not the --bind address (or localhost on 127.0.0.1), which stops\n"
    "pages that rebind their name to this machine. --bind 0.0.0.0 (a classroom)\n"
    "accepts any Host: everyone on the network can then use the page and the\n"
    "API, and a page opened there can reach it through a rebound name.\n"
    "\n"
    "  --port P          TCP port (default 8080; 0: any free port)\n"
    "  --bind ADDR       address to listen on (default 127.0.0.1: this machine\n"
    "                    only; 0.0.0.0 opens it to the network)\n"
    "  --db DIR          endgame database folder shared by the solves (default:\n"
    "                    the database store, see sow db store --help)\n"
    "  --max-solves N    solves at once, 1..64 (default: the cores available)\n"
    "  --time S          the longest a request may take, seconds (default 10)\n"
    "  --queue S         how long a request waits for a slot, seconds (default 10)\n"
    "  --memory SIZE     the server's budget for the solves' tables and databases,\n"
    "                    shared equally by the --max-solves that may run at once\n"
    "                    (each board's engine keeps its own between requests):\n"
    "                    MB, or with a suffix K, M, G, T\n"
    CLI_MEMORY_DEFAULT_HELP("                    ")
    "  --per-client N    connections at once from one address, 1..1000 (default\n"
    "                    16; more are closed at once: raise it for pupils behind\n"
    "                    one router)\n"
    "  --send-time S     the time a client has to send a whole request, and to\n"
    "                    take its answer, seconds (default 10): slower ones are\n"
    "                    closed; at most 1000 connections are open at once\n"
    "\n"
    "The address is printed on the first line of stdout; Ctrl-C stops.\n"
    "example: sow serve --port 8080   (then open http://127.0.0.1:8080)\n";

/* The longest solve, and the longest wait for a slot, without --time and
 * --queue: seconds. */
#define SERVE_SECONDS 10.0
#define MB (1ull << 20)

typedef struct server {
    sem_t slots;
    int max_solves;
    double max_time, queue;
    uint64_t memory; /* each solve's share of --memory */
    const char *db_dir;
    serve_engines *engines; /* one per board in use, within --memory */
} server;

static sow_stop_flag stop_flag;
static serve_guard guard; /* the intake's checks (serve_guard.h) */

static void on_signal(int sig)
{
    (void)sig;
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED); /* read by the solver threads */
}

static enum MHD_Result send_buf(struct MHD_Connection *c, unsigned status, const char *type,
                                char *buf, size_t len)
{
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, buf, MHD_RESPMEM_MUST_FREE);
    if (!r) {
        free(buf);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    MHD_add_response_header(r, "Cache-Control", "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (status == MHD_HTTP_SERVICE_UNAVAILABLE)
        MHD_add_response_header(r, "Retry-After", "2");
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

/* An answer under construction: an in-memory FILE. */
typedef struct answer {
    FILE *f;
    char *buf;
    size_t len;
} answer;

static bool answer_open(answer *a)
{
    a->buf = NULL;
    a->len = 0;
    a->f = open_memstream(&a->buf, &a->len);
    return a->f != NULL;
}

static enum MHD_Result answer_send(struct MHD_Connection *c, answer *a, unsigned status)
{
    if (fclose(a->f) != 0) {
        free(a->buf);
        return MHD_NO;
    }
    return send_buf(c, status, "application/json", a->buf, a->len);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    answer a;
    if (!answer_open(&a))
        return MHD_NO;
    fprintf(a.f, "{\"error\":");
    cli_fjson_string(a.f, msg);
    fprintf(a.f, ",\"status\":%u}\n", status);
    return answer_send(c, &a, status);
}

static const char *arg(struct MHD_Connection *c, const char *name)
{
    return MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, name);
}

/* Reads the game parameters into cg (heap: a cli_game holds a long
 * history). Returns NULL after sending a 400. The parameters' names and
 * form were checked at intake (guard_check_params). */
static cli_game *read_game(struct MHD_Connection *c, enum MHD_Result *ret)
{
    char err[1024];
    cli_game *cg = calloc(1, sizeof *cg);
    if (!cg) {
        *ret = send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
        return NULL;
    }
    cg->name = arg(c, "game");
    cg->pits = arg(c, "pits");
    cg->seeds = arg(c, "seeds");
    cg->variant = arg(c, "variant");
    cg->moves = arg(c, "moves");
    cg->position = arg(c, "position");
    cg->json = true;
    if (!cli_game_try_setup(cg, true, true, err, sizeof err)) {
        free(cg);
        *ret = send_error(c, MHD_HTTP_BAD_REQUEST, err);
        return NULL;
    }
    return cg;
}

/* The time limit of a request: ?time=S, at most the server's. */
static bool read_time(struct MHD_Connection *c, const server *sv, double *out,
                      enum MHD_Result *ret)
{
    const char *t = arg(c, "time");
    *out = sv->max_time;
    if (!t)
        return true;
    double v;
    char err[160];
    if (!cli_try_seconds("time", t, &v, err, sizeof err)) {
        *ret = send_error(c, MHD_HTTP_BAD_REQUEST, err);
        return false;
    }
    if (v < *out)
        *out = v;
    return true;
}

/* Waits for a solve slot, at most sv->queue seconds. */
static bool take_slot(server *sv)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    double end = (double)ts.tv_sec + ts.tv_nsec / 1e9 + sv->queue;
    ts.tv_sec = (time_t)end;
    ts.tv_nsec = (long)((end - (double)ts.tv_sec) * 1e9);
    while (sem_timedwait(&sv->slots, &ts) != 0)
        if (errno != EINTR)
            return false;
    return true;
}

static enum MHD_Result busy(struct MHD_Connection *c, const server *sv)
{
    char msg[160];
    snprintf(msg, sizeof msg, "busy: %d solves are running and none ended within %.0f s; "
             "try again", sv->max_solves, sv->queue);
    return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, msg);
}

static enum MHD_Result api_play(struct MHD_Connection *c)
{
    enum MHD_Result ret;
    cli_game *cg = read_game(c, &ret);
    if (!cg)
        return ret;
    answer a;
    if (!answer_open(&a)) {
        free(cg);
        return MHD_NO;
    }
    cli_play_json(a.f, cg);
    free(cg);
    return answer_send(c, &a, MHD_HTTP_OK);
}

static enum MHD_Result api_solve(struct MHD_Connection *c, server *sv)
{
    double t0 = cli_now(); /* time= bounds the whole request, its wait included */
    enum MHD_Result ret;
    double limit;
    if (!read_time(c, sv, &limit, &ret))
        return ret;
    cli_game *cg = read_game(c, &ret);
    if (!cg)
        return ret;
    sow_limits lim = {
        .memory = sv->memory,
        .threads = 1,
        .pie_opening = cg->pie_opening,
        .time_limit = limit,
        .deadline = t0 + limit,
        .stop = &stop_flag,
    };
    sow_plan plan; /* checked here so that a board the solver refuses gets its 400 at once */
    char why[SOW_WHY];
    if (sow_plan_make(&cg->g, &cg->pos, &lim, &plan, why, sizeof why) != SOW_OK) {
        char err[SOW_WHY + 64];
        snprintf(err, sizeof err, "solve: %s (try /api/analyse)", why);
        free(cg);
        return send_error(c, MHD_HTTP_BAD_REQUEST, err);
    }
    sow_plan_result *res = malloc(sizeof *res);
    answer a;
    if (!res || !answer_open(&a)) {
        free(res);
        free(cg);
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    }
    if (!take_slot(sv)) {
        fclose(a.f);
        free(a.buf);
        free(res);
        free(cg);
        return busy(c, sv);
    }
    sow_engine *en = serve_engine_take(sv->engines, cg, t0 + limit, why, sizeof why);
    /* No engine (its board stayed busy, or no memory): 503, try again. */
    sow_err e = en ? sow_engine_solve(en, &cg->pos, &lim, &plan, res, why, sizeof why)
                   : SOW_E_NOMEM;
    if (en)
        serve_engine_give(sv->engines, en);
    sem_post(&sv->slots);
    unsigned status = MHD_HTTP_OK;
    if (e == SOW_E_INTERRUPTED) {
        cli_solve_print_interrupted(a.f, cg, res, __atomic_load_n(&stop_flag, __ATOMIC_RELAXED) ? "server stopping" : "time limit");
    } else if (e) {
        fclose(a.f);
        free(a.buf);
        char err[SOW_WHY + 16];
        snprintf(err, sizeof err, "solve: %s", why);
        free(res);
        free(cg);
        return send_error(c, e == SOW_E_NOMEM ? MHD_HTTP_SERVICE_UNAVAILABLE
                                              : MHD_HTTP_INTERNAL_SERVER_ERROR, err);
    } else {
        cli_solve_print(a.f, cg, &plan, res);
    }
    free(res);
    free(cg);
    return answer_send(c, &a, status);
}

static const char *how_name(sow_engine_how h)
{
    return h == SOW_ENGINE_EXACT ? "exact" : h == SOW_ENGINE_CUT ? "time limit" : "estimate";
}

/* The analysis as JSON: the game keys of solve, then what is known. */
static void analyse_json(FILE *f, const cli_game *cg, const sow_engine_answer *ev,
                         double limit)
{
    const sow_game *g = &cg->g;
    const sow_solution *s = &ev->sol;
    fprintf(f, "{");
    cli_fjson_game(f, cg);
    fprintf(f, ",\"to_move\":\"%s\",\"exact\":%s,\"how\":\"%s\"",
            sow_pos_to_move(&cg->pos) == SOW_SOUTH ? "south" : "north",
            ev->how == SOW_ENGINE_EXACT ? "true" : "false", how_name(ev->how));
    if (ev->how == SOW_ENGINE_EXACT)
        fprintf(f, ",\"value\":%d,\"outcome\":\"%s\"", s->value, cli_outcome_name(s->outcome));
    else
        fprintf(f, ",\"value\":null,\"outcome\":null");
    if (ev->how == SOW_ENGINE_CUT)
        fprintf(f, ",\"lower\":%d,\"upper\":%d", sow_score_margin(g, ev->lower),
                sow_score_margin(g, ev->upper));
    cli_fjson_moves(f, cg, s, NULL,
                    ev->how == SOW_ENGINE_EXACT ? CLI_MOVES_EXACT
                    : ev->how == SOW_ENGINE_CUT && !ev->estimates ? CLI_MOVES_UNKNOWN
                                            : CLI_MOVES_ESTIMATE);
    fprintf(f, ",\"depth\":%d,\"db_cut\":%s,\"book\":%s,\"time_limit\":%.3f,\"seconds\":%.6f}\n",
            ev->depth, ev->db_cut ? "true" : "false", ev->book ? "true" : "false", limit,
            ev->seconds);
}

static enum MHD_Result api_analyse(struct MHD_Connection *c, server *sv)
{
    double t0 = cli_now(); /* time= bounds the whole request, its wait included */
    enum MHD_Result ret;
    double limit;
    if (!read_time(c, sv, &limit, &ret))
        return ret;
    cli_game *cg = read_game(c, &ret);
    if (!cg)
        return ret;
    sow_engine_question q = {.seconds = limit, .deadline = t0 + limit, .all_moves = true,
                             .pie_opening = cg->pie_opening};
    sow_engine_answer *ev = malloc(sizeof *ev);
    answer a;
    if (!ev || !answer_open(&a)) {
        free(ev);
        free(cg);
        return send_error(c, MHD_HTTP_SERVICE_UNAVAILABLE, "out of memory");
    }
    if (!take_slot(sv)) {
        fclose(a.f);
        free(a.buf);
        free(ev);
        free(cg);
        return busy(c, sv);
    }
    char why[SOW_WHY];
    sow_engine *en = serve_engine_take(sv->engines, cg, t0 + limit, why, sizeof why);
    /* No engine (its board stayed busy, or no memory): 503, try again. */
    sow_err e = en ? sow_engine_evaluate(en, &cg->pos, &q, ev, why, sizeof why)
                   : SOW_E_NOMEM;
    if (en)
        serve_engine_give(sv->engines, en);
    sem_post(&sv->slots);
    if (e) {
        fclose(a.f);
        free(a.buf);
        char err[SOW_WHY + 16];
        snprintf(err, sizeof err, "analyse: %s", why);
        free(ev);
        free(cg);
        return send_error(c, e == SOW_E_NOMEM ? MHD_HTTP_SERVICE_UNAVAILABLE
                                              : MHD_HTTP_BAD_REQUEST, err);
    }
    analyse_json(a.f, cg, ev, limit);
    free(ev);
    free(cg);
    return answer_send(c, &a, MHD_HTTP_OK);
}

static enum MHD_Result send_asset(struct MHD_Connection *c, const web_asset *w)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(w->size, (void *)w->data,
                                                             MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", w->type);
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* The parameters a request may carry. */
static const char *const known_params[] = {"game", "pits", "seeds", "variant", "moves",
                                           "position", "time", NULL};

/* Only what cannot cost anything: the request's site and form, and for
 * HEAD on the API the game's parameters (a GET would answer 400 to bad
 * ones), never the solve or analysis a GET would run. */
static enum MHD_Result route(server *sv, struct MHD_Connection *c, const char *url,
                             const char *method)
{
    bool api = strncmp(url, "/api/", 5) == 0;
    char err[512];
    unsigned status = guard_check_site(&guard, c, api, err, sizeof err);
    if (!status && api)
        status = guard_check_params(c, known_params, err, sizeof err);
    if (status)
        return send_error(c, status, err);
    bool known = strcmp(url, "/api/play") == 0 || strcmp(url, "/api/solve") == 0 ||
                 strcmp(url, "/api/analyse") == 0;
    if (known && strcmp(method, "HEAD") == 0) {
        enum MHD_Result ret;
        double limit;
        if (strcmp(url, "/api/play") != 0 && !read_time(c, sv, &limit, &ret))
            return ret;
        cli_game *cg = read_game(c, &ret);
        if (!cg)
            return ret;
        free(cg);
        return send_buf(c, MHD_HTTP_OK, "application/json", NULL, 0);
    }
    if (strcmp(url, "/api/play") == 0)
        return api_play(c);
    if (strcmp(url, "/api/solve") == 0)
        return api_solve(c, sv);
    if (strcmp(url, "/api/analyse") == 0)
        return api_analyse(c, sv);
    const char *path = strcmp(url, "/") == 0 ? "/index.html" : url;
    for (const web_asset *w = web_assets; w->path; w++)
        if (strcmp(w->path, path) == 0)
            return send_asset(c, w);
    return send_error(c, MHD_HTTP_NOT_FOUND, "no such page (/, /api/play, /api/solve, "
                      "/api/analyse)");
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    server *sv = cls;
    (void)version;
    (void)upload_data;
    if (guard_refused(*con_cls))
        return MHD_NO; /* answered (414) before its parameters were split */
    /* Another method is refused at once, on the call that announces it,
     * before any body is read: the answer does not depend on it. */
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
        return send_error(c, MHD_HTTP_METHOD_NOT_ALLOWED, "only GET and HEAD are served");
    /* A GET's first call only announces it (headers read). */
    static int first;
    if (*con_cls != &first) {
        *con_cls = &first;
        return MHD_YES;
    }
    *upload_data_size = 0; /* a GET body means nothing: drop it */
    guard_enter(c); /* a solve has --time, not --send-time */
    enum MHD_Result ret = route(sv, c, url, method);
    guard_leave(c);
    return ret;
}

bool cli_serve_available(void)
{
    return true;
}

int cmd_serve(int argc, char **argv)
{
    cli_limit_opts lo = {0};
    const char *port = NULL, *bind = NULL, *maxs = NULL, *queue = NULL, *per_client = NULL,
               *send_time = NULL;
    const cli_opt opts[] = {{"port", OPT_STRING, &port},
                            {"bind", OPT_STRING, &bind},
                            {"db", OPT_STRING, &lo.db_dir},
                            {"max-solves", OPT_STRING, &maxs},
                            {"time", OPT_STRING, &lo.time},
                            {"queue", OPT_STRING, &queue},
                            {"memory", OPT_STRING, &lo.memory},
                            {"per-client", OPT_STRING, &per_client},
                            {"send-time", OPT_STRING, &send_time},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 0, &npos, usage);
    static server sv;
    int p = port ? (int)cli_int("--port", port, 0, 65535) : 8080;
    sv.max_solves = maxs ? (int)cli_int("--max-solves", maxs, 1, 64) : cli_default_threads();
    if (sv.max_solves > 64)
        sv.max_solves = 64;
    sow_limits lim;
    cli_limits(&lo, &lim);
    sv.max_time = lim.time_limit ? lim.time_limit : SERVE_SECONDS;
    sv.queue = queue ? cli_seconds("--queue", queue) : SERVE_SECONDS;
    unsigned clients = per_client ? (unsigned)cli_int("--per-client", per_client, 1, 1000)
                                  : GUARD_PER_CLIENT;
    double intake = send_time ? cli_seconds("--send-time", send_time) : GUARD_SEND_TIME;
    /* The budget is the server's: each solve that may run at once gets an
     * equal share, so a full house stays within it. */
    uint64_t share = (lim.memory ? lim.memory : cli_default_memory()) / (uint64_t)sv.max_solves;
    sv.memory = share / MB * MB;
    if (!sv.memory)
        cli_fail("serve: --memory %s leaves less than 1 MB to each of %d solves (--max-solves)",
                 lo.memory, sv.max_solves);
    sv.db_dir = lim.db_dir;
    /* The engines together stay within the whole budget: every slot's
     * share, evicting idle boards when a new one needs room. */
    sv.engines = serve_engines_new(sv.memory * (uint64_t)sv.max_solves, sv.memory, sv.db_dir,
                                   &stop_flag);
    if (!sv.engines)
        cli_fail("serve: out of memory");
    const char *addr = bind ? bind : "127.0.0.1";
    struct sockaddr_storage ss = {0};
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_USE_POLL;
    struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
    if (inet_pton(AF_INET, addr, &s4->sin_addr) == 1) {
        s4->sin_family = AF_INET;
        s4->sin_port = htons((uint16_t)p);
    } else if (inet_pton(AF_INET6, addr, &s6->sin6_addr) == 1) {
        s6->sin6_family = AF_INET6;
        s6->sin6_port = htons((uint16_t)p);
        flags |= MHD_USE_IPv6;
    } else {
        cli_fail("serve: --bind '%s' is not an IPv4 or IPv6 address", addr);
    }
    guard_init(&guard, &ss, intake);
    if (p)
        guard_set_port(&guard, p);
    if (sem_init(&sv.slots, 0, (unsigned)sv.max_solves) != 0)
        cli_fail("serve: cannot create the solve slots: %s", strerror(errno));
    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a client that leaves must not end the server */
    /* Blocked here, so the server's threads (which inherit the mask) never
     * take them: only sigsuspend below does, with no window to miss one. */
    sigset_t stopping, old;
    sigemptyset(&stopping);
    sigaddset(&stopping, SIGINT);
    sigaddset(&stopping, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopping, &old);
    if (!guard_start(&guard))
        cli_fail("serve: cannot start the slow-client watchdog: %s", strerror(errno));
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, (uint16_t)p, NULL, NULL, on_request, &sv, MHD_OPTION_SOCK_ADDR, &ss,
        MHD_OPTION_CONNECTION_TIMEOUT, 60u, MHD_OPTION_CONNECTION_LIMIT, 1000u,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, clients, MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,
        MHD_OPTION_NOTIFY_CONNECTION, guard_on_connection, &guard,
        MHD_OPTION_NOTIFY_COMPLETED, guard_on_completed, &guard,
        MHD_OPTION_URI_LOG_CALLBACK, guard_on_uri, &guard,
        /* Room for a URL with the longest record (CLI_MAX_HISTORY moves,
         * commas escaped): such a request gets its 400 like any other. */
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)256 << 10, MHD_OPTION_END);
    if (!d)
        cli_fail("serve: cannot listen on %s port %d: %s", addr, p,
                 errno ? strerror(errno) : "libmicrohttpd refused");
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    int actual = info ? info->port : p;
    guard_set_port(&guard, actual);
    printf("sow serve: http://%s%s%s:%d/ (solves: %d at once, %.0f s each at most; Ctrl-C "
           "stops)\n",
           strchr(addr, ':') ? "[" : "", addr, strchr(addr, ':') ? "]" : "", actual,
           sv.max_solves, sv.max_time);
    fflush(stdout);
    while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED))
        sigsuspend(&old);
    MHD_stop_daemon(d); /* waits for the requests in progress */
    guard_stop(&guard);
    serve_engines_free(sv.engines);
    sem_destroy(&sv.slots);
    printf("sow serve: stopped\n");
    return 0;
}
