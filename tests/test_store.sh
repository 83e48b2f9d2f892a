#!/usr/bin/env bash
# test_store.sh SOW - the database store (sow/store.h, `sow db store`):
# where it is ($SOW_DB, $XDG_CACHE_HOME, ~/.cache), that commands without
# --db use it, two processes building one database at once (each seed
# count built once, both answers right), kill -9 during a build, a damaged
# file rebuilt, the listing and the pruning to a budget.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
bg=() # background processes, ended if a check fails while they run
trap 'for p in "${bg[@]}"; do kill -9 "$p" 2>/dev/null || true; done; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

store_of() { "$SOW" db store --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["store"])'; }

# Where: SOW_DB, else XDG_CACHE_HOME/sow, else HOME/.cache/sow; made on
# first use, mode 0700.
[ "$(env -u SOW_DB XDG_CACHE_HOME="$T/xdg" HOME="$T/home" bash -c "$(declare -f store_of); SOW=$SOW store_of")" = "$T/xdg/sow" ] ||
  fail "XDG_CACHE_HOME not used"
[ "$(env -u SOW_DB -u XDG_CACHE_HOME HOME="$T/home" bash -c "$(declare -f store_of); SOW=$SOW store_of")" = "$T/home/.cache/sow" ] ||
  fail "HOME/.cache not used"
[ "$(SOW_DB="$T/s" XDG_CACHE_HOME="$T/xdg" store_of)" = "$T/s" ] || fail "SOW_DB not first"
[ "$(stat -c %a "$T/home/.cache/sow")" = 700 ] || fail "store mode $(stat -c %a "$T/home/.cache/sow")"
[ -e "$T/home/.cache/sow/.sow-store" ] || fail "no mark in the store"

# Commands told of another folder, or of none, make no store.
env -u SOW_DB XDG_CACHE_HOME="$T/x2" "$SOW" db build kalah --pits 2 --max-seeds 3 --dir "$T/d2" --quiet >/dev/null
env -u SOW_DB XDG_CACHE_HOME="$T/x2" "$SOW" solve kalah --pits 2 --seeds 2 --no-db --value-only >/dev/null
[ ! -e "$T/x2" ] || fail "a store was made: $(ls -R "$T/x2")"

# A command without --db builds into the store, the next one loads it;
# --no-db and --db DIR leave it alone.
export SOW_DB="$T/store"
"$SOW" solve kalah --pits 3 --seeds 3 --db-seeds 10 --value-only >"$T/a" 2>&1 || fail "solve: $(cat "$T/a")"
[ -e "$T/store/kalah-m3/kalah-m3-k10.sowdb" ] || fail "solve did not fill the store: $(ls -R "$T/store")"
before=$(stat -c %Y "$T/store/kalah-m3/kalah-m3-k10.sowdb")
"$SOW" solve kalah --pits 3 --seeds 3 --db-seeds 10 --value-only >"$T/b" 2>&1 || fail "solve again: $(cat "$T/b")"
cmp -s "$T/a" "$T/b" || grep -q "value" "$T/b" || fail "second solve: $(cat "$T/b")"
[ "$(stat -c %Y "$T/store/kalah-m3/kalah-m3-k10.sowdb")" = "$before" ] || fail "the second solve rebuilt"
"$SOW" solve chungkala --pits 3 --seeds 2 --no-db --value-only >/dev/null
mkdir "$T/own"
"$SOW" solve congkak --pits 3 --seeds 2 --db "$T/own" --value-only >/dev/null
[ ! -e "$T/store/chungkala-m3" ] && [ ! -e "$T/store/congkak-m3" ] || fail "--no-db or --db wrote into the store"

# Two processes building one database into the store at once: each seed
# count is built by one of them (the positions built add up to the total
# once), and both answer right.
for w in a b; do
  timeout 120 "$SOW" db build kalah --pits 4 --max-seeds 14 --quiet --threads 1 >"$T/$w.out" 2>"$T/$w.err" &
  bg+=($!)
