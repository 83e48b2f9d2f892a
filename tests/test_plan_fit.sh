#!/usr/bin/env bash
# scripts/plan-fit and scripts/bench-plan run and write what they promise:
# plan-fit --quick (two points a game) into a temporary folder writes a
# fitted.c with every game family's entry, which compiles against the
# plan's header, and a results table with the fit; --refit on its CSV
# gives the same table again; a wrong argument is refused with exit 2.
# bench-plan --quick writes its table with a verdict per board; plan-summary
# judges a row against the plan now (stale where it starts elsewhere)
# and writes its count.
# Not the values: those are the committed run's (results/plan-fit.md).
#   tests/test_plan_fit.sh BUILD/src/cli/sow
set -euo pipefail
sow=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/plan-fit --quick --sow "$sow" --out-c "$tmp/fitted.c" --out-results "$tmp" \
  2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
for id in SOW_KALAH SOW_CHUNGKALA SOW_CONGKAK SOW_TOGUZ; do
  grep -q "\[$id\] = {" "$tmp/fitted.c" || { echo "fitted.c lacks $id"; exit 1; }
done
grep -q "^ \* command: scripts/plan-fit --quick" "$tmp/fitted.c"
grep -q "^ \* commit: " "$tmp/fitted.c"
# Every constant a positive number.
python3 - "$tmp/fitted.c" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
vals = re.findall(r"\.(build_rate|search_at_ref|search_growth|board_growth|pits_growth|"
                  r"no_db_pits_growth|all_moves_factor) = ([^,]+),", text)
assert len(vals) == 28, vals
for k, v in vals:
    assert float(v) > 0, (k, v)
    if k.endswith("growth") or k == "all_moves_factor":
        assert float(v) >= 1, (k, v)
PY
cc -std=c17 -fsyntax-only -Iinclude -Isrc/plan "$tmp/fitted.c"
grep -q "^| kalah | " "$tmp/plan-fit.md"
grep -q "^## The boards' own levels" "$tmp/plan-fit.md"
grep -q "^# commit: " "$tmp/plan-fit.csv"
cp "$tmp/fitted.c" "$tmp/first.c"
scripts/plan-fit --refit "$tmp/plan-fit.csv" --out-c "$tmp/fitted.c" --out-results "$tmp/re" \
  2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
diff <(grep '^ *\.' "$tmp/first.c") <(grep '^ *\.' "$tmp/fitted.c")
set +e
scripts/plan-fit --only nosuch --sow "$sow" --out-c "$tmp/x.c" --out-results "$tmp" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 2 ] || { echo "plan-fit --only nosuch: exit $rc"; exit 1; }
[ "$(wc -l <"$tmp/err")" = 1 ] || { cat "$tmp/err"; exit 1; }

# The fit recovers a known law: nodes = N G^(e-24) B^(b-48) P^(p-12) times
# a level of each board's own (up to 2.5 times either way), the growth per
# excess seed from within the boards, the pits term across them.
python3 - <<'PY'
import importlib.machinery, importlib.util, math
loader = importlib.machinery.SourceFileLoader("plan_fit", "scripts/plan-fit")
spec = importlib.util.spec_from_loader("plan_fit", loader)
pf = importlib.util.module_from_spec(spec)
loader.exec_module(pf)
G, B, P, N = 1.45, 1.08, 1.9, 5e6
levels = {(8, 32): 2.5, (8, 40): 0.4, (10, 40): 1.0, (12, 36): 0.5, (12, 48): 2.0,
          (10, 30): 1.3}
