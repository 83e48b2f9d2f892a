/* cmd_play.c - `sow play`: replay a game record and show the position. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "play.h"

static const char usage[] =
    "usage: sow play GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                [--moves LIST | --record FILE | --position P] [--json]\n"
    "                [--print-record] [--record-out FILE]\n"
    "       sow play GAME --interactive [--human south|north|both] [--level L]\n"
    "                [--time S] [--seed N] [--save FILE] [--db DIR] [--threads T]\n"
    "                [game options]\n"
    "\n"
    "Replays a game record (or reads a position) and shows the board.\n"
    "With --interactive, play on from there against the computer (or two\n"
    "humans at one keyboard); type `help` at the prompt for the commands.\n"
    "\n" CLI_GAME_HELP
    "  --print-record      also print the record in the players' notation\n"
    "                      (toguz: 1. 76 98 2. ...; --json always has \"record\")\n"
    "  --record-out FILE   write that record to FILE (replaced atomically)\n"
    "  --interactive       play a game at the terminal\n"
    "  --human SIDE        who the humans play: south (default), north, both\n"
    "  --level L           the computer's strength, 1..4 (default 4):\n"
    "                      1: a random move 3 times in 4, else the best;\n"
    "                      2: random half the time; 3: random 1 time in 5;\n"
    "                      4: the strongest, always the best move it finds\n"
    "  --time S            seconds the computer may take per move or hint, its\n"
    "                      database's build included (default 5). Level 4 is\n"
    "                      perfect play only where the board is solved within\n"
    "                      it (database or search; each move says so); else it\n"
    "                      plays the strongest move found, with an estimate\n"
    "  --seed N            seed of the levels' random moves (default: the clock)\n"
    "  --save FILE         where Ctrl-C (and `save` alone) saves the game record\n"
    "                      (default: sow-GAME-DATE-TIME.txt in this folder)\n"
    "  --db DIR            endgame database folder (as for sow solve)\n"
    "  --threads T         search threads (default: the cores available)\n"
    "\n"
    "example: sow play kalah --moves 3,1,6\n"
    "         sow play toguz --moves '1. 76 98 2. 66 87 3. 12 76' --print-record\n"
    "         sow play chungkala --pits 4 --seeds 3 --interactive --level 2\n";

/* Prints the board as South sees it: North's row on top, right to left
 * (her pit 1 is on South's right), North's store on the left and South's on
 * the right. A tuzdik is shown as X. */
void cli_draw_rows(const cli_game *cg)
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
}

