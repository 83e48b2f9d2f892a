/* cmd_ledger.c - `sow ledger status|export FILE`: what a ledger of a solve
 * by work units (sow/ledger.h) holds, for watching and auditing a long
 * run. Reading only (the file is opened read-only): safe while the solve
 * runs (SQLite's WAL). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "sow/ledger.h"

static const char usage[] =
    "usage: sow ledger status FILE [--json]\n"
    "       sow ledger export FILE [--csv | --json]\n"
    "\n"
    "Reads the ledger FILE of a `sow solve ... --ledger FILE` (a solve by work\n"
    "units; it may still be running), read-only: a ledger on a read-only disk\n"
    "can be read. Every answer is checked against its checksum: a ledger with\n"
    "an answer changed after it was written is refused (exit 2, naming the\n"
    "unit); a version-1 ledger (no checksums) is read unchecked until a solve\n"
    "upgrades it (doc/ledger.md).\n"
    "\n"
    "status: the solve it serves, units done, open (in flight, or left by a run\n"
    "that was killed) and lost (given back by a run that stopped, or left open\n"
    "by one killed, found by the next) and split (past their node budget: their\n"
    "node's children are units instead, `sow solve --split-nodes`), their CPU\n"
    "seconds and nodes (a unit given back or split keeps what was spent on it),\n"
    "the bounds the answers prove at the root, how many frontier nodes there\n"
    "are (the splits' children included) and how many are exact, and a rough\n"
    "estimate of the CPU still needed (open frontier nodes times the mean CPU\n"
    "of a unit).\n"
    "JSON keys: ledger, game, pits, seeds, variant, position, depth, runs, done,\n"
    "open, lost, splits, nodes, cpu, lost_nodes, lost_cpu, split_nodes,\n"
    "split_cpu, lower, upper, solved, value (null until solved), seeds_lower,\n"
    "seeds_upper (the bounds with no answer: the seeds' span over the tree),\n"
    "frontier, exact, remaining_cpu (null before any answer).\n"
    "\n"
    "export: every unit, oldest first: line (moves from the root), threshold\n"
    "(the question: score >= threshold?), state (open, done, lost, split), bound (the\n"
    "answer: score >= bound if bound >= threshold, else score <= bound; empty\n"
    "or null when not done), nodes, cpu, seconds (a lost unit: what was spent\n"
    "on it), worker. Scores are in score\n"
    "units of the frontier node's mover (sow/rules.h). --csv (the default)\n"
    "prints a header line, --json one object {\"units\": [...]}.\n"
    "\n"
    "example: sow ledger status kalah64.ledger\n";

static sow_ledger *open_or_fail(const char *path, sow_ledger_id *id)
{
    char why[SOW_LEDGER_WHY];
    sow_ledger *l;
    if (!sow_ledger_available())
        cli_fail("ledger: this build of sow has no ledger: install libsqlite3-dev and rebuild");
    if (sow_ledger_read(path, id, &l, why, sizeof why))
        cli_fail("ledger: %s", why);
    return l;
}

static void variant_text(unsigned v, char *buf, size_t size)
{
    size_t at = 0;
    buf[0] = 0;
    for (unsigned f = 1; f && at < size; f <<= 1)
        if (v & f) {
            int w = snprintf(buf + at, size - at, "%s%s", at ? "," : "", sow_variant_name(f));
            at += w > 0 ? (size_t)w : 0;
        }
}

static int status(const char *path, bool json)
{
    sow_ledger_id id;
    sow_ledger *l = open_or_fail(path, &id);
    sow_ledger_status st;
    char why[SOW_LEDGER_WHY];
    sow_err e = sow_ledger_get_status(l, &st, why, sizeof why);
    sow_ledger_close(l);
    if (e)
        cli_fail("ledger: %s", why);
    sow_game g;
    if (sow_game_init(&g, &id.cfg))
        cli_fail("ledger: %s names no valid game", path);
    int lo = sow_score_margin(&g, st.bounds.lower), hi = sow_score_margin(&g, st.bounds.upper);
    char var[128];
    variant_text(id.cfg.variant, var, sizeof var);
    if (json) {
        printf("{\"ledger\":");
        cli_fjson_string(stdout, path);
        printf(",\"game\":\"%s\",\"pits\":%d,\"seeds\":%d,\"variant\":", sow_game_name(id.cfg.game),
               id.cfg.pits, id.cfg.seeds);
        cli_fjson_string(stdout, var);
        printf(",\"position\":");
        cli_fjson_string(stdout, id.position);
        printf(",\"depth\":%d,\"runs\":%d,\"done\":%llu,\"open\":%llu,\"lost\":%llu,"
               "\"splits\":%llu,\"nodes\":%llu,\"cpu\":%.6f,\"lost_nodes\":%llu,"
               "\"lost_cpu\":%.6f,\"split_nodes\":%llu,\"split_cpu\":%.6f,"
               "\"lower\":%d,\"upper\":%d,\"solved\":%s,\"value\":",
               id.depth, st.runs, (unsigned long long)st.done, (unsigned long long)st.open,
               (unsigned long long)st.lost, (unsigned long long)st.splits,
               (unsigned long long)st.nodes, st.cpu_seconds, (unsigned long long)st.lost_nodes,
               st.lost_cpu, (unsigned long long)st.split_nodes, st.split_cpu, lo, hi,
               st.solved ? "true" : "false");
        if (st.solved)
            printf("%d", lo);
        else
            printf("null");
        printf(",\"seeds_lower\":%d,\"seeds_upper\":%d",
               sow_score_margin(&g, st.seeds_lower), sow_score_margin(&g, st.seeds_upper));
        printf(",\"frontier\":%llu,\"exact\":%llu,\"remaining_cpu\":",
               (unsigned long long)st.bounds.frontier, (unsigned long long)st.bounds.exact);
        if (st.remaining_cpu >= 0)
            printf("%.3f}\n", st.remaining_cpu);
        else
            printf("null}\n");
        return 0;
    }
    printf("ledger %s: %s %d pits%s%s from %s, frontier %d plies, %d run%s\n", path,
           sow_game_name(id.cfg.game), id.cfg.pits, var[0] ? " variant " : "", var, id.position,
           id.depth, st.runs, st.runs == 1 ? "" : "s");
    printf("units: %llu done, %llu open, %llu lost; %.3f CPU s, %llu nodes\n",
           (unsigned long long)st.done, (unsigned long long)st.open,
           (unsigned long long)st.lost, st.cpu_seconds, (unsigned long long)st.nodes);
    if (st.lost_nodes || st.lost_cpu > 0)
        printf("lost: %.3f CPU s, %llu nodes spent on units given back unanswered\n",
               st.lost_cpu, (unsigned long long)st.lost_nodes);
    if (st.splits)
        printf("split: %llu units past their node budget, %.3f CPU s, %llu nodes spent on "
               "them\n",
               (unsigned long long)st.splits, st.split_cpu, (unsigned long long)st.split_nodes);
    if (st.solved)
        printf("root: solved, value %+d\n", lo);
    else
        printf("root: value in [%+d, %+d]\n", lo, hi);
    printf("frontier: %llu nodes, %llu exact\n", (unsigned long long)st.bounds.frontier,
           (unsigned long long)st.bounds.exact);
    if (st.remaining_cpu >= 0)
        printf("remaining: about %.1f CPU s (rough: open frontier nodes x mean CPU per unit)\n",
               st.remaining_cpu);
    else
        printf("remaining: unknown (no unit answered yet)\n");
    return 0;
}

static const char *state_name(const sow_unit *u)
{
    return u->done ? "done" : u->split ? "split" : u->worker < 0 ? "lost" : "open";
}

static int export(const char *path, bool json)
{
    sow_ledger_id id;
    sow_ledger *l = open_or_fail(path, &id);
    sow_unit *u;
    size_t n;
    char why[SOW_LEDGER_WHY];
    sow_err e = sow_ledger_units(l, &u, &n, why, sizeof why);
    sow_ledger_close(l);
    if (e)
        cli_fail("ledger: %s", why);
    if (json)
        printf("{\"units\":[");
    else
        printf("line,threshold,state,bound,nodes,cpu,seconds,worker\n");
    for (size_t i = 0; i < n; i++) {
        char line[SOW_UNITS_LINE_TEXT];
        sow_units_line_format(&u[i], line, sizeof line);
        int worker = u[i].worker < 0 ? 0 : u[i].worker;
        if (json) {
            printf("%s{\"line\":\"%s\",\"threshold\":%d,\"state\":\"%s\",\"bound\":", i ? "," : "",
                   line, u[i].threshold, state_name(&u[i]));
            if (u[i].done)
                printf("%d", u[i].bound);
            else
                printf("null");
            printf(",\"nodes\":%llu,\"cpu\":%.6f,\"seconds\":%.6f,\"worker\":%d}",
                   (unsigned long long)u[i].nodes, u[i].cpu_seconds, u[i].seconds, worker);
        } else {
            printf("\"%s\",%d,%s,", line, u[i].threshold, state_name(&u[i]));
            if (u[i].done)
                printf("%d", u[i].bound);
            printf(",%llu,%.6f,%.6f,%d\n", (unsigned long long)u[i].nodes, u[i].cpu_seconds,
                   u[i].seconds, worker);
        }
    }
    if (json)
        printf("]}\n");
    free(u);
    return 0;
}

int cmd_ledger(int argc, char **argv)
{
    bool json = false, csv = false;
    const cli_opt opts[] = {{"json", OPT_FLAG, &json}, {"csv", OPT_FLAG, &csv}, {NULL, 0, NULL}};
    const char *pos[2];
    int npos;
    cli_parse(argc, argv, opts, pos, 2, &npos, usage);
    if (npos < 1)
        cli_fail("ledger: missing status or export (see sow ledger --help)");
    bool is_status = strcmp(pos[0], "status") == 0;
    if (!is_status && strcmp(pos[0], "export") != 0)
        cli_fail("ledger: unknown subcommand '%s' (status or export)", pos[0]);
    if (npos < 2)
        cli_fail("ledger: %s needs the ledger FILE", pos[0]);
    if (is_status && csv)
        cli_fail("ledger: status takes --json, not --csv");
    if (csv && json)
        cli_fail("ledger: export takes --csv or --json, not both");
    return is_status ? status(pos[1], json) : export(pos[1], json);
}
