"""Writes the campaign's page (scripts/campaign-66) on stdout.

report.py STATUS.json UNITS.json PLAN.json RUNS.csv LEDGER, with the
environment's PLAN_TEXT, CLUSTER, BOARD_NAME, TARGET, HOURS, COMMAND.
STATUS and UNITS are `sow ledger status/export --json` of LEDGER, PLAN is
`sow solve --plan --json`, RUNS the campaign's log of runs.
"""
import csv
import datetime
import json
import math
import os
import re
import subprocess
import sys

st = json.load(open(sys.argv[1]))
units = json.load(open(sys.argv[2]))["units"]
plan = json.load(open(sys.argv[3]))
runs = list(csv.DictReader(open(sys.argv[4])))
ledger = sys.argv[5]
env = os.environ
target = int(env["TARGET"])
board = env["BOARD_NAME"]
lo, hi = st["lower"], st["upper"]
DAY = 86400.0


def fnum(x, digits=1):
    return "{:,.{}f}".format(x, digits)


def cores_for(cpu_s, days):
    """Cores that do cpu_s of CPU in `days` days (machines: these over
    each machine's cores)."""
    return max(1, math.ceil(cpu_s / (days * DAY)))


print("# %s, standard rule: the campaign\n" % ("Kalah(6,6)" if board == "kalah:6x6" else board))
print("Written by `scripts/campaign-66`; do not edit by hand. The ledger, `%s` (%s bytes), "
      "holds what each unit proved (its line, threshold, bound, nodes and CPU), not the "
      "table or the database: any machine resumes from it (doc/ledger.md)." %
      (ledger, fnum(os.path.getsize(ledger), 0)))
print()
print("## Proven at the root\n")
if st["solved"]:
    print("**Solved: value %+d** for the first player (South)." % lo)
else:
    print("**Value in [%+d, %+d]** for the first player (South): all that is proven so far "
          "(by the answers in the ledger, and what the seeds allow); the exact value is not "
          "known." % (lo, hi))
first = "Rawlings' bound" if board == "kalah:6x6" else "The first question"
if lo >= target:
    print("\n- %s, value >= %+d: **proven** by sow." % (first, target))
elif hi < target:
    print("\n- %s, value >= %+d: **refuted** (value <= %+d)%s." % (
        first, target, hi, ": this contradicts the published proof, and must be checked "
        "before it is believed" if board == "kalah:6x6" else ""))
else:
    print("\n- %s, value >= %+d: **not yet proven** (the test is open)." % (first, target))
# A bound no answer has narrowed is the seeds' own (the stores of the
# lines above the frontier, give or take the seeds on the board): status
# gives it (seeds_upper). An answer below its threshold somewhere is not
# enough: it may not reach the root.
if hi < st["seeds_upper"]:
    print("- Upper bound: value <= %+d, **proven**." % hi)
else:
    print("- Upper bound: **none proven** yet (%+d is what the seeds alone allow: no answer "
          "has narrowed it)." % hi)
print()

print("## Units\n")
done = [u for u in units if u["state"] == "done"]
unit_cpu = sum(u["cpu"] for u in done)
asked_nodes = {u["line"] for u in done}
print("**%s units done** (questions answered, about %s of the %s frontier nodes at %d plies%s; "
      "%s of those nodes exact), %s open, %s lost (asked and not answered: a run stopped "
      "under them; asked again when they matter), %s split (past their node budget: their "
      "node's children are units instead); %s nodes, %s CPU s in the answered units." %
      (fnum(st["done"], 0), fnum(len(asked_nodes), 0), fnum(st["frontier"], 0), st["depth"],
       " and below, where units were split" if st.get("splits") else "",
       fnum(st["exact"], 0), fnum(st["open"], 0), fnum(st["lost"], 0),
       fnum(st.get("splits", 0), 0), fnum(st["nodes"], 0), fnum(unit_cpu)))
if st.get("splits"):
    deepest = max(len(u["line"].split(",")) for u in units)
    print()
    print("Split units: %s CPU s and %s nodes spent on units that passed their budget before "
          "their nodes were split (the table they filled served their children in that run; "
          "the next run starts without it); lines now reach %d plies." %
          (fnum(st["split_cpu"]), fnum(st["split_nodes"], 0), deepest))
if st.get("lost_cpu"):
    print()
    print("Lost work: %s CPU s and %s nodes spent on units given back unanswered (what each "
          "had cost when its run stopped: a lower bound on its cost; a unit under a killed "
          "run records nothing)." % (fnum(st["lost_cpu"]), fnum(st["lost_nodes"], 0)))
print()
unanswered = [u for u in units if u["state"] not in ("done", "split")]
if unanswered:
    print("Asked and not answered (the last %d): %s." % (
        min(10, len(unanswered)), ", ".join("`%s` >= %+d? (%s)" % (u["line"], u["threshold"],
                                                                  u["state"])
                                            for u in unanswered[-10:])))
    print()
by_t = {}
for u in done:
    b = by_t.setdefault(u["threshold"], [0, 0, 0.0, 0])
    if u["bound"] >= u["threshold"]:
        b[0] += 1
    else:
        b[1] += 1
    b[2] += u["cpu"]
    b[3] = max(b[3], u["nodes"])
