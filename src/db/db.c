/* db.c - the sow_db handle: build in memory, load and save files. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/mem.h"
#include "db/file.h"
#include "sow/db.h"

typedef struct sow_db_priv {
    sow_db_map map[SOW_DB_MAX_SEEDS + 1];  /* loaded files */
    sow_huge own[SOW_DB_MAX_SEEDS + 1];    /* built tables (anonymous maps) */
} sow_db_priv;

int sow_db_max_seeds(const sow_db *db)
{
    return db->max_seeds;
}

unsigned sow_db_variant(const sow_game *g)
{
    return g->cfg.variant & ~(unsigned)SOW_VAR_PIE;
}

void sow_db_file_name(const sow_game *g, int k, char *buf, size_t size)
{
    char var[96] = "";
    unsigned v = sow_db_variant(g);
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (v & (1u << i)) {
            strcat(var, "-");
            strcat(var, sow_variant_name(1u << i));
        }
    snprintf(buf, size, "%s-m%d%s-k%d.sowdb", sow_game_name(g->cfg.game), g->m, var, k);
}

size_t sow_db_bytes(const sow_game *g, int max_seeds)
{
    /* sum_{k<=K} C(k+P-1, P-1) = C(K+P, P) (hockey stick). */
    uint64_t total = 0;
    for (int k = 0; k <= max_seeds; k++) {
        uint64_t c = sow_index_count(2 * g->m, k);
        if (c == UINT64_MAX || total + c < total || total + c > SIZE_MAX - sizeof(sow_db))
            return SIZE_MAX;
        total += c;
    }
    return (size_t)total + sizeof(sow_db) + sizeof(sow_db_priv);
}

void sow_db_close(sow_db *db)
{
    if (!db)
        return;
    if (db->priv) {
        for (int k = 0; k <= SOW_DB_MAX_SEEDS; k++) {
            sow_db_file_unmap(&db->priv->map[k]);
            sow_huge_free(&db->priv->own[k]);
        }
        free(db->priv);
    }
    free(db);
}

/* Temporary files of a build that died (their process is gone) can go. */
static void remove_stale_temps(const char *dir, const char *name)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t len = strlen(name);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, name, len) != 0 || strncmp(e->d_name + len, ".tmp.", 5) != 0)
            continue;
        long pid = strtol(e->d_name + len + 5, NULL, 10);
        if (pid > 0 && (kill((pid_t)pid, 0) == 0 || errno != ESRCH))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        unlink(path);
    }
    closedir(d);
}

