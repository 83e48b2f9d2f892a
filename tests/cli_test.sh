#!/bin/bash
# cli_test.sh SOW - runs the real `sow` program: play / perft / solve output
# (text and --json, every key of issue 2), --help and --version, and every
# kind of bad input, which must exit with status 2 and exactly one line on
# stderr ("sow: ..."), nothing on stdout and nothing that looks like a crash.
# Prints one line per failure and a final "N passed, M failed"; exits
# non-zero if anything failed.
set -u
SOW=${1:?usage: cli_test.sh PATH-TO-SOW}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

ok() { pass=$((pass + 1)); }
bad() {
    fail=$((fail + 1))
    echo "FAIL: $*"
}

# run CMD...: runs it, stdout -> $TMP/out, stderr -> $TMP/err, status -> $rc
run() {
    "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
}

# expect_ok NAME CMD...: exit 0, something on stdout
expect_ok() {
    local name=$1
    shift
    run "$@"
    if [ "$rc" -ne 0 ]; then
        bad "$name: exit $rc: $(head -c 300 "$TMP/err")"
    elif [ ! -s "$TMP/out" ]; then
        bad "$name: nothing on stdout"
    else
        ok
    fi
}

# expect_grep NAME PATTERN CMD...: exit 0 and stdout contains PATTERN (fixed string)
expect_grep() {
    local name=$1 pat=$2
    shift 2
    run "$@"
    if [ "$rc" -ne 0 ]; then
        bad "$name: exit $rc: $(head -c 300 "$TMP/err")"
    elif ! grep -qF -- "$pat" "$TMP/out"; then
        bad "$name: stdout lacks '$pat': $(head -c 300 "$TMP/out")"
    else
        ok
    fi
}

# expect_json NAME PYTHON-CHECK CMD...: exit 0, stdout is exactly one JSON
# object (one line), and the Python expression over `d` holds (it may also
# assert; its stderr explains).
expect_json() {
    local name=$1 check=$2
    shift 2
    run "$@"
    if [ "$rc" -ne 0 ]; then
        bad "$name: exit $rc: $(head -c 300 "$TMP/err")"
        return
    fi
    if [ "$(wc -l <"$TMP/out")" -ne 1 ]; then
        bad "$name: stdout is not exactly one line"
        return
    fi
    if python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert isinstance(d, dict), "not an object"
ok = eval(sys.argv[2])
if not ok:
    print("check failed on", json.dumps(d)[:400], file=sys.stderr)
    sys.exit(1)
' "$TMP/out" "$check" 2>"$TMP/pyerr"; then
        ok
    else
        bad "$name: $check: $(tail -c 400 "$TMP/pyerr")"
    fi
}

# expect_bad NAME CMD...: exit 2, exactly one line "sow: ..." on stderr,
# nothing on stdout, no crash signature
expect_bad() {
    local name=$1
    shift
    run "$@"
    local lines
    lines=$(wc -l <"$TMP/err")
    if [ "$rc" -ne 2 ]; then
        bad "$name: exit $rc (want 2): $(head -c 300 "$TMP/err")"
    elif [ "$lines" -ne 1 ]; then
        bad "$name: $lines lines on stderr (want 1): $(head -c 300 "$TMP/err")"
    elif ! grep -q '^sow: ' "$TMP/err"; then
        bad "$name: stderr does not start with 'sow: ': $(cat "$TMP/err")"
    elif grep -qiE 'assert|segmentation|core dumped|abort|sanitizer|internal error' "$TMP/err"; then
        bad "$name: looks like a crash: $(cat "$TMP/err")"
    elif [ -s "$TMP/out" ]; then
        bad "$name: something on stdout: $(head -c 200 "$TMP/out")"
    else
        ok
    fi
}

# ---------------------------------------------------------------- version, help
expect_grep "version" "sow " "$SOW" --version
expect_grep "version features" "features: ledger " "$SOW" --version
for cmd in play perft solve; do
    expect_grep "$cmd --help" "usage: sow $cmd" "$SOW" "$cmd" --help
    expect_grep "$cmd -h" "usage: sow $cmd" "$SOW" "$cmd" -h
    expect_grep "$cmd GAME --help" "usage: sow $cmd" "$SOW" "$cmd" kalah --pits 99 --help
done
for cmd in db bench; do
    expect_grep "$cmd --help" "usage: sow $cmd" "$SOW" "$cmd" --help
done
expect_grep "--help" "commands:" "$SOW" --help
expect_grep "help lists play" "play" "$SOW" --help

