#!/usr/bin/env python3
"""report.py WORK: results/predict-66.md and results/predict-66.csv from the
measurements scripts/predict-66 left in WORK (see that script for the
method)."""
import csv, datetime, glob, json, math, os, platform, random, statistics, subprocess, sys

W = sys.argv[1]
E = os.environ
DEPTH, B66 = int(E["DEPTH"]), int(E["B66"])


def units(s):
    return [r for r in csv.DictReader(open(f"{W}/{s}.frontier.csv")) if r["over"] == "0"]


def rows_of(pattern):
    out = []
    for p in sorted(glob.glob(f"{W}/{pattern}")):
        out += list(csv.DictReader(open(p)))
    return out


mean = statistics.fmean
cal = {}
for s in (4, 5):
    led = list(csv.DictReader(open(f"{W}/{s}.units.csv")))
    sol = json.load(open(f"{W}/{s}.solve{DEPTH}.json"))
    sol4 = json.load(open(f"{W}/{s}.solve4.json"))
    rows = rows_of(f"{s}.sample.csv")
    C = [int(r["nodes"]) for r in rows]
    assert all(r["done"] == "1" for r in rows), f"(6,{s}): a calibration unit was not solved"
    F = len(units(s))
    cal[s] = dict(F=F, asked=len(led), unit_nodes=sum(int(r["nodes"]) for r in led),
                  total=sol["nodes"], cpu=sol["cpu"], value=sol["value"], C=C,
                  kappa=sol["nodes"] / (F * mean(C)), total4=sol4["nodes"], cpu4=sol4["cpu"],
                  R=sol["nodes"] / sol4["nodes"])
F66 = len(units(6))
rows66 = rows_of("6.sample.*.csv")
if not rows66:
    sys.exit("predict-66: no (6,6) unit was probed")
exact = [int(r["nodes"]) for r in rows66 if r["done"] == "1"]
cens = [int(r["nodes"]) for r in rows66 if r["done"] != "1"]
C66 = exact + cens
rate = sum(int(r["nodes"]) for r in rows66) / max(sum(float(r["cpu"]) for r in rows66), 1e-9)


def lognormal_mle(exact, cens):
    """mu, sigma of ln cost by maximum likelihood, the censored units as
    'more than what they spent' (grid search, then a finer grid)."""
    if len(exact) < 2:
        return None
    xs, cs = [math.log(c) for c in exact], [math.log(c) for c in cens]

    def ll(mu, sg):
        v = sum(-math.log(sg) - (x - mu) ** 2 / (2 * sg * sg) for x in xs)
        for c in cs:
            tail = 0.5 * math.erfc((c - mu) / (sg * math.sqrt(2)))
            v += math.log(max(tail, 1e-300))
        return v
    m0, s0 = statistics.fmean(xs + cs), max(statistics.pstdev(xs + cs), 0.1)
    best = (ll(m0, s0), m0, s0)
    for span, steps in ((4.0, 40), (0.4, 40)):
        _, mb, sb = best
        for i in range(-steps, steps + 1):
            mu = mb + span * i / steps
            for j in range(-steps, steps + 1):
                sg = sb * math.exp(span / 4 * j / steps)
                if sg <= 0.01:
                    continue
                v = ll(mu, sg)
                if v > best[0]:
                    best = (v, mu, sg)
    return best[1], best[2]


fit = lognormal_mle(exact, cens)
mean_floor = mean(C66)
mean_fit = math.exp(fit[0] + fit[1] ** 2 / 2) if fit else float("nan")
k5, k4 = cal[5]["kappa"], cal[4]["kappa"]
pred_floor = k5 * F66 * mean_floor
pred_fit = k5 * F66 * mean_fit
check = k4 * cal[5]["F"] * mean(cal[5]["C"])

