/* cmd_perft.c - `sow perft`: count the leaves of the move tree. */
#include <stdio.h>

#include "cli.h"

static const char usage[] =
    "usage: sow perft GAME [--pits M] [--seeds N] [--variant A,B]\n"
    "                 [--moves LIST | --record FILE | --position P] --depth D\n"
    "                 [--json]\n"
    "\n"
    "perft(D): the number of move sequences of D sowings (extra turns\n"
    "included) from the position; a game that ends early contributes 0.\n"
    "\n" CLI_GAME_HELP
    "  --depth D           depth in plies, 0..64\n"
    "\n"
    "example: sow perft kalah --depth 8\n";

int cmd_perft(int argc, char **argv)
{
    cli_game cg = {0};
    const char *depth = NULL;
    const cli_opt opts[] = {CLI_GAME_OPTS(&cg), {"depth", OPT_STRING, &depth}, {NULL, 0, NULL}};
    const char *pos[1];
    int npos;
    cli_parse(argc, argv, opts, pos, 1, &npos, usage);
    cg.name = npos ? pos[0] : NULL;
    if (!depth)
        cli_fail("perft: missing --depth D");
    int d = (int)cli_int("--depth", depth, 0, 64);
    cli_game_setup(&cg, true, true);
    double t0 = cli_now();
    uint64_t nodes = sow_perft(&cg.g, &cg.pos, d);
    double secs = cli_now() - t0;
    if (cg.json)
        printf("{\"depth\":%d,\"nodes\":%llu,\"seconds\":%.6f}\n", d, (unsigned long long)nodes,
               secs);
    else
        printf("perft(%d) = %llu  (%.3f s, %.1f M nodes/s)\n", d, (unsigned long long)nodes, secs,
               secs > 0 ? (double)nodes / secs / 1e6 : 0.0);
    return 0;
}
