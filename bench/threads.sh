#!/usr/bin/env bash
# Compares thread counts of `sow solve` (ABDADA, doc/search.md) on a few
# boards: the median wall-clock of REPS runs per thread count (the counts
# interleaved, so that a change of the machine's load hits them alike), the
# speed-up over one thread, the median CPU seconds, and a check that every
# run gives the same value and move values.
#
#   bench/threads.sh [BUILD_DIR] [REPS] [THREADS...]
#   e.g. bench/threads.sh build 3 1 2
#
# Prints the table and writes it to results/threads.md (OUT=... to change)
# with the date, machine, load and commit; CSV=FILE also writes the rows as
# CSV (scripts/results plots the speed-up from it), BOARDS_LIST=FILE takes
# the boards from FILE (one a line) instead of the list below. Database files go to DB (default
# /var/tmp/sow-threads-db, about 1.5 GB).
#
# The machine is shared: run it when it is quiet, and read speed-ups from
# medians only.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
REPS=${2:-3}
shift 2 2>/dev/null || true
THREADS=("$@")
[ ${#THREADS[@]} -gt 0 ] || THREADS=(1 2)
SOW="$BUILD/src/cli/sow"
DB=${DB:-/var/tmp/sow-threads-db}
mkdir -p "$DB"

# Boards that take from a fraction of a second to about half a minute on
# one thread. The database is fixed (--db-seeds) so only the search varies;
# its files are kept in $DB (built by the first run that needs them, then
# loaded), so that each run does not rebuild it.
# The first two are a root value alone (every MTD(f) probe searched by all
# threads); the others solve every root move (a move per thread, idle
# threads joining the last ones), the easier case.
BOARDS=(
  "kalah --pits 6 --seeds 4 --value-only --db-seeds 20"
  "kalah --pits 6 --seeds 4 --value-only --db-seeds 24"
  "kalah --pits 6 --seeds 4 --db-seeds 24"
  "kalah --pits 6 --seeds 3 --db-seeds 12"
  "kalah --pits 5 --seeds 4 --variant empty-capture --db-seeds 14"
  "chungkala --pits 5 --seeds 3 --db-seeds 12"
)
if [ -n "${BOARDS_LIST:-}" ]; then mapfile -t BOARDS < "$BOARDS_LIST"; fi

# The capacity check's board (a few seconds).
CAP_BOARD="kalah --pits 6 --seeds 3 --db-seeds 12"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

OUT=${OUT:-results/threads.md}

# What the machine can give: the capacity board on one thread alone, then
# two copies at once, 3 times over (medians). With two free cores the pair
# takes as long as one run; capacity = 2 * alone / pair is the number of
# cores' worth of throughput there was, the ceiling of any 2-thread
# speed-up measured here (two processes share the caches and memory
# bandwidth as two threads do).
elapsed() { python3 -c "import time; print(f'{time.time() - $1:.3f}')"; }
al=() pr=()
for r in 1 2 3; do
  t0=$(date +%s.%N)
  $SOW solve $CAP_BOARD --quiet --json > /dev/null
  al+=("$(elapsed "$t0")")
  t0=$(date +%s.%N)
  $SOW solve $CAP_BOARD --quiet --json > /dev/null &
  $SOW solve $CAP_BOARD --quiet --json > /dev/null
  wait
  pr+=("$(elapsed "$t0")")
done
alone=$(printf "%s\n" "${al[@]}" | median)
pair=$(printf "%s\n" "${pr[@]}" | median)
capacity=$(python3 -c "print(f'{2 * $alone / $pair:.2f}')")
echo "capacity: one run ${alone} s, two at once ${pair} s (wall, whole command, medians of 3): ${capacity} cores" >&2
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
COMMIT="$(git rev-parse --short=12 HEAD)$(git diff --quiet -- src include || echo -dirty)"
rows=()
csv=("board,threads,median_s,speedup,cpu_s,nodes,values")
printf "%-62s %7s %10s %8s %8s %10s %s\n" board threads median_s speedup cpu_s nodes values
for b in "${BOARDS[@]}"; do
  ref=""
  declare -A T=() C=() N=()
  for r in $(seq "$REPS"); do
    for t in "${THREADS[@]}"; do
      out=$($SOW solve $b --db "$DB" --threads "$t" --quiet --json)
      # Search time only (the database build is the same for every count).
      read -r s c nodes < <(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["seconds_search"], d["cpu_search"], d["nodes"])')
      v=$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["value"], [m["value"] for m in d["moves"]])')
      if [ -z "$ref" ]; then ref="$v"; elif [ "$ref" != "$v" ]; then
        echo "MISMATCH on '$b' with $t threads: $v vs $ref" >&2; exit 1; fi
      T[$t]+="$s "
      C[$t]+="$c "
      N[$t]=$nodes
    done
  done
  base=""
  for t in "${THREADS[@]}"; do
    med=$(printf "%s\n" ${T[$t]} | median)
    cpu=$(printf "%s\n" ${C[$t]} | median)
    [ -n "$base" ] || base=$med
    sp=$(python3 -c "print(f'{$base/$med:.2f}' if $med > 0 else '-')")
    printf "%-62s %7d %10.3f %8s %8.2f %10s %s\n" "$b" "$t" "$med" "$sp" "$cpu" "${N[$t]}" "$ref"
    rows+=("| \`sow solve $b\` | $t | $med | $sp | $cpu | ${N[$t]} | $ref |")
    csv+=("sow solve $b,$t,$med,$sp,$cpu,${N[$t]},\"$ref\"")
  done
  unset T C N
done

mkdir -p "$(dirname "$OUT")"
{
  echo "# Thread comparison of \`sow solve\`"
  echo
  echo "Written by \`bench/threads.sh\`; do not edit by hand. Median search seconds"
  echo "(database build excluded) of $REPS runs per thread count, the counts taken in"
  echo "turn; speed-up over the first thread count; median CPU seconds of the"
  echo "search (all threads); nodes of the last run; the value and every root move's"
  echo "value, which must not depend on the thread count (the script fails if they"
  echo "do). Wall-clock on a machine shared with other jobs: a speed-up can only be"
  echo "as good as the idle cores the load left."
  echo
  echo "Capacity check: \`sow solve ${CAP_BOARD}\` alone took ${alone} s (whole command,"
  echo "wall-clock, median of 3); two copies started together took ${pair} s for both, so the"
  echo "machine gave about **${capacity} cores** of"
  echo "throughput during this run: the ceiling for any speed-up below."
  echo
  echo "| command | threads | median s | speed-up | CPU s | nodes | value, move values |"
  echo "|---|--:|--:|--:|--:|--:|---|"
  printf "%s\n" "${rows[@]}"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "- machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores; load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- commit when the script started: $COMMIT; build: $BUILD (make sure it is built from it)"
} > "$OUT"
if [ -n "${CSV:-}" ]; then
  { echo "# capacity: $capacity (one run $alone s, two at once $pair s: $CAP_BOARD)"
    printf "%s\n" "${csv[@]}"; } > "$CSV"
fi
echo "wrote $OUT" >&2
