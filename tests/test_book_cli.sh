#!/usr/bin/env bash
# test_book_cli.sh SOW - `sow book` end to end: a book built into the
# store, its info and probes (checked against `sow solve`), --count,
# --resume, --max-time honoured (the book so far kept), damaged, truncated
# and foreign files refused (exit 2, one line), bad input, `sow engine`
# answering from the book it finds in the store, and balanced openings.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export SOW_DB=$T/store
G=(kalah --pits 4 --seeds 3)
BOOK=$SOW_DB/kalah-m4/kalah-m4-n3.sowbook

# --count: 1, 4, 15 and 50 positions at plies 0..3 (tests/test_book.c
# checks such a count against a walk of every line).
expect_status 0 "$SOW" book build "${G[@]}" --plies 3 --count --json
json 'd["per_ply"] == [1, 4, 15, 50] and d["total"] == 70'

# Two plies, then a third resumed: only the new ply is judged.
expect_status 0 "$SOW" book build "${G[@]}" --plies 2 --json --quiet
json 'd["complete"] and d["positions"] == 20 and d["solved"] == 20 and d["book"].endswith("kalah-m4-n3.sowbook")'
[ -f "$BOOK" ] || fail "no book in the store at $BOOK"
expect_status 0 "$SOW" book build "${G[@]}" --plies 3 --resume --json --quiet
json 'd["complete"] and d["positions"] == 70 and d["solved"] == 50 and [p["solved"] for p in d["per_ply"]] == [0, 0, 0, 50]'
expect_status 0 "$SOW" book info "$BOOK" --json
json 'd["positions"] == 70 and d["exact"] == 70 and d["plies"] == 3 and d["complete"] and d["key"] == "code" and d["version"] == 1'
expect_status 0 "$SOW" book info "$BOOK"
has out "positions: 70 \(70 exact\)"

# Probes against the exact solver: the value, and a best move of that value.
for moves in "" 1 2 3 4 2,1 3,2 1,4 2,4,1 4,1,3; do
  args=()
  [ -n "$moves" ] && args=(--moves "$moves")
  "$SOW" book probe "$BOOK" "${args[@]}" --json >"$T/p.json"
  "$SOW" solve "${G[@]}" "${args[@]}" --json --no-db >"$T/s.json"
  python3 - "$T/p.json" "$T/s.json" <<'PY' || fail "probe and solve differ after '$moves'"
import json, sys
p, s = (json.load(open(f)) for f in sys.argv[1:3])
assert p["found"] and p["exact"], p
assert p["value"] == s["value"] and p["outcome"] == s["outcome"], (p, s)
best = [m for m in s["moves"] if m["move"] == p["best"]]
assert best and best[0]["value"] == s["value"], (p, s)
PY
done
expect_status 0 "$SOW" book probe "$BOOK" --moves 1,2,3,4,1
has out "not in the book"
expect_status 0 "$SOW" book probe "$BOOK" --moves 2
has out "^value: [+-][0-9]+ \((win|loss|draw)\), exact"

# The engine finds the book in the store and answers from it.
printf 'sow\nnewgame kalah pits 4 seeds 3\nposition startpos moves 2\ngo depth 3\nisready\nquit\n' |
  "$SOW" engine --threads 1 >"$T/eng" 2>&1
has eng "^info string book$"
has eng "^info depth 1 .* exact .*pv [1-4]$"
printf 'sow\nnewgame kalah pits 4 seeds 3\nposition startpos moves 1 2 3 4 1\ngo depth 3\nisready\nquit\n' |
  "$SOW" engine --threads 1 >"$T/eng" 2>&1
lacks eng "info string book"
has eng "^bestmove [1-4]$"

# sow match: an in-process side with book=FILE plays its moves.
expect_status 0 "$SOW" match "${G[@]}" --a depth=1,book="$BOOK" --b depth=1 --games 2 --json
json 'd["played"] == 2'
expect_bad "is for kalah 4x3, not kalah 4x4" "$SOW" match kalah --pits 4 --seeds 4 --a depth=1,book="$BOOK" --b depth=1

# Balanced openings from the book: every line a legal move list of the ply
# asked with its value as a comment, |South's margin| within the bound (by
# sow solve, not the book), the most balanced first; the file feeds sow
# match --openings (comments and all).
expect_status 0 "$SOW" book openings "$BOOK" --ply 3 --within 2 --json --out "$T/open.txt"
json 'd["positions"] == 50 and d["missing"] == 0 and d["chosen"] == len(d["openings"]) > 0 and all(abs(o["margin"]) <= 2 and o["exact"] for o in d["openings"])'
[ "$(grep -vc '^#' "$T/open.txt")" = "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["chosen"])' "$T/out")" ] ||
  fail "book openings: the file's lines and the JSON's count differ"
