#!/usr/bin/env bash
# scripts/run (through scripts/setup) builds quietly: ninja's output goes to
# a log, printed only when the build fails. On a stand-in build folder (a
# build.ninja of one step and a `sow` that echoes), so that the test builds
# nothing real and never touches the suite's own build.
# usage: test_scripts_run.sh SOURCE_ROOT
set -euo pipefail
root=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v ninja >/dev/null || { echo "no ninja: skipped"; exit 77; }
B=$T/build
mkdir -p "$B/src/cli"
# "microhttpd" and "mpi.c" in a comment: scripts/setup reconfigures a build
# folder configured before those were installed, not this one.
cat >"$B/build.ninja" <<'NINJA'
# stand-in for a meson build: microhttpd mpi.c
rule touch
  command = echo compiling $out && touch $out
build stamp: touch
NINJA
printf '#!/bin/sh\necho "sow $*"\n' >"$B/src/cli/sow"
chmod +x "$B/src/cli/sow"

# The first run builds (its output in the log only), the second has nothing
# to do: neither says anything on stderr; the command's output is stdout.
for i in 1 2; do
  SOW_BUILD=$B "$root/scripts/run" --version >"$T/out" 2>"$T/err" || fail "run $i: $(cat "$T/err")"
  [ "$(cat "$T/out")" = "sow --version" ] || fail "run $i: stdout $(cat "$T/out")"
  [ ! -s "$T/err" ] || fail "run $i printed on stderr: $(cat "$T/err")"
done
grep -q "no work to do" "$B/ninja.log" || fail "the second run's log: $(cat "$B/ninja.log")"

# A failing build shows its output and stops before the command.
cat >>"$B/build.ninja" <<'NINJA'
rule broken
  command = echo the compiler says no && false
build broken: broken
default broken
NINJA
got=0
SOW_BUILD=$B "$root/scripts/run" --version >"$T/out" 2>"$T/err" || got=$?
[ $got = 1 ] || fail "a failed build: exit $got"
grep -q "the compiler says no" "$T/err" || fail "a failed build: its output not shown: $(cat "$T/err")"
grep -q "^setup: the build failed" "$T/err" || fail "a failed build: $(cat "$T/err")"
[ ! -s "$T/out" ] || fail "the command ran after a failed build"
echo "scripts/run: ok"