# Bootstrap: the (6,5) and (6,6) samples resampled together (floor mean).
rng = random.Random(12345)
boot = []
for _ in range(4000):
    c5 = [rng.choice(cal[5]["C"]) for _ in cal[5]["C"]]
    c6 = [rng.choice(C66) for _ in C66]
    boot.append(cal[5]["total"] / (cal[5]["F"] * mean(c5)) * F66 * mean(c6))
boot.sort()
lo, hi = boot[int(0.025 * len(boot))], boot[int(0.975 * len(boot)) - 1]


def days(nodes):
    return nodes / rate / 86400


def dd(nodes):
    """CPU-days, to two significant figures."""
    return f"{days(nodes):.2g}"


def g(x):
    return f"{x:.3g}"


def n(x):
    return f"{x:,}"


commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                        text=True).stdout.strip()
dirty = subprocess.run(["git", "status", "--porcelain", "--", ".", ":!results"],
                       capture_output=True, text=True).stdout.strip()
date = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC")
nc = os.cpu_count()
params = " ".join(f"{k}={E[k]}" for k in ("DEPTH", "N64", "N65", "N66", "T66", "B66", "THREADS",
                                           "DB_SEEDS", "SEED"))
L = []
w = L.append
w("# Kalah(6,6), standard rule: a prediction of the solve by work units\n")
w("Predicted from measurement, not solved. `scripts/predict-66` regenerates this page and "
  "`results/predict-66.csv` (every unit solved for it). Node counts are the measure (one "
  "thread, a cleared table per unit: deterministic); CPU follows from the probes' node rate.\n")
R5, R4 = cal[5]["R"], cal[4]["R"]
main_lo, main_hi = lo / R5, hi / R5
floor4 = pred_floor / R5
trend = k5 * k5 / k4  # kappa(6,6) if it falls from (6,5) as it fell from (6,4)
cmd66 = ("`sow solve kalah --pits 6 --seeds 6 --ledger FILE` (the default frontier, 4 plies) "
         f"with the {E['DB_SEEDS']}-seed database")
if fit:
    main = pred_fit / R5
    w(f"**Prediction** for {cmd66}: {g(main)} nodes, **{dd(main)} CPU-days** at "
      f"{rate / 1e6:.2f} M nodes/s a core (the log-normal fit of the (6,6) sample, "
      f"{len(exact)} units solved and {len(cens)} over the budget, and kappa measured on "
      f"(6,5)); with kappa extrapolated from (6,4) and (6,5) by its trend instead, "
      f"{dd(main * trend / k5)} CPU-days. The sample's own lower bound (every unit over the "
      f"budget counted at the budget): {dd(floor4)} CPU-days, bootstrap 95% interval "
      f"{dd(main_lo)} .. {dd(main_hi)}.\n")
else:
    main = floor4
    w(f"**Prediction** for {cmd66}: **at least {dd(floor4)} CPU-days** ({g(floor4)} nodes "
      f"at {rate / 1e6:.2f} M nodes/s a core, kappa measured on (6,5)), bootstrap 95% "
      f"interval of that bound {dd(main_lo)} .. {dd(main_hi)} CPU-days; with kappa "
      f"extrapolated from (6,4) and (6,5) by its trend instead, at least "
      f"{dd(floor4 * trend / k5)} CPU-days. {len(cens)} of the {len(C66)} sampled (6,6) units "
      f"were over the budget of {g(B66)} nodes and are counted at it: too few were solved to "
      "fit the tail, so the sample gives a bound, not an estimate.\n")
w(f"The two kappas differ by {k5 / trend:.0f}x, and which carries to (6,6) is the largest "
  "uncertainty here (the check below); the sampling error is the smaller one. A direct floor "
  "that needs no model: the solve's first question at 4 plies alone took more than 2.9e9 "
  f"nodes ({dd(2.9e9)} CPU-days at this rate; doc/experiments.md).\n")
