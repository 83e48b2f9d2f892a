/* sow/plan.h - the solve plan: how to spend the user's limits on one
 * position (table size, database size, a trial search first or not), each
 * decision made once, then running it.
 *
 * Policy belongs to the engine, not to the front end (Stockfish's timeman):
 * the CLI parses limits, calls sow_plan_make and sow_plan_solve, and prints.
 * The plan sits above both the search and the databases (rules <- search,
 * rules <- retro <- db, {search, db} <- plan <- cli): it is the one place
 * that turns a sow_db into the search's oracle.
 *
 * The decisions follow a cost model (src/plan/model.c) whose constants are
 * measured for each game family from its own rules (scripts/plan-fit ->
 * src/plan/fitted.c, results/plan-fit.md): building a database of k seeds
 * costs its positions at the family's rate per thread; the search grows
 * by the family's factor per seed the board has above the database (the
 * "excess"), never beyond the search without one. The table is sized by
 * that excess and the modelled search, for the database actually planned.
 */
#ifndef SOW_PLAN_H
#define SOW_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sow/db.h"
#include "sow/error.h"
#include "sow/game.h"
#include "sow/position.h"
#include "sow/progress.h"
#include "sow/search.h"

/* What the user allows. Zero-initialise, then set what was asked:
 * every zero means "choose". */
typedef struct sow_limits {
    uint64_t memory;     /* bytes for database + table; 0: sow_plan_default_memory() */
    int threads;         /* search and build threads; 0: sow_plan_default_threads() */
    const char *db_dir;  /* database files to load and save (created if missing,
                            one level); NULL: build in memory, save nothing */
    int db_seeds;        /* forced database seeds (above the board's seeds:
                            lowered to them); 0: choose; -1: none */
    bool no_db;          /* no database at all: excludes db_dir and a forced
                            db_seeds (SOW_E_ARG) */
    size_t tt_mb;        /* forced table size in MB; 0: choose */
    bool value_only;     /* only the value and a best move */
    bool pie_opening;    /* the position lies in South's opening turn of a pie game */
    bool fixed_db;       /* the database stays as planned, never grows: work
                            units (sow/units.h) all search above the one */
    double time_limit;   /* seconds for the whole solve, database included; 0: none */
    double deadline;     /* > 0: the time on sow_retro_clock()'s clock by which
                            the whole solve ends, database included (a
                            command's start plus its --time, so that what
                            came before the plan counts too); 0: time_limit
                            from the start of sow_plan_make / sow_plan_solve */
    const sow_stop_flag *stop; /* set non-zero (e.g. by a SIGINT handler) to stop */
} sow_limits;

/* In place or copied. A level a folder holds is either probed where its
 * file is mapped (4 KB pages: a probe misses the TLB more) or copied into
 * huge pages first. The copy ran at about SOW_PLAN_COPY_RATE bytes a
 * second on the machine measured (most of it the kernel zeroing and
 * faulting the new pages), and a search probing in place took about
 * SOW_PLAN_IN_PLACE_SLOWDOWN times as long (1.15x above a 26-seed Kalah(6)
 * database, 1.7x above 28): the copy pays when the search it serves is
 * longer than copy / (slowdown - 1) (doc/experiments.md, "In place or
 * copied"). An analysis's search loses less in place: cut by its time or
 * ended by a proof, it probes the database only where its lines reach it
 * (Kalah(6,4) analysed to its exact value over 24 seeds: 9.09 s in place,
 * 9.05 s with a 0.8 s copy first; Kalah 6x6 from the start: the same
 * nodes a second), so it is counted SOW_PLAN_ANALYSIS_IN_PLACE_SLOWDOWN
 * (doc/experiments.md, "An analysis copies its database later"). */
#define SOW_PLAN_COPY_RATE 4e8
#define SOW_PLAN_IN_PLACE_SLOWDOWN 1.4
#define SOW_PLAN_ANALYSIS_IN_PLACE_SLOWDOWN 1.1
/* A database held in place is read ahead by the kernel (sow_db_options.
 * read_ahead) when its files would be read in its time left at this rate
 * (bytes a second: 612 MB in 1.88 s from this machine's disk), and not
 * for a root the database answers with one probe. */
#define SOW_PLAN_READ_RATE 3e8