# ---------------------------------------------------------------- play, text
expect_grep "play text start" "position: 4,4,4,4,4,4/0/4,4,4,4,4,4/0/s" "$SOW" play kalah
expect_grep "play text to move" "south to move" "$SOW" play kalah
expect_grep "play text moves" "position: 0,5,1,6,6,5/1/4,4,4,4,4,4/0/n" "$SOW" play kalah --moves 3,1
expect_grep "play text over" "game over" "$SOW" play chungkala --position 0,0,0,0,0,0/16/1,0,2,0,1,1/15/s
expect_grep "play text toguz" "tuzdik" "$SOW" play toguz --position 0,0,0,1/3/x,0,0,1/0/n

# ---------------------------------------------------------------- play, JSON
KEYS='{"game","pits","seeds","variant","south","north","south_store","north_store","to_move","over","margin","winner","position"}'
expect_json "play json keys" \
    "$KEYS <= set(d) and 'tuzdik' not in d and d['game'] == 'kalah' and d['pits'] == 6 and d['seeds'] == 4 and d['variant'] == []" \
    "$SOW" play kalah --json
expect_json "play json start" \
    "d['south'] == [4]*6 and d['north'] == [4]*6 and d['south_store'] == 0 and d['north_store'] == 0 and d['to_move'] == 'south' and d['over'] is False and d['margin'] is None and d['winner'] is None and d['position'] == '4,4,4,4,4,4/0/4,4,4,4,4,4/0/s'" \
    "$SOW" play kalah --json
# 3: S3 -> S4 S5 S6 store (extra turn); 1: S1 -> S2..S5
expect_json "play json moves" \
    "d['south'] == [0,5,1,6,6,5] and d['north'] == [4]*6 and d['south_store'] == 1 and d['to_move'] == 'north' and d['over'] is False" \
    "$SOW" play kalah --moves 3,1 --json
expect_json "play json legal" \
    "d['legal'] == ['1','2','3','4','5','6'] and d['pie_opening'] is False and d['to_move'] == 'north'" \
    "$SOW" play kalah --moves 3,1 --json
expect_json "play json legal pie" \
    "d['legal'] == ['1','2','4','5','6'] and d['pie_opening'] is True" \
    "$SOW" play kalah --variant pie --moves 3 --json
# rows in each owner's pit order
expect_json "play json rows" \
    "d['south'] == [1,2,3] and d['north'] == [4,5,6] and d['south_store'] == 7 and d['north_store'] == 8 and d['to_move'] == 'north' and d['position'] == '1,2,3/7/4,5,6/8/n'" \
    "$SOW" play kalah --position 1,2,3/7/4,5,6/8/n --json
expect_json "play json variants" \
    "sorted(d['variant']) == ['empty-capture', 'pie'] and d['pits'] == 4 and d['seeds'] == 3" \
    "$SOW" play kalah --pits 4 --seeds 3 --variant pie,empty-capture --json
# A JSON string is valid UTF-8 whatever it echoes: a folder named with a
# byte that is not UTF-8 comes back as U+FFFD (the check reads strictly).
expect_json "json: bytes not in UTF-8 become U+FFFD" \
    "d['store'].endswith('st\ufffd\ufffdx')" \
    "$SOW" db store --store "$TMP/st$(printf '\377\300')x" --json
# the Chungkala seed's end of game: 16 to 15, North's 5 seeds count for nobody
expect_json "play json over (chungkala 16-15)" \
    "d['over'] is True and d['margin'] == 1 and d['winner'] == 'south' and d['south_store'] == 16 and d['north_store'] == 15" \
    "$SOW" play chungkala --position 0,0,0,0,0,0/16/1,0,2,0,1,1/15/s --json
# Chungkala(1,1): S1 -> store, extra turn with an empty row: over, 1 to 0
expect_json "play json replay to the end (chungkala)" \
    "d['over'] is True and d['to_move'] == 'south' and d['south_store'] == 1 and d['margin'] == 1 and d['winner'] == 'south'" \
    "$SOW" play chungkala --pits 1 --seeds 1 --moves 1 --json
expect_json "play json chungkala tie-break" \
    "d['over'] is True and d['margin'] == 0 and d['winner'] == 'north'" \
    "$SOW" play chungkala --position 0,0,0/5/1,0,0/5/s --json
expect_json "play json draw" \
    "d['over'] is True and d['margin'] == 0 and d['winner'] == 'draw'" \
    "$SOW" play kalah --position 0,0,0/4/0,0,0/4/s --json
