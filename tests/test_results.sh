#!/usr/bin/env bash
# The results framework works: `scripts/results --only congkak` on the
# smallest boards (at most 6 seeds on the board, the rest recorded as not
# run) into a temporary folder, with the build under test; then the header
# carries every field, the CSV and the Markdown hold the same rows, a cell
# over its budget is kept as "not reached" with bounds, and timings.csv
# has the step.
#   tests/test_results.sh BUILD/src/cli/sow
set -euo pipefail
build=$(cd "$(dirname "$1")/../.." && pwd)
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --allow-dirty: the test runs on work in progress too.
scripts/results --only congkak --out "$tmp" --build "$build" --max-board 6 \
  --cell-seconds 30 --threads 1 --allow-dirty 2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
python3 - "$tmp" <<'PY'
import os, sys
sys.path.insert(0, "scripts/results.d")
import lib
out = sys.argv[1]
head, rows = lib.read_csv(os.path.join(out, "congkak.csv"))
for k in ("date", "commit", "machine", "load average before", "load average after", "threads"):
    assert head.get(k), f"CSV header lacks {k}: {head}"
assert "cores" in head["machine"] and "GiB" in head["machine"], head["machine"]
assert head["threads"] == "1"
md = open(os.path.join(out, "congkak.md")).read().splitlines()
for k in ("date", "commit", "machine", "load average before", "threads"):
    assert any(l.startswith(f"- {k}: ") for l in md), f"Markdown header lacks {k}"
table = [l for l in md if l.startswith("| ") and not l.startswith("| m |")]
assert len(table) == len(rows) == 49, (len(table), len(rows))
for r, l in zip(rows, table):
    cells = [c.strip() for c in l.strip("|").split("|")]
    assert cells[0] == r["m"] and cells[1] == r["n"], (r, l)
    assert cells[-1] == r["command"], (r, l)
    if r["status"] == "solved":
        assert cells[3] == f'{int(r["value"]):+d}', (r, l)
        assert r["nodes"] and r["seconds"] and r["peak_mb"], r
    else:
        assert r["status"].startswith("not run") and cells[3] == "not run", (r, l)
solved = [r for r in rows if r["status"] == "solved"]
assert {(r["m"], r["n"]) for r in solved} == {("1", "1"), ("1", "2"), ("1", "3"), ("2", "1"), ("3", "1")}, solved
t = open(os.path.join(out, "timings.csv")).read().splitlines()
assert t[0].startswith("step,mode,seconds") and t[-1].startswith("congkak,"), t
PY
# A cell over its budget: SIGINT, kept with the proven bounds.
RESULTS_SOW=$build/src/cli/sow RESULTS_CELL_SECONDS=1 RESULTS_THREADS=1 python3 - <<'PY'
import sys
sys.path.insert(0, "scripts/results.d")
import lib
lib.progress = lambda msg: None
r = lib.solve_cell("kalah", 6, 6, value_only=True, extra=["--no-db"])
assert r["status"] == "not reached within 1 s", r
assert r["lower"] <= r["upper"] and "in [" in r["value_md"], r
PY
# A dirty tree is refused without --allow-dirty (when the tree is dirty).
if [ -n "$(git status --porcelain -- . ':!results')" ]; then
  if scripts/results --only congkak --out "$tmp" --build "$build" 2>/dev/null; then
    echo "a dirty tree was not refused" >&2; exit 1
  fi
fi
# The index: a file written outside scripts/results, with its date and
# commit in a foot line only, is listed with them (not "?").
printf '# A bench\n\nrows\n\n---\n`scripts/x` (N=1), 2026-12-01 03:28 UTC, vm (2 CPUs), commit a18d859\n' \
  >"$tmp/foot.md"
scripts/results --only index --out "$tmp" --build "$build" --allow-dirty 2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
grep -q '^| \[foot.md\](foot.md) | A bench | 2026-12-01 03:28 UTC | a18d859 |$' "$tmp/README.md" ||
  { echo "index: the foot line's date and commit: $(grep foot.md "$tmp/README.md")" >&2; exit 1; }
echo "results framework: ok"