/* Does a copy of `copy` seconds pay for itself over a search of `search`
 * seconds (INFINITY: unknown, a depth or node limit: no) that takes
 * `slowdown` times as long in place (one of the two constants above)? */
bool sow_plan_copy_pays(double copy, double search, double slowdown);

/* Length of each reason string below (not errors: sow/error.h's SOW_WHY),
 * terminator included. */
#define SOW_PLAN_WHY 256

/* The decisions for one position, each with its reason in words. */
typedef struct sow_plan {
    sow_limits limits;       /* the limits, with memory and threads filled in;
                                memory less search_bytes: what the table and
                                the database share */
    uint64_t search_bytes;   /* the search's own memory, beside its table:
                                threads x sow_search_thread_bytes */
    int board_seeds;         /* seeds in the pits of the position */
    size_t tt_mb;            /* transposition table, MB */
    int db_seeds;            /* database up to this many seeds; 0: none */
    uint64_t db_bytes;       /* its memory while it opens: the files' sizes
                                when the folder holds them (packed levels:
                                about half), else the build's peak
                                (sow_db_build_bytes) */
    int db_files;            /* with db_dir: its files hold every seed count
                                0..db_files (sow_db_dir_levels); -1: none */
    uint64_t db_budget;      /* what the database build may use: memory - table -
                                threads x sow_search_thread_bytes */
    bool root_in_db;         /* db_seeds >= board_seeds: the database answers
                                the root, no search */
    bool db_in_place;        /* probe the database's files where they are
                                mapped (sow_db_options.in_place) rather
                                than copy them into huge pages: where the
                                modelled search (an analysis: its time; a
                                depth or node limit: unknown) would not
                                earn the copy back (sow_plan_copy_pays).
                                sow_plan_open_db also opens in place when
                                root_in_db (a few probes) */
    double db_copy_seconds;  /* the copy's modelled seconds: the levels of the
                                database that db_dir holds, at
                                SOW_PLAN_COPY_RATE (0 without a folder:
                                levels built in memory stay where built) */
    double build_share;      /* with a time limit: the share of the time left
                                that the database's build is planned within
                                (a build the model misjudged is cut at its
                                last complete seed count a little later) */
    double trial_seconds;    /* > 0: search this long without a database
                                first, build only if that does not finish */
    int db_grow_seeds;       /* > db_seeds: the database may grow up to this
                                many seeds, one step each time the search
                                above it outlasts the next step's build (the
                                model's guess of db_seeds checked by
                                measurement); 0: it does not grow */
    /* One line each, for --verbose and for warnings; they name the limits
     * by their `sow solve` options. db_degraded: the database decision
     * departs from what the user asked or would get with the defaults (a
     * forced size lowered, a database dropped or shrunk for memory where
     * the model expects it to matter): worth telling even unasked. */
    char why_tt[SOW_PLAN_WHY], why_db[SOW_PLAN_WHY], why_trial[SOW_PLAN_WHY],
        why_grow[SOW_PLAN_WHY];
    bool db_degraded;
} sow_plan;

/* The default memory budget: 4 GB, or a quarter of the machine's memory
 * if less (at least 256 MB), in bytes. Thread-safe. */
uint64_t sow_plan_default_memory(void);

/* The default thread count: the cores this process may run on
 * (sched_getaffinity), at least 1. Thread-safe. */
int sow_plan_default_threads(void);

/* Decides the plan for solving `pos` (a position of `g`) within `lim`.
 * Returns SOW_OK and fills *out, or an error with why saying what is wrong
 * (sow/error.h, "Messages"):
 * SOW_E_ARG (threads < 0; no_db or db_seeds -1 together with db_dir or a
 * forced db_seeds; tt_mb above the memory), SOW_E_NOMEM (a forced database and its table do not
 * fit the memory), SOW_E_LIMIT (a forced db_seeds, capped at the board's
 * seeds, beyond the entry encoding: sow_retro_max_seeds; or a board too big
 * for the exact solver's table keys: sow_search_exact). A forced
 * db_seeds above the board's seeds is lowered to them (db_degraded).
 * No allocation, no I/O but for the defaults' system queries and, with
 * db_dir, the names of the folder's files (a game with cycles needs no
 * builder's scratch for the seed counts already there); thread-safe.
 * With a time limit (time_limit, or deadline), out->limits.deadline is
 * set (now + time_limit when only that was given) and the plan fits the
 * time left: no database whose modelled build of what the folder lacks
 * takes more than half of it (build_share), a trial of at most half, a
 * table no bigger than the time can fill. */
