/* cmd_db.c - `sow db`: build, inspect, verify and query endgame databases
 * (doc/db-format.md, doc/retrograde.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "sow/db.h"
#include "sow/store.h"

static const char usage_build[] =
    "usage: sow db build GAME --pits M --max-seeds K [--variant A,B] [--dir D]\n"
    "                 [--threads T] [--memory SIZE] [--quiet]\n"
    "\n"
    "Computes the seed counts 0..K of the database of GAME (kalah, chungkala,\n"
    "congkak, toguz: seeds on the board, every tuzdik state, cycles solved\n"
    "by a fixpoint, doc/retrograde.md; toguz without tuzdik: those of K's\n"
    "parity only, since its captures are even and a board never reaches the\n"
    "others) that D lacks and saves each one as a\n"
    "file; an interrupted build (Ctrl-C: exit status 130; a second Ctrl-C\n"
    "kills it at once) resumes where it stopped. D defaults to the database\n"
    "store (sow db store --help); a missing D is created once every argument\n"
    "is checked, and removed again if the build then fails before saving a\n"
    "file. A damaged\n"
    "file of a seed count 0..K (truncated, corrupt, another one's) is rebuilt,\n"
    "with a line on stderr saying so (sow db verify reports such files).\n"
    "Each file is built under its lock (flock on FILE.lock, holding the pid):\n"
    "a second build that needs it waits for it, then loads it; files already\n"
    "finished are loaded at once, so two builds never build one file twice.\n"
    "Progress goes to stderr; the last line on stdout says which seed counts\n"
    "were built and which loaded.\n"
    "\n"
    "  --variant A,B       kalah: empty-capture, end-on-turn, no-sweep, pie\n"
    "                      (pie shares the files of the game without it);\n"
    "                      toguz: no-tuzdik\n"
    "  --threads T         OpenMP threads (default: the cores available)\n"
    "  --memory SIZE       bound on the tables and the build's scratch memory:\n"
    "                      MB, or with a suffix K, M, G, T; a build over it is\n"
    "                      refused at once\n"
    CLI_MEMORY_DEFAULT_HELP("                      ")
    "  --quiet             no progress\n"
    "\n"
    "example: sow db build kalah --pits 6 --max-seeds 20 --dir db\n";

static const char usage_info[] =
    "usage: sow db info FILE|DIR\n"
    "\n"
    "FILE: prints a database file's parameters, checks both its checksums and\n"
    "that its name is the one its header gives (exit 2 if not).\n"
    "DIR: summarises the databases of a folder from the files' headers: seed\n"
    "counts present and missing, sizes, temporaries of unfinished builds\n"
    "(sow db verify DIR also checks every payload checksum).\n";

static const char usage_verify[] =
    "usage: sow db verify DIR [--clean]\n"
    "\n"
    "Checks every *.sowdb file of DIR (header, parameters, payload checksum,\n"
    "its name against its header), that each database has every seed count\n"
    "from 0 to its largest, and reports what builds left behind: temporary\n"
    "files (NAME.tmp.PID) with their size and whether process PID still runs,\n"
    "and the lock files (FILE.lock) of builds that were killed.\n"
    "\n"
    "  --clean             remove the temporaries whose process is gone, lock\n"
    "                      files no build holds, and the damaged database files\n"
    "                      it reports (truncated, corrupt, misnamed: sow db\n"
    "                      build rebuilds them; a file it cannot read stays)\n"
    "\n"
    "exit status: 0 all good; 1 a problem in DIR (a bad file, a missing seed\n"
    "count, leftovers of a killed build that --clean did not remove); 2 bad\n"
    "input (usage, DIR unreadable, no database file in DIR).\n";

static const char usage_query[] =
    "usage: sow db query GAME --pits M [--variant A,B] --dir D\n"
    "                 (--position P | --seeds N [--moves LIST]) [--json]\n"
    "\n"
    "The value (final margin for the player to move, stores included),\n"
    "outcome and every legal move's value, from the files in D (nothing is\n"
    "built); the same JSON keys as `sow solve`.\n"
    "\n"
    "example: sow db query kalah --pits 6 --dir db --position 0,0,1,0,2,1/20/1,0,0,0,3,0/20/s\n";

static const char usage_store[] =
    "usage: sow db store [--store DIR] [--json] [--store-max SIZE|default] [--prune]\n"
    "\n"
    "The database store: where every command (solve, analyse, play, serve, db\n"
    "build) finds the databases built before and saves those it builds, so\n"
    "that a seed count is built once per machine. It is $SOW_DB if set, else\n"
    "$XDG_CACHE_HOME/sow, else ~/.cache/sow (made on first use, mode 0700);\n"
    "--db DIR uses a folder instead, --no-db no files at all. One subfolder\n"
    "per game, board and variant (e.g. kalah-m6, kalah-m6-empty-capture).\n"
    "Lists each one's seed counts, size and last use, and the store's total.\n"
    "After each build the store is pruned to its budget: the highest seed\n"
    "count of the least recently used database goes first (a database's lower\n"
    "seed counts are what its higher ones are built from).\n"
    "\n"
    "  --store DIR         another store (made a store if it is not one)\n"
    "  --json              one JSON object\n"
    "  --store-max SIZE    sets the budget kept in the store: MB, or with a\n"
    "                      suffix K, M, G, T; `default`: a quarter of the\n"
    "                      filesystem, at most 64G, at most the store plus\n"
    "                      half the free space\n"
    "  --prune             prunes to the budget now (and removes the\n"
    "                      temporaries of killed builds)\n"
    "\n"
    "To clear the store: rm -r \"$(sow db store --json | jq -r .store)\", or\n"
    "--store-max 1M --prune.\n";

static const char usage_db[] =
    "usage: sow db build GAME --pits M --max-seeds K [--variant A,B] [--dir D]\n"
    "                 [--threads T] [--memory SIZE] [--quiet]\n"
    "       sow db info FILE|DIR\n"
    "       sow db verify DIR [--clean]\n"
    "       sow db query GAME --pits M [--variant A,B] --dir D\n"
    "                 (--position P | --seeds N [--moves LIST]) [--json]\n"
    "       sow db store [--store DIR] [--json] [--store-max SIZE] [--prune]\n"
    "\n"
    "Endgame databases for all four games (kalah, chungkala, congkak, toguz): for\n"
    "every board of M pits per side with at most K seeds left in the pits, the\n"
    "optimal future gain of the player to move (doc/retrograde.md; Toguz's are\n"
    "exact with its cycles). One file per seed count (doc/db-format.md).\n"
    "\n"
    "build   computes and saves the seed counts D lacks (resumable, locked)\n"
    "info    a file's parameters, or a summary of a folder\n"
    "verify  checks every file of a folder; exit 0 good, 1 problems, 2 bad input\n"
    "query   a position's value and every move's, from the files\n"
    "store   what the database store holds; its budget and pruning\n"
    "\n"
    "sow db SUBCOMMAND --help for each one's options.\n";

static volatile sig_atomic_t stop_signal;
static sow_stop_flag stop_flag;

static void on_stop_signal(int sig)
{
    stop_signal = sig;
    __atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED); /* read by the solver threads */
}

