#!/usr/bin/env bash
# test_mpi_cli.sh SOW - `sow solve --ledger` under mpirun: 1, 2 and 3
# ranks (oversubscribed) give the local solve's value on small boards of
# every game; a worker killed mid-run under --enable-recovery has its unit
# asked again and the solve finishes; killed without it (Open MPI ends the
# job), the same command resumes from the ledger. Killed before its first
# unit, the others go on; stopped past the silence and resumed, its late
# answer is ignored; every worker dead: the bounds so far and exit 1
# (stopped workers: SIGSTOP, SIGCONT). A build without MPI:
# --mpi and a run that looks started by mpirun are refused in one line.
# Skipped (77) when the build has MPI but mpirun is missing.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
mp=""
# TERM: timeout passes it on to mpirun (a KILL would leave mpirun running).
trap '[ -n "$mp" ] && kill "$mp" 2>/dev/null; rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Open MPI refuses root without these (CI containers run as root).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Under scripts/sanitize: Debian's Open MPI leaks its own allocations at
# MPI_Finalize and traces its ranks, which LeakSanitizer cannot run under
# ("Tracer caught signal 11"), so leak checking is off here; ASan's memory
# errors and UBSan are still checked.
[ -n "${ASAN_OPTIONS:-}" ] && export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0"

value() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$T/out"; }

SMALL=(kalah --pits 3 --seeds 2 --quiet)
"$SOW" solve "${SMALL[@]}" --ledger "$T/probe.ledger" --mpi >/dev/null 2>"$T/err" || true
if grep -q 'has no ledger' "$T/err"; then
  echo "mpi cli: this build has no ledger, so no MPI solve"
  exit 77
fi
if grep -q 'has no MPI' "$T/err"; then
  expect_status 2 "$SOW" solve "${SMALL[@]}" --ledger "$T/x.ledger" --mpi
  grep -q 'install openmpi-bin and libopenmpi-dev' "$T/err" || fail "no install hint: $(cat "$T/err")"
  expect_status 2 env OMPI_COMM_WORLD_SIZE=3 "$SOW" solve "${SMALL[@]}" --ledger "$T/x.ledger"
  grep -q 'has no MPI (started by mpirun)' "$T/err" || fail "not refused: $(cat "$T/err")"
  [ ! -e "$T/x.ledger" ] || fail "a refused run wrote a ledger"
  echo "mpi cli: this build has no MPI; the refusals checked"
  exit 0
fi
expect_status 2 "$SOW" solve "${SMALL[@]}" --mpi
grep -q -- '--mpi needs --ledger' "$T/err" || fail "--mpi without --ledger: $(cat "$T/err")"
if ! command -v mpirun >/dev/null; then
  echo "mpi cli: no mpirun (apt-get install openmpi-bin)"
  exit 77
fi
MPIRUN=(mpirun --oversubscribe)

# Same value as the local solve: every game with 3 ranks, Kalah with 1
# and 2 as well.
for b in "kalah --pits 4 --seeds 3" "chungkala --pits 4 --seeds 3" "congkak --pits 4 --seeds 3" \
  "toguz --pits 3 --seeds 3" "kalah --pits 4 --seeds 2 --variant empty-capture"; do
  expect_status 0 "$SOW" solve $b --value-only --json --quiet --threads 1
  want=$(value)
  ranks="3"
  [ "$b" = "kalah --pits 4 --seeds 3" ] && ranks="3 2 1"
  for n in $ranks; do
    rm -f "$T/s.ledger"*
    expect_status 0 "${MPIRUN[@]}" -np $n "$SOW" solve $b --ledger "$T/s.ledger" --frontier 3 \
      --json --quiet --threads 1
    json "d['value'] == $want and d['ranks'] == $n and d['lower'] == d['upper'] and d['units'] >= 1"
    json "d['workers_lost'] == 0 and d['reused'] == 0"
  done
  # The ledger is the manager's: status agrees, nothing left open.
  expect_status 0 "$SOW" ledger status "$T/s.ledger" --json
  json "d['solved'] and d['value'] == $want and d['open'] == 0"
done

