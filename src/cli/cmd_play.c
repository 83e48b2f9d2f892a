/* cmd_play.c - `sow play`: replay a game record and show the position. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] =
    "usage: sow play GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                [--moves LIST | --record FILE | --position P] [--json]\n"
    "                [--print-record] [--record-out FILE]\n"
    "\n"
    "Replays a game record (or reads a position) and shows the board.\n"
    "\n" CLI_GAME_HELP
    "  --print-record      also print the record in the players' notation\n"
    "                      (toguz: 1. 76 98 2. ...; --json always has \"record\")\n"
    "  --record-out FILE   write that record to FILE (replaced atomically)\n"
    "\n"
    "example: sow play kalah --moves 3,1,6\n"
    "         sow play toguz --moves '1. 76 98 2. 66 87 3. 12 76' --print-record\n";

/* Prints the board as South sees it: North's row on top, right to left
 * (her pit 1 is on South's right), North's store on the left and South's on
 * the right. A tuzdik is shown as X. */
static void draw(const cli_game *cg)
{
    const sow_game *g = &cg->g;
    const sow_pos *p = &cg->pos;
    int m = g->m;
    int tz_s = sow_pos_tuzdik(p, SOW_SOUTH), tz_n = sow_pos_tuzdik(p, SOW_NORTH);
    const char *store = g->cfg.game == SOW_TOGUZ ? "kazan" : "store";

    printf("%s, %d pits, %d seeds", sow_game_name(g->cfg.game), m, g->cfg.seeds);
    for (int i = 0; i < SOW_VAR_COUNT; i++)
        if (g->cfg.variant & (1u << i))
            printf(", %s", sow_variant_name(1u << i));
    printf("\n\n");
    printf("            ");
    for (int k = m; k >= 1; k--)
        printf(" N%-3d", k);
    printf("\n            ");
    for (int k = m; k >= 1; k--) {
        if (tz_s == k)
            printf("[ X]");
        else
            printf("[%2d]", sow_pos_pit(p, SOW_NORTH, k));
        printf(" ");
    }
    printf("\n  north %3d %*s south %3d\n", sow_pos_store(p, SOW_NORTH), 5 * m, "",
           sow_pos_store(p, SOW_SOUTH));
    printf("            ");
    for (int k = 1; k <= m; k++) {
        if (tz_n == k)
            printf("[ X]");
        else
            printf("[%2d]", sow_pos_pit(p, SOW_SOUTH, k));
        printf(" ");
    }
    printf("\n            ");
    for (int k = 1; k <= m; k++)
        printf(" S%-3d", k);
    printf("\n\n(%ss: north %d, south %d)\n", store, sow_pos_store(p, SOW_NORTH),
           sow_pos_store(p, SOW_SOUTH));
    if (g->tuzdik || tz_s || tz_n) {
        printf("tuzdik: south ");
        tz_s ? printf("north's pit %d", tz_s) : printf("none");
        printf(", north ");
        tz_n ? printf("south's pit %d\n", tz_n) : printf("none\n");
    }
    if (sow_over(g, p)) {
        int margin = sow_final_margin(g, p);
        int score = sow_terminal_score(g, p);
        if (sow_pos_to_move(p) == SOW_NORTH)
            score = -score;
        printf("game over: margin %+d (south minus north), %s\n", margin,
               score > 0 ? "south wins" : score < 0 ? "north wins" : "draw");
    } else {
        printf("%s to move\n", sow_pos_to_move(p) == SOW_SOUTH ? "south" : "north");
    }
    char text[SOW_POS_TEXT_MAX];
    sow_pos_format(g, p, text, sizeof text);
    printf("position: %s\n", text);
}

static void json_row(const sow_pos *p, int player, int m)
{
    printf("[");
    for (int k = 1; k <= m; k++)
        printf("%s%d", k > 1 ? "," : "", sow_pos_pit(p, player, k));
    printf("]");
}

/* The record of the moves replayed, in the players' notation; NULL from a
 * --position (a record starts from the start). Kept for the process's life. */
