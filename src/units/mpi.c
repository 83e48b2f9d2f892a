/* mpi.c - the solve by work units over Open MPI (sow/units_mpi.h).
 *
 * Messages (MPI_BYTE of the structs below: every rank runs the same
 * build, so their layout agrees):
 *   manager -> worker   UNIT (a question), CANCEL (abandon the unit in
 *                       flight), QUIT (the solve is over)
 *   manager -> worker   GO: the database files are ready to load (or the
 *                       manager failed: stop)
 *   worker -> manager   READY (its database opened, or why not), ANSWER,
 *                       ALIVE (at GO, then every beat until QUIT)
 *
 * One worker's life, and when the manager counts its silence (*):
 *
 *   manager (rank 0)                        worker (rank r)
 *   builds the database files               waits for GO: silent, but no
 *     (minutes, maybe)                        clock runs yet
 *   GO ------------------------------------>
 *   * clocks start, heard[r] = now          a thread opens its database;
 *   * <------------------------------ ALIVE   the main thread says ALIVE at
 *   * <------------------------------ ALIVE   once, then every beat
 *   * <------------------------------ READY
 *     <------------------------------ ALIVE  every beat, busy or idle
 *   UNIT (slot k) ------------------------->
 *   * heard[r] = now (the send)             its pool answers the unit
 *   * <------------------------------ ALIVE
 *   * <----------------------- ANSWER (slot k)
 *     <------------------------------ ALIVE
 *   CANCEL -------------------------------->  (the root is decided)
 *   QUIT ---------------------------------->  ends
 *
 * So a live worker is never silent for more than a beat (plus its
 * scheduling) while the manager counts, and the manager counts only
 * while it listens: its own stretches away (the database build before
 * GO, its searches, a stop) are not the workers' silence. The beat is a
 * quarter of the silence at most.
 *
 * Nobody busy-waits: a rank with nothing to do probes every millisecond
 * and sleeps in between, since MPI's blocking calls spin on a core that
 * the other ranks' searches need. A worker's main thread probes for
 * CANCEL while its pool's threads search (MPI is used from one thread
 * only).
 *
 * A dead worker: Open MPI 4 ends the job when a rank dies, unless mpirun
 * is given --enable-recovery; then the survivors go on, and the manager
 * takes a worker that has not been heard of for SILENCE seconds of its
 * listening while it holds a unit or opens its database (or a failed send
 * to it) as dead: its unit is given back and asked again of another
 * worker. A worker taken for dead that speaks again (it was only stopped
 * or slow) is told to quit and its late answers are ignored: its slots
 * may hold other units by then. Without --enable-recovery the
 * recovery is the ledger (rerun the same command).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "internal.h"
#include "msg.h"
#include "sow/units_mpi.h"

enum { T_UNIT = 1, T_ANSWER, T_CANCEL, T_QUIT, T_READY, T_ALIVE, T_GO };

typedef struct msg_unit {
    int32_t nline, threshold;
    int32_t slot; /* which of the worker's units at once (0 .. its slots) */
    int32_t line[SOW_UNITS_MAX_DEPTH];
    uint64_t max_nodes;
} msg_unit;

typedef struct msg_answer {
    msg_unit q;
    int32_t err, bound;
    int32_t split; /* err SOW_OK, not answered: past its budget */
    uint64_t nodes;
    double cpu_seconds, seconds;
} msg_answer;

typedef struct msg_ready {
    int32_t err;
    int32_t slots; /* units it answers at once: its threads */
    char why[SOW_WHY];
} msg_ready;

/* How long an idle rank sleeps between probes. */
#define IDLE_NS 1000000L
/* A worker says it is alive every HEARTBEAT seconds from GO to QUIT (a
 * quarter of the silence if shorter); the manager takes one silent for
 * SILENCE as dead. Generous: ranks that share cores with others (oversubscribed) can
 * be descheduled for seconds. The environment variable
 * SOW_MPI_SILENCE_SECONDS sets another silence (tests: a stopped worker
 * found dead in seconds); every rank reads it, so all agree. */
#define HEARTBEAT 1.0
#define SILENCE 15.0

