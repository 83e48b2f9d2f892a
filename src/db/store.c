/* store.c - the database store of a machine: where it is, its families,
 * its listing and its budget (sow/store.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "file.h"
#include "msg.h"
#include "sow/store.h"

sow_err sow_store_default(char *buf, size_t size, char *why, size_t why_size)
{
    const char *env = getenv("SOW_DB"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    int len;
    if (env && *env)
        len = snprintf(buf, size, "%s", env);
    else if (xdg && *xdg)
        len = snprintf(buf, size, "%s/sow", xdg);
    else if (home && *home)
        len = snprintf(buf, size, "%s/.cache/sow", home);
    else {
        return sow_fail(why, why_size, SOW_E_IO,
            "no database store: set SOW_DB, XDG_CACHE_HOME or HOME "
                   "(or give --db DIR, or --no-db)");
    }
    if (len < 0 || (size_t)len >= size) {
        return sow_fail(why, why_size, SOW_E_IO, "the database store's path is too long");
    }
    return SOW_OK;
}

bool sow_store_is(const char *dir)
{
    char p[4096];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, SOW_STORE_MARK);
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Creates the missing parents of path (mode 0777 less the umask, as
 * mkdir -p), then path itself with mode. */
static int make_path(const char *path, mode_t mode)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        if (mkdir(p, 0777) != 0 && errno != EEXIST)
            return -1;
        *s = '/';
    }
    return mkdir(p, mode) != 0 && errno != EEXIST ? -1 : 0;
}

/* Writes the mark with budget max_bytes, through a temporary name. */
static sow_err write_mark(const char *root, uint64_t max_bytes, char *why, size_t why_size)
{
    char p[4096], tmp[4200];
    snprintf(p, sizeof p, "%s/%s", root, SOW_STORE_MARK);
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", p, (long)getpid());
    FILE *f = fopen(tmp, "w");
    bool ok = f && fprintf(f, "sow database store\nmax_bytes %llu\n",
                           (unsigned long long)max_bytes) > 0;
    ok = f && fflush(f) == 0 && fsync(fileno(f)) == 0 && ok;
    if (f && fclose(f) != 0)
        ok = false;
    if (!ok || rename(tmp, p) != 0) {
        sow_fail(why, why_size, SOW_E_IO, "cannot write %s: %s", p, strerror(errno));
        unlink(tmp);
        return SOW_E_IO;
    }
    return SOW_OK;
}

sow_err sow_store_init(const char *root, char *why, size_t why_size)
{
    if (sow_store_is(root))
        return SOW_OK;
    if (make_path(root, 0700) != 0) {
        return sow_fail(why, why_size, SOW_E_IO, "cannot create the database store %s: %s", root,
                   strerror(errno));
    }
    struct stat st;
    if (stat(root, &st) != 0 || !S_ISDIR(st.st_mode)) {
        return sow_fail(why, why_size, SOW_E_IO, "the database store %s is not a directory", root);
    }
    return write_mark(root, 0, why, why_size);
}

void sow_store_family(const sow_game *g, char *buf, size_t size)
{
    char var[96] = "";
    unsigned v = sow_db_variant(g);
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (v & (1u << i)) {
            strcat(var, "-");
            strcat(var, sow_variant_name(1u << i));
        }
    snprintf(buf, size, "%s-m%d%s", sow_game_name(g->cfg.game), g->m, var);
}

sow_err sow_store_family_config(const char *fam, sow_config *out)
{
    const char *m = strstr(fam, "-m");
    char game[32];
    if (!m || m == fam || (size_t)(m - fam) >= sizeof game)
        return SOW_E_ARG;
    memcpy(game, fam, (size_t)(m - fam));
    game[m - fam] = '\0';
    char *end;
    long pits = strtol(m + 2, &end, 10);
    if (end == m + 2 || pits < 1 || pits > SOW_MAX_PITS)
        return SOW_E_ARG;
    *out = (sow_config){.pits = (int)pits, .seeds = 1};
    if (sow_game_parse(game, &out->game) != SOW_OK)
        return SOW_E_ARG;
    /* The variants follow in flag order (sow_store_family), each "-name";
     * names hold dashes themselves, so each is matched whole, in turn. */
    for (int i = 0; i < SOW_VAR_COUNT && *end; i++) {
        const char *v = sow_variant_name(1u << i);
        size_t n = strlen(v);
        if (end[0] == '-' && strncmp(end + 1, v, n) == 0 && (end[1 + n] == '-' || !end[1 + n])) {
            out->variant |= 1u << i;
            end += 1 + n;
        }
    }
    return *end ? SOW_E_ARG : SOW_OK;
}

void sow_store_resolve(const sow_game *g, const char *dir, char *buf, size_t size)
{
    if (!sow_store_is(dir)) {
        snprintf(buf, size, "%s", dir);
        return;
    }
    char fam[96];
    sow_store_family(g, fam, sizeof fam);
    snprintf(buf, size, "%s/%s", dir, fam);
}

/* The seed count of a database file's name FAMILY-kK.sowdb, -1 if the
 * name is not one. */
static int level_of(const char *name, const char *family)
{
    size_t f = strlen(family), len = strlen(name);
    if (len < f + 9 || strncmp(name, family, f) != 0 || strncmp(name + f, "-k", 2) != 0 ||
        strcmp(name + len - 6, ".sowdb") != 0)
        return -1;
    int k = 0;
    for (const char *s = name + f + 2; s < name + len - 6; s++) {
        if (*s < '0' || *s > '9' || k > SOW_DB_MAX_SEEDS)
            return -1;
        k = k * 10 + (*s - '0');
    }
    return k <= SOW_DB_MAX_SEEDS && len > f + 8 ? k : -1;
}