# Kalah: North's row is empty, South's 3 seeds are swept into her total
expect_json "play json sweep" \
    "d['over'] is True and d['margin'] == 6 and d['winner'] == 'south' and d['to_move'] == 'north'" \
    "$SOW" play kalah --position 0,0,3/5/0,0,0/2/n --json
expect_json "play json no-sweep" \
    "d['over'] is True and d['margin'] == 3 and d['variant'] == ['no-sweep']" \
    "$SOW" play kalah --variant no-sweep --position 0,0,3/5/0,0,0/2/n --json
expect_json "play json end-on-turn" \
    "d['over'] is False and d['margin'] is None and d['winner'] is None" \
    "$SOW" play kalah --variant end-on-turn --position 0,0,3/5/0,0,0/2/s --json
expect_json "play json kalah(1,1)" \
    "d['over'] is True and d['margin'] == 0 and d['winner'] == 'draw'" \
    "$SOW" play kalah --pits 1 --seeds 1 --moves 1 --json
# Why the game ended ("end"): the rule, the empty row, where the seeds went
expect_json "play json end: none in play" \
    "d['end'] is None" "$SOW" play kalah --moves 3,1 --json
expect_json "play json end: chungkala, no seed to sow" \
    "d['end'] == {'rule': 'no move', 'empty': 'south', 'swept': {'south': 0, 'north': 0}, 'left': 5}" \
    "$SOW" play chungkala --position 0,0,0,0,0,0/16/1,0,2,0,1,1/15/s --json
expect_json "play json end: a position given unswept" \
    "d['end'] == {'rule': 'row empty', 'empty': 'north', 'swept': {'south': 3, 'north': 0}, 'left': 0}" \
    "$SOW" play kalah --position 0,0,3/5/0,0,0/2/n --json
# South's row empties on her last move and North's 15 seeds are swept: the
# record is replayed to tell the row that emptied from the swept position
expect_json "play json end: a record, swept" \
    "d['end'] == {'rule': 'row empty', 'empty': 'south', 'swept': {'south': 0, 'north': 15}, 'left': 0} and d['south'] == d['north'] == [0]*4" \
    "$SOW" play kalah --pits 4 --seeds 3 --moves 1,1,2,1,3,1,4 --json
# Toguz: tuzdik key, claim by move list
expect_json "play json toguz keys" \
    "$KEYS <= set(d) and d['tuzdik'] == {'south': None, 'north': None} and len(d['south']) == 9" \
    "$SOW" play toguz --json
expect_json "play json toguz tuzdik" \
    "d['tuzdik'] == {'south': 1, 'north': None} and d['north'] == [0,0,0,1] and d['position'] == '0,0,0,1/3/x,0,0,1/0/n'" \
    "$SOW" play toguz --position 0,0,0,1/3/x,0,0,1/0/n --json
# Toguz(2,2): S2(2) -> S2 N1, N1 holds 3: "2x" claims it
expect_json "play json toguz claim" \
    "d['tuzdik'] == {'south': 1, 'north': None} and d['south_store'] == 3 and d['to_move'] == 'north' and d['position'] == '2,1/3/x,2/0/n'" \
    "$SOW" play toguz --pits 2 --seeds 2 --moves 2x --json
expect_json "play json toguz decline" \
    "d['tuzdik'] == {'south': None, 'north': None} and d['north'] == [3,2]" \
    "$SOW" play toguz --pits 2 --seeds 2 --moves 2 --json
# a 9x9 record with both claims (doc/notation.md's example)
expect_json "play json toguz record with claims" \
    "d['tuzdik'] == {'south': 5, 'north': 4} and d['position'] == '15,13,2,x,3,3,7,6,6/18/9,2,25,12,x,2,7,12,5/15/s' and d['south'][3] == 0 and d['north'][4] == 0" \
    "$SOW" play toguz --moves 2,8,1,8,6,8,2,5,7,2,6,5,3,4,4,5,7,1,5,2,9,9,7,7,9,9,8,5,5,2,6x,2,4,6x --json
expect_json "play json toguz north tuzdik" \
    "d['tuzdik'] == {'south': None, 'north': 2} and d['north_store'] == 3" \
    "$SOW" play toguz --position 2,x,0,0/0/0,0,0,1/3/s --json

# ---------------------------------------------------------------- perft
expect_json "perft json keys" \
    "{'depth','nodes','seconds'} <= set(d) and d['depth'] == 1 and d['nodes'] == 6 and isinstance(d['seconds'], (int, float))" \
    "$SOW" perft kalah --depth 1 --json
