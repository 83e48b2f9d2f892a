# lib.sh - the helpers the CLI test scripts share. A script sets T (its
# temporary folder) and then sources this file:
#   . "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
# Each helper stops the script with "FAIL: ..." on stderr and status 1.
# shellcheck shell=bash

fail() { echo "FAIL: $*" >&2; exit 1; }

# expect_status N cmd...: runs cmd (stdout in $T/out, stderr in $T/err) and
# checks its exit status; a refusal (2) is one line on stderr.
expect_status() {
  local want=$1; shift
  local got=0
  "$@" >"$T/out" 2>"$T/err" || got=$?
  [ "$got" = "$want" ] || fail "'$*' exited $got, expected $want: $(cat "$T/err")"
  if [ "$want" = 2 ]; then
    [ "$(wc -l <"$T/err")" = 1 ] || fail "'$*' should print one line on stderr: $(cat "$T/err")"
  fi
}

# expect_bad WANT cmd...: refused (status 2, one line on stderr) with WANT
# (a fixed string) in that line.
expect_bad() {
  local want=$1; shift
  expect_status 2 "$@"
  grep -qF -- "$want" "$T/err" || fail "'$*': expected '$want' in: $(cat "$T/err")"
}

json() { # json EXPR: EXPR holds for d, the JSON object in $T/out
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
    "$T/out" "$1" || fail "JSON check '$1' on: $(cat "$T/out")"
}

has() { # has FILE REGEX: $T/FILE has a line matching REGEX
  grep -Eq "$2" "$T/$1" || fail "$1 lacks /$2/: $(cat "$T/$1")"
}

lacks() { # lacks FILE REGEX: no line of $T/FILE matches REGEX
  ! grep -Eq "$2" "$T/$1" || fail "$1 has /$2/: $(cat "$T/$1")"
}
