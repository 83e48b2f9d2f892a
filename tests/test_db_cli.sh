#!/usr/bin/env bash
# test_db_cli.sh SOW - `sow db` end to end: build, verify, info, query
# (checked against `sow solve` on the keys both promise: value, outcome,
# every move's value, a best move of the best value), bad input (exit
# status 2, one line on stderr), refused builds that leave no folder, the
# per-file locks between two builds, Ctrl-C, and what verify says of the
# leftovers of a killed build.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
bg=() # background builds, ended if a check fails while they run
trap 'for p in "${bg[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build chungkala --pits 3 --max-seeds 12 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build congkak --pits 3 --max-seeds 12 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --variant empty-capture,end-on-turn --dir "$T/db" --quiet
expect_status 0 "$SOW" db verify "$T/db"
grep -q "kalah-m3: seed counts 0..12, complete" "$T/out" || fail "verify output: $(cat "$T/out")"
expect_status 0 "$SOW" db info "$T/db/congkak-m3-k7.sowdb"
grep -q "entries     792" "$T/out" || fail "info output: $(cat "$T/out")"

# Toguz (cycles): build both variants, verify, info, and query against solve
# (solve's own database, and the reference solver) below.
expect_status 0 "$SOW" db build toguz --pits 3 --max-seeds 6 --dir "$T/db" --quiet
expect_status 0 "$SOW" db build toguz --pits 3 --max-seeds 6 --variant no-tuzdik --dir "$T/db" --quiet
expect_status 0 "$SOW" db verify "$T/db"
grep -q "toguz-m3: seed counts 0..6, complete" "$T/out" || fail "verify toguz: $(cat "$T/out")"
expect_status 0 "$SOW" db info "$T/db/toguz-m3-k2.sowdb"
# 21 boards of 6 pits, 4 x 15 with one tuzdik, 2 x 10 with two
grep -q "entries     101" "$T/out" || fail "info toguz: $(cat "$T/out")"

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
same toguz --pits 3 --seeds 1
same toguz --pits 3 --seeds 1 --variant no-tuzdik
same toguz --pits 3 --seeds 1 --moves 3,2
# and the reference solver (path-based repetition rule), independent of both
# (3 pits are checked against it in tests/test_toguz_db.c, with fewer seeds)
"$SOW" db build toguz --pits 2 --max-seeds 12 --dir "$T/db" --quiet
"$SOW" db build toguz --pits 2 --max-seeds 12 --variant no-tuzdik --dir "$T/db" --quiet
for a in "--pits 2 --seeds 2" "--pits 2 --seeds 3" "--pits 2 --seeds 3 --variant no-tuzdik"; do
  # shellcheck disable=SC2086
  q=$("$SOW" db query toguz $a --dir "$T/db" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
  # shellcheck disable=SC2086
  r=$("$SOW" solve toguz $a --reference --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["value"])')
  [ "$q" = "$r" ] || fail "toguz $a: db query $q, reference $r"
done

# Bad input: one line, exit 2.
expect_status 2 "$SOW" db build kalah --max-seeds 4 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --pits 3 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --pits 6 --max-seeds 24 --memory 500 --dir "$T/x"
grep -Eq "needs 1\.[0-9]{2} GB \([0-9]+ MB\), over the memory budget of 0\.52 GB \(500 MB\)" "$T/err" || fail "memory message: $(cat "$T/err")"
expect_status 2 "$SOW" db build kalah --pits 6 --max-seeds 24 --memory 0.5 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --pits 3 --max-seeds 4 --threads 0 --dir "$T/x"
expect_status 2 "$SOW" db build kalah --pits 3 --max-seeds 200 --dir "$T/x"
expect_status 2 "$SOW" db build chungkala --pits 3 --max-seeds 60 --dir "$T/x"
grep -q "up to .* seeds (int8 entries)" "$T/err" || fail "limit message: $(cat "$T/err")"
# None of those refused builds left a folder behind.
[ ! -e "$T/x" ] || fail "a refused build left $T/x"
# --dir naming a file, or a folder in a missing one: refused, nothing made.
touch "$T/plain"
expect_status 2 "$SOW" db build kalah --pits 3 --max-seeds 4 --dir "$T/plain" --quiet
grep -q "is not a directory" "$T/err" || fail "file as --dir: $(cat "$T/err")"
expect_status 2 "$SOW" db build kalah --pits 3 --max-seeds 4 --dir "$T/no/such" --quiet
[ ! -e "$T/no" ] || fail "a refused build made $T/no"
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
# A build rebuilds the bad file (only it), saying so in one line on stderr.
expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --dir "$T/db" --quiet --threads 1
grep -q "built seed counts 12 (6188 positions, 1 thread), loaded 0..11" "$T/out" ||
  fail "rebuild of one seed count: $(cat "$T/out")"
[ "$(wc -l <"$T/err")" = 1 ] && grep -q "kalah-m3-k12.sowdb: checksum mismatch (the file is corrupt): rebuilding it" "$T/err" ||
  fail "build over a bad file: $(cat "$T/err")"
expect_status 0 "$SOW" db verify "$T/db"
# So is a truncated one, and one of another seed count under its name.
g="$T/db/kalah-m3-k11.sowdb"
size=$(stat -c %s "$g")
truncate -s 1000 "$g"
cp "$T/db/kalah-m3-k4.sowdb" "$T/db/kalah-m3-k7.sowdb"
expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --dir "$T/db" --quiet --threads 1
grep -q "built seed counts 7,11 (.*), loaded 0..6,8..10,12" "$T/out" || fail "rebuild of two: $(cat "$T/out")"
grep -q "kalah-m3-k11.sowdb: truncated (1000 bytes, the header says $size): rebuilding it" "$T/err" ||
  fail "build over a truncated file: $(cat "$T/err")"
grep -q "kalah-m3-k7.sowdb: the file holds seed count 4, expected 7: rebuilding it" "$T/err" ||
  fail "build over a misnamed file: $(cat "$T/err")"
expect_status 0 "$SOW" db verify "$T/db"
# Only loading (query) still refuses a bad file.
truncate -s 1000 "$g"
expect_status 2 "$SOW" db query kalah --pits 3 --seeds 11 --dir "$T/db"
grep -q "truncated" "$T/err" || fail "query over a truncated file: $(cat "$T/err")"
# verify reports it; --clean removes it (a build makes it again), and a
# seed count then missing is still a problem.
expect_status 1 "$SOW" db verify "$T/db"
grep -q "BAD  kalah-m3-k11.sowdb: .*truncated" "$T/out" || fail "verify truncated: $(cat "$T/out")"
expect_status 1 "$SOW" db verify "$T/db" --clean
grep -q "removed kalah-m3-k11.sowdb: .*truncated" "$T/out" || fail "--clean a bad file: $(cat "$T/out")"
grep -q "^kalah-m3: seed counts up to 12, missing: 11" "$T/out" || fail "--clean a bad file: $(cat "$T/out")"
[ ! -e "$g" ] || fail "--clean left the bad file it reported"
expect_status 0 "$SOW" db build kalah --pits 3 --max-seeds 12 --dir "$T/db" --quiet --threads 1
expect_status 0 "$SOW" db verify "$T/db"

# Format version 2: a level that packs smaller is saved packed, and info
# says so with its real size. A file of a newer version is refused in one
# line (status 2), loading or building, and left as it is.
f="$T/db/kalah-m3-k12.sowdb"
expect_status 0 "$SOW" db info "$f"
grep -q "format      version 2" "$T/out" && grep -q "encoding    packed" "$T/out" &&
  grep -q "bytes       $(stat -c %s "$f") " "$T/out" || fail "info of a packed file: $(cat "$T/out")"
cp "$f" "$T/k12.saved"
printf '\x03' | dd of="$f" bs=1 seek=8 conv=notrunc status=none
expect_bad "format version 3 is newer than this sow reads" "$SOW" db info "$f"
expect_bad "format version 3 is newer than this sow reads" "$SOW" db query kalah --pits 3 --seeds 2 --dir "$T/db"
expect_bad "format version 3 is newer than this sow reads" "$SOW" db build kalah --pits 3 --max-seeds 12 --dir "$T/db" --quiet
[ "$(od -An -tu1 -j8 -N1 "$f" | tr -d ' ')" = 3 ] || fail "a newer file was rebuilt over"
cp "$T/k12.saved" "$f"
expect_status 0 "$SOW" db verify "$T/db"

# Each subcommand's --help, and its hints name the real command.
for sub in build info verify query; do
  expect_status 0 "$SOW" db "$sub" --help
  grep -q "usage: sow db $sub" "$T/out" || fail "db $sub --help: $(cat "$T/out")"
  expect_status 2 "$SOW" db "$sub" --no-such-option
  grep -q "see sow db $sub --help" "$T/err" || fail "db $sub hint: $(cat "$T/err")"
done
expect_status 2 "$SOW" db verify "$T/db" extra
grep -q "unexpected argument 'extra' (see sow db verify --help)" "$T/err" || fail "verify hint: $(cat "$T/err")"
expect_status 2 "$SOW" db info "$T/db" extra
grep -q "see sow db info --help" "$T/err" || fail "info hint: $(cat "$T/err")"
expect_status 0 "$SOW" db --help
grep -q "sow db SUBCOMMAND --help" "$T/out" || fail "db --help: $(cat "$T/out")"
grep -q "all four games (kalah, chungkala, congkak, toguz)" "$T/out" || fail "db --help: the games: $(cat "$T/out")"
grep -q "exit status: 0 all good; 1 a problem" <("$SOW" db verify --help) || fail "verify --help states no exit codes"

# info on a folder summarises its databases.
expect_status 0 "$SOW" db info "$T/db"
grep -q "a folder of 83 database files" "$T/out" || fail "info DIR: $(cat "$T/out")"
# Toguz without tuzdik keeps the parity of its seeds: its even levels only.
grep -q "^toguz-m2-no-tuzdik: seed counts 0,2,4,6,8,10,12, complete (7 files" "$T/out" ||
    fail "info DIR, no tuzdik: $(cat "$T/out")"
grep -q "^congkak-m3: seed counts 0..12, complete (13 files" "$T/out" || fail "info DIR: $(cat "$T/out")"
grep -q "truncated" "$T/out" && fail "info DIR: $(cat "$T/out")"
mkdir "$T/empty"
expect_status 2 "$SOW" db info "$T/empty"
expect_status 2 "$SOW" db verify "$T/empty"
expect_status 2 "$SOW" db verify "$T/db/congkak-m3-k7.sowdb"
grep -q "Not a directory (for a file: sow db info FILE)" "$T/err" || fail "verify FILE: $(cat "$T/err")"

# A renamed file: info refuses it as verify does.
cp "$T/db/congkak-m3-k7.sowdb" "$T/congkak-m3-k8.sowdb"
expect_status 2 "$SOW" db info "$T/congkak-m3-k8.sowdb"
grep -q "congkak-m3-k8.sowdb: its header describes congkak-m3-k7.sowdb" "$T/err" || fail "info renamed: $(cat "$T/err")"
cp "$T/db/congkak-m3-k7.sowdb" "$T/db/congkak-m3-k8.sowdb.copy.sowdb"
expect_status 1 "$SOW" db verify "$T/db"
grep -q "BAD  congkak-m3-k8.sowdb.copy.sowdb: its header describes congkak-m3-k7.sowdb" "$T/out" || fail "verify renamed: $(cat "$T/out")"
rm "$T/db/congkak-m3-k8.sowdb.copy.sowdb"

# Leftovers of builds: a temporary whose process is gone is a problem
# (exit 1) that --clean removes; one of a live process (this shell) is a
# build in progress, reported and kept; so is a lock file no build holds.
expect_status 0 "$SOW" db verify "$T/db"
head -c 1000 /dev/zero >"$T/db/kalah-m3-k5.sowdb.tmp.999999999"
head -c 1000 /dev/zero >"$T/db/kalah-m3-k6.sowdb.tmp.$$"
echo 999999999 >"$T/db/kalah-m3-k5.sowdb.lock"
expect_status 1 "$SOW" db verify "$T/db"
grep -q "STALE kalah-m3-k5.sowdb.tmp.999999999: 0.0 MB, left by process 999999999, which is gone (--clean removes it)" "$T/out" || fail "stale temp: $(cat "$T/out")"
grep -q "TEMP kalah-m3-k6.sowdb.tmp.$$: .*process $$ is running" "$T/out" || fail "live temp: $(cat "$T/out")"
grep -q "STALE kalah-m3-k5.sowdb.lock: no build holds it (left by process 999999999)" "$T/out" || fail "stale lock: $(cat "$T/out")"
grep -q "PROBLEMS FOUND" "$T/out" || fail "verify summary: $(cat "$T/out")"
expect_status 0 "$SOW" db info "$T/db"
grep -q "STALE kalah-m3-k5.sowdb.tmp.999999999" "$T/out" || fail "info DIR leftovers: $(cat "$T/out")"
expect_status 0 "$SOW" db verify "$T/db" --clean
grep -q "removed kalah-m3-k5.sowdb.tmp.999999999" "$T/out" || fail "--clean: $(cat "$T/out")"
grep -q "removed kalah-m3-k5.sowdb.lock" "$T/out" || fail "--clean: $(cat "$T/out")"
[ ! -e "$T/db/kalah-m3-k5.sowdb.tmp.999999999" ] && [ ! -e "$T/db/kalah-m3-k5.sowdb.lock" ] || fail "--clean left them"
[ -e "$T/db/kalah-m3-k6.sowdb.tmp.$$" ] || fail "--clean removed a live process's temporary"
rm "$T/db/kalah-m3-k6.sowdb.tmp.$$"

# The per-file locks. This shell holds the lock of seed count 0's file as
# a build would; two builds started into DIR both wait, saying for whom.
# Once it is released they share the work: each seed count is built by one
# of them and loaded by the other (the positions built add up to the
# total exactly once).
c="$T/conc"
mkdir "$c"
exec 9>"$c/kalah-m4-k0.sowdb.lock"
flock -n 9 || fail "cannot lock $c/kalah-m4-k0.sowdb.lock"
echo $$ >&9
for w in a b; do
  # 9>&-: a child sharing this shell's locked descriptor would hold the lock
  # itself and wait for ever; timeout: a failure here must not hang the suite.
  timeout 120 "$SOW" db build kalah --pits 4 --max-seeds 14 --dir "$c" --quiet --threads 1 \
    >"$T/$w.out" 2>"$T/$w.err" 9>&- &
  bg+=($!)
done
for i in $(seq 400); do
  [ "$(cat "$T/a.err" "$T/b.err" | grep -c "waiting for the build of pid $$ of $c/kalah-m4-k0.sowdb")" = 2 ] && break
  sleep 0.05
done
for w in a b; do
  grep -q "waiting for the build of pid $$ of $c/kalah-m4-k0.sowdb (it holds $c/kalah-m4-k0.sowdb.lock)" "$T/$w.err" || fail "build $w did not wait: $(cat "$T/$w.err")"
done
ls "$c" | grep -q 'sowdb$' && fail "a build wrote files while the lock was held"
rm "$c/kalah-m4-k0.sowdb.lock" # released as a build releases it: unlinked, then unlocked
exec 9>&-
wait "${bg[0]}" || fail "build a failed: $(cat "$T/a.err")"
wait "${bg[1]}" || fail "build b failed: $(cat "$T/b.err")"
bg=()
cat "$T/a.out" "$T/b.out" >"$T/ab.out"
built=$(( $(sed -E 's/.*built seed counts [^(]*\(([0-9]+) positions.*/\1/' "$T/ab.out" | paste -sd+) ))
[ "$built" = 319770 ] || fail "not built once ($built positions built): $(cat "$T/ab.out")"
ls "$c" | grep -q 'lock$' && fail "lock files outlived the builds: $(ls "$c")"
expect_status 0 "$SOW" db verify "$c"
grep -q "kalah-m4: seed counts 0..14, complete" "$T/out" || fail "verify after the lock: $(cat "$T/out")"

# Ctrl-C while waiting for the lock: exit 130, nothing written.
mkdir "$T/w"
: >"$T/w.err"
exec 9>"$T/w/kalah-m3-k0.sowdb.lock"
flock -n 9 || fail "cannot lock $T/w/kalah-m3-k0.sowdb.lock"
echo $$ >&9
"$SOW" db build kalah --pits 3 --max-seeds 6 --dir "$T/w" --quiet 2>"$T/w.err" 9>&- & p=$!
bg+=($p)
for i in $(seq 400); do grep -q waiting "$T/w.err" && break; sleep 0.05; done
kill -INT $p
got=0; wait $p || got=$?
bg=()
[ $got = 130 ] || fail "Ctrl-C while waiting: exit $got: $(cat "$T/w.err")"
grep -q "interrupted while waiting for the build of pid $$" "$T/w.err" || fail "Ctrl-C while waiting: $(cat "$T/w.err")"
exec 9>&-
[ "$(ls "$T/w")" = kalah-m3-k0.sowdb.lock ] || fail "Ctrl-C while waiting wrote: $(ls "$T/w")"

# Ctrl-C during a build: it stops, removes nothing it saved, leaves no
# temporary, says where it stopped, exits 130; the next run resumes.
i="$T/int"
: >"$T/i.err"
"$SOW" db build kalah --pits 5 --max-seeds 18 --dir "$i" --threads 1 2>"$T/i.err" >/dev/null & p=$!
bg+=($p)
for n in $(seq 1000); do grep -q "^seeds 12/18: .*(100%)" "$T/i.err" && break; sleep 0.01; done
kill -INT $p
got=0; wait $p || got=$?
bg=()
[ $got = 130 ] || fail "Ctrl-C during the build: exit $got: $(tail -1 "$T/i.err")"
tail -1 "$T/i.err" | grep -Eq "^sow: db build: interrupted while building seed count (1[3-8]); every seed count saved before it stays in $i: run the same command again to resume$" ||
  fail "Ctrl-C message: $(tail -1 "$T/i.err")"
stopped=$(tail -1 "$T/i.err" | sed -E 's/.*seed count ([0-9]+);.*/\1/')
ls "$i" | grep -q tmp && fail "Ctrl-C left a temporary: $(ls "$i")"
[ -e "$i/kalah-m5-k$((stopped - 1)).sowdb" ] && [ ! -e "$i/kalah-m5-k$stopped.sowdb" ] || fail "Ctrl-C at $stopped: $(ls "$i")"
expect_status 0 "$SOW" db build kalah --pits 5 --max-seeds 18 --dir "$i" --quiet
grep -q "built seed counts $stopped..18 .*, loaded 0..$((stopped - 1))" "$T/out" || fail "resume: $(cat "$T/out")"
expect_status 0 "$SOW" db verify "$i"

# --threads defaults to the cores available.
expect_status 0 "$SOW" db build kalah --pits 2 --max-seeds 3 --dir "$T/th" --quiet
n=$(nproc)
grep -q " positions, $n threads\?)" "$T/out" || fail "default threads (nproc $n): $(cat "$T/out")"
# Progress in a log (not a terminal): no ETA for a build too short to have
# measured a rate (one said "ETA 10 min" for a 0.07 s job), and the seconds
# so far on every line.
"$SOW" db build kalah --pits 4 --max-seeds 8 --dir "$T/eta" 2>"$T/eta.err" >/dev/null ||
  fail "small build: $(cat "$T/eta.err")"
grep -q "ETA" "$T/eta.err" && fail "ETA in a 0.0 s build: $(cat "$T/eta.err")"
grep -q "^seeds 8/8: .*, [0-9.]* s$" "$T/eta.err" || fail "progress lines: $(cat "$T/eta.err")"
echo "ok"