sow_err sow_plan_make(const sow_game *g, const sow_pos *pos, const sow_limits *lim,
                      sow_plan *out, char *why, size_t why_size);

/* The database for an analysis (sow/analyse.h) of `pos` within `lim`,
 * where lim->time_limit is the whole analysis's time (0: none given; or
 * lim->deadline, which out->limits.deadline then holds) and lim->tt_mb
 * the analysis's table. no_db, db_seeds -1: none; a forced
 * db_seeds: that, capped at the board's seeds (db_degraded); else the
 * biggest database that fits the memory beside the table (with the
 * builder's scratch on games that cycle) and whose modelled build of the
 * seed counts db_dir lacks takes at most a quarter of the time left
 * (without a time, as under a depth limit: none, so only the levels
 * db_dir holds). An analysis stops in time while a build does not, and
 * the oracle only helps once the search reaches its seeds, hence the share.
 * Fills db_seeds, db_bytes, db_budget, root_in_db, db_in_place (a caller
 * that keeps the database for many questions may clear both: a resident
 * engine copies once), tt_mb and why_db;
 * never a trial. Unlike sow_plan_make, any board is accepted (an
 * analysis needs no exact key). Errors as sow_plan_make's, but never
 * SOW_E_LIMIT for the board. No I/O but db_dir's names; thread-safe. */
sow_err sow_plan_analysis(const sow_game *g, const sow_pos *pos, const sow_limits *lim,
                          sow_plan *out, char *why, size_t why_size);

/* How sow_plan_solve reports progress; every member may be NULL/0. The
 * callbacks run on the calling thread, never concurrently, and must not
 * call back into sow. */
typedef struct sow_plan_callbacks {
    void (*search_progress)(void *ctx, const sow_search_progress *pr);
    sow_progress_fn db_progress;
    /* Called when another process holds the lock of a database file (it
     * is building it; sow_db_open waits, then loads it). */
    sow_db_wait_fn db_wait;
    /* Called when a phase begins: "trial" (search without a database,
     * trial_seconds at most), "database" (open or build), "search",
     * "probe" (the root from the database). */
    void (*phase)(void *ctx, const char *phase);
    /* Called before the database grows (plan->db_grow_seeds): the search
     * above `from` seeds ran `searched` seconds, longer than the modelled
     * build of `to`; the phase "database" follows. */
    void (*db_grow)(void *ctx, int from, int to, double searched);
    void *ctx;
    double progress_every;   /* seconds between search reports (<= 0: 1 s) */
} sow_plan_callbacks;

/* What sow_plan_solve found and what it used. */
typedef struct sow_plan_result {
    /* The answer, as sow_search_solve gives it (when the database answers
     * the root: every move exact, the principal variation read from the
     * database, mtd_probes 0). On SOW_E_INTERRUPTED, search.lower/upper
     * hold the bounds proven so far and search.sol.best the best move found
     * so far (-1 if none); before any search they span every score. */
    sow_search_result search;
    bool trial_solved;        /* the trial finished: no database was built */
    uint64_t trial_nodes;     /* nodes of an unfinished trial (also in search.sol.nodes) */
    int db_seeds;             /* the database used; 0: none */
    int db_first_seeds;       /* the first one opened (< db_seeds: it grew) */
    bool db_cut;              /* the time limit cut a database build: db_seeds is
                                 the last seed count complete (its files stay
                                 in the folder), below what was planned */
    uint64_t db_bytes;        /* its positions at a byte each (sow_db_bytes): the
                                 measure of its build's rate */
    uint64_t db_held_bytes;   /* what it holds in memory (sow_db_size: a packed
                                 level takes its packed size), mapped or copied */
    double db_seconds;        /* to open or build it (each step, if it grew) */
    double db_last_seconds;   /* the last step's part of db_seconds */
    double seconds;           /* wall-clock, the whole call */
    double cpu_seconds;       /* CPU seconds of the searches, all threads */
    int db_opens;             /* databases this call opened (loaded or built;
                                 0: none, or one held open by the caller:
                                 sow_plan_solve_held) */
} sow_plan_result;