static double silence_seconds(void)
{
    const char *s = getenv("SOW_MPI_SILENCE_SECONDS");
    char *end = NULL;
    double v = s ? strtod(s, &end) : 0;
    return s && end != s && *end == 0 && v > 0 && v <= 86400 ? v : SILENCE;
}

static double heartbeat_seconds(void)
{
    double q = silence_seconds() / 4;
    return q < HEARTBEAT ? q : HEARTBEAT;
}

static void idle(void)
{
    struct timespec ts = {0, IDLE_NS};
    nanosleep(&ts, NULL);
}

static sow_err mpi_fail(int rc, const char *what, char *why, size_t n)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    if (MPI_Error_string(rc, s, &len) != MPI_SUCCESS)
        snprintf(s, sizeof s, "error %d", rc);
    return sow_fail(why, n, SOW_E_IO, "MPI: %s: %.100s", what, s);
}

bool sow_units_mpi_available(void)
{
    return true;
}

sow_err sow_units_mpi_init(int *rank, int *size, char *why, size_t why_size)
{
    int provided, rc = MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "cannot initialise", why, why_size);
    /* A failed call returns its error instead of ending the job, so the
     * manager can say what failed and leave the ledger consistent. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, size);
    return SOW_OK;
}

void sow_units_mpi_finalize(void)
{
    MPI_Finalize();
}

/* GO to every worker, one message each: a broadcast's tree would leave
 * the workers below a dead rank waiting. A failed send is a dead worker,
 * found silent later. */
static void send_go(int size, int go)
{
    for (int r = 1; r < size; r++)
        MPI_Send(&go, 1, MPI_INT, r, T_GO, MPI_COMM_WORLD);
}

