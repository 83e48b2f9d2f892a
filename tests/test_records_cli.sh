#!/usr/bin/env bash
# test_records_cli.sh SOW DATA - game records on the command line: --moves
# in the players' notation, --record FILE (the real games in DATA against
# their published diagrams), sow play --print-record, --json's "record",
# --record-out and its round trip, and bad records: exit status 2, one
# line on stderr naming the move.
set -euo pipefail
SOW=$1
DATA=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

pos() { "$SOW" play "$@" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["position"])'; }

# The issue's example: the record form, numbered, with every mark, and the
# plain list all reach the same position.
want=$(pos toguz --moves 7,9,6,8,1,7,2,7,4,3x)
for r in "76 98 66 87 12 76 25 78 48 36x" "1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36X" \
         "1. 76 98, 2. 66 87, 3. 12 76, 4. 25 78, 5. 48 36х" $'1. 76 98\n2. 66 87\n3. 12 76 4. 25 78 5. 48 36Х'; do
  [ "$(pos toguz --moves "$r")" = "$want" ] || fail "--moves '$r' does not reach $want"
done
"$SOW" play toguz --moves "76 98 66 87 12 76 25 78 48 36x" --print-record >"$T/out"
grep -qx "record: 1. 76 98 2. 66 87 3. 12 76 4. 25 78 5. 48 36x" "$T/out" ||
  fail "--print-record: $(tail -1 "$T/out")"
"$SOW" play kalah --moves "1. 3 1 1... 6" --json >"$T/out"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["record"] != "3,1,6")' "$T/out" ||
  fail "kalah JSON record: $(cat "$T/out")"
"$SOW" play kalah --position 4,4,4,4,4,4/0/4,4,4,4,4,4/0/s --json >"$T/out"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["record"] is not None)' "$T/out" ||
  fail "a --position has no record: $(cat "$T/out")"

# The real games: every move replays, and the position after each
# "# after move K:" line is the bulletin's diagram.
for f in "$DATA"/toguz-*.txt; do
  "$SOW" play toguz --record "$f" --json >/dev/null || fail "$f does not replay"
  grep '^# after move ' "$f" | while read -r _ _ _ k p; do
    k=${k%:}
    moves=$(grep -v '^#' "$f" | tr '\n' ' ' | python3 -c '
import re, sys
k = int(sys.argv[1])
text = sys.stdin.read()
print(text[:re.search(r"(^|\s)%d\.\s" % (k + 1), text).start()] if re.search(r"(^|\s)%d\.\s" % (k + 1), text) else text)' "$k")
    [ "$(pos toguz --moves "$moves")" = "$p" ] || fail "$f after move $k: not $p"
  done
  # --record-out writes the record, which replays to the same position
  "$SOW" play toguz --record "$f" --record-out "$T/again.txt" >/dev/null
  [ "$(pos toguz --record "$T/again.txt")" = "$(pos toguz --record "$f")" ] ||
    fail "$f: --record-out does not round-trip"
  ls "$T" | grep -q '\.tmp\.' && fail "--record-out left a temporary file"
  # the first line of the written record is the players' form
  head -c 20 "$T/again.txt" | grep -q '^1\. 76 98 2\. 66 87' || fail "written: $(head -c 80 "$T/again.txt")"
done
# --record works for every command that takes --moves
"$SOW" perft toguz --record "$DATA/toguz-2022-kabiyev-kaiyrzhanov.txt" --depth 1 --json >/dev/null ||
  fail "perft --record"
# --record-out of a Kalah game is the plain list, which replays
"$SOW" play kalah --moves "3 1 6" --record-out "$T/k.txt" >/dev/null
[ "$(cat "$T/k.txt")" = "3,1,6" ] || fail "kalah record: $(cat "$T/k.txt")"
# an existing file is replaced
"$SOW" play kalah --moves "1" --record-out "$T/k.txt" >/dev/null
[ "$(cat "$T/k.txt")" = "1" ] || fail "kalah record not replaced: $(cat "$T/k.txt")"

# Bad records: the move number, the side and the token are named.
expect_bad "--moves: move 4 (S) '24': the last seed lands in north's pit 5, not 4" \
  "$SOW" play toguz --moves "76 98 66 87 12 76 24 78"
sed 's/^6\. 94 16 7\. 84 82/6. 94 16 7. 84 83/' "$DATA/toguz-2022-kabiyev-kaiyrzhanov.txt" >"$T/bad.txt"
expect_bad "move 7 (N) '83': the last seed lands in south's pit 2, not 3 (line 13)" \
  "$SOW" play toguz --record "$T/bad.txt"
expect_bad "--moves: move 2 (S) '3.': should be '2.'" "$SOW" play toguz --moves "1. 76 98 3. 66 87"
expect_bad "move 1 (N) '1.': should be '1...'" "$SOW" play toguz --moves "1. 76 1. 98"
expect_bad "move 1 (N) '6': illegal: north's pit 6 is empty" "$SOW" play toguz --moves "76 6"
expect_bad "illegal: north cannot claim a tuzdik with it" "$SOW" play toguz --moves "76 98x"
expect_bad "move 1 (S) '76': not a pit number 1..6" "$SOW" play kalah --moves "76"
expect_bad "comes after the end of the game" "$SOW" play kalah --pits 1 --seeds 1 --moves "1 1"
expect_bad "a move number with no move after it" "$SOW" solve toguz --moves "1. 76 98 2."
expect_bad "--record $T/none.txt: No such file or directory" "$SOW" play toguz --record "$T/none.txt"
expect_bad "--record $T: " "$SOW" play toguz --record "$T"
head -c 1100000 /dev/zero | tr '\0' ' ' >"$T/big.txt"
expect_bad "larger than 1048576 bytes" "$SOW" play toguz --record "$T/big.txt"
printf '76\0 98' >"$T/nul.txt"
expect_bad "contains a NUL byte" "$SOW" play toguz --record "$T/nul.txt"
expect_bad "give one of --record, --moves and --position" \
  "$SOW" play toguz --record "$DATA/toguz-2022-kabiyev-kaiyrzhanov.txt" --moves 1
expect_bad "a record starts from the start" \
  "$SOW" play toguz --position 9,9,9,9,9,9,9,9,9/0/9,9,9,9,9,9,9,9,9/0/s --record-out "$T/p.txt"
expect_bad "--record-out $T/no/such/dir/r.txt: No such file or directory" \
  "$SOW" play kalah --moves 1 --record-out "$T/no/such/dir/r.txt"
[ ! -e "$T/p.txt" ] || fail "a refused --record-out wrote a file"
# Every command that reads a record says so in its usage lines.
for c in solve perft analyse play; do
  expect_status 0 "$SOW" $c --help
  sed -n '/^usage/,/^$/p' "$T/out" | grep -q -- '--record FILE' || fail "sow $c --help: no --record FILE in the usage"
done
echo "records cli: ok"
