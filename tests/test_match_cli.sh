#!/usr/bin/env bash
# `sow match` against programs that speak the engine protocol: sow's own
# `sow engine` through pipes, clocks (--tc) and move times, a program that
# plays an illegal move, dies or never answers (it loses), adjudication by
# the store's databases (the margin is the database's exact value), the
# SPRT stopping a match as soon as it decides, the sweep's one-sided bound.
#   tests/test_match_cli.sh SOW
set -euo pipefail
SOW=$(realpath "$1")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export SOW_DB="$T/store"

ENGINE="cmd=$SOW engine --threads 1 --no-db"

# A program against sow's analysis, on a clock and with a move time.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a "$ENGINE" --b depth=2 --tc 2+0.05 --games 2 --json --no-adjudicate
json 'd["played"] == 2 and d["wins"] + d["draws"] + d["losses"] == 2'
json 'all(r["end"] == "rules" for r in d["results"])'
# Each game replays to its margin: the program's moves were legal.
for g in 0 1; do
  moves=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["moves"])' "$T/out" $g)
  cp "$T/out" "$T/match.json"
  expect_status 0 "$SOW" play kalah --pits 4 --seeds 3 --moves "$moves" --json
  json 'd["over"] is True'
  cp "$T/match.json" "$T/out"
done
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a "$ENGINE" --b "$ENGINE" --movetime 0.05 --games 2 --json --no-adjudicate
json 'd["played"] == 2'
# Each side's moves and their wall time: every move after the openings
# is one side's, and no mean exceeds its longest.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a "$ENGINE" --b depth=1 --movetime 0.05 --games 2 --plies 2 --json --no-adjudicate
json 'd["moves"]["a"] + d["moves"]["b"] == sum(len(r["moves"].split(",")) - len(r["opening"].split(",")) for r in d["results"])'
json 'd["moves"]["a"] > 0 and d["moves"]["b"] > 0'
json 'all(0 <= d["move_seconds"][k] <= d["move_seconds_longest"][k] for k in "ab") and d["move_seconds"]["a"] > 0'
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a "$ENGINE" --b depth=1 --movetime 0.05 --games 2 --no-adjudicate
has out '^time a move \(wall, asked to answered\): A [0-9.]+ s mean, longest [0-9.]+ s, [0-9]+ moves; B [0-9.]+ s mean, longest [0-9.]+ s, [0-9]+ moves$'

# --nodes: every move the same node count, for a program (`go nodes N`)
# and in this process alike; with one thread the same games run after
# run, whatever the load. The same engine plays the same moves in either
# place: a program keeps its table from game to game, so a run's first
# game is the one where both start empty, and it is the same line with
# the program as A (South) and with the program as B (North).
# nodes_match A B N GAMES: the games' moves, space-separated.
nodes_match() {
  expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a "$1" --b "$2" --nodes "$3" \
    --games "$4" --json --no-adjudicate
  python3 -c 'import json,sys; print(" ".join(r["moves"] for r in json.load(open(sys.argv[1]))["results"]))' "$T/out"
}
first=$(nodes_match "$ENGINE" nodes=50 3000 4)
second=$(nodes_match "$ENGINE" nodes=50 3000 4)
[ "$first" = "$second" ] || fail "--nodes: two runs played different games: $first / $second"
read -r g1 g2 _ <<<"$first"
swapped=$(nodes_match nodes=50 "$ENGINE" 3000 2)
[ "${swapped%% *}" = "$g1" ] || fail "--nodes: the program and sow's own played differently: $g1 / $swapped"
# A program at fewer nodes plays other moves than at more (the limit reaches it).
few=$(nodes_match "$ENGINE" nodes=50 20 2)
[ "$few" != "$g1 $g2" ] || fail "--nodes 20 played as --nodes 3000: $few"

# Programs that fail lose the game, and the match goes on.
cat >"$T/illegal.sh" <<'SH'
#!/bin/sh
while read -r line; do
  case "$line" in
  sow) echo "id name illegal"; echo sowok ;;
  isready) echo readyok ;;
  go*) echo "bestmove 99" ;;
  quit) exit 0 ;;
  esac
done
SH
cat >"$T/dies.sh" <<'SH'
#!/bin/sh
while read -r line; do
  case "$line" in
  sow) echo sowok ;;
  isready) echo readyok ;;
  go*) exit 3 ;;
  esac
done
SH
cat >"$T/silent.sh" <<'SH'
#!/bin/sh
while read -r line; do
  case "$line" in
  sow) echo sowok ;;
  isready) echo readyok ;;
  esac