/* Waits for GO without spinning; *go: the manager's word. */
static int wait_go(int *go)
{
    MPI_Status st;
    int flag = 0, rc;
    while ((rc = MPI_Iprobe(0, T_GO, MPI_COMM_WORLD, &flag, &st)) == MPI_SUCCESS && !flag)
        idle();
    if (rc == MPI_SUCCESS)
        rc = MPI_Recv(go, 1, MPI_INT, 0, T_GO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return rc;
}

/* ---- the manager -------------------------------------------------------------- */

/* A unit handed to a worker's slot. */
typedef struct flight {
    bool busy, cancelled;
    sow_unit unit;
} flight;

typedef struct manager {
    int size;
    sow_units_pool pool;     /* its slots: the live workers' slots */
    int *slots;              /* each worker's units at once (its threads) */
    int *first;              /* worker r's flights: fl[first[r] .. + slots[r]) */
    flight *fl;
    bool *dead;
    bool *ready;             /* its READY came */
    double *heard;           /* when each worker was last heard of */
    double silence;          /* silent this long: dead */
    double polled;           /* when the manager last looked for messages */
    sow_unit *back;          /* a dead worker's units, to give back */
    int nback;
    char *why;               /* the solve's message buffer */
    size_t why_size;
} manager;

static void pack(const sow_unit *u, int slot, msg_unit *m)
{
    memset(m, 0, sizeof *m);
    m->nline = u->nline;
    m->threshold = u->threshold;
    m->slot = slot;
    m->max_nodes = u->max_nodes;
    for (int d = 0; d < u->nline; d++)
        m->line[d] = u->line[d];
}

static int busy_count(const manager *M, int r)
{
    int n = 0;
    for (int k = 0; k < M->slots[r]; k++)
        n += M->fl[M->first[r] + k].busy;
    return n;
}

/* To the live worker with the most free slots (the load spread evenly). */
static sow_err m_submit(void *ctx, sow_unit *u)
{
    manager *M = ctx;
    int best = 0, most = 0;
    for (int r = 1; r < M->size; r++) {
        int f = M->dead[r] ? 0 : M->slots[r] - busy_count(M, r);
        if (f > most) {
            most = f;
            best = r;
        }
    }
    if (!best && M->pool.slots < 1) {
        return sow_fail(M->why, M->why_size, SOW_E_IO, "every worker is dead");
    }
    if (!best) {
        return sow_fail(M->why, M->why_size, SOW_E_ARG,
                        "a question with every worker busy (a bug)");
    }
    int r = best, k = 0;
    while (M->fl[M->first[r] + k].busy)
        k++;
    msg_unit m;
    pack(u, k, &m);
    int rc = MPI_Send(&m, sizeof m, MPI_BYTE, r, T_UNIT, MPI_COMM_WORLD);
    u->worker = r;
    M->fl[M->first[r] + k] = (flight){true, false, *u};
    /* A failed send: the unit is lost with its worker, whom m_wait finds
     * silent and gives back. */
    M->heard[r] = rc == MPI_SUCCESS ? sow_now() : sow_now() - M->silence;
    return SOW_OK;
}

/* Silence counts only while the manager listens: a gap of more than AWAY
 * seconds since it last looked (its own searches between answers, or it
 * was descheduled) moves every live worker's last word on, since their
 * words meanwhile are still queued. */
#define AWAY 0.1

static void listening(manager *M)
{
    double now = sow_now(), away = now - M->polled;
    M->polled = now;
    for (int r = 1; r < M->size; r++)
        if (!M->dead[r] && away > AWAY)
            M->heard[r] = M->heard[r] + away < now ? M->heard[r] + away : now;
}

/* A live worker that holds units (or has not said READY) and has been
 * silent for M->silence seconds, or 0. */
static int silent(const manager *M)
{
    double now = sow_now();
    for (int r = 1; r < M->size; r++)
        if (!M->dead[r] && (!M->ready[r] || (M->fl && busy_count(M, r))) &&
            now - M->heard[r] > M->silence)
            return r;
    return 0;
}

/* Worker r is taken for dead: its units come back unanswered. */
static void bury(manager *M, int r)
{
    M->dead[r] = true;
    M->pool.slots -= M->slots[r];
    for (int k = 0; k < M->slots[r]; k++) {
        flight *f = &M->fl[M->first[r] + k];
        if (f->busy)
            M->back[M->nback++] = f->unit;
        f->busy = false;
    }
}

/* Any message a worker sends. */
typedef union msg_any {
    msg_answer answer;
    msg_ready ready;
    int32_t word;
} msg_any;

/* Receives the message st announces into *m; false (and *rc) if it came
 * from no worker, or from one taken for dead: that one was only stopped
 * or slow, and is told to quit, since its slots may hold other units by
 * now and its late answers cannot be told apart from theirs. */
static bool receive(manager *M, const MPI_Status *st, msg_any *m, int *rc)
{
    int r = st->MPI_SOURCE, nothing = 0;
    *rc = MPI_Recv(m, sizeof *m, MPI_BYTE, r, st->MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (*rc != MPI_SUCCESS || r < 1 || r >= M->size)
        return false;
    if (M->dead[r]) {
        MPI_Send(&nothing, 1, MPI_INT, r, T_QUIT, MPI_COMM_WORLD);
        return false;
    }
    M->heard[r] = sow_now();
    return true;
}

/* Worker r's answer a into *u. */
static sow_err answered(manager *M, int r, const msg_answer *a, sow_unit *u)
{
    int k = a->q.slot;
    if (k < 0 || k >= M->slots[r] || !M->fl[M->first[r] + k].busy) {
        return sow_fail(M->why, M->why_size, SOW_E_ARG,
                        "an answer from rank %d for a unit it does not hold (a bug)", r);
    }
    flight *f = &M->fl[M->first[r] + k];
    f->busy = false;
    *u = f->unit;
    u->nodes = a->nodes;
    u->cpu_seconds = a->cpu_seconds;
    u->seconds = a->seconds;
    if (a->err == SOW_OK && a->split) {
        u->split = true;
    } else if (a->err == SOW_OK) {
        u->bound = a->bound;
        u->done = true;
    } else if (!(a->err == SOW_E_INTERRUPTED && f->cancelled)) {
        return sow_fail(M->why, M->why_size, (sow_err)a->err, "worker (rank %d): a unit failed: %s",
                        r, sow_err_name((sow_err)a->err));
    }
    return SOW_OK;
}

static sow_err m_wait(void *ctx, sow_unit *u)
{
    manager *M = ctx;
    memset(u, 0, sizeof *u);
    for (;;) {
        if (M->nback) { /* a dead worker's units come back one a call */
            *u = M->back[--M->nback];
            return SOW_OK;
        }
        listening(M);
        MPI_Status st;
        int flag = 0, rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "waiting for an answer", M->why, M->why_size);
        if (flag) {
            msg_any m;
            bool live = receive(M, &st, &m, &rc);
            if (rc != MPI_SUCCESS)
                return mpi_fail(rc, "receiving from a worker", M->why, M->why_size);
            if (live && st.MPI_TAG == T_ANSWER)
                return answered(M, st.MPI_SOURCE, &m.answer, u);
            continue; /* ALIVE, or a dead worker's word */
        }
        int r = silent(M);
        if (r) {
            bury(M, r);
            if (M->pool.slots < 1) {
                return sow_fail(M->why, M->why_size, SOW_E_IO,
                                "every worker is dead (the last: rank %d)", r);
            }
            continue;
        }
        idle();
    }
}

static void m_cancel(void *ctx)
{
    manager *M = ctx;
    int nothing = 0;
    for (int r = 1; r < M->size; r++) {
        if (M->dead[r])
            continue;
        bool any = false;
        for (int k = 0; k < M->slots[r]; k++) {
            flight *f = &M->fl[M->first[r] + k];
            any |= f->busy && !f->cancelled;
            f->cancelled |= f->busy;
        }
        /* A failed send leaves the worker to finish its units: the
         * answers still come back, only later. */
        if (any)
            MPI_Send(&nothing, 1, MPI_INT, r, T_CANCEL, MPI_COMM_WORLD);
    }
}

/* Every worker's READY, or its death: silent for M->silence since GO
 * (it says ALIVE while it opens its database). The first failure's why
 * into M->why. */
static sow_err gather_ready(manager *M)
{
    sow_err first = SOW_OK;
    M->polled = sow_now();
    for (int r = 1; r < M->size; r++)
        M->heard[r] = M->polled;
    for (int waiting = M->size - 1; waiting > 0;) {
        listening(M);
        MPI_Status st;
        int flag = 0, rc = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (rc != MPI_SUCCESS)
            return mpi_fail(rc, "waiting for the workers", M->why, M->why_size);
        int r = st.MPI_SOURCE;
        if (flag) {
            msg_any m;
            bool live = receive(M, &st, &m, &rc);
            if (rc != MPI_SUCCESS)
                return mpi_fail(rc, "waiting for the workers", M->why, M->why_size);
            if (!live || st.MPI_TAG != T_READY || M->ready[r])
                continue; /* ALIVE */
            M->ready[r] = true;
            waiting--;
            M->slots[r] = m.ready.slots < 1 ? 1 : m.ready.slots;
            if (m.ready.err && !first) {
                m.ready.why[sizeof m.ready.why - 1] = 0;
                first = sow_fail(M->why, M->why_size, (sow_err)m.ready.err,
                                 "worker (rank %d): %.140s", r, m.ready.why);
            }
        } else if ((r = silent(M))) {
            M->dead[r] = true; /* no slots yet: nothing to give back */
            waiting--;
        } else {
            idle();
        }
    }
    return first;
}

/* QUIT to every worker, those taken for dead too: one only stopped would
 * otherwise wait for ever, and a send to a dead one fails harmlessly. */
static void quit_all(int size)
{
    int nothing = 0;
    for (int r = 1; r < size; r++)
        MPI_Send(&nothing, 1, MPI_INT, r, T_QUIT, MPI_COMM_WORLD);
}

sow_err sow_units_mpi_manager(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                              int depth, const sow_unit *known, size_t nknown,
                              const sow_units_goal *goal, const sow_units_journal *j,
                              const sow_units_callbacks *cb, sow_units_result *out, char *why,
                              size_t why_size)
{
    memset(out, 0, sizeof *out);
    char msg[SOW_WHY];
    why = sow_why_or(why, &why_size, msg);
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* The database files first, built by this rank alone if missing, so
     * the workers only load them. */
    if (plan->db_seeds > 0 && plan->limits.db_dir) {
        sow_units_worker *w;
        sow_err e = sow_units_worker_new(g, root, plan, cb, &w, why, why_size);
        sow_units_worker_free(w);
        send_go(size, e == SOW_OK);
        if (e)
            return e;
    } else {
        send_go(size, 1);
    }
    manager M = {.size = size, .silence = silence_seconds(), .why = why, .why_size = why_size};
    M.slots = calloc((size_t)size, sizeof *M.slots);
    M.first = calloc((size_t)size, sizeof *M.first);
    M.dead = calloc((size_t)size, sizeof *M.dead);
    M.ready = calloc((size_t)size, sizeof *M.ready);
    M.heard = calloc((size_t)size, sizeof *M.heard);
    sow_err e = M.slots && M.first && M.dead && M.ready && M.heard ? SOW_OK : SOW_E_NOMEM;
    if (e)
        sow_fail(why, why_size, e, "no memory");
    else
        e = gather_ready(&M);
    if (!e) {
        /* Workers dead before READY have no slots; with none left the
         * solve still runs (the ledger may hold every answer it needs)
         * until it has a question: "every worker is dead" (m_submit). */
        int all = 0;
        for (int r = 1; r < size; r++) {
            M.first[r] = all;
            all += M.slots[r];
        }
        M.fl = calloc((size_t)all + 1, sizeof *M.fl);
        M.back = calloc((size_t)all + 1, sizeof *M.back);
        if (!M.fl || !M.back) {
            e = sow_fail(why, why_size, SOW_E_NOMEM, "no memory");
        } else {
            M.pool = (sow_units_pool){all, m_submit, m_wait, m_cancel, &M};
            e = sow_units_solve_pool(g, root, plan, depth, known, nknown, goal, &M.pool, j, cb,
                                     out, why, why_size);
        }
    }
    quit_all(size);
    for (int r = 1; r < size && M.dead; r++)
        out->workers_lost += M.dead[r];
    free(M.slots);
    free(M.first);
    free(M.fl);
    free(M.back);
    free(M.dead);
    free(M.ready);
    free(M.heard);
    return e;
}

/* ---- a worker ----------------------------------------------------------------- */

/* What a worker opens before READY, on a thread of its own so that its
 * main thread says ALIVE meanwhile: a database may take longer to load or
 * build than the silence that makes a worker dead. */
typedef struct setup {
    const sow_game *g;
    const sow_pos *root;
    const sow_plan *plan;
    int threads;
    sow_units_worker *w;
    units_pool *tp;
    sow_units_pool pool;
    sow_err pool_err;
    msg_ready ready;
    atomic_bool done;
} setup;

static void *setup_main(void *arg)
{
    setup *S = arg;
    msg_ready *y = &S->ready;
    sow_err e = sow_units_worker_new(S->g, S->root, S->plan, NULL, &S->w, y->why, sizeof y->why);
    if (!e && (e = sow_search_tests_begin(units_worker_search(S->w), S->root)))
        snprintf(y->why, sizeof y->why, "%s", sow_err_name(e));
    if (!e && (e = units_pool_new(S->w, S->threads, &S->pool_err, 0, NULL, NULL, 0, &S->pool,
                                  &S->tp)))
        snprintf(y->why, sizeof y->why, "cannot start %d threads", S->threads);
    y->err = e;
    atomic_store(&S->done, true);
    return NULL;
}

/* ALIVE to the manager when a beat has passed since *last (or *last is
 * 0: at once). */
static int beat_due(double beat, double *last)
{
    double now = sow_now();
    if (*last > 0 && now - *last < beat)
        return MPI_SUCCESS;
    *last = now;
    int nothing = 0;
    return MPI_Send(&nothing, 1, MPI_INT, 0, T_ALIVE, MPI_COMM_WORLD);
}

/* Runs setup_main, saying ALIVE at once and every `beat` seconds until it
 * is done; *last: the last ALIVE. Without a thread it could not say ALIVE
 * (nor start its pool's threads): READY says why. */
static void open_alive(setup *S, double beat, double *last)
{
    pthread_t th;
    if (pthread_create(&th, NULL, setup_main, S)) {
        S->ready.err = SOW_E_NOMEM;
        snprintf(S->ready.why, sizeof S->ready.why, "cannot start a thread");
        return;
    }
    while (!atomic_load(&S->done)) {
        beat_due(beat, last); /* a failed send: the manager finds it silent */
        idle();
    }
    pthread_join(th, NULL);
}

/* Answers the manager's units with a pool of its threads (one unit a
 * thread, over one table: units/internal.h), its main thread the only one
 * that talks MPI: it hands units to the pool, sends the answers back,
 * cancels on CANCEL and says it is alive every beat from GO to QUIT (the
 * sequence at the top of this file). */
sow_err sow_units_mpi_worker(const sow_game *g, const sow_pos *root, const sow_plan *plan,
                             char *why, size_t why_size)
{
    int go = 0, rc = wait_go(&go);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "waiting for the manager", why, why_size);
    if (!go)
        return sow_fail(why, why_size, SOW_E_INTERRUPTED, "the manager failed before the solve");
    /* Stopped by CANCEL, not by this process's Ctrl-C: mpirun passes
     * signals to every rank, and the manager decides. */
    static const sow_stop_flag never = 0;
    sow_plan p = *plan;
    p.limits.stop = &never;
    int threads = p.limits.threads > 1 ? p.limits.threads : 1;
    setup S = {.g = g, .root = root, .plan = &p, .threads = threads, .ready = {.slots = threads}};
    atomic_init(&S.done, false);
    double beat = heartbeat_seconds(), last_beat = 0;
    open_alive(&S, beat, &last_beat);
    sow_units_worker *w = S.w;
    units_pool *tp = S.tp;
    sow_units_pool pool = S.pool;
    sow_err e = (sow_err)S.ready.err;
    rc = MPI_Send(&S.ready, sizeof S.ready, MPI_BYTE, 0, T_READY, MPI_COMM_WORLD);
    while (!e && rc == MPI_SUCCESS) {
        bool busy = false;
        MPI_Status st;
        int flag = 0;
        rc = MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (rc != MPI_SUCCESS)
            break;
        if (flag && st.MPI_TAG == T_UNIT) {
            msg_unit m;
            rc = MPI_Recv(&m, sizeof m, MPI_BYTE, 0, T_UNIT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                break;
            sow_unit u = {.nline = m.nline, .threshold = m.threshold, .ticket = m.slot,
                          .max_nodes = m.max_nodes};
            for (int d = 0; d < u.nline && d < SOW_UNITS_MAX_DEPTH; d++)
                u.line[d] = (sow_move)m.line[d];
            if (pool.submit(pool.ctx, &u)) { /* more than its slots: the manager's bug */
                msg_answer a = {.q = m, .err = SOW_E_ARG};
                rc = MPI_Send(&a, sizeof a, MPI_BYTE, 0, T_ANSWER, MPI_COMM_WORLD);
            }
            busy = true;
        } else if (flag) { /* QUIT, or CANCEL: abandon the units in flight */
            int nothing;
            rc = MPI_Recv(&nothing, 1, MPI_INT, 0, st.MPI_TAG, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
            if (st.MPI_TAG == T_QUIT)
                break;
            pool.cancel(pool.ctx);
            busy = true;
        }
        sow_unit u;
        sow_err ue;
        while (rc == MPI_SUCCESS && units_pool_take(tp, &u, &ue)) {
            msg_answer a = {.err = ue, .bound = u.bound, .split = ue == SOW_OK && u.split,
                            .nodes = u.nodes, .cpu_seconds = u.cpu_seconds,
                            .seconds = u.seconds};
            pack(&u, (int)u.ticket, &a.q);
            rc = MPI_Send(&a, sizeof a, MPI_BYTE, 0, T_ANSWER, MPI_COMM_WORLD);
            busy = true;
        }
        /* Idle too: a UNIT on its way counts from its send. */
        if (rc == MPI_SUCCESS)
            rc = beat_due(beat, &last_beat);
        if (!busy)
            idle();
    }
    units_pool_free(tp);
    if (w)
        sow_search_tests_end(units_worker_search(w));
    sow_units_worker_free(w);
    if (e)
        return sow_fail(why, why_size, e, "%s", S.ready.why);
    if (rc != MPI_SUCCESS)
        return mpi_fail(rc, "talking to the manager", why, why_size);
    return SOW_OK;
}