expect_json "perft depth 0" "d['nodes'] == 1" "$SOW" perft congkak --depth 0 --json
# Kalah(1,1): S1 -> store, extra turn with an empty row: over
expect_json "perft kalah(1,1) d1" "d['nodes'] == 1" "$SOW" perft kalah --pits 1 --seeds 1 --depth 1 --json
expect_json "perft kalah(1,1) d2" "d['nodes'] == 0" "$SOW" perft kalah --pits 1 --seeds 1 --depth 2 --json
expect_json "perft from a finished position" "d['nodes'] == 0" \
    "$SOW" perft kalah --position 0,0,0/4/0,0,0/4/s --depth 3 --json
expect_json "perft toguz claims" "d['nodes'] == 2" \
    "$SOW" perft toguz --position 0,0,0,2/0/2,0,0,1/0/s --depth 1 --json
expect_json "perft toguz no-tuzdik" "d['nodes'] == 1" \
    "$SOW" perft toguz --variant no-tuzdik --position 0,0,0,2/0/2,0,0,1/0/s --depth 1 --json
expect_json "perft after moves" "d['nodes'] == 6" "$SOW" perft kalah --moves 1 --depth 1 --json
expect_json "perft depth=4 form" "d['depth'] == 4" "$SOW" perft chungkala --depth=4 --json
# 6 x 6, but after S3 (extra turn) South has 5 moves: 5*6 + 5
expect_grep "perft text" "perft(2) = 35" "$SOW" perft kalah --depth 2

# ---------------------------------------------------------------- solve
SOLVE_KEYS="{'value','outcome','best','moves','nodes','seconds'} <= set(d)"
MOVES_OK="all({'move','value','outcome'} <= set(m) for m in d['moves']) and d['best'] in [m['move'] for m in d['moves']] and d['value'] == max(m['value'] for m in d['moves'])"
expect_json "solve json kalah(4,2) ec" \
    "$SOLVE_KEYS and d['value'] == 6 and d['outcome'] == 'win' and len(d['moves']) == 4 and $MOVES_OK" \
    "$SOW" solve kalah --pits 4 --seeds 2 --variant empty-capture --json --quiet
expect_json "solve json kalah(4,2) ec reference" \
    "$SOLVE_KEYS and d['value'] == 6 and d['outcome'] == 'win' and $MOVES_OK" \
    "$SOW" solve kalah --pits 4 --seeds 2 --variant empty-capture --reference --json --quiet
expect_json "solve json kalah(4,1) ec" "d['value'] == 2" \
    "$SOW" solve kalah --pits 4 --seeds 1 --variant empty-capture --json --quiet
expect_json "solve json chungkala tie-break" \
    "$SOLVE_KEYS and d['value'] == 0 and d['outcome'] == 'loss' and d['best'] is None and d['moves'] == []" \
    "$SOW" solve chungkala --position 0,0,0/5/1,0,0/5/s --json --quiet
expect_json "solve json congkak" "$SOLVE_KEYS and $MOVES_OK" \
    "$SOW" solve congkak --pits 3 --seeds 2 --json --quiet
expect_json "solve json toguz" "$SOLVE_KEYS and $MOVES_OK and d['moves'][-1]['move'] == '2x'" \
    "$SOW" solve toguz --pits 2 --seeds 2 --json --quiet
expect_json "solve json from moves" "$SOLVE_KEYS and $MOVES_OK" \
    "$SOW" solve kalah --pits 3 --seeds 3 --moves 1 --json --quiet
expect_grep "solve text" "value" "$SOW" solve kalah --pits 3 --seeds 2 --quiet

# the default solver and --reference agree (value, outcome, every move)
same_solve() {
    local name="solve = reference: $*"
    "$SOW" solve "$@" --json --quiet >"$TMP/a" 2>/dev/null
    local ra=$?
    "$SOW" solve "$@" --reference --json --quiet >"$TMP/b" 2>/dev/null
    local rb=$?
    if [ "$ra" -ne 0 ] || [ "$rb" -ne 0 ]; then
        bad "$name: exit $ra / $rb"
    elif python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
key = lambda d: (d["value"], d["outcome"], [(m["move"], m["value"], m["outcome"]) for m in d["moves"]])
sys.exit(0 if key(a) == key(b) else 1)
' "$TMP/a" "$TMP/b"; then
        ok
    else
        bad "$name: $(head -c 300 "$TMP/a") vs $(head -c 300 "$TMP/b")"
    fi
}
same_solve kalah --pits 3 --seeds 2 --variant pie
same_solve kalah --pits 3 --seeds 3 --variant pie,empty-capture --moves 1
same_solve kalah --pits 3 --seeds 3 --variant end-on-turn,no-sweep
same_solve chungkala --pits 4 --seeds 2
same_solve congkak --pits 3 --seeds 3
same_solve toguz --pits 2 --seeds 3
same_solve toguz --position 1,0/5/1,0/3/s