# Units past their node budget (1: each that reaches the search's first
# look at its count) split on the workers, 3 ranks of 1 and of 2 threads:
# the same value, the splits in the manager's ledger, and a rerun asks
# nothing.
expect_status 0 "$SOW" solve kalah --pits 3 --seeds 5 --value-only --json --quiet --threads 1
want=$(value)
for th in 1 2; do
  rm -f "$T/sp.ledger"*
  expect_status 0 "${MPIRUN[@]}" -np 3 "$SOW" solve kalah --pits 3 --seeds 5 --no-db \
    --ledger "$T/sp.ledger" --frontier 1 --split-nodes 1 --json --quiet --threads $th
  json "d['value'] == $want and d['splits'] > 0 and d['ranks'] == 3"
  expect_status 0 "$SOW" ledger status "$T/sp.ledger" --json
  json "d['solved'] and d['value'] == $want and d['splits'] > 0 and d['open'] == 0"
  expect_status 0 "${MPIRUN[@]}" -np 3 "$SOW" solve kalah --pits 3 --seeds 5 --no-db \
    --ledger "$T/sp.ledger" --frontier 1 --split-nodes 1 --json --quiet --threads $th
  json "d['value'] == $want and d['units'] == 0 and d['splits'] == 0"
done

# A board with a database loaded from --db DIR by every rank (built once,
# by the manager), 3 ranks of 1 thread: the workers answer the units. The
# size is forced: the plan may find a board this small quicker without one.
BOARD=(kalah --pits 6 --seeds 3)
expect_status 0 "$SOW" solve "${BOARD[@]}" --value-only --json --quiet --threads 1
want=$(value)
rm -f "$T/d.ledger"*
expect_status 0 "${MPIRUN[@]}" -np 3 "$SOW" solve "${BOARD[@]}" --ledger "$T/d.ledger" --db "$T/db" \
  --db-seeds 16 --json --quiet --threads 1
json "d['value'] == $want and d['db'] is not None and d['ranks'] == 3"
expect_status 0 "$SOW" ledger export "$T/d.ledger" --json
json "{u['worker'] for u in d['units'] if u['state'] == 'done'} == {1, 2}"
# Workers of 2 threads: each answers two units at once (src/units/pool.c).
rm -f "$T/d2.ledger"*
expect_status 0 "${MPIRUN[@]}" -np 3 "$SOW" solve "${BOARD[@]}" --ledger "$T/d2.ledger" --db "$T/db" \
  --db-seeds 16 --json --quiet --threads 2
json "d['value'] == $want and d['ranks'] == 3 and d['lower'] == d['upper']"

# rank_pid LEDGER RANK: the pid of that rank of the solve writing LEDGER
# (Open MPI's environment says which rank a process is). The environment
# is read whole before grep: under pipefail, `tr | grep -q` failed
# whenever grep exited at its match before tr's last write (a rank's
# environment is well over a pipe write), and the rank went unfound.
rank_pid() {
  local p env
  for p in $(pgrep -f -- "--ledger $1"); do
    env=$(tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null) || continue
    grep -qx "OMPI_COMM_WORLD_RANK=$2" <<<"$env" && echo "$p"
  done
  return 0
}
# Kalah 4x7: about 4 s on 3 quiet ranks, 40 units (Kalah 6x3, used before,
# came to end in half a second, before the test could find rank 2). Under
# the sanitizers Kalah 4x6, a quarter of the nodes: under ThreadSanitizer
# 4x7 ran past 180 s with one worker killed (two CI runs), and the jobs'
# bound is 300 s there.
KSEEDS=7 BOUND=180
[ -n "${SOW_TEST_SANITIZED:-}" ] && KSEEDS=6 BOUND=300
KILL=(kalah --pits 4 --seeds $KSEEDS --no-db --tt-mb 16 --threads 1 --quiet --frontier 4 --json)
expect_status 0 "$SOW" solve kalah --pits 4 --seeds $KSEEDS --no-db --tt-mb 16 --threads 1 --quiet \
  --value-only --json
want=$(value)
# start_solve LEDGER MPIRUN-OPTS...: the solve of KILL (a few seconds) in
# the background, each rank started by the command $WRAP if set; its
# output in $T/bg.out and .err, mpirun's pid in $mp; returns once the
# ledger holds 3 answers.
start_solve() {
  local L=$1; shift
  rm -f "$L"*
  # Bounded: a job that hangs fails the test instead.
  timeout $BOUND "${MPIRUN[@]}" "$@" -np 3 ${WRAP:+"$WRAP"} "$SOW" solve "${KILL[@]}" --ledger "$L" \
    >"$T/bg.out" 2>"$T/bg.err" &
  mp=$!
  local n=0
  for _ in $(seq 1 600); do
    sleep 0.1
    kill -0 "$mp" 2>/dev/null || fail "the solve finished before 3 answers: $(cat "$T/bg.err")"
    if [ -f "$L" ] && "$SOW" ledger status "$L" --json >"$T/out" 2>/dev/null; then
      n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["done"])' "$T/out")
      [ "$n" -ge 3 ] && return 0
    fi
  done
  fail "no 3 answers in the ledger of $L within 60 s"
}
# start_and_kill LEDGER MPIRUN-OPTS...: start_solve, then kills rank 2.
start_and_kill() {
  start_solve "$@"
  local w
  w=$(rank_pid "$1" 2)
  [ -n "$w" ] || fail "no rank 2 of the solve of $1"
  kill -9 "$w"
}