static const char *record_text(const cli_game *cg)
{
    static char *text;
    if (cg->position)
        return NULL;
    size_t size = (size_t)cg->nhist * SOW_RECORD_MOVE_MAX + 8;
    text = malloc(size);
    if (!text)
        cli_fail("out of memory");
    sow_pos start;
    sow_game_start(&cg->g, &start);
    sow_err e = sow_record_format(&cg->g, &start, cg->hist, cg->nhist, text, size, NULL);
    if (e) /* unreachable: the moves were replayed and the size is the bound */
        cli_fail("writing the record: %s", sow_err_name(e));
    return text;
}

/* Writes the record to `path` under a temporary name, then renames it into
 * place: a reader never sees half a record, and a failed write leaves the
 * old file as it was. */
static void write_record(const char *path, const char *text)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid()) >= (int)sizeof tmp)
        cli_fail("--record-out %s: path too long", path);
    FILE *f = fopen(tmp, "wb");
    if (!f)
        cli_fail("--record-out %s: %s", path, strerror(errno));
    bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF && fflush(f) == 0 &&
              fsync(fileno(f)) == 0;
    int err = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, path) != 0) {
        ok = false;
        err = errno;
    }
    if (!ok) {
        unlink(tmp);
        cli_fail("--record-out %s: %s", path, strerror(err));
    }
}

static void json(const cli_game *cg, const char *record)
{
    const sow_game *g = &cg->g;
    const sow_pos *p = &cg->pos;
    printf("{");
    cli_json_game(cg);
    printf(",\"south\":");
    json_row(p, SOW_SOUTH, g->m);
    printf(",\"north\":");
    json_row(p, SOW_NORTH, g->m);
    printf(",\"south_store\":%d,\"north_store\":%d", sow_pos_store(p, SOW_SOUTH),
           sow_pos_store(p, SOW_NORTH));
    printf(",\"to_move\":\"%s\"", sow_pos_to_move(p) == SOW_SOUTH ? "south" : "north");
    bool over = sow_over(g, p);
    printf(",\"over\":%s", over ? "true" : "false");
    if (over) {
        int score = sow_terminal_score(g, p);
        if (sow_pos_to_move(p) == SOW_NORTH)
            score = -score;
        printf(",\"margin\":%d,\"winner\":\"%s\"", sow_final_margin(g, p),
               score > 0 ? "south" : score < 0 ? "north" : "draw");
    } else {
        printf(",\"margin\":null,\"winner\":null");
    }
    if (g->cfg.game == SOW_TOGUZ) {
        int ts = sow_pos_tuzdik(p, SOW_SOUTH), tn = sow_pos_tuzdik(p, SOW_NORTH);
        printf(",\"tuzdik\":{\"south\":");
        ts ? printf("%d", ts) : printf("null");
        printf(",\"north\":");
        tn ? printf("%d", tn) : printf("null");
        printf("}");
    }
    char text[SOW_POS_TEXT_MAX];
    sow_pos_format(g, p, text, sizeof text);
    printf(",\"position\":\"%s\"", text);
    /* The record holds only digits, dots, blanks, commas and x: no escaping. */
    record ? printf(",\"record\":\"%s\"}\n", record) : printf(",\"record\":null}\n");
}

int cmd_play(int argc, char **argv)
{
    cli_game cg = {0};
    bool print_record = false;
    const char *record_out = NULL;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg),
                            {"print-record", OPT_FLAG, &print_record},
                            {"record-out", OPT_STRING, &record_out},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    cli_game_setup(&cg, true, true);
    if ((print_record || record_out) && cg.position)
        cli_fail("%s: a record starts from the start; give --moves or --record, not --position",
                 record_out ? "--record-out" : "--print-record");
    const char *record = record_text(&cg);
    if (record_out)
        write_record(record_out, record);
    if (cg.json) {
        json(&cg, record);
    } else {
        draw(&cg);
        if (print_record)
            printf("record: %s\n", record);
    }
    return 0;
}
