/* common.c - option parsing and game set-up shared by the commands. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cli.h"
#include "sow/analyse.h"
#include "sow/plan.h"

/* Writes s with every control character escaped, so that a message that
 * echoes an argument such as $'4\n' stays on one line: the one-line error
 * is what scripts (and tests/fuzz_cli.py) rely on. Bytes >= 0x80 pass
 * through, so UTF-8 input reads as typed. */
static void put_escaped(const char *s, FILE *f)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if (*c == '\n')
            fputs("\\n", f);
        else if (*c == '\r')
            fputs("\\r", f);
        else if (*c == '\t')
            fputs("\\t", f);
        else if (*c < 0x20 || *c == 0x7f)
            fprintf(f, "\\x%02x", *c);
        else
            fputc(*c, f);
    }
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    fflush(stdout);
    /* Format first, escape after: escaping each argument at each call site
     * would miss the next one added. */
    char small[512], *msg = small;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof small) {
        static char *big; /* static: still reachable at exit, so no leak report */
        big = malloc((size_t)n + 1);
        if (big) { /* else: the message, truncated, is still one line */
            va_start(ap, fmt);
            vsnprintf(big, (size_t)n + 1, fmt, ap);
            va_end(ap);
            msg = big;
        }
    }
    fputs("sow: ", stderr);
    put_escaped(n < 0 ? "(unprintable message)" : msg, stderr);
    fputc('\n', stderr);
    exit(2);
}

double cli_now(void)
{
    return sow_now();
}

/* Written and read only in the handler. Two handlers at once (two
 * signals on two threads within its microseconds) may read it unwritten:
 * then the second exits at once, as every second SIGINT did before. */
static struct timespec first_sigint;

void cli_sigint_stop(sow_stop_flag *flag)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (__atomic_load_n(flag, __ATOMIC_RELAXED)) { /* a second Ctrl-C, or the same stop */
        double dt = (double)(t.tv_sec - first_sigint.tv_sec) +
                    (double)(t.tv_nsec - first_sigint.tv_nsec) * 1e-9;
        if (dt >= CLI_SIGINT_AGAIN)
            _exit(130);
        return;
    }
    first_sigint = t;
    __atomic_store_n(flag, 1, __ATOMIC_RELAXED); /* read by the solver threads */
}

void cli_parse(int argc, char **argv, const cli_opt *opts, const char **pos,
               int max_pos, int *npos, const char *usage)
{
    *npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            exit(0);
        }
        if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
            if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9'))
                cli_fail("%s: unknown option '%s' (see sow %s --help)", argv[0], a, argv[0]);
            if (*npos >= max_pos)
                cli_fail("%s: unexpected argument '%s' (see sow %s --help)", argv[0], a, argv[0]);
            pos[(*npos)++] = a;
            continue;
        }
        const char *name = a + 2;
        const char *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const cli_opt *o = opts;
        while (o->name && !(strlen(o->name) == len && strncmp(o->name, name, len) == 0))
            o++;
        if (!o->name)
            cli_fail("%s: unknown option '--%.*s' (see sow %s --help)", argv[0], (int)len, name,
                     argv[0]);
        if (o->kind == OPT_FLAG) {
            if (eq)
                cli_fail("%s: option '--%s' takes no value", argv[0], o->name);
            *(bool *)o->dst = true;
        } else if (eq) {
            *(const char **)o->dst = eq + 1;
        } else {
            if (i + 1 >= argc)
                cli_fail("%s: option '--%s' needs a value", argv[0], o->name);
            *(const char **)o->dst = argv[++i];
        }
    }
}

long cli_int(const char *what, const char *text, long lo, long hi)
{
    char err[256];
    long v;
    if (!cli_try_int(what, text, lo, hi, &v, err, sizeof err))
        cli_fail("%s", err);
    return v;
}

bool cli_eval(const char *what, const sow_game *g, const char *text, sow_eval_params *out)
{
    memset(out, 0, sizeof *out);
    if (strcmp(text, "material") == 0)
        return false;
    if (strcmp(text, "full") == 0) {
        sow_eval_default(g, out);
        return true;
    }
    int *f[6] = {&out->row, &out->mobility, &out->extra, &out->capture, &out->tuzdik,
                 &out->decided};
    const char *s = text;
    for (int k = 0; k < 6; k++) {
        char num[16];
        size_t len = strcspn(s, ":");
        bool last = s[len] == '\0';
        if (len == 0 || len >= sizeof num || last != (k == 5))
            cli_fail("%s: expected %s, got '%s'", what, CLI_EVAL_HELP, text);
        memcpy(num, s, len);
        num[len] = '\0';
        *f[k] = (int)cli_int(what, num, -10000, 10000);
        s += len + 1;
    }
    return true;
}

