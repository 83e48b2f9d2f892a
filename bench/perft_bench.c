/* perft_bench.c - the perft benchmark: make-moves per second of the rules
 * core, single thread, on the default board of each game and on the Kalah
 * variants. scripts/bench-perft runs it on a release build and writes
 * results/perft.md.
 *
 * Each case has a fixed depth, chosen so that one run takes roughly 0.5-2 s
 * on a 2020s x86-64 core; the leaf counts are then a signature of the move
 * generator (they change only if the rules change) and the speeds are
 * comparable between commits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sow/game.h"
#include "sow/rules.h"

#include "perft_measure.h"

typedef struct bench_case {
    const char *label; /* unique name, for --only */
    sow_game_id game;
    int pits, seeds;
    unsigned variant;
    int depth;
} bench_case;

static const bench_case cases[] = {
    {"kalah", SOW_KALAH, 6, 4, 0, 11},
    {"chungkala", SOW_CHUNGKALA, 6, 3, 0, 11},
    {"congkak", SOW_CONGKAK, 7, 7, 0, 9},
    {"toguz", SOW_TOGUZ, 9, 9, 0, 8},
    {"kalah-empty-capture", SOW_KALAH, 6, 4, SOW_VAR_EMPTY_CAPTURE, 11},
    {"kalah-end-on-turn", SOW_KALAH, 6, 4, SOW_VAR_END_ON_TURN, 11},
    {"kalah-no-sweep", SOW_KALAH, 6, 4, SOW_VAR_NO_SWEEP, 11},
    {"kalah-6x6", SOW_KALAH, 6, 6, 0, 10},
    {"toguz-no-tuzdik", SOW_TOGUZ, 9, 9, SOW_VAR_NO_TUZDIK, 8},
};
enum { NCASES = sizeof cases / sizeof cases[0] };

static const char usage[] =
    "usage: perft_bench [--reps N] [--depth-shift K] [--only LABEL[,LABEL...]]\n"
    "                   [--json] [--list]\n"
    "\n"
    "Times sow_perft (single thread) on fixed positions and prints, per case,\n"
    "the depth, perft(depth) (leaves), the make-moves one run performs\n"
    "(perft(1)+...+perft(depth): every move is made, none bulk-counted), the\n"
    "median wall and CPU seconds over N runs and the speed in million\n"
    "make-moves per second from each median.\n"
    "\n"
    "  --reps N          runs per case, 1..101 (default 5)\n"
    "  --depth-shift K   add K (may be negative) to every case's depth\n"
    "  --only LABELS     run only these cases (see --list)\n"
    "  --json            one JSON object per line per case, nothing else\n"
    "  --list            print the case labels and depths, then exit\n";

static void fail(const char *msg, const char *arg)
{
    fprintf(stderr, "perft_bench: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

static long parse_int(const char *what, const char *s, long lo, long hi)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < lo || v > hi)
        fail(what, s);
    return v;
}

/* Is `label` one of the comma-separated names in `list`? */
static int listed(const char *list, const char *label)
{
    size_t n = strlen(label);
    for (const char *s = list; *s;) {
        const char *e = strchr(s, ',');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if (len == n && strncmp(s, label, n) == 0)
            return 1;
        if (!e)
            break;
        s = e + 1;
    }
    return 0;
}

static void variant_text(unsigned v, char *buf, size_t size, const char *sep, int quote)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned f = 1; f && f < (1u << SOW_VAR_COUNT); f <<= 1)
        if (v & f)
            n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s%s%s", n ? sep : "",
                                  quote ? "\"" : "", sow_variant_name(f), quote ? "\"" : "");
}

int main(int argc, char **argv)
{
    int reps = 5, shift = 0, json = 0;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--list")) {
            for (int c = 0; c < NCASES; c++)
                printf("%s %d\n", cases[c].label, cases[c].depth);
            return 0;
        } else if (!strcmp(a, "--reps") && v) {
            reps = (int)parse_int("--reps must be 1..101", v, 1, PERFT_MEASURE_MAX_REPS);
            i++;
        } else if (!strcmp(a, "--depth-shift") && v) {
            shift = (int)parse_int("--depth-shift must be -10..10", v, -10, 10);
            i++;
        } else if (!strcmp(a, "--only") && v) {
            only = v;
            i++;
        } else {
            fail("unknown or incomplete option (see --help)", a);
        }
    }
    if (only)
        for (const char *s = only; *s;) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            int found = 0;
            for (int c = 0; c < NCASES; c++)
                found |= strlen(cases[c].label) == len && !strncmp(s, cases[c].label, len);
            if (!found)
                fail("--only: unknown case (see --list)", s);
            s = e ? e + 1 : s + len;
        }

    if (!json)
        printf("%-20s %-5s %5s %12s %12s %4s %9s %9s %9s %9s\n", "case", "board", "depth",
               "leaves", "make-moves", "reps", "median s", "cpu s", "M mm/s", "cpu M/s");
    for (int c = 0; c < NCASES; c++) {
        const bench_case *bc = &cases[c];
        if (only && !listed(only, bc->label))
            continue;
        sow_config cfg = {bc->game, bc->pits, bc->seeds, bc->variant};
        sow_game *g = malloc(sizeof *g);
        if (!g)
            fail("out of memory", NULL);
        if (sow_game_init(g, &cfg) != SOW_OK)
            fail("bad case", bc->label);
        sow_pos p;
        sow_game_start(g, &p);
        int depth = bc->depth + shift;
        if (depth < 1)
            depth = 1;
        perft_measure r;
        sow_err e = perft_measure_run(g, &p, depth, reps, &r);
        if (e != SOW_OK)
            fail(e == SOW_E_MISMATCH ? "perft differs between runs" : "cannot measure",
                 bc->label);
        char var[128];
        if (json) {
            variant_text(bc->variant, var, sizeof var, ",", 1);
            printf("{\"case\":\"%s\",\"game\":\"%s\",\"pits\":%d,\"seeds\":%d,\"variant\":[%s],"
                   "\"depth\":%d,\"leaves\":%llu,\"makes\":%llu,\"reps\":%d,"
                   "\"median_s\":%.6f,\"min_s\":%.6f,\"median_cpu_s\":%.6f,"
                   "\"mmakes_per_s\":%.2f,\"mmakes_per_cpu_s\":%.2f}\n",
                   bc->label, sow_game_name(bc->game), bc->pits, bc->seeds, var, r.depth,
                   (unsigned long long)r.leaves, (unsigned long long)r.makes, r.reps, r.median_s,
                   r.min_s, r.median_cpu_s, r.mmakes_per_s, r.mmakes_per_cpu_s);
        } else {
            char board[16];
            snprintf(board, sizeof board, "%dx%d", bc->pits, bc->seeds);
            printf("%-20s %-5s %5d %12llu %12llu %4d %9.3f %9.3f %9.1f %9.1f\n", bc->label,
                   board, r.depth, (unsigned long long)r.leaves, (unsigned long long)r.makes,
                   r.reps, r.median_s, r.median_cpu_s, r.mmakes_per_s, r.mmakes_per_cpu_s);
        }
        fflush(stdout);
        free(g);
    }
    return 0;
}
