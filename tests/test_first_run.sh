#!/usr/bin/env bash
# scripts/bench-first-run --smoke writes its table: every command timed
# (a number of seconds and its exit or HTTP status), the interactive
# ones read off `sow play`'s own lines (the computer's move, the hint's
# last line, a whole game driven move by move, the tuzdiks both claimed),
# so that a change to what `sow play` prints cannot leave the script
# timing nothing. Not the figures: those are results/first-run.md's.
# Skipped (77) in a build without `sow serve`.
#   tests/test_first_run.sh BUILD/src/cli/sow
set -euo pipefail
sow=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
# Not `sow serve --help | grep -q` under pipefail: that build's exit 2
# would fail the pipe, and the test with it.
probe=$("$sow" serve --help 2>&1 || true)
if [[ $probe == *"without libmicrohttpd"* ]]; then
  echo "SKIP: sow was built without libmicrohttpd"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
scripts/bench-first-run --smoke --threads 1 --sow "$sow" --out "$tmp" >"$tmp/log" 2>&1 ||
  { cat "$tmp/log"; fail "bench-first-run --smoke"; }
md=$tmp/first-run.md
[ -s "$md" ] && [ -s "$tmp/first-run.csv" ] || fail "no table written"
grep -q "^- command: scripts/bench-first-run --smoke --threads 1" "$md" || fail "header"
rows=$(grep -c '^| sow\|^| the same\|^| a Toguz' "$md")
[ "$rows" -eq 9 ] || { cat "$md"; fail "$rows rows, not 9"; }
# Every row timed: its seconds column is a number (none "no such move").
awk -F' \\| ' '/^\| (sow|the same|a Toguz)/ { if ($4 !~ /^[0-9]+(\.[0-9]+)?$/) bad++ }
  END { exit bad ? 1 : 0 }' "$md" || { cat "$md"; fail "a row without seconds"; }
grep -q "computer's move | 41.5 s | empty | [0-9]" "$md" || fail "the computer's move"
grep -q "hint\` at --time 1 (north to move) | 49.7 s | empty | [0-9]" "$md" || fail "the hint"
# The game: moves counted, and all of them after both tuzdiks were claimed.
n_all=$(sed -n 's/.*every computer move (\([0-9]*\) moves.*/\1/p' "$md")
n_both=$(sed -n 's/.*both tuzdiks were claimed (\([0-9]*\) moves.*/\1/p' "$md")
[ -n "$n_all" ] && [ "$n_all" -gt 5 ] || fail "the game's moves: '$n_all'"
[ "$n_both" = "$n_all" ] || fail "moves after both claims: $n_both of $n_all"
grep -q "GET /api/solve?game=toguz&pits=5&seeds=2&time=0.05 | 16.4 s | empty | [0-9.]* | 200 |" \
  "$md" || fail "the server's request"
grep -q "sow solve congkak --value-only --threads 2 (run 1 of 1) | .* | empty | [0-9.]* | 0 |" \
  "$md" || fail "congkak's value"
# A wrong argument: exit 2.
set +e
scripts/bench-first-run --nonsense >/dev/null 2>&1
[ $? -eq 2 ] || fail "a wrong argument is not exit 2"
echo "ok"
