/* cmd_solve.c - `sow solve`: the exact value of a position. */
#include <stdio.h>

#include "cli/cli.h"
#include "sow/refsolve.h"

static const char usage[] =
    "usage: sow solve GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                 [--moves LIST | --position P] [--memory MB] [--json]\n"
    "\n"
    "Solves the position exactly: its value (the final margin for the player\n"
    "to move under optimal play, stores included), the outcome (win, draw or\n"
    "loss for the player to move, tie-break included) and every legal move's\n"
    "value. This version uses the reference solver (exhaustive negamax with\n"
    "memoisation): exact but only for small boards.\n"
    "\n" CLI_GAME_HELP
    "  --memory MB         memory for the memo table (default 4096)\n"
    "\n"
    "example: sow solve chungkala --pits 4 --seeds 3\n";

int cmd_solve(int argc, char **argv)
{
    cli_game cg = {0};
    const char *memory = NULL;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg), {"memory", OPT_STRING, &memory}, {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    long mb = memory ? cli_int("--memory", memory, 1, 1L << 20) : 4096;
    cli_game_setup(&cg, true, true);

    sow_solution s;
    double t0 = cli_now();
    sow_err e = sow_ref_solve(&cg.g, &cg.pos, cg.pie_opening, (size_t)mb, &s);
    double secs = cli_now() - t0;
    if (e == SOW_E_LIMIT)
        cli_fail("solve: the position is too large for the reference solver within "
                 "--memory %ld MB", mb);
    if (e)
        cli_fail("solve: %s", sow_err_name(e));

    char mt[8];
    if (cg.json) {
        printf("{");
        cli_json_game(&cg);
        printf(",\"value\":%d,\"outcome\":\"%s\",\"best\":", s.value, cli_outcome_name(s.outcome));
        if (s.best >= 0) {
            sow_move_format(s.moves[s.best], mt, sizeof mt);
            printf("\"%s\"", mt);
        } else {
            printf("null");
        }
        printf(",\"moves\":[");
        for (int k = 0; k < s.nmoves; k++) {
            sow_move_format(s.moves[k], mt, sizeof mt);
            printf("%s{\"move\":\"%s\",\"value\":%d,\"outcome\":\"%s\"}", k ? "," : "", mt,
                   sow_score_margin(&cg.g, s.move_scores[k]),
                   cli_outcome_name(sow_outcome_of(s.move_scores[k])));
        }
        printf("],\"pie\":%s,\"nodes\":%llu,\"seconds\":%.6f,\"solver\":\"reference\"}\n",
               cg.pie_opening ? "true" : "false", (unsigned long long)s.nodes, secs);
        return 0;
    }
    const char *who = sow_pos_to_move(&cg.pos) == SOW_SOUTH ? "south" : "north";
    printf("%s %dx%d%s: value %+d for %s (to move): %s\n", sow_game_name(cg.cfg.game), cg.cfg.pits,
           cg.cfg.seeds, cg.pie_opening ? " with the pie rule" : "", s.value, who,
           cli_outcome_name(s.outcome));
    if (s.nmoves) {
        printf("moves:");
        for (int k = 0; k < s.nmoves; k++) {
            sow_move_format(s.moves[k], mt, sizeof mt);
            printf(" %s:%+d", mt, sow_score_margin(&cg.g, s.move_scores[k]));
        }
        sow_move_format(s.moves[s.best], mt, sizeof mt);
        printf("\nbest: %s\n", mt);
    } else {
        printf("the game is over\n");
    }
    printf("nodes %llu, %.3f s\n", (unsigned long long)s.nodes, secs);
    return 0;
}