void cli_draw_board(const cli_game *cg)
{
    const sow_game *g = &cg->g;
    const sow_pos *p = &cg->pos;
    cli_draw_rows(cg);
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

static void json_row(FILE *f, const sow_pos *p, int player, int m)
{
    fprintf(f, "[");
    for (int k = 1; k <= m; k++)
        fprintf(f, "%s%d", k > 1 ? "," : "", sow_pos_pit(p, player, k));
    fprintf(f, "]");
}

void cli_play_json(FILE *f, const cli_game *cg)
{
    const sow_game *g = &cg->g;
    const sow_pos *p = &cg->pos;
    fprintf(f, "{");
    cli_fjson_game(f, cg);
    fprintf(f, ",\"south\":");
    json_row(f, p, SOW_SOUTH, g->m);
    fprintf(f, ",\"north\":");
    json_row(f, p, SOW_NORTH, g->m);
    fprintf(f, ",\"south_store\":%d,\"north_store\":%d", sow_pos_store(p, SOW_SOUTH),
           sow_pos_store(p, SOW_NORTH));
    fprintf(f, ",\"to_move\":\"%s\"", sow_pos_to_move(p) == SOW_SOUTH ? "south" : "north");
    bool over = sow_over(g, p);
    fprintf(f, ",\"over\":%s", over ? "true" : "false");
    if (over) {
        int score = sow_terminal_score(g, p);
        if (sow_pos_to_move(p) == SOW_NORTH)
            score = -score;
        fprintf(f, ",\"margin\":%d,\"winner\":\"%s\"", sow_final_margin(g, p),
               score > 0 ? "south" : score < 0 ? "north" : "draw");
    } else {
        fprintf(f, ",\"margin\":null,\"winner\":null");
    }
    cli_fjson_end(f, cg);
    if (g->cfg.game == SOW_TOGUZ) {
        int ts = sow_pos_tuzdik(p, SOW_SOUTH), tn = sow_pos_tuzdik(p, SOW_NORTH);
        fprintf(f, ",\"tuzdik\":{\"south\":");
        ts ? fprintf(f, "%d", ts) : fprintf(f, "null");
        fprintf(f, ",\"north\":");
        tn ? fprintf(f, "%d", tn) : fprintf(f, "null");
        fprintf(f, "}");
    }
    /* The legal moves: what a front end (sow serve's page) offers. */
    sow_move mv[SOW_MAX_MOVES];
    int n = sow_moves(g, p, mv);
    fprintf(f, ",\"legal\":[");
    for (int k = 0; k < n; k++) {
        char mt[8];
        sow_move_format(mv[k], mt, sizeof mt);
        fprintf(f, "%s\"%s\"", k ? "," : "", mt);
    }
    fprintf(f, "],\"pie_opening\":%s", cg->pie_opening ? "true" : "false");
    char text[SOW_POS_TEXT_MAX];
    sow_pos_format(g, p, text, sizeof text);
    fprintf(f, ",\"position\":\"%s\"", text);
    /* The record holds only digits, dots, blanks, commas and x: no escaping. */
    char *record = NULL;
    if (!cg->position) {
        sow_pos start;
        sow_game_start(g, &start);
        record = record_text(g, &start, cg->hist, cg->nhist);
    }
    record ? fprintf(f, ",\"record\":\"%s\"}\n", record) : fprintf(f, ",\"record\":null}\n");
    free(record);
}

int cmd_play(int argc, char **argv)
{
    cli_game cg = {0};
    bool print_record = false;
    const char *record_out = NULL;
    play_options po = {0};
    bool interactive = false;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg),
                            {"print-record", OPT_FLAG, &print_record},
                            {"record-out", OPT_STRING, &record_out},
                            {"interactive", OPT_FLAG, &interactive},
                            {"human", OPT_STRING, &po.human},
                            {"level", OPT_STRING, &po.level},
                            {"time", OPT_STRING, &po.time},
                            {"seed", OPT_STRING, &po.seed},
                            {"db", OPT_STRING, &po.db},
                            {"threads", OPT_STRING, &po.threads},
                            {"save", OPT_STRING, &po.save},
                            {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    if (!interactive &&
        (po.human || po.level || po.time || po.seed || po.db || po.threads || po.save))
        cli_fail("play: --human, --level, --time, --seed, --save, --db and --threads need "
                 "--interactive");
    if (interactive && cg.json)
        cli_fail("play: --interactive and --json exclude each other");
    cli_game_setup(&cg, true, true);
    if (interactive && (print_record || record_out))
        cli_fail("play: --print-record and --record-out replay a game; in --interactive, "
                 "type save FILE");
    if (interactive)
        return play_interactive(&cg, &po);
    if ((print_record || record_out) && cg.position)
        cli_fail("%s: a record starts from the start; give --moves or --record, not --position",
                 record_out ? "--record-out" : "--print-record");
    char *record = NULL;
    if (print_record || record_out) {
        sow_pos start;
        sow_game_start(&cg.g, &start);
        if (!(record = record_text(&cg.g, &start, cg.hist, cg.nhist)))
            cli_fail("out of memory");
    }
    if (record_out) {
        int err = record_save(record_out, record);
        if (err)
            cli_fail("--record-out %s: %s", record_out, strerror(err));
    }
    if (cg.json)
        cli_play_json(stdout, &cg);
    else {
        cli_draw_board(&cg);
        if (print_record)
            printf("record: %s\n", record);
    }
    free(record);
    return 0;
}