prev=0
while read -r line; do
  moves=${line%%#*}; moves=${moves// /}
  [ "$(tr -cd , <<<"$moves" | wc -c)" = 2 ] || fail "opening '$line' is not 3 plies"
  "$SOW" solve "${G[@]}" --moves "$moves" --json --no-db >"$T/s.json"
  m=$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print(s["value"] if s["pv"][0][0] == "S" else -s["value"])' "$T/s.json")
  [ "${line##*# }" = "$(printf '%+d, exact' "$m")" ] || fail "opening '$line': sow solve says $m"
  [ "${m#-}" -ge "$prev" ] || fail "openings not most balanced first at '$line'"
  prev=${m#-}
done < <(grep -v '^#' "$T/open.txt")
expect_status 0 "$SOW" book openings "$BOOK" --ply 3 --within 0 --max 1
has out "^# sow book openings: kalah 4x3, ply 3, \|South's margin\| <= 0: [01] of 50 positions"
expect_status 0 "$SOW" match "${G[@]}" --openings "$T/open.txt" --a depth=1 --b depth=2 --games 2 --json
json 'd["played"] == 2 and d["results"][0]["opening"] == d["results"][1]["opening"] and d["results"][0]["opening"].count(",") == 2'
# A book under a long path (2.4 KB): the file's header names it in full.
long=$T/long
for _ in $(seq 12); do long=$long/$(printf 'd%.0s' $(seq 200)); done
mkdir -p "$long" && cp "$BOOK" "$long/b.sowbook"
expect_status 0 "$SOW" book openings "$long/b.sowbook" --ply 3 --within 2
grep -qF "# book: $long/b.sowbook (" "$T/out" || fail "openings under a long path: $(head -c 300 "$T/out")"
[ "$(grep -vc '^#' "$T/out")" = "$(grep -vc '^#' "$T/open.txt")" ] || fail "openings under a long path: lines differ"
expect_bad "ply 4: the book reaches 0..3" "$SOW" book openings "$BOOK" --ply 4
expect_bad "--ply K is required" "$SOW" book openings "$BOOK"
expect_bad "--within" "$SOW" book openings "$BOOK" --ply 1 --within -1

# Damaged, truncated, foreign: refused with one line, exit 2.
cp "$BOOK" "$T/bad.sowbook"
python3 - "$T/bad.sowbook" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[100] ^= 4
open(sys.argv[1], "wb").write(bytes(b))
PY
expect_bad "damaged" "$SOW" book info "$T/bad.sowbook"
expect_bad "damaged" "$SOW" book probe "$T/bad.sowbook" --moves 1
head -c 200 "$BOOK" >"$T/short.sowbook"
expect_bad "truncated" "$SOW" book info "$T/short.sowbook"
expect_status 0 "$SOW" db build kalah --pits 2 --max-seeds 2 --dir "$T/dbs" --quiet
cp "$T/dbs/kalah-m2-k2.sowdb" "$T/db.sowbook"
expect_bad "is not a sow book" "$SOW" book info "$T/db.sowbook"
expect_bad "cannot read the book" "$SOW" book info "$T/none.sowbook"
# A book of another board given to --resume.
expect_bad "is for kalah 4x3, not kalah 4x4" "$SOW" book build kalah --pits 4 --seeds 4 --plies 1 --resume --out "$BOOK"
# The engine ignores a damaged book in the store (and says nothing of it).
cp "$T/bad.sowbook" "$BOOK"
printf 'sow\nnewgame kalah pits 4 seeds 3\ngo depth 2\nisready\nquit\n' | "$SOW" engine --threads 1 >"$T/eng" 2>&1
lacks eng "info string book"
has eng "^bestmove [1-4]$"

# Bad input.
expect_bad "--plies K is required" "$SOW" book build "${G[@]}"
expect_bad "--plies" "$SOW" book build "${G[@]}" --plies 65
expect_bad "pie rule" "$SOW" book build kalah --variant pie --plies 1 --out "$T/pie.sowbook"
expect_bad "--time" "$SOW" book build "${G[@]}" --plies 1 --time 0
expect_bad "exact solver cannot take" "$SOW" book build toguz --plies 1 --exact --out "$T/t.sowbook"
expect_bad "unknown subcommand" "$SOW" book frobnicate
expect_bad "expected one FILE" "$SOW" book info
for sub in build probe info openings; do
  expect_status 0 "$SOW" book $sub --help
  has out "^usage: sow book $sub"
done
expect_status 0 "$SOW" book --help

# An analysis book of a board the exact solver refuses: hashed keys,
# estimates with their depth. 0.5 s a position: under ThreadSanitizer the
# first search (its table cleared too) did not finish depth 1 in 0.05 s.
expect_status 0 "$SOW" book build toguz --plies 1 --time 0.5 --out "$T/toguz.sowbook" --json --quiet --threads 1
json 'd["positions"] == 10 and d["complete"]'
expect_status 0 "$SOW" book info "$T/toguz.sowbook" --json
json 'd["key"] == "hash128" and d["positions"] == 10'
expect_status 0 "$SOW" book probe "$T/toguz.sowbook" --moves 1 --json
json 'd["found"] and d["best"] is not None and (d["exact"] or d["depth"] >= 1)'

# --max-time is a hard limit: Kalah(6,4)'s root takes far more than a
# second, so the build stops, keeps what it has (nothing) and says so.
start=$(date +%s)
expect_status 0 "$SOW" book build kalah --plies 1 --max-time 1 --out "$T/k64.sowbook" --json --quiet --threads 1
json 'not d["complete"] and d["positions"] < 7'
[ $(( $(date +%s) - start )) -lt 60 ] || fail "--max-time 1 took $(( $(date +%s) - start )) s"
expect_status 0 "$SOW" book info "$T/k64.sowbook" --json
json 'not d["complete"]'
# scripts/bench-book --quick: the results page's table from a real build.
expect_status 0 python3 "$(dirname "${BASH_SOURCE[0]}")/../scripts/bench-book" --quick --sow "$SOW" --out "$T/res"
has res/book.md "^\| 4 \| 158 \| 158 \| 228 \|"
has res/book.md "^    sow book build kalah --pits 4 --seeds 3 --plies 4 --exact"
echo "book cli: ok"