typedef struct progress_state {
    bool tty;
    double last_line;
    int level;           /* the seed count being built, its start, and */
    double level_start;  /* the positions done before it */
    uint64_t level_done0;
} progress_state;

static void fmt_secs(double s, char *buf, size_t n)
{
    if (s < 120)
        snprintf(buf, n, "%.0f s", s);
    else if (s < 7200)
        snprintf(buf, n, "%.0f min", s / 60);
    else
        snprintf(buf, n, "%.1f h", s / 3600);
}

/* Off a terminal: a first line after 1 s, then one every 5 s and one per
 * seed count, so a log shows the build moving. The ETA assumes the rest
 * goes at the current seed count's rate (the largest counts dominate, and
 * the first ones run far slower per position); it is left out until that
 * rate has been measured for a second. */
static void on_progress(void *ctx, const sow_progress *p)
{
    progress_state *st = ctx;
    if (p->seeds != st->level) {
        st->level = p->seeds;
        st->level_start = p->seconds;
        st->level_done0 = p->all_done - p->done;
    }
    bool level_done = p->done == p->total;
    if (!st->tty && !level_done &&
        p->seconds - st->last_line < (st->last_line > 0 ? 5 : 1))
        return;
    st->last_line = p->seconds;
    double rate = p->seconds > 0 ? (double)p->all_done / p->seconds : 0;
    double lsecs = p->seconds - st->level_start;
    char eta[48] = "";
    if (lsecs >= 1 && p->all_done > st->level_done0 && p->all_done < p->all_total) {
        char e[32];
        fmt_secs((double)(p->all_total - p->all_done) * lsecs /
                     (double)(p->all_done - st->level_done0), e, sizeof e);
        snprintf(eta, sizeof eta, ", ETA %s", e);
    }
    fprintf(stderr, "%sseeds %d/%d: %llu/%llu positions (%.0f%%), %.2f M positions/s, "
            "all %.0f%%, %.1f s%s%s",
            st->tty ? "\r" : "", p->seeds, p->max_seeds, (unsigned long long)p->done,
            (unsigned long long)p->total, 100.0 * (double)p->done / (double)p->total,
            rate / 1e6, p->all_total ? 100.0 * (double)p->all_done / (double)p->all_total : 100.0,
            p->seconds, eta, st->tty ? (level_done ? "\033[K\n" : "\033[K") : "\n");
}