/* Runs `plan` (from sow_plan_make for this g and pos): the trial search
 * when planned, the database (created, loaded or built within
 * plan->db_budget), the search with the database as its oracle, or the
 * root answered from the database. With a time limit every phase ends
 * by plan->limits.deadline (or time_limit from this call): the database
 * is shrunk to what the time then left allows, a build that runs late is
 * cut at its last complete seed count (out->db_cut; the search goes on
 * above what exists), growth happens only when the step fits, and the
 * search has the rest. With plan->db_grow_seeds the search
 * above the database runs only as long as the next step's build would
 * take; then the database grows and the search goes on above it, the
 * table keeping what it learnt. Returns SOW_OK, SOW_E_INTERRUPTED (the
 * stop flag, or the time limit; *out says what is proven), SOW_E_NOMEM
 * (table or database), the database's errors (sow_db_open: SOW_E_IO,
 * SOW_E_FORMAT, ...) or the search's (SOW_E_LIMIT: a line longer than the
 * search stack), with why saying what went wrong. Thread-safe across calls
 * (each has its own table and database); uses plan->limits.threads
 * threads. */
sow_err sow_plan_solve(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                       const sow_plan_callbacks *cb, sow_plan_result *out, char *why,
                       size_t why_size);

/* What a caller keeps open across solves of one game (a resident engine,
 * sow/engine.h) and lends to sow_plan_solve_held. Either may be NULL.
 *   db      an open database of g. When it holds at least plan->db_seeds
 *           seeds (a bigger one serves a plan that asks for fewer), the
 *           run uses it as it is: no trial, no database opened, no time
 *           cut (it already exists), the root probed when it holds the
 *           root, growth as planned. Otherwise it is closed first (a run
 *           never holds two databases) and the run opens its own.
 *   search  a solver of g with plan->limits.threads threads, used instead
 *           of a new one: its table keeps what it learnt (exact entries,
 *           sound for any position and oracle), its question options are
 *           set from the plan (sow_search_set_question), its table size
 *           stays (plan->tt_mb is not applied).
 * On return (success or not) both hold what the run ended with, owned by
 * the caller, who frees them (sow_db_close, sow_search_free). The memory
 * of what is lent is the caller's to account for: the plan counts only
 * what it opens. */
typedef struct sow_plan_held {
    sow_db *db;
    sow_search *search;
} sow_plan_held;

/* sow_plan_solve with what the caller holds open (held may be NULL: then
 * exactly sow_plan_solve). Errors and thread safety as sow_plan_solve;
 * one call at a time per held pair. */
sow_err sow_plan_solve_held(const sow_game *g, const sow_pos *pos, const sow_plan *plan,
                            const sow_plan_callbacks *cb, sow_plan_held *held,
                            sow_plan_result *out, char *why, size_t why_size);

/* Opens the database `plan` decided (plan->db_seeds > 0; from
 * sow_plan_make or sow_plan_analysis for this g): loaded from
 * plan->limits.db_dir, or built (and saved there) within plan->db_budget
 * on plan->limits.threads threads, stopping at plan->limits.stop; *oracle
 * then probes it (sow_plan_oracle). Loaded files are probed where they are
 * mapped when plan->root_in_db or plan->db_in_place, else copied. With plan->limits.deadline (and not
 * fixed_db), a build that would run past its share of the time left
 * stops at its last complete seed count: SOW_OK with (*db)->max_seeds
 * below plan->db_seeds (the complete levels stay in the folder), or *db
 * NULL when not one was complete. cb may be NULL; its db_progress and
 * db_wait are used. Returns sow_db_open's errors (SOW_E_INTERRUPTED when
 * stopped) with why saying "database up to K seeds: ..." in one line.
 * Thread-safe. */
sow_err sow_plan_open_db(const sow_game *g, const sow_plan *plan,
                         const sow_plan_callbacks *cb, sow_db **db, sow_oracle *oracle,
                         char *why, size_t why_size);

/* The search's oracle over database `db` (up to max_seeds seeds), as
 * sow_plan_solve wires it, for callers that run their own searches with
 * the plan's database (the work units of sow/units.h). `db` must outlive
 * every search using *out. Thread-safe. */
void sow_plan_oracle(const sow_db *db, int max_seeds, sow_oracle *out);

#endif
