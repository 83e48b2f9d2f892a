#!/usr/bin/env bash
# scripts/db-escapes runs and writes what it promises: --quick (three
# families, small levels) into a temporary folder writes an escapes.c that
# compiles against the database's header and a results table with a row a
# family; a wrong argument is refused with exit 2 and one line; its fit
# recovers a known quadratic law exactly, and its share is the largest.
# Not the values: those are the committed run's (results/db-escapes.md).
#   tests/test_db_escapes.sh BUILD/src/cli/sow
set -euo pipefail
sow=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/db-escapes --quick --sow "$sow" --out-c "$tmp/escapes.c" --out-results "$tmp" \
  2>"$tmp/log" || { cat "$tmp/log"; exit 1; }
for id in SOW_KALAH SOW_CHUNGKALA SOW_CONGKAK; do
  grep -q "^    {$id, 0, " "$tmp/escapes.c" || { echo "escapes.c lacks $id"; exit 1; }
done
grep -q "^ \* command: scripts/db-escapes --quick" "$tmp/escapes.c"
grep -q "sow_pack_escapes_fitted_count = 3;" "$tmp/escapes.c"
cc -std=c17 -fsyntax-only -Iinclude -Isrc/db -Isrc/common "$tmp/escapes.c"
grep -q "^| kalah | 4 | standard | " "$tmp/db-escapes.md"
grep -q "^kalah,4,standard," "$tmp/db-escapes.csv"
set +e
scripts/db-escapes --only nosuch --sow "$sow" --out-c "$tmp/x.c" --out-results "$tmp" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" = 2 ] || { echo "db-escapes --only nosuch: exit $rc"; exit 1; }
[ "$(wc -l <"$tmp/err")" = 1 ] || { cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/x.c" ] || { echo "a refused run wrote its table"; exit 1; }

python3 - <<'PY'
import importlib.machinery, importlib.util
loader = importlib.machinery.SourceFileLoader("db_escapes", "scripts/db-escapes")
spec = importlib.util.spec_from_loader("db_escapes", loader)
de = importlib.util.module_from_spec(spec)
loader.exec_module(de)
law = lambda k: 1e-4 + 3e-5 * k * k
n = 10**6
rows = [(k, n, round(law(k) * n)) for k in range(5, 21)]
f = de.fit(rows)
assert f["seeds"] == 20 and abs(f["share"] - law(20)) < 1e-9, f
for k in (21, 25, 33):
    assert abs(de.predict(f, k) - law(k)) < 1e-5, (k, de.predict(f, k), law(k))
# A share that falls: the largest is kept, and the slope is never negative.
rows = [(k, n, round((0.01 - 1e-4 * k) * n)) for k in range(5, 21)]
f = de.fit(rows)
assert abs(f["share"] - 0.0095) < 1e-9 and f["slope"] == 0 and f["curve"] == 0, f
# Levels of fewer than 1000 entries are left out of the fit.
assert de.fit([(3, 999, 500)]) is None
PY
echo ok