/* Printed even with --quiet: a build that seems to hang should say why.
 * Once: two builds of one database may meet at each seed count. */
static void on_wait(void *ctx, const char *file, long holder)
{
    (void)ctx;
    static bool told;
    if (told)
        return;
    told = true;
    if (holder)
        fprintf(stderr, "sow: waiting for the build of pid %ld of %s (it holds %s%s); then "
                "loading it\n", holder, file, file, SOW_DB_LOCK_SUFFIX);
    else
        fprintf(stderr, "sow: waiting for another build of %s (it holds %s%s); then loading "
                "it\n", file, file, SOW_DB_LOCK_SUFFIX);
}

/* Printed even with --quiet: a file replaced should not go unsaid. A note,
 * so that an error of the build after it is still the last line. */
static void on_damaged(void *ctx, const char *why)
{
    (void)ctx;
    fprintf(stderr, "sow: note: db build: %s: rebuilding it\n", why);
}

static void setup_game(cli_game *cg)
{
    cli_game_setup(cg, true, true);
}

/* "0..12", "0..3,5,7..12" or "none": the seed counts k <= K with set[k]. */
static void fmt_ranges(const bool *set, int K, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; k <= K; k++) {
        if (!set[k] || len >= n)
            continue;
        int e = k;
        while (e < K && set[e + 1])
            e++;
        len += (size_t)snprintf(buf + len, n - len, e > k ? "%s%d..%d" : "%s%d", len ? "," : "",
                                k, e);
        k = e;
    }
    if (!buf[0])
        snprintf(buf, n, "none");
}

static int db_build(int argc, char **argv)
{
    cli_game cg = {0};
    cli_limit_opts lo = {0};
    const char *maxs = NULL, *dir = NULL;
    bool quiet = false;
    const cli_opt opts[] = {
        {"pits", OPT_STRING, &cg.pits},         {"variant", OPT_STRING, &cg.variant},
        {"max-seeds", OPT_STRING, &maxs},       {"dir", OPT_STRING, &dir},
        {"threads", OPT_STRING, &lo.threads},   {"memory", OPT_STRING, &lo.memory},
        {"quiet", OPT_FLAG, &quiet},            {NULL, 0, NULL},
    };
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_build);
    cg.name = npos ? pos[0] : NULL;
    if (!cg.pits)
        cli_fail("db build: give --pits M");
    if (!maxs)
        cli_fail("db build: give --max-seeds K");
    setup_game(&cg);
    int K = (int)cli_int("--max-seeds", maxs, 0, SOW_DB_MAX_SEEDS);
    sow_limits lim;
    /* The folder is --dir's (or the store, below): none by default here. */
    lo.no_db = true;
    cli_limits(&lo, &lim);
    int T = lim.threads ? lim.threads : cli_default_threads();
    uint64_t memory_bytes = lim.memory ? lim.memory : cli_default_memory();
    if (dir && !*dir)
        cli_fail("db build: --dir: give a folder name");
    if (!dir && !(dir = cli_store()))
        cli_fail("db build: no database store: give --dir D");

    progress_state ps = {.tty = isatty(2) != 0, .level = -1};
    sow_db_options o = {
        .threads = T, .memory = memory_bytes, .progress = quiet ? NULL : on_progress,
        .progress_ctx = &ps, .stop = &stop_flag, .make_dir = true, .wait = on_wait,
        .damaged = on_damaged,
    };
    /* The first Ctrl-C stops at the next chunk, cleanly; SA_RESETHAND lets
     * a second one kill at once (its temporary file is then removed by the
     * next build or by verify --clean). */
    struct sigaction sa = {0};
    sa.sa_handler = on_stop_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    char why[512];
    sow_db *db;
    double t0 = cli_now();
    sow_err e = sow_db_open(&cg.g, K, dir, &o, &db, why, sizeof why);
    double secs = cli_now() - t0;
    if (e == SOW_E_INTERRUPTED) {
        /* Not bad input, so not cli_fail's status 2: the shell's 128 + signal. */
        fflush(stdout);
        fprintf(stderr, "sow: db build: %s; every seed count saved before it stays in %s: run "
                "the same command again to resume\n", why, dir);
        return 128 + (stop_signal ? (int)stop_signal : SIGINT);
    }
    if (e)
        cli_fail("db build: %s", why);
    bool built[SOW_DB_MAX_SEEDS + 1], loaded[SOW_DB_MAX_SEEDS + 1];
    uint64_t positions = 0, built_positions = 0;
    for (int k = 0; k <= K; k++) {
        bool in = sow_db_level_in(&cg.g, K, k);
        uint64_t c = in ? sow_retro_level_size(&cg.g, k) : 0;
        built[k] = in && sow_db_built(db, k);
        loaded[k] = in && !built[k];
        positions += c;
        built_positions += built[k] ? c : 0;
    }
    char first[128], last[128], b[256], l[256], where[4096];
    /* A store: the family's folder in it, where the files are. */
    sow_store_resolve(&cg.g, dir, where, sizeof where);
    sow_db_file_name(&cg.g, sow_db_level_first(&cg.g, K), first, sizeof first);
    sow_db_file_name(&cg.g, K, last, sizeof last);
    fmt_ranges(built, K, b, sizeof b);
    fmt_ranges(loaded, K, l, sizeof l);
    printf("%s: %s up to %d seeds on %d pits per side, %llu positions, files %s .. %s; "
           "built seed counts %s (%llu positions, %d thread%s), loaded %s (%.2f s)\n",
           where, sow_game_name(cg.cfg.game), K, cg.cfg.pits, (unsigned long long)positions, first,
           last, b, (unsigned long long)built_positions, T, T == 1 ? "" : "s", l, secs);
    sow_db_close(db);
    return 0;
}