# ---------------------------------------------------------------- bad input
expect_bad "unknown command" "$SOW" frobnicate
expect_bad "unknown game" "$SOW" play oware
expect_bad "unknown game (case)" "$SOW" perft Kalah --depth 1
expect_bad "missing game" "$SOW" play
expect_bad "missing game (solve)" "$SOW" solve --pits 3
expect_bad "extra argument" "$SOW" play kalah toguz
expect_bad "unknown variant" "$SOW" play kalah --variant foo
expect_bad "unknown variant in list" "$SOW" play kalah --variant pie,foo
expect_bad "variant list trailing comma" "$SOW" play kalah --variant pie,
expect_bad "variant of toguz on kalah" "$SOW" play kalah --variant no-tuzdik
expect_bad "variant of kalah on toguz" "$SOW" play toguz --variant pie
expect_bad "variant of kalah on chungkala" "$SOW" solve chungkala --variant empty-capture
expect_bad "variant of kalah on congkak" "$SOW" perft congkak --variant end-on-turn --depth 1
expect_bad "pits 0" "$SOW" play kalah --pits 0
expect_bad "pits 10" "$SOW" play kalah --pits 10
expect_bad "pits -1" "$SOW" play kalah --pits -1
expect_bad "pits toguz 1" "$SOW" play toguz --pits 1
expect_bad "pits not a number" "$SOW" play kalah --pits six
expect_bad "pits empty" "$SOW" play kalah --pits ""
expect_bad "pits junk" "$SOW" play kalah --pits 4x
expect_bad "pits huge" "$SOW" play kalah --pits 99999999999999999999
expect_bad "pits with a leading blank" "$SOW" play kalah --pits " 4"
expect_bad "pits with a plus sign" "$SOW" play kalah --pits +4
expect_bad "pits '-'" "$SOW" play kalah --pits -
expect_bad "pits -0" "$SOW" play kalah --pits -0
expect_bad "seeds 0" "$SOW" play kalah --seeds 0
expect_bad "seeds too many" "$SOW" play kalah --pits 9 --seeds 15
expect_bad "seeds too many (m=1)" "$SOW" play congkak --pits 1 --seeds 128
expect_bad "seeds not a number" "$SOW" play kalah --seeds 4.5
expect_bad "illegal move: empty pit" "$SOW" play kalah --moves 3,3
expect_bad "illegal move: north's empty pit" "$SOW" play kalah --moves 1,3,3
expect_bad "move after the end" "$SOW" play kalah --pits 1 --seeds 1 --moves 1,1
expect_bad "move after the end (chungkala)" "$SOW" play chungkala --pits 1 --seeds 1 --moves 1,1
expect_bad "move out of range" "$SOW" play kalah --moves 7
expect_bad "move 0" "$SOW" play kalah --moves 0
expect_bad "malformed list: empty item" "$SOW" play kalah --moves 1,,2
expect_bad "malformed list: trailing comma" "$SOW" play kalah --moves 1,
expect_bad "malformed list: letters" "$SOW" play kalah --moves a
expect_bad "malformed list: two commas" "$SOW" play kalah --moves "1, ,2"
expect_bad "claim outside toguz" "$SOW" play kalah --moves 1x
expect_bad "claim with no-tuzdik" "$SOW" play toguz --variant no-tuzdik --moves 1x
expect_bad "claim that is not allowed" "$SOW" play toguz --moves 1x
expect_bad "malformed position: short" "$SOW" play kalah --position 1,2,3
expect_bad "malformed position: side" "$SOW" play kalah --position 4,4,4,4,4,4/0/4,4,4,4,4,4/0/w
expect_bad "malformed position: junk" "$SOW" play kalah --position 4,4,4,4,4,4/0/4,4,4,4,4,4/0/s/
expect_bad "malformed position: pits vs --pits" "$SOW" play kalah --pits 4 --position 4,4,4,4,4,4/0/4,4,4,4,4,4/0/s
expect_bad "malformed position: rows differ" "$SOW" play kalah --position 4,4,4/0/4,4,4,4/0/s
expect_bad "malformed position: over 255" "$SOW" play kalah --position 200,0/0/0,0/56/s
expect_bad "malformed position: count over 255" "$SOW" play kalah --position 256,0/0/0,0/0/s
expect_bad "malformed position: x outside toguz" "$SOW" play kalah --position x,1/0/1,1/0/s
expect_bad "malformed position: tuzdik on pit m" "$SOW" play toguz --position 1,x/0/1,1/0/s
expect_bad "malformed position: mirror tuzdiks" "$SOW" play toguz --position 0,x,1/0/1,x,1/0/s
expect_bad "malformed position: empty" "$SOW" play kalah --position ""
expect_bad "moves and position" "$SOW" play kalah --moves 1 --position 4,4,4,4,4,4/0/4,4,4,4,4,4/0/s
expect_bad "negative depth" "$SOW" perft kalah --depth -1
expect_bad "missing depth" "$SOW" perft kalah
expect_bad "depth not a number" "$SOW" perft kalah --depth deep
expect_bad "depth too large" "$SOW" perft kalah --depth 65
expect_bad "unknown option" "$SOW" play kalah --frobnicate
expect_bad "unknown short option" "$SOW" perft kalah -x --depth 1
expect_bad "unknown option (solve)" "$SOW" solve kalah --pits 3 --seeds 1 --fast
expect_bad "missing option value" "$SOW" play kalah --pits
expect_bad "missing option value (depth)" "$SOW" perft kalah --depth
expect_bad "missing option value (moves)" "$SOW" play kalah --moves
expect_bad "flag with a value" "$SOW" play kalah --json=yes
expect_bad "depth option on play" "$SOW" play kalah --depth 3
expect_bad "solve memory 0" "$SOW" solve kalah --pits 3 --seeds 1 --memory 0