done
SH
chmod +x "$T"/*.sh
for bad in illegal dies silent; do
  expect_status 0 "$SOW" match kalah --pits 3 --seeds 2 --a "cmd=$T/$bad.sh" --b depth=1 --movetime 0.1 --games 2 --json --no-adjudicate
  json 'd["losses"] == 2 and d["played"] == 2'
  case $bad in
  illegal) json 'all(r["end"] == "illegal" and "99" in r["note"] for r in d["results"])' ;;
  *) json 'all(r["end"] == "engine failure" for r in d["results"])' ;;
  esac
done
expect_status 0 "$SOW" match kalah --pits 3 --seeds 2 --a "cmd=$T/illegal.sh" --b depth=1 --movetime 0.1 --games 2 --no-adjudicate
has out '^A: 0 wins, 0 draws, 2 losses; score 0.000; Elo A - B < [-+][0-9]+ \(95%, a clean sweep\)$'
has out '^game 1: A played .99., not a legal move$'
# Not a protocol program at all: it loses every game, with the reason.
expect_status 0 "$SOW" match kalah --pits 3 --seeds 2 --a "cmd=true" --b depth=1 --movetime 0.1 --games 2 --json
json 'd["losses"] == 2 and "does not speak the engine protocol" in d["results"][0]["note"]'

# Adjudication: with Kalah(4)'s database to 24 seeds in the store, every
# game of Kalah 4x3 (24 seeds) is decided right after its opening by its
# exact value: the solver's value of the opening position (South's view).
expect_status 0 "$SOW" db build kalah --pits 4 --max-seeds 24 --dir "$SOW_DB"
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=1 --games 4 --plies 2 --json
json 'all(r["end"] == "database" and r["moves"] == r["opening"] for r in d["results"])'
cp "$T/out" "$T/match.json"
for g in 0 1 2 3; do
  read -r opening margin < <(python3 -c 'import json,sys; r = json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]; print(r["opening"], r["margin"])' "$T/match.json" $g)
  expect_status 0 "$SOW" play kalah --pits 4 --seeds 3 --moves "$opening" --json
  south=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["to_move"] == "south")' "$T/out")
  expect_status 0 "$SOW" solve kalah --pits 4 --seeds 3 --moves "$opening" --json --no-db --value-only
  value=$(python3 -c 'import json,sys; v = json.load(open(sys.argv[1]))["value"]; print(v if sys.argv[2] == "True" else -v)' "$T/out" "$south")
  [ "$value" = "$margin" ] || fail "game $((g + 1)) after $opening adjudicated $margin, the solver says $value (South)"
done
# The paired margin: each opening's two games (A South, then North), A's
# margins averaged, from the games' own South margins; an odd last game
# is no pair.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=5 --games 7 --plies 3 --json --no-adjudicate
python3 - "$T/out" <<'PY' || fail "the paired margin is not the pairs' mean: $(cat "$T/out")"
import json, math, sys
d = json.load(open(sys.argv[1]))
r = d["results"]
assert [x["a_side"] for x in r] == ["south", "north"] * 3 + ["south"], r
a = [(r[k]["margin"] - r[k + 1]["margin"]) / 2 for k in range(0, 6, 2)]
m = sum(a) / 3
se = math.sqrt(sum((x - m) ** 2 for x in a) / 2 / 3)
assert d["pairs"] == 3 and abs(d["margin_mean"] - m) < 1e-3 and abs(d["margin_se"] - se) < 1e-3, (a, d)
PY
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=5 --games 2 --plies 3 --no-adjudicate
has out "^pairs: 1 opening played both ways; A's final margin, mean a pair: [+-][0-9]+\.[0-9][0-9] seeds$"
# --no-adjudicate plays them out.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=1 --games 2 --json --no-adjudicate
json 'all(r["end"] == "rules" for r in d["results"])'

# The SPRT: a program far stronger than depth=1 is accepted as a gain long
# before 200 games; a bad test is refused.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=6 --b depth=1 --games 400 --plies 4 --no-adjudicate --sprt elo0=0,elo1=50,alpha=0.05,beta=0.05 --json
json 'd["sprt"]["verdict"] == "H1" and d["played"] < 400 and d["sprt"]["llr"] >= d["sprt"]["upper"]'
# It counts pairs (the pentanomial form): every opening played both ways,
# by A's half-points over its two games, and its LLR is theirs.
json 'sum(d["sprt"]["pentanomial"]) == d["pairs"] >= 40'
python3 - "$T/out" <<'PY' || fail "the SPRT's LLR is not its pairs'"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["sprt"]["pentanomial"]
n = sum(p)
x = sum(c * i / 4 for i, c in enumerate(p)) / n
var = sum(c * (i / 4 - x) ** 2 for i, c in enumerate(p)) / n
s = lambda e: 1 / (1 + 10 ** (-e / 400))
s0, s1 = s(d["sprt"]["elo0"]), s(d["sprt"]["elo1"])
llr = n * (s1 - s0) * (2 * x - s0 - s1) / (2 * var)
sys.exit(abs(llr - d["sprt"]["llr"]) > 1e-3)
PY
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=6 --games 400 --plies 4 --no-adjudicate --sprt elo0=0,elo1=50 --json
json 'd["sprt"]["verdict"] == "H0" and d["played"] < 400'
# After each game one line on stderr: the game's result and the score so
# far (the last line's counts are the match's), with the LLR under --sprt;
# --quiet leaves them out.
n=$(grep -c '^match: game [0-9]*: .*; [0-9]* of 400 played: +[0-9]* =[0-9]* -[0-9]*, Elo .*, LLR .* over [0-9]* pairs$' "$T/err")
json "d['played'] == $n"
tail -1 "$T/err" | grep -q "$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print("%d of 400 played: +%d =%d -%d," % (d["played"], d["wins"], d["draws"], d["losses"]))' "$T/out")" \
  || fail "the last progress line is not the match's score: $(tail -1 "$T/err")"
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=2 --b depth=1 --games 2 --no-adjudicate --quiet
[ ! -s "$T/err" ] || fail "--quiet printed: $(cat "$T/err")"
# Each game's record is saved as soon as it ends: a match killed in its
# tenth game has saved the nine before.
"$SOW" match kalah --pits 4 --seeds 3 --a "$ENGINE" --b "$ENGINE" --movetime 0.2 --games 40 --no-adjudicate --out "$T/killed" >/dev/null 2>"$T/killed.err" &
pid=$!
for _ in $(seq 600); do
  [ "$(grep -c '^match: game' "$T/killed.err" || true)" -ge 2 ] && break
  sleep 0.1
done
kill -9 $pid
wait $pid 2>/dev/null || true
saved=$(find "$T/killed" -name 'game-*.txt' | wc -l)
done_games=$(grep -c '^match: game' "$T/killed.err" || true)
[ "$done_games" -ge 2 ] || fail "no progress lines from the killed match: $(cat "$T/killed.err")"
[ "$saved" -ge "$done_games" ] || fail "the killed match saved $saved records of $done_games games played"
# SIGTERM (as Ctrl-C) stops a match cleanly: no game starts, the games
# under way are dropped, the finished ones are summarised (stopped: true)
# and their records kept, exit status 130.
"$SOW" match kalah --pits 4 --seeds 3 --a "$ENGINE" --b "$ENGINE" --movetime 0.2 --games 40 --jobs 2 --no-adjudicate --json --out "$T/stopped" >"$T/stopped.json" 2>"$T/stopped.err" &
pid=$!
for _ in $(seq 600); do
  [ "$(grep -c '^match: game' "$T/stopped.err" || true)" -ge 2 ] && break
  sleep 0.1
done
kill -TERM $pid
got=0
wait $pid || got=$?
[ "$got" = 130 ] || fail "a match stopped by SIGTERM exited $got, expected 130: $(cat "$T/stopped.err")"
cp "$T/stopped.json" "$T/out"
saved=$(find "$T/stopped" -name 'game-*.txt' | wc -l)
done_games=$(grep -c '^match: game' "$T/stopped.err" || true)
json "d['stopped'] is True and 2 <= d['played'] < 40 and d['played'] == $saved == $done_games"
json "d['played'] == len(d['results']) == d['wins'] + d['draws'] + d['losses']"
expect_bad "--sprt needs elo0 < elo1" "$SOW" match kalah --a depth=1 --b depth=1 --sprt elo0=5,elo1=0
expect_bad "--sprt: unknown key" "$SOW" match kalah --a depth=1 --b depth=1 --sprt elo0=0,elo1=5,gamma=1
expect_bad "is a program: give --tc" "$SOW" match kalah --a "cmd=$SOW engine" --b depth=1
expect_bad "--tc, --movetime and --nodes exclude" "$SOW" match kalah --a depth=1 --b depth=1 --tc 1+0 --movetime 1
expect_bad "--tc, --movetime and --nodes exclude" "$SOW" match kalah --a depth=1 --b depth=1 --nodes 100 --movetime 1
expect_bad "--nodes: 0 is out of range" "$SOW" match kalah --a depth=1 --b depth=1 --nodes 0
expect_bad "--tc (BASE+INC)" "$SOW" match kalah --a depth=1 --b depth=1 --tc x+1
# scripts/match-balanced --quick: an analysis book, its balanced openings,
# a match from them and each opening solved; the page it writes.
expect_status 0 python3 "$(dirname "${BASH_SOURCE[0]}")/../scripts/match-balanced" --quick --sow "$SOW" --out "$T/res"
has res/match-balanced-quick.md "^\| 8 \| \+[0-8] =[0-8] -[0-8] \| "
has res/match-balanced-quick.md "^\*\*Against perfect play:\*\* [0-8] of 8 games \(of the 8 whose opening was solved\)"
has res/match-balanced-quick.md "^    sow book openings BOOK --ply 3 --within 4 "
echo "match: ok"