week = days(main) / 7
w(f"A week on a cluster at that rate with perfect scaling: {'about' if fit else 'at least'} "
  f"{math.ceil(week)} core{'s' if math.ceil(week) != 1 else ''}; every machine holds the "
  f"{E['DB_SEEDS']}-seed database once (11 GB, mmap'ed and shared by its ranks). "
  "results/ledger.md measured the speculation of MPI workers at about 1.5x the units with 3 "
  "ranks, and the units are not equal: the largest sets the wall-clock floor.\n")
w("## Method\n")
w(f"The decomposed solve (`sow solve --ledger --frontier {DEPTH}`, doc/ledger.md) asks "
  "null-window questions about frontier nodes, only those alpha-beta's walk above the "
  "frontier needs, and keeps its table across units. Its cost is predicted as\n")
w("    total = kappa x F x mean C\n")
w(f"where F is the number of units at {DEPTH} plies (`sow units list`: lines of play; a "
  "position reached by two lines counts twice), C the cost in nodes of solving a unit "
  "exactly from a cleared table (`sow units probe`) for a uniform random sample of units, "
  "and kappa the share of that \"every unit exactly\" work the decomposed solve really does "
  "(its whole node count, the walk's ordering searches included), measured on boards small "
  f"enough to run. The frontier is deeper than the solve's default so that a (6,6) unit can be "
  "solved within a sample's budget: at "
  "4 plies a single (6,6) unit (the first one the solve asks, `1,2,2,4`, \">= -1?\") was "
  "still open after 2.9e9 nodes (1054 CPU s, 2 threads; doc/experiments.md), which is what "
  "sank the earlier versions of this page (Knuth's random probe, and a fit of cost against "
  "seeds extrapolated from (6,5)).\n")
w(f"The check: kappa measured on (6,4) predicts (6,5)'s decomposed solve from (6,5)'s sample. "
  f"Every solve uses the same endgame database (up to {E['DB_SEEDS']} seeds), "
  f"{E['THREADS']} thread(s).\n")
w("## Calibration: Kalah(6,4) and (6,5)\n")
w(f"| board | value | units F | units asked | their nodes | whole solve's nodes | CPU s | "
  f"sample n | mean C | median C | largest / sum | kappa | frontier 4: nodes | R |")