pts = []
for (p, b), lvl in levels.items():
    for k in range(b // 3 + 1, b // 2 + 3, 2):
        e = b - k
        pts.append((e, b, p, lvl * N * G ** (e - 24) * B ** (b - 48) * P ** (p - 12)))
fit, notes = pf.fit_search(pts)
assert abs(fit["G"] - G) < 1e-6, fit
# Joint levels: B and P within a few per cent, not exact.
assert 1.5 < fit["P"] < 2.4 and 1.0 <= fit["B"] < 1.2, fit
# Each board's own level: the law times it gives the board's nodes back
# (the levels differ from the planted ones by what the law absorbed).
own = pf.board_levels(fit, [((p // 2, b // p, ""), (e, b, p, n)) for e, b, p, n in pts])
assert set(own) == {(p // 2, b // p, "") for p, b in levels}, own
for e, b, p, n in pts:
    law = fit["N"] * fit["G"] ** (e - 24) * fit["B"] ** (b - 48) * fit["P"] ** (p - 12)
    assert abs(law * own[(p // 2, b // p, "")] / n - 1) < 1e-6, (e, b, p)
# Level-only searches (a variant's, or a board in the family's
# level_points) set their own level and nothing else: the law and the
# node rate are those of the law's rows alone.
def rows_of(qs, variant=""):
    return [{"game": "kalah", "kind": "search", "pits": p // 2, "seeds": b // p, "board": b,
             "db_seeds": b - e, "excess": e, "value_only": 1, "nodes": n, "cpu": n / 1e6,
             "wall": "", "variant": variant} for e, b, p, n in qs]
law_rows = rows_of(pts)
extra = rows_of([(e, b, p, 30 * n) for e, b, p, n in pts if (p, b) == (10, 40)],
                "empty-capture")
lb = pf.board_of(pf.PLAN["kalah"]["level_points"][0])
level_rows = rows_of([(e, b, p, 7 * n) for e, b, p, n in pts if (p, b) == (12, 36)])
for r in level_rows:
    r["pits"], r["seeds"] = lb[0], lb[1]
    r["cpu"] = r["nodes"] / 1e3  # a far slower node rate, which must not count
extra += level_rows
base, _ = pf.fit_family("kalah", law_rows)
more, notes = pf.fit_family("kalah", law_rows + extra)
for key in ("search_at_ref", "search_growth", "board_growth", "pits_growth", "no_db_at_ref"):
    assert base[key] == more[key], (key, base[key], more[key])
assert abs(more["levels"][(5, 4, "empty-capture")] / more["levels"][(5, 4, "")] - 30) < 1e-6
assert lb in more["levels"] and lb not in base["levels"], (lb, more["levels"])
assert any("level only" in n for n in notes), notes
# One pit count with two boards: no pits term.
fit, notes = pf.fit_search([q for q in pts if q[2] == 12 or q[1] == 40])
assert fit["P"] == 1.0 and any("no pits term" in n for n in notes), (fit, notes)
PY
# bench-plan's boards: the README's and every results/ cell within 600 s.
scripts/bench-plan --list >"$tmp/boards"
grep -q "^kalah 6x4	.*README" "$tmp/boards"
grep -q "^toguz 5x2	.*README" "$tmp/boards"
[ "$(wc -l <"$tmp/boards")" -gt 300 ] || { echo "bench-plan --list: too few boards"; exit 1; }
grep -q "^chungkala 5x6 value	" "$tmp/boards"  # 441 s: in
# Toguz 5x3: 601 s, beyond; a smaller --max-cell leaves the big cells out.
if grep -q "^toguz 5x3	" "$tmp/boards"; then echo "toguz 5x3 (601 s) listed"; exit 1; fi
scripts/bench-plan --list --max-cell 1 >"$tmp/small"
if grep -q "^chungkala 5x6 value	" "$tmp/small"; then echo "--max-cell 1 kept 5x6"; exit 1; fi
grep -q "^kalah 4x3 empty-capture	.*README" "$tmp/small"

scripts/bench-plan --quick --sow "$sow" --out "$tmp/bench" 2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
grep -q "^| kalah 4x4 | " "$tmp/bench/plan.md"
grep -q "^| chungkala 4x3 | " "$tmp/bench/plan.md"
grep -Eq "^\*\*[0-9]+ of 2 boards run within 1.5x" "$tmp/bench/plan.md"
grep -q "^# load average before: " "$tmp/bench/plan.csv"
# scripts/plan-summary: each board's latest timing against the plan now.
python3 - <<'PY'
import importlib.machinery, importlib.util
loader = importlib.machinery.SourceFileLoader("plan_summary", "scripts/plan-summary")
spec = importlib.util.spec_from_loader("plan_summary", loader)
ps = importlib.util.module_from_spec(spec)
loader.exec_module(ps)
assert ps.start_of("31 seeds (grown from 28)") == 28
assert ps.start_of("26 seeds") == 26 and ps.start_of("no database") == 0
assert ps.start_of("") is None
ok = {"pass": "pass", "plan_db": "31 seeds (grown from 28)"}
assert ps.check(ok, {"db_seeds": 28})[0] == "pass"
assert ps.check(ok, {"db_seeds": 31})[0] == "stale"
assert ps.check(dict(ok, **{"pass": "FAIL"}), {"db_seeds": 28})[0] == "FAIL"
none = {"pass": "pass", "plan_db": "no database"}
# a trial may answer before the build: still what was timed
assert ps.check(none, {"db_seeds": 2, "trial_seconds": 0.0066})[0] == "pass"
assert ps.check(none, {"db_seeds": 2, "trial_seconds": 0})[0] == "stale"
assert not ps.timed({"pass": "not run (the set's 1800 s were spent)"})
PY
scripts/plan-summary --max-cell 0.01 --sow "$sow" --out "$tmp/sum" 2>"$tmp/log" ||
  { cat "$tmp/log"; exit 1; }
grep -Eq "^\*\*[0-9]+ of [0-9]+ boards pass; [0-9]+ fail; [0-9]+ stale; [0-9]+ never timed" \
  "$tmp/sum/plan-summary.md"
grep -q "^| kalah 6x4 | " "$tmp/sum/plan-summary.md"
echo ok