# Under --enable-recovery the job survives: the dead worker's unit is
# asked again of the other, and the solve ends with the value.
start_and_kill "$T/r.ledger" --enable-recovery
got=0
wait "$mp" || got=$?
mp=""
# On a loaded machine (a CI run beside a big solve, a rerun beside two CPU
# burners) mpirun sometimes never exits. Suspected: Open MPI's teardown with
# a dead rank under --enable-recovery (its PMIx prints BAD-PARAM in every
# run, passing or not). If the solve's answer was printed, what sow promises
# (the value, the lost worker counted) is checked below; a solve that never
# answered still fails here.
if [ "$got" = 124 ] && [ -s "$T/bg.out" ]; then
  echo "note: mpirun --enable-recovery did not exit after the solve ended (Open MPI's teardown)" >&2
  got=0
fi
[ "$got" = 0 ] || fail "mpirun --enable-recovery exited $got after a worker was killed: $(cat "$T/bg.err"); stdout: $(cat "$T/bg.out"); ledger: $("$SOW" ledger status "$T/r.ledger" 2>&1 | head -3)"
grep "^{" "$T/bg.out" | tail -n 1 >"$T/out" # the answer (mpirun may add its own lines)
json "d['value'] == $want and d['workers_lost'] == 1 and d['ranks'] == 3"
expect_status 0 "$SOW" ledger status "$T/r.ledger" --json
json "d['solved'] and d['value'] == $want and d['lost'] >= 1 and d['open'] == 0"

# Without it Open MPI ends the job; the same command resumes from the
# ledger and reuses every answer.
start_and_kill "$T/k.ledger"
got=0
wait "$mp" || got=$?
mp=""
[ "$got" != 0 ] || fail "mpirun exited 0 with a worker killed and no --enable-recovery"
expect_status 0 "$SOW" ledger status "$T/k.ledger" --json
# (The manager may have proven the root in the moment before the job went
# down: then the rerun only reads the ledger. Either way nothing is redone.)
json "d['done'] >= 3"
before=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["done"])' "$T/out")
expect_status 0 "${MPIRUN[@]}" -np 3 "$SOW" solve "${KILL[@]}" --ledger "$T/k.ledger"
json "d['value'] == $want and d['reused'] >= $before and d['workers_lost'] == 0"
# The tests below stop workers (SIGSTOP) past the silence that makes a
# worker dead, set short here (doc/ledger.md); 4 s, not 2: a busy live
# worker between two beats must not pass for dead (one CI run saw it).
export SOW_MPI_SILENCE_SECONDS=4
lost() { "$SOW" ledger status "$1" --json 2>/dev/null |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["lost"])' 2>/dev/null || echo 0; }

# A worker silent past the silence (stopped) is dead and its unit asked
# again; resumed, its late answer is ignored, not an error. The manager is
# held from the moment the worker is found dead until it has answered, so
# the solve is still going when the late answer comes.
L=$T/late.ledger
start_solve "$L"
m=$(rank_pid "$L" 0) w=$(rank_pid "$L" 2)
[ -n "$m" ] && [ -n "$w" ] || fail "no ranks 0 and 2 of the solve of $L"
kill -STOP "$w"
for _ in $(seq 1 1000); do
  [ "$(lost "$L")" -ge 1 ] && break
  sleep 0.02
done
kill -STOP "$m" 2>/dev/null || fail "the solve ended while the worker was stopped: $(cat "$T/bg.err")"
[ "$(lost "$L")" -ge 1 ] || { kill -CONT "$m" "$w"; fail "the stopped worker was never found dead"; }
kill -CONT "$w"
sleep 1
kill -CONT "$m"
got=0
wait "$mp" || got=$?
mp=""
[ "$got" = 0 ] || fail "a late answer from a worker found dead: mpirun exited $got: $(cat "$T/bg.err")"
grep "^{" "$T/bg.out" | tail -n 1 >"$T/out"
json "d['value'] == $want and d['workers_lost'] == 1 and d['ranks'] == 3"