if by_t:
    print("| threshold (frontier node's mover) | answered | score >= t | score < t | CPU s | "
          "largest unit, nodes |")
    print("|--:|--:|--:|--:|--:|--:|")
    for t in sorted(by_t):
        b = by_t[t]
        print("| %+d | %d | %d | %d | %s | %s |" % (t, b[0] + b[1], b[0], b[1], fnum(b[2]),
                                                    fnum(b[3], 0)))
    print()

print("## Runs and CPU spent\n")
cpu = sum(float(r["cpu_s"]) for r in runs if r["cpu_s"] not in ("", "nan"))
wall = sum(float(r["wall_s"]) for r in runs if r["wall_s"] not in ("", "nan"))
print("Every invocation's question, from `%s`. CPU: the process's user + system time on "
      "the machine that ran it (database build and load, the ordering searches above the "
      "frontier, the units; under MPI the ranks on that machine only); search CPU: the "
      "units', answered or not, and the ordering searches above the frontier, as sow reports "
      "it (every rank's)." % (ledger[:-len(".ledger")] + ".runs.csv"))
print()
print("| started (UTC) | host | question | ended | wall s | CPU s | units | search CPU s | "
      "bounds after | database | threads x ranks | nice |")
print("|---|---|---|---|--:|--:|--:|--:|---|--:|---|--:|")
for r in runs:
    ended = {"0": "answered", "130": "time limit"}.get(r["exit"], "exit " + r["exit"])
    bnd = "[%+d, %+d]" % (int(r["lower"]), int(r["upper"])) if r["lower"] else "-"
    print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s x %s | %s |" %
          (r["started_utc"], r["host"], r["question"], ended, r["wall_s"], r["cpu_s"],
           r["units"] or "-", r["search_cpu_s"] or "-", bnd,
           (r["db_seeds"] + " seeds") if r["db_seeds"] else "-", r["threads"], r["ranks"],
           r["nice"]))
print()
print("Total: %s CPU s (%s CPU-days) in %s s of wall-clock over %d run(s)." %
      (fnum(cpu), "%.4f" % (cpu / DAY), fnum(wall), len(runs)))
print()

print("## What remains\n")
est = []
if st["solved"]:
    print("Nothing: the value is solved.")
else:
    rem = st.get("remaining_cpu")
    if rem is not None and rem >= 0:
        est.append(("every open frontier node once at the mean CPU of an answered unit "
                    "(`sow ledger status`; an alpha-beta proof needs a fraction of them, "
                    "but the units answered so far are the cheap first ones)", rem))
    pred = "results/predict-66.md"
    if board == "kalah:6x6" and os.path.exists(pred):
        text = open(pred).read()
        m = re.search(r"\*\*([0-9.]+) CPU-days\*\*", text)
        m2 = re.search(r"by its trend instead, ([0-9.]+) CPU-days", text)
        if m:
            est.append(("results/predict-66.md, its prediction of the whole solve with the "
                        "30-seed database (log-normal fit, kappa of (6,5))",
                        float(m.group(1)) * DAY))
        if m2:
            est.append(("results/predict-66.md, the same with kappa extrapolated by its trend",
                        float(m2.group(1)) * DAY))
    if est:
        print("| estimate | CPU-days | cores for a week | cores for a day |")
        print("|---|--:|--:|--:|")
        for what, s in est:
            print("| %s | %.3g | %d | %d |" % (what, s / DAY, cores_for(s, 7), cores_for(s, 1)))
        print()
        print("Machines: the cores over each machine's (one MPI rank a machine, `--threads` "
              "its cores). The estimates disagree by orders of magnitude: none is a "
              "measurement of this solve's tail. They assume perfect scaling; results/ledger.md measured "
              "MPI speculation at up to about 1.5x the units with 3 ranks, and the largest "
              "unit sets a floor on the wall-clock.")
    else:
        print("No estimate yet: no unit has been answered.")
print()

print("## Database and plan\n")
print("Plan (`sow solve --plan`, %d thread(s) a machine): %s" % (plan["threads"],
                                                               env["PLAN_TEXT"]))
print()
print("## To go on\n")
print("Here, for H more hours (the same command resumes from the ledger; commit the ledger, "
      "its runs log and this page after each run):\n")
last = runs[-1]["command"] if runs else env["COMMAND"]
print("    %s\n" % re.sub(r"--hours \S+", "--hours H", last))
print("On a cluster (one rank a machine, `--threads` its cores, a shared or pre-built "
      "`--db DIR` on every machine, or each builds its own in its store):\n")
print("    %s\n" % env["CLUSTER"].strip())
print("(`scripts/campaign-66 --mpi N --hostfile FILE --hours H` runs it and writes this page.)")
print()
print("---")
try:
    commit = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
except OSError:
    commit = "?"
mem = 0
for line in open("/proc/meminfo"):
    if line.startswith("MemTotal:"):
        mem = int(line.split()[1]) / 2**20
print("`%s`, %s, %s (%d CPUs, %.1f GiB), commit %s" %
      (env["COMMAND"], datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
       os.uname().nodename, os.cpu_count(), mem, commit))