static const char *const reductions_names[] = {"game", "one", "deep"};

bool cli_try_reductions(const char *text, sow_reductions *out)
{
    for (int r = SOW_REDUCE_GAME; r <= SOW_REDUCE_DEEP; r++)
        if (strcmp(text, reductions_names[r]) == 0) {
            *out = (sow_reductions)r;
            return true;
        }
    return false;
}

sow_reductions cli_reductions(const char *what, const char *text)
{
    sow_reductions r;
    if (!cli_try_reductions(text, &r))
        cli_fail("%s: expected game, one or deep, got '%s'", what, text);
    return r;
}

const char *cli_reductions_name(sow_reductions r)
{
    return reductions_names[r];
}

static const char *variant_list(sow_game_id game)
{
    static _Thread_local char buf[128]; /* sow serve sets games up on many threads */
    buf[0] = '\0';
    unsigned vs = sow_variants_of(game);
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (vs & (1u << i)) {
            if (buf[0])
                strcat(buf, ", ");
            strcat(buf, sow_variant_name(1u << i));
        }
    return buf[0] ? buf : "none";
}

/* The text of a --record file. A record of CLI_MAX_HISTORY moves with
 * numbers, marks and a comment per move stays far below the limit; a larger
 * file is not a record, and reading it whole would only cost memory. The
 * text is kept for the process's life (static: no leak report at exit).
 * NULL with the reason in err on failure. */
#define CLI_RECORD_FILE_MAX (1u << 20)

static const char *read_record(const char *path, char *err, size_t errsize)
{
    static char *text;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errsize, "--record %s: %s", path, strerror(errno));
        return NULL;
    }
    free(text);
    text = malloc(CLI_RECORD_FILE_MAX + 1);
    if (!text) {
        fclose(f);
        snprintf(err, errsize, "--record %s: out of memory", path);
        return NULL;
    }
    size_t len = fread(text, 1, CLI_RECORD_FILE_MAX + 1, f);
    bool bad = ferror(f);
    int e = errno;
    fclose(f);
    if (bad)
        snprintf(err, errsize, "--record %s: %s", path, strerror(e));
    else if (len > CLI_RECORD_FILE_MAX)
        snprintf(err, errsize, "--record %s: larger than %u bytes, not a game record", path,
                 CLI_RECORD_FILE_MAX);
    else if (memchr(text, '\0', len))
        snprintf(err, errsize, "--record %s: contains a NUL byte, not a text record", path);
    else {
        text[len] = '\0';
        return text;
    }
    return NULL;
}

bool cli_try_int(const char *what, const char *text, long lo, long hi, long *out, char *err,
                 size_t errsize)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    /* strtol also takes leading blanks and a '+': "the whole string" is a
     * plain decimal integer, so `--pits ' 4'` is refused like `--pits '4 '`. */
    const char *digits = text + (text[0] == '-');
    if (!isdigit((unsigned char)*digits) || *end != '\0' || errno) {
        snprintf(err, errsize, "%s: expected an integer, got '%s'", what, text);
        return false;
    }
    if (v < lo || v > hi) {
        snprintf(err, errsize, "%s: %ld is out of range (%ld..%ld)", what, v, lo, hi);
        return false;
    }
    *out = v;
    return true;
}

/* One error, formatted into err: the setup's way to fail. */
#define SETUP_FAIL(...)                            \
    do {                                           \
        snprintf(err, errsize, __VA_ARGS__);       \
        return false;                              \
    } while (0)

