#!/usr/bin/env bash
# scripts/plan-fit and scripts/bench-plan run and write what they promise:
# plan-fit --quick (two points a game) into a temporary folder writes a
# fitted.c with every game family's entry, which compiles against the
# plan's header, and a results table with the fit; --refit on its CSV
# gives the same table again; a wrong argument is refused with exit 2.
# bench-plan --quick writes its table with a verdict per board.
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

scripts/bench-plan --quick --sow "$sow" --out "$tmp/bench" 2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
grep -q "^| kalah 4x4 | " "$tmp/bench/plan.md"
grep -q "^| chungkala 4x3 | " "$tmp/bench/plan.md"
grep -Eq "^\*\*[0-9]+ of 2 boards run within 1.5x" "$tmp/bench/plan.md"
grep -q "^# load average before: " "$tmp/bench/plan.csv"
echo ok
