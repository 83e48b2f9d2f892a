/* main.c - the `sow` program: dispatch to a subcommand. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "sow/ledger.h"
#include "sow/units_mpi.h"
#include "sow/version.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} command;

static const command commands[] = {
    {"play", cmd_play, "replay a game record, or play a game (--interactive)"},
    {"perft", cmd_perft, "count move sequences (move generator check)"},
    {"solve", cmd_solve, "solve a position exactly"},
    {"analyse", cmd_analyse, "best move and evaluation within a time, depth or node budget"},
    {"engine", cmd_engine, "speak the engine protocol on stdin/stdout (doc/engine-protocol.md)"},
    {"match", cmd_match, "two engine settings play each other: score and Elo"},
    {"db", cmd_db, "build, check and query endgame databases"},
    {"book", cmd_book, "build, probe and describe opening books"},
    {"ledger", cmd_ledger, "status and export of a solve's ledger (solve --ledger)"},
    {"units", cmd_units, "a solve by work units: its frontier, the cost of its nodes"},
    {"bench", cmd_bench, "fixed search workload: node signature, nodes/s, perft, db build"},
    {"serve", cmd_serve, "the web page and JSON API: play against perfect play in a browser"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: sow COMMAND [options]   (sow COMMAND --help for details)\n\n"
               "An exact solver for sowing games: kalah, chungkala, congkak, toguz.\n\n"
               "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n  --version  print the version\n  --help     print this help\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) /* bad input: one line on stderr, like every other */
        cli_fail("missing COMMAND (see sow --help)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        /* The optional features this build has (meson's summary says why
         * one is off); tests/test_readme.py reads this line. */
        printf("sow %s\nfeatures: ledger %s, mpi %s, serve %s\n", sow_version(),
               sow_ledger_available() ? "on" : "off", sow_units_mpi_available() ? "on" : "off",
               cli_serve_available() ? "on" : "off");
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 1, argv + 1);
    cli_fail("unknown command '%s' (see sow --help)", argv[1]);
}