expect_bad "position pits cannot be inferred (toguz m=1)" "$SOW" play toguz --position 1/0/1/0/s
expect_bad "position with 10 pits" "$SOW" play kalah --position 1,1,1,1,1,1,1,1,1,1/0/1,1,1,1,1,1,1,1,1,1/0/s
expect_bad "negative number as argument" "$SOW" play kalah -5
expect_bad "bare --" "$SOW" play kalah --
expect_bad "toguz seeds over 255 in all" "$SOW" play toguz --seeds 15
expect_bad "move list past the pits" "$SOW" perft kalah --depth 1 --moves 1,2,3,4,5,6,7
expect_bad "solve threads 0" "$SOW" solve kalah --pits 2 --seeds 1 --threads 0

# ---------------------------------------------------------------- sizes and threads
# --memory: MB, or K/M/G/T (binary, any case, optional B/iB). Solve's table
# is capped at a quarter of the budget, so tt_mb shows what was parsed:
# 8 MB -> 2, 40 MB -> 10; 1 GB leaves the board's own 16.
for spec in "8:2" "8M:2" "8m:2" "8MB:2" "8mib:2" "8192K:2" "8192kB:2" "40:10" "1G:16" "1gb:16" "1GiB:16"; do
    expect_json "memory ${spec%%:*}" "d['tt_mb'] == ${spec##*:}" \
        "$SOW" solve kalah --pits 2 --seeds 1 --no-db --json --quiet --memory "${spec%%:*}"
done
expect_json "memory=1T" "d['tt_mb'] == 16" \
    "$SOW" solve kalah --pits 2 --seeds 1 --no-db --json --quiet --memory=1T
expect_json "threads 2" "d['threads'] == 2" \
    "$SOW" solve kalah --pits 2 --seeds 1 --json --quiet --threads 2
expect_ok "db build --memory 64M" \
    "$SOW" db build kalah --pits 2 --max-seeds 3 --memory 64M --quiet --dir "$TMP/mdb"
for v in 0 0K -1 "" 1.5G 4X 4GBB 4Gi 4iB "4 G" " 4" +4 G 0x10 99999999999999999999 1025T 2000000000G; do
    expect_bad "memory '$v'" "$SOW" solve kalah --pits 2 --seeds 1 --quiet --memory "$v"
done
expect_bad "memory below 1 MB (solve)" "$SOW" solve kalah --pits 2 --seeds 1 --quiet --memory 512K
expect_bad "db build memory 0.5" "$SOW" db build kalah --pits 2 --max-seeds 3 --memory 0.5 --dir "$TMP/mdb"
run "$SOW" solve kalah --pits 2 --seeds 1 --memory 4Q
grep -qF "sow: --memory: expected a size such as 512 (MB), 512M or 4G, got '4Q'" "$TMP/err" &&
    ok || bad "memory message: $(cat "$TMP/err")"
