/* cmd_play.c - `sow play`: replay a game record and show the position. */
#include <stdio.h>

#include "cli.h"

static const char usage[] =
    "usage: sow play GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                [--moves LIST | --position P] [--json]\n"
    "\n"
    "Replays a game record (or reads a position) and shows the board.\n"
    "\n" CLI_GAME_HELP
    "\n"
    "example: sow play kalah --moves 3,1,6\n";

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

static void json(const cli_game *cg)
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
    printf(",\"position\":\"%s\"}\n", text);
}

int cmd_play(int argc, char **argv)
{
    cli_game cg = {0};
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg), {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    cli_game_setup(&cg, true, true);
    if (cg.json)
        json(&cg);
    else
        draw(&cg);
    return 0;
}
