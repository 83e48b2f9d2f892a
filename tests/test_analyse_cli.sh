#!/usr/bin/env bash
# test_analyse_cli.sh SOW - `sow analyse` end to end: a line per depth,
# the --json shape, the --depth/--nodes/--time limits, Ctrl-C, the exact
# label against `sow solve` on small boards of every game, bad input.
set -euo pipefail
SOW=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# A line per completed depth, 1..D, each with its fields, then the summary.
expect_status 0 "$SOW" analyse kalah --depth 5 --threads 1
[ "$(grep -c '^depth ' "$T/out")" = 5 ] || fail "expected 5 depth lines: $(cat "$T/out")"
for d in 1 2 3 4 5; do
  has out "^depth $d score [-+][0-9]+ best [1-6] nodes [0-9]+ nps [0-9]+ time [0-9.]+ pv S[1-6]"
done
has out '^best [1-6] score [-+][0-9]+ depth 5 \(stopped: depth\)$'

# --json: one object, the last depth and every depth kept.
expect_status 0 "$SOW" analyse toguz --depth 4 --threads 1 --json
json 'd["game"] == "toguz" and d["depth"] == 4 and d["exact"] is False'
json '[i["depth"] for i in d["iterations"]] == [1, 2, 3, 4]'
json 'd["pv"][0] == "S" + d["best"] and d["stopped"] == "depth" and d["eval"] == "full"'
json 'all(k in d for k in ["score", "nodes", "nps", "seconds", "lines", "threads", "tt_mb"])'
[ "$(wc -l <"$T/out")" = 1 ] || fail "--json should print one line"

# Toguz 5x2 searches unbounded past depth 40 (twice its seeds); a line of
# that search outgrows the search stack, and deepening goes on
# depth-limited: depth 41 is reached, never "limit exceeded".
expect_status 0 "$SOW" analyse toguz --pits 5 --seeds 2 --depth 41 --threads 1 \
  --db "$T/db" --db-seeds 8 --json
json 'd["depth"] == 41 and d["stopped"] == "depth"'

# --reductions: the game's are one ply on Toguz and on Kalah (the same
# search, node for node, as asking for them; no match has kept deep ones),
# deep ones search fewer nodes, and the JSON says which ran.
reductions_are() { # reductions_are GAME KIND: --reductions game searches as KIND
  for r in game "$2"; do
    expect_status 0 "$SOW" analyse "$1" --depth 9 --threads 1 --no-db --reductions $r --json
    json "d['reductions'] == '$2'"
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["nodes"])' "$T/out" >"$T/$1-$r"
  done
  cmp -s "$T/$1-game" "$T/$1-$2" || fail "$1: --reductions game is not $2"
}
reductions_are toguz one
reductions_are kalah one
expect_status 0 "$SOW" analyse toguz --depth 9 --threads 1 --no-db --reductions deep --json
json "d['reductions'] == 'deep' and d['nodes'] < $(cat "$T/toguz-one")"

# --multipv: the K best moves, best first.
expect_status 0 "$SOW" analyse kalah --depth 4 --threads 1 --multipv 3 --json
json 'len(d["lines"]) == 3 and d["lines"][0]["score"] >= d["lines"][1]["score"] >= d["lines"][2]["score"]'

# --nodes stops the search past the budget with the last depth completed.
expect_status 0 "$SOW" analyse kalah --pits 6 --seeds 6 --nodes 50000 --threads 1 --json
json 'd["stopped"] == "nodes" and d["depth"] >= 1 and d["total_nodes"] < 60000'

# --time: stops within the limit (plus a margin for a loaded machine).
start=$(date +%s.%N)
expect_status 0 "$SOW" analyse congkak --time 0.5 --threads 1 --json
end=$(date +%s.%N)
json 'd["stopped"] == "time" and d["depth"] >= 1'
python3 -c "import sys; sys.exit(0 if $end - $start < 5 else 1)" || fail "--time 0.5 took $(python3 -c "print($end - $start)") s"

