#!/usr/bin/env bash
# test_toguz_cli.sh SOW [slow] - the Toguz commands of issue 10: each solved
# with its database (`sow solve`) and by the reference solver (a fixpoint on
# the reachable positions, independent of the database builder); the value
# and every move's value must agree, and the values are the ones recorded
# in results/toguz.md. `slow` adds the boards that take minutes.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

check() { # check VALUE ARGS...: sow solve and sow solve --reference agree on ARGS
  local want=$1; shift
  "$SOW" solve toguz "$@" --json --quiet >"$T/fast" || fail "solve $* exited $?"
  "$SOW" solve toguz "$@" --json --quiet --reference >"$T/ref" || fail "reference $* exited $?"
  python3 - "$T/fast" "$T/ref" "$want" "$*" <<'PY' || exit 1
import json, sys
f, r = (json.load(open(p)) for p in sys.argv[1:3])
want, args = int(sys.argv[3]), sys.argv[4]
mv = lambda d: {m["move"]: m["value"] for m in d["moves"]}
if f["value"] != r["value"] or mv(f) != mv(r):
    sys.exit(f"FAIL: {args}: solve {f['value']} {mv(f)}, reference {r['value']} {mv(r)}")
if f["value"] != want:
    sys.exit(f"FAIL: {args}: value {f['value']}, recorded {want}")
PY
}

# The plan (doc/experiments.md, "Toguz: the complete database" and "Growth
# for games that cycle"): fourteen seeds short of the complete database, growing
# to it, when it fits the memory; else the reason names what it needs. An
# empty store of their own: the levels a store holds change the plan, and
# the slow suite leaves Toguz 5x2's complete database in the shared one.
plan() { # plan KEY ARGS...: prints the plan's KEY
  local key=$1; shift
  SOW_DB="$T/empty" "$SOW" solve toguz "$@" --plan --json | python3 -c "import json,sys; print(json.load(sys.stdin)['$key'])"
}
[ "$(plan db_grow_seeds --pits 5 --seeds 2 --memory 4G)" = 20 ] || fail "5x2: no complete database in 4 GB"
[ "$(plan db_seeds --pits 5 --seeds 2 --memory 4G)" = 6 ] || fail "5x2: not 6 seeds first (14 short)"
# 5x3's complete database (3.1e9 positions) fits 4 GB only built lean (no
# move lists: doc/retrograde.md, "The lean builder"); not 2 GB.
[ "$(plan db_grow_seeds --pits 5 --seeds 3 --memory 4G)" = 30 ] || fail "5x3: not grown to 30 in 4 GB"
[ "$(plan root_in_db --pits 5 --seeds 3 --memory 2G)" = False ] || fail "5x3 in 2 GB?"
plan why_db --pits 5 --seeds 3 --memory 2G | grep -q 'the complete one (30) needs --memory' \
  || fail "5x3: the reason does not say what the complete database needs"
# A need no machine holds is a size, not a --memory to pass (6x6: 336 TiB
# built lean).
why=$(plan why_db --pits 6 --seeds 6 --memory 4G)
echo "$why" | grep -Eq 'the complete one \(72\) needs [0-9.]+ [TP]iB of memory, out of reach' \
  || fail "6x6: $why"
echo "$why" | grep -q -- '--memory [0-9]' && fail "6x6: a --memory of a PiB is no advice: $why"

# Above a database whose search outgrows its stack (a cycle longer than
# the path search's lines), the fixpoint of the positions above it answers,
# with a time limit too: within one it ran no fixpoint and said
# "interrupted" after 0.01 s of a 60 s limit. Its value is the reference
# solver's (check); a limit too short for it still stops in time.
pos=0,0,1,6/0/0,6,1,2/0/s
"$SOW" solve toguz --pits 4 --variant no-tuzdik --position $pos --json --quiet --reference \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])' >"$T/want"
got=$("$SOW" solve toguz --pits 4 --variant no-tuzdik --position $pos --db-seeds 14 --time 60 \
      --json --quiet | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])') ||
  fail "above the database within 60 s: no value"
[ "$got" = "$(cat "$T/want")" ] || fail "above the database within 60 s: $got, reference $(cat "$T/want")"
t0=$(date +%s%N)
rc=0
"$SOW" solve toguz --pits 4 --variant no-tuzdik --position $pos --db-seeds 14 --time 0.05 \
  --json --quiet >"$T/cut" || rc=$?
[ $rc = 130 ] || fail "above the database within 0.05 s: exit $rc, not interrupted (130)"
[ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 2000 ] || fail "above the database: 0.05 s took 2 s"

if [ "${2:-}" = slow ]; then
  check 8 --pits 4 --seeds 2   # the reference's every move: 20 CPU s
  check 4 --pits 4 --seeds 3
  exit 0
fi
check 4 --position 1,0,1,0,0,0,0,0,0/79/0,1,0,1,0,0,0,0,0/79/s
check -4 --pits 4 --seeds 1 --variant no-tuzdik
check 0 --pits 3 --seeds 2 --variant no-tuzdik
