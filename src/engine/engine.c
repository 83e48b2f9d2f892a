/* engine.c - the resident engine's life, what it holds within its memory,
 * and the exact question on what it holds (sow/engine.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "msg.h"

sow_err sow_engine_new(const sow_game *g, const sow_limits *lim, sow_engine **out, char *why,
                       size_t why_size)
{
    *out = NULL;
    if (lim->threads < 0 || lim->threads > SOW_MAX_THREADS)
        return sow_fail(why, why_size, SOW_E_ARG, "threads %d: expected 1..%d", lim->threads,
                        SOW_MAX_THREADS);
    if (lim->no_db && lim->db_dir)
        return sow_fail(why, why_size, SOW_E_ARG, "no database, yet a database folder");
    sow_engine *e = calloc(1, sizeof *e);
    if (!e || (lim->db_dir && !(e->dir = strdup(lim->db_dir)))) {
        free(e);
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    }
    e->g = *g;
    e->lim = (sow_limits){
        .memory = lim->memory ? lim->memory : sow_plan_default_memory(),
        .threads = lim->threads ? lim->threads : sow_plan_default_threads(),
        .db_dir = e->dir,
        .no_db = lim->no_db,
        .stop = lim->stop,
    };
    atomic_init(&e->bytes, 0);
    *out = e;
    return SOW_OK;
}

void sow_engine_free(sow_engine *e)
{
    if (!e)
        return;
    engine_drop_search(e);
    engine_drop_db(e);
    sow_book_free(e->book);
    free(e->dir);
    free(e);
}

const sow_game *sow_engine_game(const sow_engine *e)
{
    return &e->g;
}

uint64_t engine_db_bytes(const sow_engine *e)
{
    return e->db ? sow_db_size(e->db) : 0;
}

uint64_t engine_search_bytes(const sow_engine *e, size_t tt_mb)
{
    return (uint64_t)tt_mb * MB + (uint64_t)e->lim.threads * sow_search_thread_bytes(&e->g);
}

void engine_account(sow_engine *e)
{
    uint64_t b = engine_db_bytes(e) + (e->search ? engine_search_bytes(e, e->tt_mb) : 0);
    atomic_store(&e->bytes, b);
}

void engine_drop_search(sow_engine *e)
{
    sow_search_free(e->search);
    e->search = NULL;
    e->tt_mb = 0;
    engine_account(e);
}

void engine_drop_db(sow_engine *e)
{
    sow_db_close(e->db);
    e->db = NULL;
    engine_account(e);
}

/* Fits what the engine holds to `plan` before it runs: a database with
 * the seeds it asks for is used as it is, the plan's table shrunk to fit
 * beside it (a bigger database needs a smaller table); a kept table of at
 * least the plan's size stays if the plan's database still fits beside
 * it. Whatever does not fit is let go. */
static void fit_to_plan(sow_engine *e, sow_plan *plan)
{
    uint64_t mem = e->lim.memory, threads = engine_search_bytes(e, 0);
    if (e->search && e->analysis)
        engine_drop_search(e); /* heuristic entries never meet exact ones */
    if (plan->limits.no_db || plan->limits.db_seeds < 0)
        engine_drop_db(e); /* asked to search without one */
    if (e->db && e->db->max_seeds >= plan->db_seeds &&
        sow_db_covers(e->db, &e->g, plan->board_seeds)) {
        uint64_t used = engine_db_bytes(e) + threads;
        uint64_t room = mem > used ? (mem - used) / MB : 0;
        if (room < 1)
            engine_drop_db(e);
        else if (plan->tt_mb > room)
            plan->tt_mb = room;
    } else if (e->db) {
        engine_drop_db(e); /* the plan opens the bigger one */
    }
    if (!e->search)
        return;
    uint64_t db = e->db ? engine_db_bytes(e) : plan->db_bytes;
    if (e->tt_mb < plan->tt_mb || engine_search_bytes(e, e->tt_mb) + db > mem) {
        engine_drop_search(e);
        return;
    }
    /* The kept table counts in the plan's own budget, so that a database
     * it builds or grows stays beside it. */
    uint64_t extra = (uint64_t)(e->tt_mb - plan->tt_mb) * MB;
    plan->db_budget = plan->db_budget > extra ? plan->db_budget - extra : 0;
    plan->tt_mb = e->tt_mb;
}

sow_err engine_exact(sow_engine *e, const sow_pos *p, const sow_limits *L, sow_plan *plan,
                     sow_plan_result *res, char *why, size_t why_size)
{
    sow_err err = sow_plan_make(&e->g, p, L, plan, why, why_size);
    if (err)
        return err;
    fit_to_plan(e, plan);
    sow_plan_held held = {e->db, e->search};
    size_t tt = e->search ? e->tt_mb : plan->tt_mb;
    e->db = NULL;
    e->search = NULL;
    err = sow_plan_solve_held(&e->g, p, plan, NULL, &held, res, why, why_size);
    e->db = held.db;
    e->search = held.search;
    e->analysis = false;
    e->tt_mb = e->search ? tt : 0;
    e->db_opens += (unsigned)res->db_opens;
    engine_account(e);
    return err;
}

sow_err sow_engine_solve(sow_engine *e, const sow_pos *p, const sow_limits *q, sow_plan *plan,
                         sow_plan_result *out, char *why, size_t why_size)
{
    sow_limits L = e->lim;
    L.value_only = q->value_only;
    L.pie_opening = q->pie_opening;
    L.time_limit = q->time_limit;
    L.deadline = q->deadline;
    L.tt_mb = q->tt_mb;
    L.db_seeds = q->db_seeds;
    L.no_db = L.no_db || q->no_db;
    if (L.no_db)
        L.db_dir = NULL;
    e->questions++;
    return engine_exact(e, p, &L, plan, out, why, why_size);
}

void sow_engine_stats_get(const sow_engine *e, sow_engine_stats *out)
{
    *out = (sow_engine_stats){
        .bytes = sow_engine_bytes(e),
        .memory = e->lim.memory,
        .db_bytes = engine_db_bytes(e),
        .db_seeds = e->db ? e->db->max_seeds : 0,
        .table_bytes = e->search ? engine_search_bytes(e, e->tt_mb) : 0,
        .analysis_table = e->search && e->analysis,
        .questions = e->questions,
        .db_opens = e->db_opens,
    };
}

uint64_t sow_engine_bytes(const sow_engine *e)
{
    return atomic_load(&((sow_engine *)e)->bytes);
}