# --time bounds the whole command, the database's build included: a build
# the model misjudged stops at its last complete seed count, said in
# db_cut, and its files stay for the next run (it took 8 s here).
start=$(date +%s.%N)
expect_status 0 "$SOW" analyse congkak --time 2 --threads 2 --db "$T/clock" --json
end=$(date +%s.%N)
json 'd["stopped"] == "time" and d["depth"] >= 1 and isinstance(d["db_cut"], bool)'
python3 -c "import sys; sys.exit(0 if $end - $start < 3.5 else 1)" || fail "--time 2 with a database to build took $(python3 -c "print($end - $start)") s"
ls "$T/clock" | grep -q 'congkak-.*-k1\.sowdb' || fail "the levels built in time were not kept"
expect_status 0 "$SOW" analyse congkak --time 0.3 --threads 1 --db-seeds 16 --db "$T/clock2"
has out '^database: the time limit cut its build at [0-9]+ seeds \(of 16 planned\)'

# Ctrl-C: the best so far, exit 130.
"$SOW" analyse toguz --threads 1 --time 100 >"$T/out" 2>"$T/err" &
pid=$!
sleep 1.5
kill -INT "$pid"
got=0
wait "$pid" || got=$?
[ "$got" = 130 ] || fail "analyse exited $got after SIGINT, expected 130: $(cat "$T/err")"
has out '^(best [1-9]x? score [-+][0-9]+ depth [0-9]+ \(stopped: interrupted\)|stopped \(interrupted\) before depth 1 completed: no best move yet)$'

# Exact where sow solve finishes: the same value, labelled exact.
for board in "kalah --pits 4 --seeds 3" "kalah --pits 3 --seeds 3 --variant empty-capture" \
  "chungkala --pits 4 --seeds 3" "congkak --pits 4 --seeds 3" "toguz --pits 3 --seeds 3" \
  "toguz --pits 3 --seeds 2" "kalah --pits 4 --seeds 3 --moves 2,4"; do
  # shellcheck disable=SC2086
  expect_status 0 "$SOW" solve $board --quiet --value-only --threads 1 --json
  want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$T/out")
  # shellcheck disable=SC2086
  expect_status 0 "$SOW" analyse $board --threads 1 --time 60 --json
  json "d['exact'] is True and d['score'] == $want and d['stopped'] == 'exact'"
  # shellcheck disable=SC2086
  expect_status 0 "$SOW" analyse $board --threads 1 --time 60
  has out "^best [0-9]x? score exact [-+]?[0-9]+ depth [0-9]+ \\(stopped: exact\\)$"
done
# A finished game: exact at once.
expect_status 0 "$SOW" analyse kalah --position 0,0,0/5/1,0,0/6/s --json
json 'd["exact"] is True and d["depth"] == 0 and d["score"] == -2 and d["best"] is None'

