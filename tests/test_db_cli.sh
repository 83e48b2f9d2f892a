#!/usr/bin/env bash
# test_db_cli.sh SOW - `sow db` end to end: build, verify, info, query
# (checked against `sow solve` on the keys both promise: value, outcome,
# every move's value, a best move of the best value), and bad input
# (exit status 2, one line on stderr).
set -euo pipefail
SOW=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

expect_status() { # expect_status N cmd...
  local want=$1; shift
  local got=0
  "$@" >"$T/out" 2>"$T/err" || got=$?
  [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(cat "$T/err")"
  if [ "$want" = 2 ]; then
    [ "$(wc -l <"$T/err")" = 1 ] || fail "'$*' should print one line on stderr: $(cat "$T/err")"
  fi
}

expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build chungkala --pits 3 --max-seeds 12 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build congkak --pits 3 --max-seeds 12 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --variant empty-capture,end-on-turn --dir "$T/db" --quiet
expect_status 0 "$SOW" db verify "$T/db"
grep -q "kalah-m3: seed counts 0..12, complete" "$T/out" || fail "verify output: $(cat "$T/out")"
expect_status 0 "$SOW" db info "$T/db/congkak-m3-k7.sowdb"
grep -q "entries     792" "$T/out" || fail "info output: $(cat "$T/out")"

same() { # same GAME ARGS...: db query and solve agree
  "$SOW" db query "$@" --dir "$T/db" --json >"$T/q.json"
  "$SOW" solve "$@" --json >"$T/s.json"
  python3 - "$T/q.json" "$T/s.json" <<'PY' || fail "query and solve differ for: $*"
import json, sys
q, s = (json.load(open(p)) for p in sys.argv[1:3])
# The keys both commands promise (`sow solve` may add its own); `best` may
# differ between equal moves, so it is checked by its value.
keys = ("game", "pits", "seeds", "variant", "value", "outcome", "moves", "pie")
bad = [k for k in keys if q.get(k) != s.get(k)]
for d in (q, s):
    vals = {m["move"]: m["value"] for m in d["moves"]}
    if d["best"] is None if d["moves"] else d["best"] is not None:
        bad.append("best")
    elif d["moves"] and vals[d["best"]] != d["value"]:
        bad.append("best")
if bad:
    print("differ on", bad, q, s, sep="\n", file=sys.stderr)
    sys.exit(1)
PY
}
same kalah --pits 3 --seeds 2
same kalah --pits 3 --seeds 2 --moves 1,3
same kalah --pits 3 --seeds 2 --variant pie
same kalah --pits 3 --seeds 2 --variant empty-capture,end-on-turn --moves 2
same chungkala --pits 3 --seeds 2
same chungkala --pits 3 --seeds 2 --moves 3,1
same congkak --pits 3 --seeds 2
same congkak --position 1,0,4/3/0,2,1/1/n
same kalah --position 0,0,0/9/0,1,2/6/s

# Bad input: one line, exit 2.
expect_status 2 "$SOW" db build toguz --pits 3 --max-seeds 4 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --max-seeds 4 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --pits 3 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --pits 6 --max-seeds 24 --memory 500 --dir "$T/x"
grep -Eq "needs 1\.3[0-9] GB, over the memory budget of 0\.52 GB" "$T/err" || fail "memory message: $(cat "$T/err")"
expect_status 2 "$SOW" db build kalah --pits 3 --max-seeds 4 --threads 0 --dir "$T/x"
expect_status 2 "$SOW" db query kalah --pits 3 --seeds 2
expect_status 2 "$SOW" db query kalah --pits 3 --seeds 3 --dir "$T/db"
grep -q "seed count 13 is missing" "$T/err" || fail "missing message: $(cat "$T/err")"
expect_status 2 "$SOW" db query kalah --pits 3 --seeds 2 --variant no-sweep --dir "$T/db"
expect_status 2 "$SOW" db frobnicate
expect_status 2 "$SOW" db info "$T/nonexistent.sowdb"

# A corrupt file: info refuses it, verify reports it (exit 1), query too.
f="$T/db/kalah-m3-k12.sowdb"
printf '\x55' | dd of="$f" bs=1 seek=1000 conv=notrunc status=none
expect_status 2 "$SOW" db info "$f"
grep -q "checksum mismatch" "$T/err" || fail "info message: $(cat "$T/err")"
expect_status 1 "$SOW" db verify "$T/db"
grep -q "BAD  kalah-m3-k12.sowdb" "$T/out" || fail "verify output: $(cat "$T/out")"
expect_status 2 "$SOW" db query kalah --pits 3 --seeds 2 --dir "$T/db"
echo "ok"