sow_err sow_db_open(const sow_game *g, int max_seeds, const char *dir,
                    const sow_db_options *opt, sow_db **out, char *why, size_t why_size)
{
    static const sow_db_options defaults = {0};
    if (!opt)
        opt = &defaults;
    *out = NULL;
    if (why && why_size)
        why[0] = '\0';
    if (sow_retro_supported(g) != SOW_OK) {
        sow_db_say(why, why_size, "%s can repeat positions: retrograde databases by seed count "
            "exist only for kalah, chungkala and congkak", sow_game_name(g->cfg.game));
        return SOW_E_ARG;
    }
    if (max_seeds < 0) {
        sow_db_say(why, why_size, "the seed count must be >= 0, not %d", max_seeds);
        return SOW_E_ARG;
    }
    int lim = sow_retro_max_seeds(g);
    if (max_seeds > lim) {
        sow_db_say(why, why_size, "%s databases go up to %d seeds (int8 entries), not %d",
            sow_game_name(g->cfg.game), lim, max_seeds);
        return SOW_E_LIMIT;
    }
    size_t need = sow_db_bytes(g, max_seeds);
    if (need != SIZE_MAX)
        need += sow_retro_scratch_bytes(g, max_seeds); /* a build's row lists and move tables */
    if (need == SIZE_MAX || (opt->memory && need > opt->memory)) {
        sow_db_say(why, why_size, "the database up to %d seeds on %d pits needs %.2f GB, over the "
            "memory budget of %.2f GB", max_seeds, g->m, (double)need / 1e9,
            (double)opt->memory / 1e9);
        return SOW_E_NOMEM;
    }

    struct stat st;
    if (dir && (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
        sow_db_say(why, why_size, "%s is not a directory", dir);
        return SOW_E_IO;
    }

    sow_db *db = calloc(1, sizeof *db);
    sow_db_priv *pv = calloc(1, sizeof *pv);
    if (!db || !pv) {
        free(db);
        free(pv);
        sow_db_say(why, why_size, "out of memory");
        return SOW_E_NOMEM;
    }
    db->priv = pv;
    db->m = g->m;
    db->max_seeds = max_seeds;
    db->score_scale = g->score_scale;
    sow_index_init(&db->ix, 2 * g->m);

    sow_err e = SOW_OK;
    char name[128], path[4096];
    bool have[SOW_DB_MAX_SEEDS + 1] = {0};
    sow_progress base = {.max_seeds = max_seeds};

    /* Load every file there is first: a bad file fails before any work. */
    for (int k = 0; k <= max_seeds; k++) {
        uint64_t n = sow_index_count(2 * g->m, k);
        if (dir) {
            sow_db_file_name(g, k, name, sizeof name);
            snprintf(path, sizeof path, "%s/%s", dir, name);
            sow_db_header h;
            char w[512];
            e = sow_db_file_map(path, opt->no_verify, &h, &pv->map[k], w, sizeof w);
            if (e == SOW_E_MISSING && !opt->no_build) {
                e = SOW_OK;
            } else if (e == SOW_E_MISSING) {
                sow_db_say(why, why_size, "seed count %d is missing: no %s in %s", k, name, dir);
                goto fail;
            } else if (e) {
                sow_db_say(why, why_size, "%s", w);
                goto fail;
            } else if ((e = sow_db_header_match(&h, g, k, w, sizeof w)) != SOW_OK) {
                sow_db_say(why, why_size, "%s: %s", path, w);
                goto fail;
            } else {
                have[k] = true;
                db->table[k] = pv->map[k].data;
                if (!opt->in_place) {
                    /* Probes are random: in the file's 4 KB pages nearly
                     * each one also misses the TLB. A copy in huge pages
                     * spares most of those misses. */
                    int8_t *t = (int8_t *)sow_huge_alloc((size_t)n, &pv->own[k]);
                    if (t) {
                        memcpy(t, pv->map[k].data, (size_t)n);
                        mprotect(t, (size_t)n, PROT_READ);
                        sow_db_file_unmap(&pv->map[k]);
                        db->table[k] = t;
                    }
                }
            }
        }
        if (!have[k])
            base.all_total += n;
    }

    double t0 = sow_retro_clock();
    for (int k = 0; k <= max_seeds; k++) {
        if (have[k])
            continue;
        uint64_t n = sow_index_count(2 * g->m, k);
        int8_t *t = (int8_t *)sow_huge_alloc((size_t)n, &pv->own[k]);
        if (!t) {
            sow_db_say(why, why_size, "out of memory for seed count %d (%.2f GB)", k, (double)n / 1e9);
            e = SOW_E_NOMEM;
            goto fail;
        }
        sow_retro_job job = {
            .g = g, .ix = &db->ix, .k = k, .tab = db->table, .out = t,
            .threads = opt->threads, .progress = opt->progress,
            .progress_ctx = opt->progress_ctx, .base = base, .t0 = t0, .stop = opt->stop,
        };
        e = sow_retro_build(&job);
        if (e) {
            sow_db_say(why, why_size, e == SOW_E_INTERRUPTED ? "interrupted while building seed "
                "count %d" : "cannot build seed count %d", k);
            goto fail;
        }
        base.all_done += n;
        db->table[k] = t;
        if (dir) {
            sow_db_file_name(g, k, name, sizeof name);
            remove_stale_temps(dir, name);
            sow_db_header h = {
                .game = g->cfg.game, .m = g->m, .variant = sow_db_variant(g), .seeds = k,
                .encoding = SOW_DB_ENC_INT8_FUTURE, .index = SOW_DB_IDX_COMBINADIC,
                .score_scale = g->score_scale, .entries = n,
            };
            e = sow_db_file_write(dir, name, &h, t, why, why_size);
            if (e)
                goto fail;
        }
        mprotect(t, (size_t)n, PROT_READ);
    }
    *out = db;
    return SOW_OK;

fail:
    sow_db_close(db);
    return e;
}