static void print_header(const char *path, const sow_db_header *h)
{
    printf("file        %s\n", path);
    printf("format      version %u\n", h->version);
    printf("game        %s\n", sow_game_name(h->game));
    printf("pits        %d per side\n", h->m);
    printf("variant     ");
    int first = 1;
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (h->variant & (1u << i)) {
            printf("%s%s", first ? "" : ",", sow_variant_name(1u << i));
            first = 0;
        }
    printf("%s\n", first ? "none" : "");
    printf("seeds       %d on the board\n", h->seeds);
    printf("entries     %llu\n", (unsigned long long)h->entries);
    if (h->encoding == SOW_DB_ENC_PACKED)
        printf("encoding    packed future score, %.2f bits a position (score scale %d)\n",
               h->entries ? 8.0 * (double)h->payload / (double)h->entries : 0.0, h->score_scale);
    else
        printf("encoding    int8 future score (score scale %d)\n", h->score_scale);
    printf("bytes       %llu (header %d, payload %llu)\n",
           (unsigned long long)(SOW_DB_HEADER_SIZE + h->payload), SOW_DB_HEADER_SIZE,
           (unsigned long long)h->payload);
    printf("index       combinadic rank, own pits 1..m then opponent's pits 1..m\n");
    printf("checksum    %016llx (XXH64 of the payload): ok\n",
           (unsigned long long)h->checksum);
}

/* Checks a file and that its name (the last part of path) is the one its
 * header gives: a renamed file would otherwise be loaded as another seed
 * count or game. SOW_E_MISMATCH for a name its header does not give. */
static sow_err check_file(const char *path, bool payload, sow_db_header *h, char *why, size_t n)
{
    sow_err e = sow_db_file_check(path, !payload, h, why, n);
    if (e)
        return e;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    sow_game g;
    sow_config c = {h->game, h->m, 1, h->variant};
    char want[128];
    if (sow_game_init(&g, &c) != SOW_OK) {
        snprintf(why, n, "its header describes an unsupported game");
        return SOW_E_MISMATCH;
    }
    sow_db_file_name(&g, h->seeds, want, sizeof want);
    if (strcmp(want, base) != 0) {
        snprintf(why, n, "its header describes %s", want);
        return SOW_E_MISMATCH;
    }
    return SOW_OK;
}

