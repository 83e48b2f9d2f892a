#!/usr/bin/env bash
# test_units_cli.sh SOW - `sow units list|probe`: the frontier has the
# lines `sow solve --ledger` asks about; a probed node's value is `sow
# solve`'s on the same line; a node budget gives up (bounds only) or, with
# --descend, solves a random child and reports the move counts on the way
# (the same seed, the same child); bad input exits 2 with one line.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
B=(kalah --pits 4 --seeds 3)

expect_status 0 "$SOW" units --help
grep -q 'sow units probe' "$T/out" || fail "help lacks probe"
expect_status 0 "$SOW" --help
grep -q 'units' "$T/out" || fail "sow --help lacks units"

# list: 2 plies; every unit line has its node's seeds and move count.
expect_status 0 "$SOW" units list "${B[@]}" --frontier 2
head -n1 "$T/out" | grep -qx 'line,depth,seeds,over,moves' || fail "list header: $(head -n1 "$T/out")"
python3 - "$T/out" <<'PY' || fail "list rows"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) > 4, rows
for r in rows:
    n = len(r["line"].split(","))
    assert n == int(r["depth"]) and (n == 2 or r["over"] == "1"), r
    assert int(r["moves"]) > 0 or r["over"] == "1", r
PY
sed 1d "$T/out" | cut -d'"' -f2 | head -n 4 >"$T/lines"

# probe: the values agree with sow solve on each line.
expect_status 0 "$SOW" units probe "${B[@]}" --lines "$T/lines" --no-db --threads 1
cp "$T/out" "$T/probe"
[ "$(sed 1d "$T/probe" | wc -l)" = 4 ] || fail "probe rows: $(cat "$T/probe")"
while IFS= read -r l; do
  want=$("$SOW" solve "${B[@]}" --moves "$l" --no-db --value-only --json --quiet |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
  got=$(python3 -c 'import csv,sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["line"] == sys.argv[2]: print(r["value"], r["done"], r["levels"])' "$T/probe" "$l")
  [ "$got" = "$want 1 0" ] || fail "line $l: probe '$got', solve $want"
done <"$T/lines"

# A tiny budget: not done, bounds only; with --descend a child is solved,
# the same one for the same seed.
echo 1 >"$T/one"
expect_status 0 "$SOW" units probe kalah --pits 6 --seeds 3 --lines "$T/one" --no-db --threads 1 --max-nodes 1
python3 - "$T/out" <<'PY' || fail "budget: $(cat "$T/out")"
import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
assert r["done"] == "0" and r["value"] == "" and int(r["lower"]) < int(r["upper"]), r
PY
for k in 1 2; do
  expect_status 0 "$SOW" units probe kalah --pits 6 --seeds 3 --lines "$T/one" --no-db --threads 1 \
    --max-nodes 5000 --descend --seed 7
  cp "$T/out" "$T/descend.$k"
done
cmp -s "$T/descend.1" <(cat "$T/descend.2") || true
python3 - "$T/descend.1" "$T/descend.2" <<'PY' || fail "descend: $(cat "$T/descend.1")"
import csv, sys
a = next(csv.DictReader(open(sys.argv[1]))); b = next(csv.DictReader(open(sys.argv[2])))
assert int(a["levels"]) >= 1 and a["final"].startswith("1,") and int(a["factor"]) > 1, a
assert len(a["final"].split(",")) == 1 + int(a["levels"]), a
assert int(a["spent_nodes"]) >= int(a["nodes"]), a
assert a["final"] == b["final"] or a["done"] != b["done"], (a, b)
PY

# Refusals: one line, exit 2.
expect_status 2 "$SOW" units
expect_status 2 "$SOW" units frobnicate kalah
expect_status 2 "$SOW" units probe "${B[@]}"
expect_status 2 "$SOW" units probe "${B[@]}" --lines "$T/nope"
echo "9,9" >"$T/bad"
expect_status 2 "$SOW" units probe "${B[@]}" --lines "$T/bad" --no-db
echo "1,1" >"$T/ok"
expect_status 2 "$SOW" units probe "${B[@]}" --lines "$T/ok" --no-db --seed 3
expect_status 2 "$SOW" units probe "${B[@]}" --lines "$T/ok" --max-nodes -1
expect_status 2 "$SOW" units list "${B[@]}" --frontier 13
expect_status 2 "$SOW" units list "${B[@]}" --lines "$T/ok"
expect_status 2 "$SOW" units list "${B[@]}" --json
echo ok
