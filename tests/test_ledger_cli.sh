#!/usr/bin/env bash
# test_ledger_cli.sh SOW - `sow solve --ledger` and `sow ledger` end to
# end: a ledgered solve gives the monolithic solve's value; kill -9 in the
# middle of one, then the same command resumes from the ledger (answers
# reused, same value); a ledger is refused for another board, rule, root or
# frontier, and a file that is not a ledger; status and export in text,
# CSV and JSON agree with the ledger.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

expect_status 0 "$SOW" ledger --help
has out 'sow ledger status FILE'
expect_status 0 "$SOW" solve --help
has out 'ledger FILE'

if "$SOW" solve kalah --pits 3 --seeds 2 --ledger "$T/probe.ledger" --quiet >/dev/null 2>"$T/err"; then
  :
elif grep -q 'has no ledger' "$T/err"; then
  # A build without SQLite: both commands say so, in one line, status 2.
  expect_status 2 "$SOW" ledger status "$T/probe.ledger"
  has err 'install libsqlite3-dev'
  echo "ledger cli: this build has no ledger; the refusals checked"
  exit 0
else
  fail "a small ledgered solve failed: $(cat "$T/err")"
fi

# Small boards of every game: the ledgered value is the monolithic one.
for b in "kalah --pits 4 --seeds 3" "chungkala --pits 4 --seeds 3" "congkak --pits 4 --seeds 3" \
  "toguz --pits 3 --seeds 3" "kalah --pits 4 --seeds 2 --variant empty-capture"; do
  expect_status 0 "$SOW" solve $b --value-only --json --quiet --threads 1
  want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$T/out")
  rm -f "$T/s.ledger"
  expect_status 0 "$SOW" solve $b --ledger "$T/s.ledger" --frontier 2 --json --quiet --threads 2
  json "d['value'] == $want and d['solver'] == 'units' and d['lower'] == d['upper'] == $want"
  json "d['frontier']['depth'] == 2 and d['units'] >= 1 and d['reused'] == 0"
  # Run again: every answer is in the ledger, nothing is asked.
  expect_status 0 "$SOW" solve $b --ledger "$T/s.ledger" --frontier 2 --json --quiet --threads 2
  json "d['value'] == $want and d['units'] == 0 and d['reused'] >= 1"
done

# kill -9 in the middle of a solve of a few seconds, then resume.
BOARD=(kalah --pits 6 --seeds 3)
OPTS=(--no-db --tt-mb 16 --threads 1 --quiet --frontier 4)
expect_status 0 "$SOW" solve "${BOARD[@]}" --value-only --no-db --tt-mb 16 --threads 1 --quiet --json
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$T/out")
L="$T/kill.ledger"
"$SOW" solve "${BOARD[@]}" "${OPTS[@]}" --ledger "$L" >"$T/killed.out" 2>&1 &
pid=$!
done_units=0
for _ in $(seq 1 600); do
  sleep 0.1
  kill -0 "$pid" 2>/dev/null || fail "the solve to kill finished before 3 answers: $(cat "$T/killed.out")"
  if [ -f "$L" ] && "$SOW" ledger status "$L" --json >"$T/out" 2>/dev/null; then
    done_units=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["done"])' "$T/out")
    [ "$done_units" -ge 3 ] && break
  fi
done
[ "$done_units" -ge 3 ] || fail "no 3 answers in the ledger within 60 s"
kill -9 "$pid"
wait "$pid" 2>/dev/null || true
pid=""
expect_status 0 "$SOW" ledger status "$L" --json
json "d['done'] >= 3 and d['solved'] == False and d['runs'] == 1 and d['lower'] < d['upper']"
json "d['lower'] <= $want <= d['upper'] and d['value'] is None and d['remaining_cpu'] >= 0"
before=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["done"])' "$T/out")
expect_status 0 "$SOW" solve "${BOARD[@]}" "${OPTS[@]}" --ledger "$L" --json
json "d['value'] == $want and d['reused'] == $before and d['interrupted'] == False"
expect_status 0 "$SOW" ledger status "$L" --json
json "d['solved'] and d['value'] == $want and d['runs'] == 2 and d['open'] == 0"
json "d['game'] == 'kalah' and d['pits'] == 6 and d['depth'] == 4 and d['remaining_cpu'] == 0"
expect_status 0 "$SOW" ledger status "$L"
has out "root: solved, value \\+?$want"
has out '^units: [0-9]+ done'

# Export: every unit, CSV and JSON agreeing with the status.
expect_status 0 "$SOW" ledger status "$L" --json
ndone=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["done"])' "$T/out")
expect_status 0 "$SOW" ledger export "$L" --json
json "sum(1 for u in d['units'] if u['state'] == 'done') == $ndone"
json "all(u['bound'] is not None for u in d['units'] if u['state'] == 'done')"
json "all(len(u['line'].split(',')) <= 4 for u in d['units'])"
expect_status 0 "$SOW" ledger export "$L"
has out '^line,threshold,state,bound,nodes,cpu,seconds,worker$'
[ "$(grep -c ',done,' "$T/out")" = "$ndone" ] || fail "CSV export: not $ndone done units"

# Refusals: another board, rule, root or frontier; not a ledger; bad use.
for other in "kalah --pits 6 --seeds 4" "kalah --pits 6 --seeds 3 --variant empty-capture" \
  "kalah --pits 6 --seeds 3 --moves 1" "kalah --pits 6 --seeds 3 --frontier 3"; do
  expect_status 2 "$SOW" solve $other --ledger "$L" --no-db --quiet
  has err 'is the ledger of another solve'
done
echo 'not a ledger' >"$T/text"
expect_status 2 "$SOW" solve kalah --pits 3 --seeds 2 --ledger "$T/text" --quiet
has err 'is not a sow ledger'
expect_status 2 "$SOW" ledger status "$T/text"
has err 'is not a sow ledger'
expect_status 2 "$SOW" ledger status "$T/missing"
has err 'no such ledger'
expect_status 2 "$SOW" ledger export "$L" --csv --json
expect_status 2 "$SOW" ledger status "$L" --csv
expect_status 2 "$SOW" ledger frob "$L"
expect_status 2 "$SOW" ledger status
expect_status 2 "$SOW" solve kalah --frontier 3
has err 'frontier needs .*ledger'
expect_status 2 "$SOW" solve kalah --ledger "$T/x" --frontier 13
expect_status 2 "$SOW" solve kalah --ledger "$T/x" --reference
expect_status 2 "$SOW" solve kalah --pits 3 --seeds 2 --variant pie --ledger "$T/x"
has err 'pie'
# The plan of a ledgered solve: its database does not grow (every unit
# uses the one database), and --plan creates no ledger.
expect_status 0 "$SOW" solve chungkala --pits 8 --seeds 1 --memory 256 --ledger "$T/never.db" --plan
has out '^grows up to: 0 seeds'
has out '^why growth: .*ledger'
[ -e "$T/never.db" ] && fail "--plan created the ledger"
echo "ledger cli: values, kill -9 and resume, status, export, refusals"