/* Numbers in names in numeric order: k2 before k10. */
static int cmp_name(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* What a database folder holds. */
typedef struct folder {
    char **files;   /* *.sowdb, sorted */
    size_t nfiles;
    char **temps;   /* *.sowdb.tmp.PID, sorted */
    size_t ntemps;
    char **locks;   /* *.sowdb.lock, sorted */
    size_t nlocks;
} folder;

static void push(char ***v, size_t *n, const char *s)
{
    if ((*n & (*n - 1)) == 0) { /* 0, 1, 2, 4, ...: grow to the next power of two */
        *v = realloc(*v, (*n ? 2 * *n : 1) * sizeof **v);
        if (!*v)
            cli_fail("db: out of memory");
    }
    if (!((*v)[(*n)++] = strdup(s)))
        cli_fail("db: out of memory");
}

/* The pid of a temporary's name, 0 if it is not one. */
static long temp_pid(const char *name)
{
    const char *t = strstr(name, ".sowdb.tmp.");
    if (!t)
        return 0;
    char *end;
    long pid = strtol(t + 11, &end, 10);
    return *end == '\0' && pid > 0 ? pid : 0;
}

static void read_folder(const char *cmd, const char *dir, folder *f)
{
    memset(f, 0, sizeof *f);
    if (sow_store_is(dir))
        cli_fail("db %s: %s is a database store: give one of its folders, e.g. %s/kalah-m6 "
                 "(sow db store lists them)", cmd, dir, dir);
    DIR *d = opendir(dir);
    if (!d)
        cli_fail("db %s: cannot open %s: %s%s", cmd, dir, strerror(errno),
                 errno == ENOTDIR ? " (for a file: sow db info FILE)" : "");
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t len = strlen(de->d_name);
        if (len > 6 && strcmp(de->d_name + len - 6, ".sowdb") == 0)
            push(&f->files, &f->nfiles, de->d_name);
        else if (temp_pid(de->d_name))
            push(&f->temps, &f->ntemps, de->d_name);
        else if (len > 11 && strcmp(de->d_name + len - 11, ".sowdb" SOW_DB_LOCK_SUFFIX) == 0)
            push(&f->locks, &f->nlocks, de->d_name);
    }
    closedir(d);
    /* qsort's base must not be NULL, even for 0 elements. */
    if (f->nfiles > 1)
        qsort(f->files, f->nfiles, sizeof *f->files, cmp_name);
    if (f->ntemps > 1)
        qsort(f->temps, f->ntemps, sizeof *f->temps, cmp_name);
    if (f->nlocks > 1)
        qsort(f->locks, f->nlocks, sizeof *f->locks, cmp_name);
}

static void free_folder(folder *f)
{
    for (size_t i = 0; i < f->nfiles; i++)
        free(f->files[i]);
    for (size_t i = 0; i < f->ntemps; i++)
        free(f->temps[i]);
    for (size_t i = 0; i < f->nlocks; i++)
        free(f->locks[i]);
    free(f->files);
    free(f->temps);
    free(f->locks);
}

static bool pid_alive(long pid)
{
    return kill((pid_t)pid, 0) == 0 || errno != ESRCH;
}

static double file_mb(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (double)st.st_size / 1048576.0 : 0;
}

/* Reports the lock file `name` of dir; with clean, removes it if no build
 * holds it. Returns 1 if it is a leftover of a killed build still there. */
static int report_lock(const char *dir, const char *name, bool clean)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0; /* the build just ended and removed it */
    char buf[32] = "";
    ssize_t r = pread(fd, buf, sizeof buf - 1, 0);
    long pid = r > 0 ? strtol(buf, NULL, 10) : 0;
    int left = 0;
    /* Locking it is the one sure test of whether a build holds it; a build
     * that starts meanwhile waits those few microseconds. */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        printf("LOCK %s: a build is running (pid %ld)\n", name, pid);
    } else if (clean && unlink(path) == 0) {
        printf("removed %s: no build holds it (left by process %ld)\n", name, pid);
    } else {
        printf("STALE %s: no build holds it (left by process %ld)%s\n", name, pid,
               clean ? "; cannot remove it" : " (--clean removes it)");
        left = 1;
    }
    close(fd);
    return left;
}

/* Reports the temporaries and the lock files of f; with clean, removes the
 * temporaries whose process is gone and the lock files no build holds.
 * Returns the leftovers of killed builds still there. */
static int report_leftovers(const char *dir, const folder *f, bool clean)
{
    int left = 0;
    char path[4096];
    for (size_t i = 0; i < f->ntemps; i++) {
        long pid = temp_pid(f->temps[i]);
        snprintf(path, sizeof path, "%s/%s", dir, f->temps[i]);
        double mb = file_mb(path);
        if (pid_alive(pid)) {
            printf("TEMP %s: %.1f MB, process %ld is running (a build in progress)\n",
                   f->temps[i], mb, pid);
        } else if (clean && unlink(path) == 0) {
            printf("removed %s: %.1f MB, left by process %ld, which is gone\n", f->temps[i], mb,
                   pid);
        } else {
            printf("STALE %s: %.1f MB, left by process %ld, which is gone%s\n", f->temps[i], mb,
                   pid, clean ? "; cannot remove it" : " (--clean removes it)");
            left++;
        }
    }
    for (size_t i = 0; i < f->nlocks; i++)
        left += report_lock(dir, f->locks[i], clean);
    return left;
}

/* The files of one database (game, board, variant) in a folder. */
typedef struct group {
    sow_game_id game;
    int m;
    unsigned variant;
    uint8_t have[SOW_DB_MAX_SEEDS + 1];
    int files;
    double mb;
} group;

/* Checks every file of f (payload checksums too if payload), printing a
 * line per bad file and, if each_ok, per good one; then one line per
 * database. With clean, a damaged file (not one that cannot be read) is
 * removed: a build makes it again. Returns the problems found. */