# Every worker dead: rank 0 says so on stderr, prints what is proven
# (interrupted, the bounds so far: a stopped solve) and exits 1 (could not
# finish; the ledger keeps the answers). Workers stopped: mpirun passes the
# status on.
L=$T/dead.ledger
start_solve "$L"
w1=$(rank_pid "$L" 1) w2=$(rank_pid "$L" 2)
kill -STOP $w1 $w2
got=0
wait "$mp" || got=$?
mp=""
kill -9 $w1 $w2 2>/dev/null || true
[ "$got" = 1 ] || fail "every worker stopped: mpirun exited $got, expected 1: $(cat "$T/bg.err")"
grep -q 'every worker is dead' "$T/bg.err" || fail "no word of the dead workers: $(cat "$T/bg.err")"
grep "^{" "$T/bg.out" | tail -n 1 >"$T/out"
json "d['interrupted'] and d['value'] is None and d['lower'] <= $want <= d['upper'] and d['workers_lost'] == 2"
# Workers killed under --enable-recovery: Open MPI 4's mpirun then exits 0
# whatever the ranks return, so rank 0's own status is checked (a wrapper
# writes it) and its report on stdout.
L=$T/dead2.ledger
rm -f "$L"*
cat >"$T/rank.sh" <<'WRAP'
#!/bin/sh
"$@"
echo $? >"$STATUS.$OMPI_COMM_WORLD_RANK"
WRAP
chmod +x "$T/rank.sh"
export STATUS=$T/status
WRAP=$T/rank.sh start_solve "$L" --enable-recovery
kill -9 $(rank_pid "$L" 1) $(rank_pid "$L" 2)
wait "$mp" || true
mp=""
[ -f "$STATUS.0" ] || fail "rank 0 wrote no status: $(cat "$T/bg.err")"
[ "$(cat "$STATUS.0")" = 1 ] || fail "every worker killed: rank 0 exited $(cat "$STATUS.0"), expected 1: $(cat "$T/bg.err")"
grep -q 'every worker is dead' "$T/bg.err" || fail "no word of the dead workers: $(cat "$T/bg.err")"
grep "^{" "$T/bg.out" | tail -n 1 >"$T/out"
json "d['interrupted'] and d['value'] is None and d['workers_lost'] == 2"

# A worker killed before its first unit (here while it waits for the
# manager's database files) under --enable-recovery: the others go on.
# The manager is held while the worker is killed, so the kill comes
# before the worker could say it is ready.
BOARD=(kalah --pits 5 --seeds 3 --threads 1 --quiet --json)
expect_status 0 "$SOW" solve "${BOARD[@]}" --value-only
want5=$(value)
L=$T/early.ledger
rm -rf "$L"* "$T/edb"
# A 20-seed database (about a second to build; under ASan, on a loaded
# machine, 40 s: hence the bound of start_solve): the plan alone may take
# one so small that the workers have their first units at once.
timeout $BOUND "${MPIRUN[@]}" --enable-recovery -np 3 "$SOW" solve "${BOARD[@]}" --ledger "$L" \
  --db "$T/edb" --db-seeds 20 --frontier 3 >"$T/bg.out" 2>"$T/bg.err" &
mp=$!
# First the ledger file: rank 0 writes it past MPI_Init, which every rank
# has then joined (a rank killed inside MPI_Init hangs the job). Then the
# ranks themselves: a CI run under ASan found the file but not rank 2
# when it looked once.
for _ in $(seq 1 3000); do
  [ -f "$L" ] && break
  kill -0 "$mp" 2>/dev/null || break
  sleep 0.02
done
m="" w=""
for _ in $(seq 1 1500); do
  m=$(rank_pid "$L" 0) w=$(rank_pid "$L" 2)
  [ -n "$m" ] && [ -n "$w" ] && break
  kill -0 "$mp" 2>/dev/null || break
  sleep 0.02
done
[ -n "$m" ] && [ -n "$w" ] ||
  fail "no ranks 0 and 2 of the solve of $L (mpirun $(kill -0 "$mp" 2>/dev/null && echo running || echo ended)): $(cat "$T/bg.err")"
kill -STOP "$m"
kill -9 "$w"
kill -CONT "$m"
got=0
wait "$mp" || got=$?
mp=""
if [ "$got" = 124 ] && [ -s "$T/bg.out" ]; then # as above: Open MPI's teardown
  echo "note: mpirun --enable-recovery did not exit after the solve ended (Open MPI's teardown)" >&2
  got=0
fi
[ "$got" = 0 ] || fail "a worker killed before its first unit: mpirun exited $got: $(cat "$T/bg.err")"
grep "^{" "$T/bg.out" | tail -n 1 >"$T/out"
json "d['value'] == $want5 and d['workers_lost'] == 1 and d['ranks'] == 3"

echo "mpi cli: 1-3 ranks agree with the local solve; dead workers replaced; late answers ignored; restart resumes"