for v in 0 -1 1025 "" 2x 1e3 " 2" +2 99999999999999999999; do
    expect_bad "threads '$v' (solve)" "$SOW" solve kalah --pits 2 --seeds 1 --quiet --threads "$v"
    expect_bad "threads '$v' (db build)" "$SOW" db build kalah --pits 2 --max-seeds 3 --threads "$v" --dir "$TMP/mdb"
done
run "$SOW" solve kalah --pits 2 --seeds 1 --threads 1025
grep -qF "sow: --threads: 1025 is out of range (1..1024)" "$TMP/err" && ok || bad "threads message: $(cat "$TMP/err")"

# ---------------------------------------------------------------- one reading of the limits
# (src/cli/limits.c) Seconds: a positive decimal number, in every command.
for v in 0 -1 +1 " 1" "1 " "" abc inf nan 0x10 1e999 1000001 1,5; do
    expect_bad "time '$v' (analyse)" "$SOW" analyse kalah --pits 2 --seeds 1 --time "$v"
    expect_bad "time '$v' (play)" "$SOW" play kalah --interactive --time "$v"
    expect_bad "time '$v' (match)" "$SOW" match kalah --pits 2 --seeds 1 --a "time=$v" --b depth=1
done
expect_json "time 1e-1" "d['depth'] >= 1" \
    "$SOW" analyse kalah --pits 2 --seeds 1 --time 1e-1 --threads 1 --json
run "$SOW" analyse kalah --time inf
grep -qF "sow: --time: expected seconds, a decimal number above 0 and at most 1000000, got 'inf'" \
    "$TMP/err" && ok || bad "seconds message: $(cat "$TMP/err")"
# --memory means the same budget everywhere, with one default; analyse's
# table is --tt-mb (128 MB without a time limit, at most a quarter of
# --memory; with one, 16 MB for each 5 seconds of its threads' time, a
# power of two up to 128 MB).
expect_json "analyse table default" "d['tt_mb'] == 128" \
    "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --threads 1 --json
for spec in "1:1:16" "5:1:16" "5:2:32" "6:1:32" "10:2:64" "20:1:64" "21:1:128" "600:4:128"; do
    IFS=: read -r secs thr mb <<<"$spec"
    expect_json "analyse table for --time $secs, $thr threads" "d['tt_mb'] == $mb" \
        "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --time "$secs" --threads "$thr" --json
done
expect_json "analyse table by time within --memory" "d['tt_mb'] == 16" \
    "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --time 100 --threads 1 --memory 64M --json
expect_json "analyse table within --memory" "d['tt_mb'] == 16" \
    "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --threads 1 --memory 64M --json
expect_json "analyse --tt-mb" "d['tt_mb'] == 8" \
    "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --threads 1 --memory 64M --tt-mb 8 --json
expect_bad "analyse --tt-mb over --memory" "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --memory 8 --tt-mb 9
expect_bad "memory below 1 MB (analyse)" "$SOW" analyse kalah --pits 2 --seeds 1 --depth 1 --memory 512K
expect_bad "memory below 1 MB (db build)" "$SOW" db build kalah --pits 2 --max-seeds 3 --memory 512K --dir "$TMP/mdb"
helps="solve analyse db_build"
# A build without libmicrohttpd has no serve to ask (serve_off.c refuses it).
"$SOW" --version | grep -q "serve on" && helps="$helps serve"
for cmd in $helps; do
    cmd=${cmd/_/ }
    # shellcheck disable=SC2086
    run "$SOW" $cmd --help
    grep -qF "(default: 4096 MB, or a quarter of the machine's" "$TMP/out" &&
        ok || bad "$cmd --help: no --memory default"
done
# --no-db with --db or --db-seeds K: one check (the plan's), one message.
for cmd in "solve kalah --pits 2 --seeds 1 --quiet" "analyse kalah --pits 2 --seeds 1 --depth 1" \
    "units probe kalah --pits 2 --seeds 1 --lines -"; do
    for extra in "--db $TMP/nodb" "--db-seeds 2"; do
        # shellcheck disable=SC2086
        expect_bad "$cmd --no-db $extra" "$SOW" $cmd --no-db $extra </dev/null
        grep -qF "sow: ${cmd%% *}: --no-db excludes --db and --db-seeds" "$TMP/err" &&
            ok || bad "$cmd --no-db $extra: $(cat "$TMP/err")"
    done