static int check_files(const char *dir, const folder *f, bool payload, bool each_ok, bool clean)
{
    group *gs = calloc(f->nfiles ? f->nfiles : 1, sizeof *gs);
    if (!gs)
        cli_fail("db: out of memory");
    size_t ng = 0;
    int bad = 0;
    for (size_t i = 0; i < f->nfiles; i++) {
        char path[4096], why[512];
        snprintf(path, sizeof path, "%s/%s", dir, f->files[i]);
        sow_db_header h;
        sow_err e = check_file(path, payload, &h, why, sizeof why);
        bool damaged = e == SOW_E_FORMAT || e == SOW_E_CHECKSUM || e == SOW_E_MISMATCH;
        if (e && clean && damaged && unlink(path) == 0) {
            printf("removed %s: %s (sow db build makes it again)\n", f->files[i], why);
            continue;
        }
        if (e) {
            printf("BAD  %s: %s%s\n", f->files[i], why,
                   clean && damaged ? "; cannot remove it" : "");
            bad++;
            continue;
        }
        if (each_ok)
            printf("ok   %s  (%llu entries, %llu bytes, checksum %016llx)\n", f->files[i],
                   (unsigned long long)h.entries,
                   (unsigned long long)(SOW_DB_HEADER_SIZE + h.payload),
                   (unsigned long long)h.checksum);
        size_t j = 0;
        while (j < ng && !(gs[j].game == h.game && gs[j].m == h.m && gs[j].variant == h.variant))
            j++;
        if (j == ng) {
            gs[ng].game = h.game;
            gs[ng].m = h.m;
            gs[ng].variant = h.variant;
            ng++;
        }
        gs[j].have[h.seeds] = 1;
        gs[j].files++;
        gs[j].mb += (double)(SOW_DB_HEADER_SIZE + h.payload) / 1048576.0;
    }
    for (size_t j = 0; j < ng; j++) {
        sow_game g;
        sow_config c = {gs[j].game, gs[j].m, 1, gs[j].variant};
        sow_game_init(&g, &c);
        char name[128];
        sow_db_file_name(&g, 0, name, sizeof name);
        name[strlen(name) - strlen("-k0.sowdb")] = '\0';
        int top = SOW_DB_MAX_SEEDS;
        while (!gs[j].have[top])
            top--;
        /* Missing: a seed count below one of its own step's that is
         * there (every one below the top where the step is 1; toguz
         * without tuzdik holds even and odd ones apart: sow_db_level_in). */
        bool missing[SOW_DB_MAX_SEEDS + 1];
        int nmissing = 0;
        for (int k = 0; k <= top; k++) {
            bool above = false;
            for (int i = k + g.level_step; i <= top && !above; i += g.level_step)
                above = gs[j].have[i];
            nmissing += missing[k] = !gs[j].have[k] && above;
        }
        if (!nmissing) {
            bool held[SOW_DB_MAX_SEEDS + 1];
            for (int k = 0; k <= top; k++)
                held[k] = gs[j].have[k];
            char counts[512];
            fmt_ranges(held, top, counts, sizeof counts);
            printf("%s: seed counts %s, complete (%d files, %.1f MB)\n", name, counts,
                   gs[j].files, gs[j].mb);
            continue;
        }
        bad++;
        char ms[512];
        fmt_ranges(missing, top, ms, sizeof ms);
        printf("%s: seed counts up to %d, missing: %s (%d files, %.1f MB)\n", name, top, ms,
               gs[j].files, gs[j].mb);
    }
    free(gs);
    return bad;
}