# The game review. On a small board every value is exact, so each label
# must follow from `sow solve`'s value of each position: a move that makes
# the outcome worse, or loses more than the mistake threshold (default 4
# times the inaccuracy's), is a mistake, one that loses more than the
# threshold otherwise an inaccuracy. South's 1 throws away a win (+6 -> -6).
review_check() { # review_check BOARD MOVES THRESHOLD
  local board=$1 moves=$2 thr=$3 vals="" prefix=""
  IFS=, read -ra mv <<<"$moves"
  for ((i = 0; i <= ${#mv[@]}; i++)); do
    # shellcheck disable=SC2086
    expect_status 0 "$SOW" solve $board ${prefix:+--moves "$prefix"} --quiet --value-only --threads 1 --json
    vals+="$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["value"], {"win": 1, "draw": 0, "loss": -1}[d["outcome"]])' "$T/out") "
    # shellcheck disable=SC2086
    expect_status 0 "$SOW" play $board ${prefix:+--moves "$prefix"} --json
    vals+="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["to_move"])' "$T/out");"
    [ $i -lt ${#mv[@]} ] && prefix="${prefix:+$prefix,}${mv[$i]}"
  done
  # shellcheck disable=SC2086
  expect_status 0 "$SOW" analyse $board --moves "$moves" --review --threshold "$thr" --time 30 --threads 1 --json
  python3 - "$T/out" "$vals" "$thr" <<'PY' || fail "review labels differ from sow solve: $(cat "$T/out")"
import json, sys
d = json.load(open(sys.argv[1]))
vals = [v.split() for v in sys.argv[2].strip(";").split(";")]
thr = int(sys.argv[3])
assert d["threshold"] == thr and d["mistake_threshold"] == 4 * thr, d
assert len(d["moves"]) == len(vals) - 1, "one entry per move"
for k, m in enumerate(d["moves"]):
    (v0, s0, t0), (v1, s1, t1) = vals[k], vals[k + 1]
    before, after = int(v0), int(v1) if t1 == t0 else -int(v1)
    ob, oa = int(s0), int(s1) if t1 == t0 else -int(s1)
    assert m["side"] == t0 and m["before_exact"] and m["after_exact"], m
    assert (m["before"], m["after"], m["loss"]) == (before, after, before - after), (m, before, after)
    loss = before - after
    want = "mistake" if oa < ob or loss > 4 * thr else "inaccuracy" if loss > thr else None
    assert m["depth"] >= 1, m
    assert m["label"] == want, (m, want)
PY
}
review_check "kalah --pits 4 --seeds 3" 1,2,3,4 2
json '[m["label"] for m in d["moves"]] == ["mistake", None, "inaccuracy", "inaccuracy"]'
json 'd["summary"]["south"] == {"moves": 2, "mistakes": 1, "inaccuracies": 1, "average_loss": 10.0}'
review_check "kalah --pits 4 --seeds 3" 1,2,3,4 8
json '[m["label"] for m in d["moves"]] == ["mistake", None, None, None]'
review_check "chungkala --pits 4 --seeds 2" 1,3,2,4,1 1
json '[m["label"] for m in d["moves"]] == ["mistake", None, "inaccuracy", "inaccuracy", "mistake"]'
# The text form: a line per move in the record notation, then a line per side.
expect_status 0 "$SOW" analyse kalah --pits 4 --seeds 3 --moves 1,2,3,4 --review --time 30 --threads 1
has out '^1\. 1  =\+6 -> =-6  depth [0-9]+  \?\? \(best 2, =\+6\)$'
has out '^1\.\.\. 2  =\+6 -> =\+6  depth [0-9]+$'
has out '^south: 2 moves, 1 mistake, 1 inaccuracy, average loss 10\.00 seeds$'
[ "$(wc -l <"$T/out")" = 6 ] || fail "review: 4 moves and 2 summary lines expected: $(cat "$T/out")"
# A Toguz record from a championship, at a small depth: every move once, in
# the players' two-digit notation, numbered as the record numbers them.
rec=$(dirname "$0")/data/toguz-2022-kabiyev-kaiyrzhanov.txt
expect_status 0 "$SOW" analyse toguz --record "$rec" --depth 2 --threads 1 --json
json 'len(d["moves"]) == 44 and d["stopped"] == "done" and d["reviewed"] == 44'
json '[m["move"] for m in d["moves"][:10]] == ["76", "98", "66", "87", "12", "76", "25", "78", "48", "36x"]'
json '[m["number"] for m in d["moves"][:4]] == [1, 1, 2, 2] and d["moves"][1]["side"] == "north"'
json 'all(m["label"] in (None, "mistake", "inaccuracy") for m in d["moves"])'
json 'd["summary"]["south"]["moves"] == 22 and d["summary"]["north"]["moves"] == 22'
# The move played is scored by the search that found the best one: never
# above it, equal to it when it is the best.
json 'all(m["after"] <= m["before"] and m["loss"] == m["before"] - m["after"] for m in d["moves"])'
json 'all(m["after"] == m["before"] for m in d["moves"] if m["move"] == m["best"])'
json 'any(m["move"] != m["best"] and m["after"] < m["before"] for m in d["moves"])'
expect_status 0 "$SOW" analyse toguz --record "$rec" --depth 2 --threads 1
has out '^5\.\.\. 36x  [-+][0-9]+ -> [-+][0-9]+'
[ "$(grep -c '^[0-9]' "$T/out")" = 44 ] || fail "review: 44 move lines expected: $(cat "$T/out")"
expect_status 2 "$SOW" analyse kalah --review
expect_status 2 "$SOW" analyse kalah --moves 1 --threshold 3
expect_status 2 "$SOW" analyse kalah --moves 1 --review --threshold -1
expect_status 2 "$SOW" analyse kalah --moves 1 --review --multipv 2
expect_status 2 "$SOW" analyse kalah --moves 1 --mistake 3
expect_status 2 "$SOW" analyse kalah --moves 1 --review --threshold 3 --mistake 2
# The labels of estimates: with the thresholds at 0 and at 1000 seeds, every
# move that is not the engine's choice and loses a seed is a mistake, then an
# inaccuracy; the defaults on Toguz 9x9 are 4 and 16 seeds. Every line
# prints the depth that both of its scores come from.
expect_status 0 "$SOW" analyse toguz --moves '1. 76 98 2. 66 87' --review --depth 3 --threads 1 --json
json 'd["threshold"] == 4 and d["mistake_threshold"] == 16'
json 'all(m["depth"] == 3 for m in d["moves"])'
json 'all(m["label"] == (None if m["loss"] <= 4 or m["move"] == m["best"] else "inaccuracy" if m["loss"] <= 16 else "mistake") for m in d["moves"])'
expect_status 0 "$SOW" analyse toguz --moves '1. 76 98 2. 66 87' --review --depth 3 --threads 1 --json --threshold 0 --mistake 0
json 'all(m["label"] == (None if m["loss"] <= 0 or m["move"] == m["best"] else "mistake") for m in d["moves"])'
json 'any(m["label"] == "mistake" for m in d["moves"])'
expect_status 0 "$SOW" analyse toguz --moves '1. 76 98 2. 66 87' --review --depth 3 --threads 1 --json --threshold 0 --mistake 1000
json 'all(m["label"] == (None if m["loss"] <= 0 or m["move"] == m["best"] else "inaccuracy") for m in d["moves"])'
expect_status 0 "$SOW" analyse toguz --moves '1. 76 98' --review --depth 3 --threads 1
has out '^1\. 76  [-+][0-9]+ -> [-+][0-9]+  depth 3( |$)'

# The database: a position within it is exact at depth 1 (without one it
# is not), with the value sow solve gives; --db saves the files and loads
# them back.
P=1,0,2,0,1,0/20/0,3,0,1,0,1/19/s
expect_status 0 "$SOW" solve kalah --position "$P" --quiet --value-only --threads 1 --json
want=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["value"])' "$T/out")
expect_status 0 "$SOW" analyse kalah --position "$P" --depth 1 --no-db --threads 1 --json
json 'd["depth"] == 1 and d["exact"] is False and d["db_seeds"] == 0'
expect_status 0 "$SOW" analyse kalah --position "$P" --depth 1 --db-seeds 9 --threads 1 --json
json "d['depth'] == 1 and d['exact'] is True and d['score'] == $want and d['db_seeds'] == 9"
expect_status 0 "$SOW" analyse kalah --position "$P" --depth 1 --db "$T/db" --db-seeds 9 --threads 1 --json
json "d['exact'] is True and d['score'] == $want"
[ -f "$T/db/kalah-m6-k9.sowdb" ] || fail "analyse --db saved no files: $(ls "$T/db")"
expect_status 0 "$SOW" analyse kalah --position "$P" --depth 1 --db "$T/db" --threads 1 --time 1 --json
json "d['exact'] is True and d['score'] == $want and d['db_seeds'] == 9"
# By default a database that builds within a quarter of the time.
expect_status 0 "$SOW" analyse kalah --pits 6 --seeds 4 --time 2 --threads 1 --json
json 'd["db_seeds"] > 0'  # how long it took is a benchmark's question, not a test's
expect_status 2 "$SOW" analyse kalah --no-db --db-seeds 3
expect_status 2 "$SOW" analyse kalah --db-seeds x

# Bad input: one line, exit 2.
expect_status 2 "$SOW" analyse kalah --depth 0
expect_status 2 "$SOW" analyse kalah --depth 251
expect_status 2 "$SOW" analyse kalah --time -1
expect_status 2 "$SOW" analyse kalah --time abc
expect_status 2 "$SOW" analyse kalah --nodes 0
expect_status 2 "$SOW" analyse kalah --multipv 19
expect_status 2 "$SOW" analyse kalah --eval magic
expect_status 2 "$SOW" analyse kalah --reductions two
expect_status 2 "$SOW" analyse kalah --memory 0
expect_status 2 "$SOW" analyse kalah --threads 0
expect_status 2 "$SOW" analyse kalah --variant pie
expect_status 2 "$SOW" analyse chess
expect_status 2 "$SOW" analyse kalah --moves 9
expect_status 0 "$SOW" analyse --help
has out '^usage: sow analyse'

# sow match: the counts add up, colours alternate, the records replay
# (played out: --no-adjudicate, whatever the store holds).
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=4 --b depth=1 --games 4 --out "$T/m" --json --no-adjudicate
json 'd["wins"] + d["draws"] + d["losses"] == 4'
json '(d["elo_low"] if d["elo_low"] is not None else -1e9) <= (d["elo"] if d["elo"] is not None else d["elo_low"] or d["elo_high"]) <= (d["elo_high"] if d["elo_high"] is not None else 1e9)'
json '[r["a_side"] for r in d["results"]] == ["south", "north", "south", "north"]'
json 'd["results"][0]["opening"] == d["results"][1]["opening"]'
[ -f "$T/m/game-004.txt" ] || fail "match --out saved no game-004.txt"
moves=$(tail -1 "$T/m/game-001.txt")
expect_status 0 "$SOW" play kalah --pits 4 --seeds 3 --moves "$moves" --json
json 'd["over"] is True'
margin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["margin"])' "$T/out")
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=4 --b depth=1 --games 4 --json --no-adjudicate
first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["margin"])' "$T/out")
[ "$first" = "$margin" ] || fail "game 1's record replays to margin $margin, match says $first"
expect_status 2 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3,reductions=half --b depth=3
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3,reductions=deep --b depth=3,reductions=one --games 2 --no-adjudicate
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3 --b depth=3,eval=material --games 2 --no-adjudicate
has out '^A: [0-9]+ wins?, [0-9]+ draws?, [0-9]+ loss(es)?; score [0-9.]+; Elo A - B ([-+][0-9]+ \[[-+][0-9]+, [-+][0-9]+\] \(95%\)|[<>] [-+][0-9]+ \(95%, a clean sweep\))$'
# Grammar and a clean sweep: depth 6 beats depth 1 twice on Kalah 4x3 (a
# fixed depth is deterministic). The normal interval of a sweep would be a
# point ("+1200 [+1200, +1200]"); the Wilson interval of a 2-0 score gives
# one bound, n / (n + z^2) = 0.342 -> -113 Elo, and the other side none.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=6 --b depth=1 --games 2 --no-adjudicate
has out '^A: 2 wins, 0 draws, 0 losses; score 1\.000; Elo A - B > -113 \(95%, a clean sweep\)$'
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=6 --games 2 --json --no-adjudicate
json 'd["elo"] is None and d["elo_low"] is None and abs(d["elo_high"] - 113.4) < 0.1 and d["interval"] == "wilson"'
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=6 --b depth=1 --games 20 --jobs 2 --json --no-adjudicate
json 'd["wins"] == 20 and abs(d["elo_low"] - 286.6) < 0.2 and d["elo_high"] is None'
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=1 --b depth=2 --games 2 --plies 1 --no-adjudicate
has out '^A: 1 win, 0 draws, 1 loss; score 0\.500; Elo A - B \+0 \['
# Two draws: no spread either, the Wilson interval around 0.5.
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3 --b depth=2 --games 2 --plies 3 --json --no-adjudicate
json 'd["draws"] == 2 and d["elo"] == 0 and d["interval"] == "wilson" and d["elo_low"] == -d["elo_high"] and 300 < d["elo_high"] < 500'
# A Toguz game is saved in the players' notation ("1. 76 98 2. ..."), and
# replays as a record to the margin the match gives.
expect_status 0 "$SOW" match toguz --a depth=2 --b depth=1 --games 1 --out "$T/mt" --json --no-adjudicate
tmargin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["margin"])' "$T/out")
grep -Eq '^1\. [1-9]{2}x? [1-9]{2}x? 2\. [1-9]{2}' "$T/mt/game-001.txt" || fail "toguz record not in the players' notation: $(cat "$T/mt/game-001.txt")"
expect_status 0 "$SOW" play toguz --record "$T/mt/game-001.txt" --json
json "d[\"over\"] is True and d[\"margin\"] == $tmargin"
# eval=ROW:MOBILITY:EXTRA:CAPTURE:TUZDIK:DECIDED: explicit weights, used as
# given: all zero plays as material, a capture weight plays other moves.
games() { python3 -c 'import json,sys; print(" ".join(r["moves"] for r in json.load(open(sys.argv[1]))["results"]))' "$T/out"; }
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3,eval=material --b depth=3,eval=material --games 8 --plies 3 --json --no-adjudicate
material=$(games)
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3,eval=0:0:0:0:0:0 --b depth=3,eval=material --games 8 --plies 3 --json --no-adjudicate
json 'd["score"] == 0.5 and d["a"] == "depth=3,eval=0:0:0:0:0:0"'
[ "$(games)" = "$material" ] || fail "eval=0:0:0:0:0:0 does not play as eval=material"
expect_status 0 "$SOW" match kalah --pits 4 --seeds 3 --a depth=3,eval=0:0:0:300:0:0 --b depth=3,eval=material --games 8 --plies 3 --json --no-adjudicate
[ "$(games)" != "$material" ] || fail "eval=0:0:0:300:0:0 plays as eval=material"
expect_status 0 "$SOW" analyse kalah --pits 4 --seeds 3 --depth 3 --eval=-5:0:0:10000:0:0
for bad in 1:2:3:4:5 1:2:3:4:5:6:7 1:2:3:4:5:x 1:2:3:4:5:10001 1::3:4:5:6 :1:2:3:4:5 1:2:3:4:5: fast; do
  expect_status 2 "$SOW" match kalah --a depth=3,eval=$bad --b depth=2
  expect_status 2 "$SOW" analyse kalah --depth 3 --eval "$bad"
done
expect_status 2 "$SOW" match kalah --a depth=3
expect_status 2 "$SOW" match kalah --a depth=3 --b eval=full
expect_status 2 "$SOW" match kalah --a depth=3 --b speed=9
expect_status 2 "$SOW" match kalah --a depth=3 --b depth=2 --games 0
expect_status 2 "$SOW" match kalah --a depth=3 --b depth=2 --openings "$T/none"
echo ok
