#!/usr/bin/env bash
# bench/eval_tune and scripts/eval-fit: on a tiny board (Kalah 4x3, an
# 8-seed database) the fitted weights lower the held-out error below the
# weights before the fit and below material alone; the same seed gives the
# same JSON, byte for byte, and another seed other positions; bad
# arguments exit 2 with one line. eval-fit --quick writes a table that
# compiles, --refit of its measurement writes the same file, and the
# committed src/search/eval_fitted.c is what --refit of the committed
# results/eval-fit.json writes.
#   tests/test_eval_fit.sh BUILD/bench/eval_tune
set -euo pipefail
tune=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args=(kalah --pits 4 --seeds 3 --db-seeds 8 --min-seeds 3 --positions 600 --horizon 6)
"$tune" "${args[@]}" --seed 5 >"$tmp/a.json"
"$tune" "${args[@]}" --seed 5 >"$tmp/b.json"
cmp "$tmp/a.json" "$tmp/b.json"
"$tune" "${args[@]}" --seed 6 >"$tmp/c.json"
! cmp -s "$tmp/a.json" "$tmp/c.json"
python3 - "$tmp/a.json" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
assert f["positions"] == 600, f
assert f["rmse_after"] < f["rmse_before"], f
assert f["rmse_after"] < f["rmse_material"], f
assert f["after"]["tuzdik"] == 0 and "tuzdik" not in f["free"], f  # not Kalah's rule
assert set(f["free"]) >= {"mobility", "capture"}, f
PY
# The solver's values (above the database) are exact: the same fit again.
"$tune" kalah --pits 4 --seeds 3 --db-seeds 6 --solve-above 4 --positions 200 >"$tmp/s1.json"
"$tune" kalah --pits 4 --seeds 3 --db-seeds 6 --solve-above 4 --positions 200 --threads 2 >"$tmp/s2.json"
python3 - "$tmp/s1.json" "$tmp/s2.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:])
assert a["solved"] > 0, a
assert a == b, (a, b)
PY

for bad in "nosuch" "kalah --nosuch" "kalah --seed" "kalah --positions 0" "kalah --pits 99" "kalah --min-seeds 50 --db-seeds 8" ""; do
  set +e
  # shellcheck disable=SC2086
  "$tune" $bad >/dev/null 2>"$tmp/err"
  rc=$?
  set -e
  [ "$rc" = 2 ] || { echo "eval_tune $bad: exit $rc"; exit 1; }
  [ "$(wc -l <"$tmp/err")" = 1 ] || { echo "eval_tune $bad:"; cat "$tmp/err"; exit 1; }
done

scripts/eval-fit --quick --only kalah,toguz --tune "$tune" --out-c "$tmp/fitted.c" \
  --out-results "$tmp" 2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
grep -q "{.game = SOW_KALAH, .m = 6," "$tmp/fitted.c"
grep -q "{.game = SOW_TOGUZ, .m = 9," "$tmp/fitted.c"
grep -q "^| kalah 6x4 | " "$tmp/eval-fit.md"
cc -std=c17 -fsyntax-only -Iinclude -Isrc/search "$tmp/fitted.c"
scripts/eval-fit --refit "$tmp/eval-fit.json" --out-c "$tmp/again.c"
cmp "$tmp/fitted.c" "$tmp/again.c"
scripts/eval-fit --refit results/eval-fit.json --out-c "$tmp/committed.c"
cmp src/search/eval_fitted.c "$tmp/committed.c"
set +e
scripts/eval-fit --only nosuch --tune "$tune" --out-c "$tmp/x.c" --out-results "$tmp" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] || { echo "eval-fit --only nosuch: $rc"; cat "$tmp/err"; exit 1; }