static int cmp_level(const void *a, const void *b)
{
    const sow_store_level *x = a, *y = b;
    int c = strcmp(x->family, y->family);
    return c ? c : (x->seeds > y->seeds) - (x->seeds < y->seeds);
}

/* Appends the database files of family folder root/fam to *v. */
static bool list_family(const char *root, const char *fam, sow_store_level **v, size_t *n,
                        size_t *cap)
{
    char d[4096];
    snprintf(d, sizeof d, "%s/%s", root, fam);
    DIR *dd = opendir(d);
    if (!dd)
        return true; /* removed meanwhile, or not a folder: nothing of ours */
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(dd)) != NULL) {
        int k = level_of(e->d_name, fam);
        char p[4400];
        struct stat st;
        snprintf(p, sizeof p, "%s/%s", d, e->d_name);
        if (k < 0 || stat(p, &st) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (*n == *cap) {
            size_t c = *cap ? 2 * *cap : 64;
            sow_store_level *t = realloc(*v, c * sizeof *t);
            if (!t) {
                ok = false;
                break;
            }
            *v = t;
            *cap = c;
        }
        sow_store_level *l = &(*v)[(*n)++];
        snprintf(l->family, sizeof l->family, "%s", fam);
        l->seeds = k;
        l->bytes = (uint64_t)st.st_size;
        l->last_use = (double)st.st_atim.tv_sec + (double)st.st_atim.tv_nsec * 1e-9;
    }
    closedir(dd);
    return ok;
}

sow_err sow_store_list(const char *root, sow_store_level **out, size_t *n, char *why,
                       size_t why_size)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(root);
    if (!d) {
        return sow_fail(why, why_size, SOW_E_IO, "cannot read the database store %s: %s", root,
                   strerror(errno));
    }
    size_t cap = 0;
    struct dirent *e;
    bool ok = true;
    while (ok && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && strlen(e->d_name) < sizeof(*out)->family)
            ok = list_family(root, e->d_name, out, n, &cap);
    closedir(d);
    if (!ok) {
        free(*out);
        *out = NULL;
        *n = 0;
        return sow_fail(why, why_size, SOW_E_NOMEM, "out of memory");
    }
    if (*n > 1)
        qsort(*out, *n, sizeof **out, cmp_level);
    return SOW_OK;
}

uint64_t sow_store_budget(const char *root)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", root, SOW_STORE_MARK);
    unsigned long long max = 0;
    FILE *f = fopen(p, "r");
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "max_bytes %llu", &max) == 1)
                break;
        fclose(f);
    }
    if (max)
        return max;
    struct statvfs vfs;
    if (statvfs(root, &vfs) != 0)
        return SOW_STORE_DEFAULT_CAP;
    uint64_t size = (uint64_t)vfs.f_blocks * vfs.f_frsize;
    uint64_t free_b = (uint64_t)vfs.f_bavail * vfs.f_frsize;
    uint64_t held = 0;
    sow_store_level *v;
    size_t n;
    if (sow_store_list(root, &v, &n, NULL, 0) == SOW_OK) {
        for (size_t i = 0; i < n; i++)
            held += v[i].bytes;
        free(v);
    }
    uint64_t b = size / 4;
    if (b > SOW_STORE_DEFAULT_CAP)
        b = SOW_STORE_DEFAULT_CAP;
    if (b > held + free_b / 2)
        b = held + free_b / 2;
    return b;
}

sow_err sow_store_set_budget(const char *root, uint64_t max_bytes, char *why, size_t why_size)
{
    return write_mark(root, max_bytes, why, why_size);
}

/* Removes the temporaries and lock files of dead builds in every family
 * folder. */
static void clean_temps(const char *root)
{
    DIR *d = opendir(root);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", root, e->d_name);
        sow_db_remove_stale_temps(p, "");
        sow_db_remove_stale_locks(p);
    }
    closedir(d);
}

sow_err sow_store_prune(const char *root, uint64_t max_bytes, const char *spare,
                        sow_store_removed_fn removed, void *ctx, uint64_t *freed, char *why,
                        size_t why_size)
{
    if (freed)
        *freed = 0;
    clean_temps(root);
    sow_store_level *v;
    size_t n;
    sow_err e = sow_store_list(root, &v, &n, why, why_size);
    if (e)
        return e;
    uint64_t held = 0;
    for (size_t i = 0; i < n; i++)
        held += v[i].bytes;
    /* v is by family then seeds: a family's run ends at its highest. */
    while (held > max_bytes) {
        size_t pick = n;
        double pick_use = 0;
        for (size_t i = 0; i < n;) {
            size_t j = i;
            double use = v[i].last_use;
            while (j + 1 < n && strcmp(v[j + 1].family, v[i].family) == 0)
                if (v[++j].last_use > use)
                    use = v[j].last_use;
            if (!(spare && strcmp(v[i].family, spare) == 0) &&
                (pick == n || use < pick_use)) {
                pick = j;
                pick_use = use;
            }
            i = j + 1;
        }
        if (pick == n)
            break;
        char p[4400];
        snprintf(p, sizeof p, "%s/%s/%s-k%d.sowdb", root, v[pick].family, v[pick].family,
                 v[pick].seeds);
        if (unlink(p) == 0 || errno == ENOENT) {
            held -= v[pick].bytes;
            if (freed)
                *freed += v[pick].bytes;
            if (removed)
                removed(ctx, &v[pick]);
        }
        /* Out of the list: the family's run now ends one lower. */
        memmove(&v[pick], &v[pick + 1], (n - pick - 1) * sizeof *v);
        n--;
    }
    free(v);
    return SOW_OK;
}
