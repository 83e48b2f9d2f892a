#!/usr/bin/env bash
# Checks that every quoted #include in src/ and include/sow/ follows the
# layering of STYLE.md: rules <- search, retro <- db, {search, db} <- plan
# <- {engine, units <- ledger} <- cli, db <- book <- engine, and common
# (shared helpers) under everything. The build's include paths already
# refuse another part's private header by bare name (meson.build); this
# also catches the public headers (every part sees include/) and paths
# such as "../db/file.h" that no include path governs.
#   tests/layering.sh [ROOT]   check the tree at ROOT (default: the repo)
#   tests/layering.sh --self-test   check that a broken tree is refused
# Prints one line per violation and exits 1 if there is any.
set -euo pipefail

# The parts a part may use (besides itself).
declare -A uses=(
  [common]=""
  [rules]="common"
  [search]="common rules"
  [retro]="common rules"
  [db]="common rules retro"
  [plan]="common rules search retro db"
  [book]="common rules retro db"
  [engine]="common rules search retro db plan book"
  [units]="common rules search retro db plan"
  [ledger]="common rules search retro db plan units"
  [cli]="common rules search retro db plan book engine units ledger"
)
# Private headers: the CLI sees only its own and the public ones.
declare -A sees=(
  [common]=""
  [rules]="common"
  [search]="common rules"
  [retro]="common rules"
  [db]="common rules retro"
  [plan]="common"
  [book]="common"
  [engine]="common"
  [units]="common"
  [ledger]="common"
  [cli]="common"
)
# The part each public header belongs to.
declare -A owner=(
  [error.h]=common [progress.h]=common [version.h]=common
  [game.h]=rules [position.h]=rules [rules.h]=rules
  [notation.h]=rules [solution.h]=rules [index.h]=rules
  [search.h]=search [refsolve.h]=search [analyse.h]=search
  [retro.h]=retro [packed.h]=retro
  [db.h]=db
  [store.h]=db
  [plan.h]=plan
  [book.h]=book
  [book_build.h]=engine
  [engine.h]=engine [timeman.h]=engine [sprt.h]=engine
  [units.h]=units [units_mpi.h]=units
  [ledger.h]=ledger
)

has() { # has WORD LIST
  local w
  for w in $2; do [ "$w" = "$1" ] && return 0; done
  return 1
}

check() { # check ROOT
  local root=$1 bad=0 file part inc name q dir found
  while IFS= read -r file; do
    case "$file" in
    include/sow/*)
      name=${file#include/sow/}
      part=${owner[$name]:-}
      if [ -z "$part" ]; then
        echo "$file: public header with no part: add it to tests/layering.sh"
        bad=1
        continue
      fi
      ;;
    src/*/*)
      part=${file#src/}
      part=${part%%/*}
      if [ -z "${uses[$part]+x}" ]; then
        echo "$file: src/$part is not a known part: add it to tests/layering.sh"
        bad=1
        continue
      fi
      ;;
    *) continue ;;
    esac
    while IFS= read -r inc; do
      case "$inc" in
      sow/*)
        name=${inc#sow/}
        q=${owner[$name]:-}
        if [ -z "$q" ]; then
          [ -f "$root/include/$inc" ] || continue # not ours
          echo "$file: includes $inc, a public header with no part"
          bad=1
        elif [ "$q" != "$part" ] && ! has "$q" "${uses[$part]}"; then
          echo "$file: $part may not use $q (includes $inc)"
          bad=1
        fi
        ;;
      */*)
        # A path into another folder: its first real component is the part.
        q=${inc#../}
        q=${q%%/*}
        if [ "$q" != "$part" ] && ! has "$q" "${sees[$part]}"; then
          echo "$file: $part may not see the private headers of $q (includes $inc)"
          bad=1
        fi
        ;;
      *)
        dir=$(dirname "$file")
        [ -f "$root/$dir/$inc" ] && continue
        found=""
        for q in "${!uses[@]}"; do
          [ -f "$root/src/$q/$inc" ] && found="$found $q"
        done
        [ -z "$found" ] && continue # generated or a system header
        local ok=0
        for q in $found; do has "$q" "${sees[$part]}" && ok=1; done
        if [ $ok -eq 0 ]; then
          echo "$file: $part may not see the private headers of$found (includes $inc)"
          bad=1
        fi
        ;;
      esac
    done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$root/$file")
  done < <(cd "$root" && find src include -name '*.[ch]' | sort)
  return $bad
}

self_test() {
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  mkdir -p "$tmp/include/sow" "$tmp/src/rules" "$tmp/src/search" "$tmp/src/db" "$tmp/src/cli"
  printf '#include "sow/rules.h"\n' >"$tmp/include/sow/db.h"
  printf '#include "sow/game.h"\n' >"$tmp/include/sow/rules.h"
  : >"$tmp/include/sow/game.h"
  : >"$tmp/src/rules/rules_inline.h"
  printf '#include "sow/rules.h"\n#include "rules_inline.h"\n' >"$tmp/src/search/search.c"
  printf '#include "sow/db.h"\n#include "cli.h"\n' >"$tmp/src/cli/main.c"
  : >"$tmp/src/cli/cli.h"
  printf '#include "../rules/rules_inline.h"\n' >"$tmp/src/db/db.c"
  if ! out=$(check "$tmp"); then
    echo "self-test: a well-layered tree was refused:"
    echo "$out"
    return 1
  fi
  local cases=(
    'src/search/search.c|#include "sow/db.h"|search may not use db'
    'src/rules/game.c|#include "sow/rules.h"\n#include "sow/search.h"|rules may not use search'
    'include/sow/rules.h|#include "sow/db.h"|rules may not use db'
    'src/cli/main.c|#include "rules_inline.h"|cli may not see the private headers of rules'
    'src/rules/rules.c|#include "../search/search.c"|rules may not see the private headers of search'
    'src/db/db.c|#include "cli/cli.h"|db may not see the private headers of cli'
    'include/sow/new.h||public header with no part'
    'src/bogus/bogus.c||src/bogus is not a known part'
  )
  local c file text want
  for c in "${cases[@]}"; do
    IFS='|' read -r file text want <<<"$c"
    local saved=""
    [ -f "$tmp/$file" ] && saved=$(cat "$tmp/$file")
    mkdir -p "$(dirname "$tmp/$file")"
    printf "$text\n" >"$tmp/$file"
    if out=$(check "$tmp") || ! grep -q "$want" <<<"$out"; then
      echo "self-test: $file with '$text' was not refused with '$want':"
      echo "$out"
      return 1
    fi
    if [ -n "$saved" ]; then printf '%s\n' "$saved" >"$tmp/$file"; else rm -f "$tmp/$file"; fi
    rmdir "$tmp/src/bogus" 2>/dev/null || true
  done
  echo "layering self-test: ${#cases[@]} violations refused"
}

if [ "${1:-}" = "--self-test" ]; then
  self_test
else
  root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
  check "$root"
  echo "layering: every #include follows rules <- search, retro <- db <- plan <- engine <- cli"
fi
