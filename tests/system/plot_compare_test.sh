#!/usr/bin/env bash
# The import -> run -> compare -> plot path on the checked-in example profile, and the
# example's provenance: tools/make_kineto_trace.py regenerates it byte for byte.
set -euo pipefail
wallsim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools/make_kineto_trace.py --layers 1 -o "$tmp/gpt_layer.json"
cmp -s "$tmp/gpt_layer.json" traces/examples/pytorch/gpt_layer.json ||
  { echo "traces/examples/pytorch/gpt_layer.json differs from what the generator writes"; exit 1; }
"$wallsim" import pytorch traces/examples/pytorch/gpt_layer.json -o "$tmp/gpt.jsonl" >/dev/null
"$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --no-progress \
  --trace "$tmp/gpt.jsonl" --out "$tmp/run"
"$wallsim" compare "$tmp/run" >/dev/null
tools/plot_compare.py "$tmp/run" -o "$tmp/compare.png" >/dev/null
test -s "$tmp/compare.png" || { echo "missing compare.png"; exit 1; }
# A run without measured times is a one-line error with exit code 2.
"$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --no-progress \
  --trace traces/examples/vector_add.yaml --out "$tmp/plain"
set +e
tools/plot_compare.py "$tmp/plain" -o "$tmp/x.png" 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] || { echo "expected exit 2, got $code"; exit 1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "expected one error line"; cat "$tmp/err"; exit 1; }
echo "plot_compare: ok"