static int db_info(int argc, char **argv)
{
    const cli_opt opts[] = {{NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_info);
    if (!npos)
        cli_fail("db info: give a FILE or a DIR");
    struct stat st;
    if (stat(pos[0], &st) == 0 && S_ISDIR(st.st_mode)) {
        folder f;
        read_folder("info", pos[0], &f);
        if (!f.nfiles && !f.ntemps)
            cli_fail("db info: %s is a folder without database files (*.sowdb)", pos[0]);
        printf("%s: a folder of %zu database files (headers checked; sow db verify %s also "
               "checks the checksums)\n", pos[0], f.nfiles, pos[0]);
        check_files(pos[0], &f, false, false, false);
        report_leftovers(pos[0], &f, false);
        free_folder(&f);
        return 0;
    }
    sow_db_header h;
    char why[512];
    if (check_file(pos[0], true, &h, why, sizeof why))
        cli_fail("db info: %s%s%s", strstr(why, pos[0]) ? "" : pos[0],
                 strstr(why, pos[0]) ? "" : ": ", why);
    print_header(pos[0], &h);
    return 0;
}

static int db_verify(int argc, char **argv)
{
    bool clean = false;
    const cli_opt opts[] = {{"clean", OPT_FLAG, &clean}, {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_verify);
    if (!npos)
        cli_fail("db verify: give a DIR");
    const char *dir = pos[0];
    folder f;
    read_folder("verify", dir, &f);
    int bad = report_leftovers(dir, &f, clean);
    if (f.nfiles == 0)
        cli_fail("db verify: no database files (*.sowdb) in %s", dir);
    bad += check_files(dir, &f, true, true, clean);
    printf("%s: %zu files, %s\n", dir, f.nfiles, bad ? "PROBLEMS FOUND" : "all good");
    free_folder(&f);
    return bad ? 1 : 0;
}

static int db_query(int argc, char **argv)
{
    cli_game cg = {0};
    const char *dir = NULL;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg), {"dir", OPT_STRING, &dir}, {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage_query);
    cg.name = npos ? pos[0] : NULL;
    if (!dir)
        cli_fail("db query: give --dir D, the directory of the database files");
    if (cg.name && !cg.pits && !cg.position)
        cli_fail("db query: give --pits M");
    double t0 = cli_now();
    setup_game(&cg);
    const sow_game *g = &cg.g;
    int k = sow_seeds_on_board(g, &cg.pos);

    sow_db *db = NULL;
    if (!sow_over(g, &cg.pos)) {
        sow_db_options o = {.no_build = true, .in_place = true}; /* a few probes */
        char why[512];
        sow_err e = sow_db_open(g, k, dir, &o, &db, why, sizeof why);
        if (e == SOW_E_MISSING)
            cli_fail("db query: the position has %d seeds on the board; %s (build it with "
                     "sow db build %s --pits %d --max-seeds %d%s%s --dir %s)",
                     k, why, sow_game_name(cg.cfg.game), g->m, k, cg.variant ? " --variant " : "",
                     cg.variant ? cg.variant : "", dir);
        if (e)
            cli_fail("db query: %s", why);
    }
    sow_solution s;
    sow_err e = sow_db_probe_root(db, g, &cg.pos, cg.pie_opening, &s);
    if (e)
        cli_fail("db query: %s", sow_err_name(e)); /* unreachable: db covers the position */
    sow_db_close(db);
    double secs = cli_now() - t0;

    if (cg.json) {
        printf("{");
        cli_json_game(&cg);
        printf(",\"value\":%d,\"outcome\":\"%s\"", s.value, cli_outcome_name(s.outcome));
        cli_json_moves(&cg, &s, NULL);
        printf(",\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"solver\":\"database\","
               "\"seeds_on_board\":%d}\n",
               cg.pie_opening ? "true" : "false", (unsigned long long)s.nodes, secs, k);
        return 0;
    }
    const char *who = sow_pos_to_move(&cg.pos) == SOW_SOUTH ? "south" : "north";
    printf("%s, %d pits, %d seed%s on the board%s: value %+d for %s (to move): %s\n",
           sow_game_name(cg.cfg.game), g->m, k, k == 1 ? "" : "s",
           cg.pie_opening ? " with the pie rule" : "",
           s.value, who, cli_outcome_name(s.outcome));
    cli_text_moves(&cg, &s, NULL);
    printf("probes %llu, %.3f s\n", (unsigned long long)s.nodes, secs);
    return 0;
}

static void on_pruned(void *ctx, const sow_store_level *l)
{
    (void)ctx;
    printf("removed %s/%s-k%d.sowdb (%.1f MB)\n", l->family, l->family, l->seeds,
           (double)l->bytes / 1048576.0);
}

static void fmt_time(double t, char *buf, size_t n)
{
    time_t tt = (time_t)t;
    struct tm tm;
    if (!localtime_r(&tt, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M", &tm))
        snprintf(buf, n, "?");
}

/* The level step (sow_game.level_step) of a store's family, by its name:
 * reading a file's header would count as a use of it (its access time is
 * the store's last use, sow_store_prune). 1 for a name no game has. */
static int family_step(const char *family)
{
    sow_config c;
    sow_game g;
    if (sow_store_family_config(family, &c) != SOW_OK || sow_game_init(&g, &c) != SOW_OK)
        return 1;
    return g.level_step;
}

/* Prints the families of v[0..n) of the store at root, as text or JSON. */
static void print_store(const char *root, const sow_store_level *v, size_t n, bool json)
{
    uint64_t total = 0;
    size_t families = 0;
    for (size_t i = 0; i < n; i++) {
        total += v[i].bytes;
        families += i == 0 || strcmp(v[i].family, v[i - 1].family) != 0;
    }
    uint64_t budget = sow_store_budget(root);
    if (json) {
        printf("{\"store\":");
        cli_fjson_string(stdout, root);
        printf(",\"bytes\":%llu,\"budget\":%llu,\"families\":[", (unsigned long long)total,
               (unsigned long long)budget);
    } else {
        printf("store %s: %zu database%s, %zu file%s, %.1f MB (budget %.1f MB)\n", root,
               families, families == 1 ? "" : "s", n, n == 1 ? "" : "s",
               (double)total / 1048576.0, (double)budget / 1048576.0);
    }
    for (size_t i = 0, f = 0; i < n; f++) {
        size_t j = i;
        uint64_t bytes = 0;
        double last = 0;
        bool have[SOW_DB_MAX_SEEDS + 1] = {false};
        int top = 0;
        for (; j < n && strcmp(v[j].family, v[i].family) == 0; j++) {
            bytes += v[j].bytes;
            last = v[j].last_use > last ? v[j].last_use : last;
            have[v[j].seeds] = true;
            top = v[j].seeds > top ? v[j].seeds : top;
        }
        /* The largest K whose seed counts (K, K - step, ...: both
         * parities apart where the step is 2) are all there. */
        int step = family_step(v[i].family), complete = -1;
        for (int k = 0; k <= top; k++) {
            int c = k;
            while (c >= 0 && have[c])
                c -= step;
            if (c < 0)
                complete = k;
        }
        char ranges[512], when[64];
        fmt_ranges(have, top, ranges, sizeof ranges);
        if (json) {
            printf("%s{\"family\":", f ? "," : "");
            cli_fjson_string(stdout, v[i].family);
            printf(",\"seeds\":\"%s\",\"complete_to\":%d,\"files\":%zu,\"bytes\":%llu,"
                   "\"last_use\":%.3f}", ranges, complete, j - i, (unsigned long long)bytes,
                   last);
        } else {
            fmt_time(last, when, sizeof when);
            printf("  %-32s seeds %-12s %10.1f MB  last use %s\n", v[i].family, ranges,
                   (double)bytes / 1048576.0, when);
        }
        i = j;
    }
    if (json)
        printf("]}\n");
}

static int db_store(int argc, char **argv)
{
    const char *root = NULL, *max = NULL;
    bool json = false, prune = false;
    const cli_opt opts[] = {
        {"store", OPT_STRING, &root},   {"json", OPT_FLAG, &json},
        {"store-max", OPT_STRING, &max}, {"prune", OPT_FLAG, &prune},
        {NULL, 0, NULL},
    };
    int npos;
    cli_parse(argc, argv, opts, NULL, 0, &npos, usage_store);
    uint64_t budget = 0;
    if (max && strcmp(max, "default") != 0)
        budget = cli_memory("--store-max", max);
    char why[4400];
    if (root && !*root)
        cli_fail("db store: --store: give a folder name");
    if (root && sow_store_init(root, why, sizeof why) != SOW_OK)
        cli_fail("db store: %s", why);
    if (!root && !(root = cli_store()))
        cli_fail("db store: no database store: set SOW_DB or give --store DIR");
    if (max && sow_store_set_budget(root, budget, why, sizeof why) != SOW_OK)
        cli_fail("db store: %s", why);
    if (prune) {
        uint64_t freed;
        /* JSON stays one object: the removals are counted in it. */
        if (sow_store_prune(root, sow_store_budget(root), NULL, json ? NULL : on_pruned, NULL,
                            &freed, why, sizeof why) != SOW_OK)
            cli_fail("db store: %s", why);
    }
    sow_store_level *v;
    size_t n;
    if (sow_store_list(root, &v, &n, why, sizeof why) != SOW_OK)
        cli_fail("db store: %s", why);
    print_store(root, v, n, json);
    free(v);
    return 0;
}

int cmd_db(int argc, char **argv)
{
    if (argc < 2)
        cli_fail("db: missing subcommand: build, info, verify, query or store (see sow db --help)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        fputs(usage_db, stdout);
        return 0;
    }
    static const struct {
        const char *name, *full;
        int (*run)(int, char **);
    } subs[] = {
        {"build", "db build", db_build},
        {"info", "db info", db_info},
        {"verify", "db verify", db_verify},
        {"query", "db query", db_query},
        {"store", "db store", db_store},
    };
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (strcmp(argv[1], subs[i].name) == 0) {
            /* cli_parse names argv[0] in its messages and hints ("see sow
             * X --help"): the subcommand's full name makes those real. */
            argv[1] = (char *)subs[i].full;
            return subs[i].run(argc - 1, argv + 1);
        }
    cli_fail("db: unknown subcommand '%s' (build, info, verify, query, store; see sow db --help)",
             argv[1]);
}