w("|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
for s in (4, 5):
    c = cal[s]
    w(f"| (6,{s}) | {c['value']:+d} | {n(c['F'])} | {n(c['asked'])} | {n(c['unit_nodes'])} | "
      f"{n(c['total'])} | {c['cpu']:.1f} | {len(c['C'])} | {n(round(mean(c['C'])))} | "
      f"{n(round(statistics.median(c['C'])))} | {max(c['C']) / sum(c['C']):.0%} | "
      f"{c['kappa']:.3g} | {n(c['total4'])} | {c['R']:.2f} |")
w("")
w(f"R: the decomposed solve at frontier {DEPTH} against the same at 4 plies (nodes). A deeper "
  "frontier asks more, smaller questions, each searched from its own root, so less of the "
  "work is shared. With this database (6,4) is a solve of a few hundred thousand nodes, "
  "which the per-unit cost of a deep frontier swamps: its R says nothing about (6,6), and "
  "(6,5)'s is the one used.\n")
w(f"Check: kappa(6,4) x F(6,5) x mean C(6,5) = {n(round(check))} nodes predicted for (6,5)'s "
  f"decomposed solve, measured {n(cal[5]['total'])}: ratio {check / cal[5]['total']:.2f} "
  f"(kappa(6,5) / kappa(6,4) = {k5 / k4:.2f}).\n")
w("## Kalah(6,6): the sample\n")
w(f"F = {n(F66)} units at {DEPTH} plies; {len(rows66)} drawn uniformly and solved with a budget "
  f"of {g(B66)} nodes each ({E.get('JOBS', '1')} process{'es' if E.get('JOBS', '1') != '1' else ''} "
  f"at once, one thread each, "
  f"at most {E['T66']} s each): {len(exact)} solved, {len(cens)} over the budget "
  "(censored).\n")
w(f"| | nodes a unit | frontier {DEPTH}: nodes | CPU-days | frontier 4 (/ R(6,5)): nodes | CPU-days |")
w("|---|--:|--:|--:|--:|--:|")
def row(name, unit, p, bold=False):
    b = "**" if bold else ""
    w(f"| {name} | {unit} | {g(p)} | {days(p):.2f} | {b}{g(p / R5)}{b} | {b}{days(p / R5):.2f}{b} |")
row("sample mean, units over the budget at the budget (lower bound)", g(mean_floor), pred_floor)
w(f"| bootstrap 95% interval of that | | {g(lo)} .. {g(hi)} | {days(lo):.2f} .. {days(hi):.2f} | "
  f"{g(lo / R5)} .. {g(hi / R5)} | {days(lo / R5):.2f} .. {days(hi / R5):.2f} |")
if fit:
    row(f"log-normal by maximum likelihood, censoring included (mu {fit[0]:.2f}, sigma "
        f"{fit[1]:.2f}, ln nodes): its mean", g(mean_fit), pred_fit, True)
    row("kappa(6,4) instead of kappa(6,5), log-normal mean", "", k4 * F66 * mean_fit)
w("")
med = statistics.median(C66)
w(f"Median unit {g(med)} nodes; the sample's largest unit is {max(C66) / sum(C66):.0%} of its "
  f"sum. Node rate: {rate / 1e6:.2f} M nodes/s a core (the (6,6) probes' nodes over their CPU, "
  f"one thread, this machine, {E.get('JOBS', '1')} probe process(es) at once).\n")
w("## Assumptions and limits\n")
w("- kappa and R are measured on (6,4) and (6,5) and assumed to carry over to (6,6); the check "
  "above says how well kappa carried from (6,4) to (6,5), and R(6,4) against R(6,5) how "
  "stable R is. Neither is in the interval.")
w("- The costs are heavy-tailed: the mean rests on a few large units, and a censored unit's "
  "cost is only known to exceed the budget. The log-normal fit is a model of that tail; the "
  "lower bound needs no model.")
w("- A unit's table is cleared here (independent samples); the real solve keeps its table, "
  "and asks null-window questions rather than exact values: kappa absorbs both, as measured.")
w("- Units are lines: F counts a transposed position once per line, and so does the sample, "
  "consistently on every board.")
w(f"- For scale: Rawlings (2015) solved Kalah(6,6) with the empty-capture rule in 106 CPU-days "
  "and 55 trillion nodes with 34-seed databases (en.wikipedia.org, Kalah); a different rule, "
  "solver and database, so not comparable node for node.")
w("")
w("---")
w(f"`scripts/predict-66` ({params}), {date}, {platform.node() or 'vm'} ({nc} CPUs), "
  f"commit {commit}{' (uncommitted changes)' if dirty else ''}")
os.makedirs("results", exist_ok=True)
with open("results/predict-66.md.tmp", "w") as f:
    f.write("\n".join(L) + "\n")
os.replace("results/predict-66.md.tmp", "results/predict-66.md")
with open("results/predict-66.csv.tmp", "w", newline="") as f:
    cw = csv.writer(f)
    cw.writerow(["board", "depth", "line", "seeds", "done", "nodes", "cpu"])
    for s in (4, 5):
        for r in rows_of(f"{s}.sample.csv"):
            cw.writerow([f"6,{s}", DEPTH, r["line"], r["seeds"], r["done"], r["nodes"], r["cpu"]])
    for r in rows66:
        cw.writerow(["6,6", DEPTH, r["line"], r["seeds"], r["done"], r["nodes"], r["cpu"]])
os.replace("results/predict-66.csv.tmp", "results/predict-66.csv")
print(f"predict-66: {g(main)} nodes at the default frontier ({days(main):.2f} CPU-days), lower bound "
      f"{g(pred_floor)}", file=sys.stderr)