done
wait "${bg[0]}" || fail "build a: $(cat "$T/a.err")"
wait "${bg[1]}" || fail "build b: $(cat "$T/b.err")"
bg=()
built=$(( $(cat "$T/a.out" "$T/b.out" | sed -E 's/.*built seed counts [^(]*\(([0-9]+) positions.*/\1/' | paste -sd+) ))
[ "$built" = 319770 ] || fail "built $built positions, not 319770 once: $(cat "$T/a.out" "$T/b.out")"
ref=$("$SOW" solve chungkala --pits 4 --seeds 2 --no-db --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
for w in a b; do
  timeout 120 "$SOW" solve chungkala --pits 4 --seeds 2 --db-seeds 12 --threads 1 --json >"$T/$w.json" 2>"$T/$w.err" &
  bg+=($!)
done
wait "${bg[0]}" || fail "solve a: $(cat "$T/a.err")"
wait "${bg[1]}" || fail "solve b: $(cat "$T/b.err")"
bg=()
for w in a b; do
  v=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$T/$w.json")
  [ "$v" = "$ref" ] || fail "solve $w: value $v, not $ref"
done
expect_status 0 "$SOW" db verify "$T/store/chungkala-m4"
grep -q "chungkala-m4: seed counts 0..12, complete" "$T/out" || fail "verify: $(cat "$T/out")"

# kill -9 during a build: the store stays usable, the next build goes on
# from the files saved and cleans what the killed one left.
: >"$T/k.err"
"$SOW" db build kalah --pits 5 --max-seeds 17 --threads 1 >/dev/null 2>"$T/k.err" & p=$!
bg+=($p)
for n in $(seq 1000); do grep -q "^seeds 13/17: .*(100%)" "$T/k.err" && break; sleep 0.01; done
kill -9 $p
wait $p 2>/dev/null || true
bg=()
expect_status 0 "$SOW" db build kalah --pits 5 --max-seeds 17 --quiet
grep -Eq "built seed counts 1[3-7]..17 .*, loaded 0..1[2-6] " "$T/out" || fail "after kill -9: $(cat "$T/out")"
expect_status 0 "$SOW" db verify "$T/store/kalah-m5"
grep -q "PROBLEMS" "$T/out" && fail "after kill -9: $(cat "$T/out")"
ls "$T/store/kalah-m5" | grep -q 'tmp' && fail "a temporary stayed: $(ls "$T/store/kalah-m5")"
ref=$("$SOW" solve kalah --pits 5 --seeds 1 --moves 1,2 --no-db --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
v=$("$SOW" db query kalah --pits 5 --seeds 1 --moves 1,2 --dir "$T/store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
[ "$v" = "$ref" ] || fail "after kill -9: query $v, solve $ref"

# A damaged file in the store is rebuilt, with one line saying so.
f="$T/store/kalah-m4/kalah-m4-k9.sowdb"
truncate -s 100 "$f"
expect_status 0 "$SOW" db build kalah --pits 4 --max-seeds 14 --quiet
grep -q "built seed counts 9 " "$T/out" || fail "damaged: $(cat "$T/out")"
[ "$(grep -c "kalah-m4-k9.sowdb: truncated.*rebuilding it" "$T/err")" = 1 ] || fail "damaged line: $(cat "$T/err")"

# So is one that a solve (the plan's open) finds.
truncate -s 100 "$T/store/kalah-m3/kalah-m3-k8.sowdb"
"$SOW" solve kalah --pits 3 --seeds 3 --db-seeds 10 --value-only >/dev/null 2>"$T/err" || fail "solve: $(cat "$T/err")"
[ "$(grep -c "kalah-m3-k8.sowdb: truncated.*rebuilding it" "$T/err")" = 1 ] || fail "solve, damaged line: $(cat "$T/err")"
expect_status 0 "$SOW" db verify "$T/store/kalah-m3"

# The listing: every family, its seed counts, its size; the total.
expect_status 0 "$SOW" db store
grep -q "^store $T/store: 4 databases" "$T/out" || fail "listing: $(cat "$T/out")"
grep -Eq "^  kalah-m4 +seeds 0..14 " "$T/out" || fail "listing kalah-m4: $(cat "$T/out")"
grep -Eq "^  kalah-m3 +seeds 0..10 " "$T/out" || fail "listing kalah-m3: $(cat "$T/out")"
"$SOW" db store --json >"$T/s.json"
python3 - "$T/s.json" "$T/store" <<'EOF' || fail "store --json: $(cat "$T/s.json")"
import json, os, sys
s = json.load(open(sys.argv[1]))
root = sys.argv[2]
on_disk = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(root)
              for f in fs if f.endswith(".sowdb"))
assert s["store"] == root and s["bytes"] == on_disk, (s["bytes"], on_disk)
fam = {f["family"]: f for f in s["families"]}
assert set(fam) == {"kalah-m3", "kalah-m4", "kalah-m5", "chungkala-m4"}, fam
assert fam["kalah-m5"]["complete_to"] == 17 and fam["kalah-m5"]["files"] == 18
assert sum(f["bytes"] for f in s["families"]) == on_disk
EOF
# Toguz without tuzdik holds each parity's seed counts apart (doc/
# retrograde.md, "Parity"): even ones to 8 and odd ones to 5 are complete to 8.
expect_status 0 env SOW_DB="$T/store2" "$SOW" db build toguz --pits 3 --variant no-tuzdik --max-seeds 8 --quiet
expect_status 0 env SOW_DB="$T/store2" "$SOW" db build toguz --pits 3 --variant no-tuzdik --max-seeds 5 --quiet
expect_status 0 env SOW_DB="$T/store2" "$SOW" db store --json
python3 -c 'import json, sys; f = json.load(open(sys.argv[1]))["families"][0]; sys.exit(0 if (f["family"], f["seeds"], f["complete_to"], f["files"]) == ("toguz-m3-no-tuzdik", "0..6,8", 8, 8) else 1)' "$T/out" ||
    fail "store --json, no tuzdik: $(cat "$T/out")"

# Pruning: the least recently used family loses its highest seed counts
# first, down to the budget; the family used last stays whole. (The seed
# counts kept follow from the sizes of packed files, format version 2.)
"$SOW" db query kalah --pits 3 --seeds 1 --dir "$T/store" >/dev/null   # kalah-m3: used last
"$SOW" db store --store-max 1M >/dev/null
grep -q "max_bytes 1048576" "$T/store/.sow-store" || fail "budget not kept: $(cat "$T/store/.sow-store")"
expect_status 0 "$SOW" db store --prune
head -1 "$T/out" | grep -q "removed chungkala-m4/chungkala-m4-k12.sowdb" || fail "prune order: $(cat "$T/out")"
grep -q "removed kalah-m3" "$T/out" && fail "pruned the family used last: $(cat "$T/out")"
grep -q "removed kalah-m5/kalah-m5-k14.sowdb" "$T/out" || fail "prune kalah-m5: $(cat "$T/out")"
grep -Eq "^  kalah-m5 +seeds 0..13 " "$T/out" || fail "prune kept: $(cat "$T/out")"
grep -Eq "^  kalah-m3 +seeds 0..10 " "$T/out" || fail "prune kept: $(cat "$T/out")"
# kalah-m4 was used after kalah-m5 (its damaged file's rebuild).
grep -Eq "^  kalah-m4 +seeds 0..14 " "$T/out" || fail "prune kept: $(cat "$T/out")"
[ ! -e "$T/store/chungkala-m4/chungkala-m4-k0.sowdb" ] || fail "chungkala-m4 kept: $(cat "$T/out")"
total=$("$SOW" db store --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["bytes"])')
[ "$total" -le 1048576 ] || fail "over budget: $total"
# After a build, the others make room for it.
"$SOW" db build congkak --pits 5 --max-seeds 12 --quiet >/dev/null
[ -e "$T/store/congkak-m5/congkak-m5-k12.sowdb" ] || fail "the build's own family was pruned"
[ -e "$T/store/kalah-m5/kalah-m5-k13.sowdb" ] && fail "no pruning after a build: $("$SOW" db store)"
"$SOW" db store --store-max default >/dev/null
grep -q "max_bytes 0" "$T/store/.sow-store" || fail "default budget: $(cat "$T/store/.sow-store")"

# Bad input: one line, status 2.
expect_status 2 "$SOW" db store --store-max 0
expect_status 2 "$SOW" db store --store-max lots
expect_status 2 "$SOW" db verify "$T/store"
grep -q "is a database store" "$T/err" || fail "verify STORE: $(cat "$T/err")"
echo ok