bool cli_game_try_setup(cli_game *cg, bool allow_moves, bool allow_position, char *err,
                        size_t errsize)
{
    long v_;
    sow_game_id id;
    if (!cg->name)
        SETUP_FAIL("missing GAME (kalah, chungkala, congkak or toguz)");
    if (sow_game_parse(cg->name, &id) != SOW_OK)
        SETUP_FAIL("unknown game '%s' (kalah, chungkala, congkak or toguz)", cg->name);
    sow_config_default(id, &cg->cfg);
    if (cg->moves && !allow_moves)
        SETUP_FAIL("--moves is not accepted here");
    if (cg->record_file && !allow_moves)
        SETUP_FAIL("--record is not accepted here");
    if (cg->record_file && (cg->moves || cg->position))
        SETUP_FAIL("give one of --record, --moves and --position");
    if (cg->position && !allow_position)
        SETUP_FAIL("--position is not accepted here");
    if (cg->moves && cg->position)
        SETUP_FAIL("give --moves or --position, not both");

    int lo = sow_pits_min(id);
    if (cg->pits)
    {
        if (!cli_try_int("--pits", cg->pits, lo, SOW_MAX_PITS, &v_, err, errsize))
            return false;
        cg->cfg.pits = (int)v_;
    }
    else if (cg->position) {
        int m = sow_pos_text_pits(cg->position); /* infer m from the position */
        if (m >= lo && m <= SOW_MAX_PITS)
            cg->cfg.pits = m;
    }
    int smax = sow_seeds_max(cg->cfg.pits);
    if (cg->seeds)
    {
        if (!cli_try_int("--seeds", cg->seeds, 1, smax, &v_, err, errsize))
            return false;
        cg->cfg.seeds = (int)v_;
    }
    else if (cg->cfg.seeds > smax)
        SETUP_FAIL("the default %d seeds per pit exceed %d seeds on %d pits; give --seeds",
                 cg->cfg.seeds, SOW_MAX_TOTAL, cg->cfg.pits);
    if (cg->variant) {
        unsigned v;
        if (sow_variant_parse(id, cg->variant, &v) != SOW_OK)
            SETUP_FAIL("--variant: '%s' is not a list of variants of %s (%s)", cg->variant,
                     sow_game_name(id), variant_list(id));
        cg->cfg.variant = v;
    }
    sow_err e = sow_game_init(&cg->g, &cg->cfg);
    if (e)
        SETUP_FAIL("%s", sow_err_name(e)); /* unreachable: every field was checked above */

    sow_game_start(&cg->g, &cg->pos);
    cg->nhist = 0;
    cg->pie_opening = cg->g.pie && !cg->position;
    if (cg->position) {
        char why[128];
        if (sow_pos_parse(&cg->g, cg->position, &cg->pos, why, sizeof why) != SOW_OK)
            SETUP_FAIL("--position '%s': %s", cg->position, why);
    }
    if (cg->record_file && !(cg->moves = read_record(cg->record_file, err, errsize)))
        return false;
    if (cg->moves) {
        int n;
        char why[256];
        e = sow_record_parse(&cg->g, &cg->pos, cg->moves, cg->hist, CLI_MAX_HISTORY, &n, why,
                             sizeof why);
        if (e) {
            if (cg->record_file)
                SETUP_FAIL("--record %s: %s", cg->record_file, why);
            SETUP_FAIL("--moves: %s", why);
        }
        for (int k = 0; k < n; k++) {
            sow_make(&cg->g, &cg->pos, cg->hist[k]); /* legal: the parser replayed it */
            if (sow_pos_to_move(&cg->pos) == SOW_NORTH)
                cg->pie_opening = false;
        }
        cg->nhist = n;
    }
    if (sow_over(&cg->g, &cg->pos))
        cg->pie_opening = false;
    return true;
}

#undef SETUP_FAIL

void cli_game_setup(cli_game *cg, bool allow_moves, bool allow_position)
{
    /* Room for any message: each echoes at most one option's text whole. */
    size_t size = 512;
    const char *texts[] = {cg->name, cg->pits, cg->seeds, cg->variant, cg->moves, cg->position};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
        size += texts[i] ? strlen(texts[i]) : 0;
    char *err = malloc(size);
    if (!err)
        cli_fail("out of memory");
    if (!cli_game_try_setup(cg, allow_moves, allow_position, err, size))
        cli_fail("%s", err);
    free(err);
}

/* The length of the well-formed UTF-8 sequence at s (1 to 4 bytes), or 0:
 * a stray continuation byte, a truncated sequence, an overlong form, a
 * surrogate or a code point above U+10FFFF (RFC 3629, table 3-7 of the
 * Unicode standard). */
static int utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    int n;
    unsigned lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        n = 2;
    else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        if (c == 0xe0)
            lo = 0xa0; /* overlong below */
        if (c == 0xed)
            hi = 0x9f; /* surrogates above */
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        if (c == 0xf0)
            lo = 0x90;
        if (c == 0xf4)
            hi = 0x8f; /* beyond U+10FFFF above */
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (int k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xbf) /* a NUL ends the loop here too */
            return 0;
    return n;
}