done
[ ! -e "$TMP/nodb" ] && ok || bad "--no-db --db created the folder"
if "$SOW" --version | grep -q "serve on"; then
    expect_bad "serve --queue 0" "$SOW" serve --queue 0
    expect_bad "serve --time 1e999" "$SOW" serve --time 1e999
    expect_bad "serve: under 1 MB a solve" "$SOW" serve --memory 1 --max-solves 2
    expect_bad "serve --per-client 0" "$SOW" serve --per-client 0
    expect_bad "serve --send-time 0" "$SOW" serve --send-time 0
fi

# ---------------------------------------------------------------- one line, whatever the input
# Echoed arguments have their control characters escaped, so an error is
# always one line (expect_bad checks the line count).
expect_bad "newline in --pits" "$SOW" play kalah --pits $'4\n'
grep -qF "'4\\n'" "$TMP/err" && ok || bad "newline escape: $(cat "$TMP/err")"
# (blanks, CR included, separate the moves of a record: a control
# character that is not a blank stays in the move the message echoes)
expect_bad "control character in --moves" "$SOW" play kalah --moves $'1\x012'
grep -qF "'1\\x012'" "$TMP/err" && ok || bad "control escape in --moves: $(cat "$TMP/err")"
expect_bad "tab and controls in a game name" "$SOW" play $'ka\tl\x01ah\x7f\x1b'
grep -qF "'ka\\tl\\x01ah\\x7f\\x1b'" "$TMP/err" && ok || bad "control escape: $(cat "$TMP/err")"
expect_bad "newlines in an unknown option" "$SOW" perft kalah $'--de\npth' 3
expect_bad "newline in an unknown command" "$SOW" $'\nplay\n'
expect_bad "newline in a position" "$SOW" play kalah --position $'4,4,4,4,4,4/0/4,4,4,4,4,4/0/s\n'
expect_bad "newline in a memory size" "$SOW" solve kalah --pits 2 --seeds 1 --memory $'4\nG'
# UTF-8 passes through as typed
expect_bad "non-ASCII game name" "$SOW" play "kalaḥ"
grep -qF "'kalaḥ'" "$TMP/err" && ok || bad "UTF-8 echo: $(cat "$TMP/err")"
# a message longer than cli_fail's first buffer still comes out whole
long=$(printf '1%.0s' $(seq 2000))
expect_bad "long argument" "$SOW" play kalah --pits "$long"
grep -qF "'$long'" "$TMP/err" && ok || bad "long message truncated: $(wc -c <"$TMP/err") bytes"

# ---------------------------------------------------------------- bench position files
printf '# a comment\n\nkalah 2 1 - 3 2 start\ntoguz 2 2 no-tuzdik 2 1 moves=1,2\n' >"$TMP/pos.txt"
expect_json "bench small file" "len(d['positions']) == 2 and d['signature'] > 0" \
    "$SOW" bench --quick --json --positions "$TMP/pos.txt"
# A label is the file's text: a record comment may hold any byte but a
# blank, and the JSON must still parse and give it back.
printf 'kalah 2 1 - 3 2 moves=1#"q\\\x01\n' >"$TMP/label.txt"
expect_json "bench label escaped" \
    "d['positions'][0]['position'] == 'kalah 2x1 moves=1#\"q\\\\\\x01'" \
    "$SOW" bench --quick --json --positions "$TMP/label.txt"
expect_bad "bench positions: a directory" "$SOW" bench --quick --positions "$TMP"
: >"$TMP/empty.txt"
expect_bad "bench positions: empty file" "$SOW" bench --quick --positions "$TMP/empty.txt"
expect_bad "bench positions: missing file" "$SOW" bench --quick --positions "$TMP/nonexistent"
for line in 'kalah 2 1 - 99999999999 2 start' 'kalah 2 1 - -1 2 start' 'kalah 2 1 - 3 2 start extra' \
    'kalah 2 1 - 3' 'kalah two 1 - 3 2 start' "kalah 2 1 - 3 2 moves=$(printf '1,%.0s' $(seq 300))1" \
    'kalah 2 1 - 3 2 moves=9' 'oware 2 1 - 3 2 start'; do
    printf '%s\n' "$line" >"$TMP/bad.txt"
    expect_bad "bench positions: '${line:0:40}'" "$SOW" bench --quick --positions "$TMP/bad.txt"
done

expect_bad "no command at all" "$SOW"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
