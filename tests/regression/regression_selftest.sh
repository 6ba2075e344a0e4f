#!/usr/bin/env bash
# The golden comparer itself: a figure moved beyond its tolerance fails and is named, one within
# it passes, a field that appears or disappears fails, an ignored field never does, and a
# missing reference is bad input (exit 2). Runs two fast cases against edited copies.
set -euo pipefail
wallsim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
reg=tests/regression/regression.py
check() {  # expected-exit-code, then the regression's arguments
  local want=$1; shift
  set +e
  "$reg" --wallsim "$wallsim" --golden "$tmp/golden" --case memory_7b --case net_allreduce "$@" \
    >"$tmp/out" 2>&1
  local code=$?
  set -e
  [ "$code" -eq "$want" ] || { echo "expected exit $want, got $code:"; cat "$tmp/out"; exit 1; }
}
edit() {  # python expression over the dict g of tests/regression/golden/memory_7b.json
  mkdir -p "$tmp/golden"
  cp tests/regression/golden/net_allreduce.json "$tmp/golden/"
  python3 - "$1" "$tmp/golden/memory_7b.json" <<'PY'
import json, sys
g = json.load(open("tests/regression/golden/memory_7b.json"))
exec(sys.argv[1])
json.dump(g, open(sys.argv[2], "w"), indent=0)
PY
}
# A figure of the memory model (not under hw.*, so the default tolerance, rel 1e-9, applies).
key=$(python3 -c 'import json; g=json.load(open("tests/regression/golden/memory_7b.json")); print(next(k for k, v in sorted(g.items()) if not k.startswith("hw.") and k.endswith(".value") and isinstance(v, float) and v > 0))')

edit 'pass'
check 0
edit "g['$key'] *= 1.001"
check 1
grep -q "$key" "$tmp/out" || { echo "the moved field is not named:"; cat "$tmp/out"; exit 1; }
edit "g['$key'] *= 1 + 1e-11"
check 0
edit "del g['$key']"
check 1
grep -q "$key: new field" "$tmp/out" || { cat "$tmp/out"; exit 1; }
edit "g['run.invented.value'] = 1.0"
check 1
grep -q "run.invented.value: gone" "$tmp/out" || { cat "$tmp/out"; exit 1; }
edit "g['meta.wallsim_version'] = '0.0.0'"
check 0
rm "$tmp/golden/memory_7b.json"
check 2
grep -q "memory_7b.json: no reference" "$tmp/out" || { cat "$tmp/out"; exit 1; }
echo "regression comparer ok"