void cli_fjson_string(FILE *f, const char *s)
{
    /* JSON text is UTF-8 (RFC 8259): a byte that is not part of a
     * well-formed sequence (a path, a request's %ff) becomes U+FFFD, so
     * every answer parses whatever it echoes. */
    fputc('"', f);
    for (const unsigned char *c = (const unsigned char *)s; *c;) {
        int n = utf8_length(c);
        if (n == 0) {
            fputs("\\ufffd", f);
            c++;
        } else if (n > 1) {
            fwrite(c, 1, (size_t)n, f);
            c += n;
        } else {
            if (*c == '"' || *c == '\\')
                fprintf(f, "\\%c", *c);
            else if (*c < 0x20 || *c == 0x7f)
                fprintf(f, "\\u%04x", *c);
            else
                fputc(*c, f);
            c++;
        }
    }
    fputc('"', f);
}

void cli_json_game(const cli_game *cg)
{
    cli_fjson_game(stdout, cg);
}

void cli_fjson_game(FILE *f, const cli_game *cg)
{
    /* From --position the seeds per pit at the start are unknown. */
    fprintf(f, "\"game\":\"%s\",\"pits\":%d,\"seeds\":", sow_game_name(cg->cfg.game),
           cg->cfg.pits);
    fprintf(f, cg->position ? "null" : "%d", cg->cfg.seeds);
    fprintf(f, ",\"variant\":[");
    int first = 1;
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (cg->cfg.variant & (1u << i)) {
            fprintf(f, "%s\"%s\"", first ? "" : ",", sow_variant_name(1u << i));
            first = 0;
        }
    fprintf(f, "]");
}

const char *cli_outcome_name(sow_outcome o)
{
    return o == SOW_WIN ? "win" : o == SOW_LOSS ? "loss" : "draw";
}

void cli_json_moves(const cli_game *cg, const sow_solution *s, const bool *exact)
{
    cli_fjson_moves(stdout, cg, s, exact, CLI_MOVES_BOUNDS);
}

void cli_fjson_moves(FILE *f, const cli_game *cg, const sow_solution *s, const bool *exact,
                     cli_moves_mark mark)
{
    char mt[8];
    fprintf(f, ",\"best\":");
    if (s->best >= 0) {
        sow_move_format(s->moves[s->best], mt, sizeof mt);
        fprintf(f, "\"%s\"", mt);
    } else {
        fprintf(f, "null");
    }
    fprintf(f, ",\"moves\":[");
    for (int k = 0; k < s->nmoves; k++) {
        sow_move_format(s->moves[k], mt, sizeof mt);
        int sc = s->move_scores[k];
        fprintf(f, "%s{\"move\":\"%s\"", k ? "," : "", mt);
        bool bound = mark == CLI_MOVES_BOUNDS && exact && !exact[k];
        if (bound || mark == CLI_MOVES_UNKNOWN)
            fprintf(f, ",\"value\":null,\"outcome\":null");
        else
            fprintf(f, ",\"value\":%d,\"outcome\":\"%s\"", sow_score_margin(&cg->g, sc),
                    cli_outcome_name(sow_outcome_of(sc)));
        if (bound) /* value only: the search proved just that no move beats the value */
            fprintf(f, ",\"at_most\":%d", sow_score_margin(&cg->g, sc));
        if (mark != CLI_MOVES_BOUNDS)
            fprintf(f, ",\"exact\":%s", mark == CLI_MOVES_EXACT ? "true" : "false");
        fputc('}', f);
    }
    fprintf(f, "]");
}

void cli_text_moves(const cli_game *cg, const sow_solution *s, const bool *exact)
{
    char mt[8];
    if (!s->nmoves) {
        printf("the game is over\n");
        return;
    }
    printf("moves:");
    for (int k = 0; k < s->nmoves; k++) {
        sow_move_format(s->moves[k], mt, sizeof mt);
        int sc = s->move_scores[k], v = sow_score_margin(&cg->g, sc);
        printf(" %s:%s%+d", mt, !exact || exact[k] ? "" : "<=", v);
        /* Equal stores decided by the tie-break (Chungkala). */
        if (v == 0 && sc != 0 && (!exact || exact[k]))
            printf("(%s)", cli_outcome_name(sow_outcome_of(sc)));
    }
    sow_move_format(s->moves[s->best], mt, sizeof mt);
    printf("\nbest: %s\n", mt);
}
