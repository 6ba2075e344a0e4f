#!/usr/bin/env bash
# tools/fit_launch_gaps.py: the A100 preset's device gaps are what the tool fits to gpu-benches'
# recordings (within 0.05 us: a model change that moves the small kernels by more wants a
# refit, docs/gpu.md "Launching kernels"), and bad input is one line with exit code 2.
set -euo pipefail
wallsim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools/fit_launch_gaps.py --wallsim "$wallsim" --gpus a100 >"$tmp/fit"
preset_us() {  # runtime.<key> of configs/hw/a100.yaml, in us
  sed -n "s/^  $1: *\([0-9.]*\)us.*/\1/p" configs/hw/a100.yaml
}
check() {  # launch mode, preset key
  fitted=$(awk -v m="$1" '$1 == "a100" && $2 == m {print $3}' "$tmp/fit")
  preset=$(preset_us "$2")
  [ -n "$fitted" ] && [ -n "$preset" ] || { echo "no $1 fit or no $2 in the preset"; cat "$tmp/fit"; exit 1; }
  awk -v f="$fitted" -v p="$preset" 'BEGIN { d = f - p; exit (d < -0.05 || d > 0.05) }' ||
    { echo "$2: the preset has $preset us, the tool fits $fitted us"; cat "$tmp/fit"; exit 1; }
}
check stream stream_gap
check graph graph_node_gap
# Bad input: one line on stderr, exit code 2.
expect_bad() {
  set +e
  tools/fit_launch_gaps.py --wallsim "$wallsim" "$@" >/dev/null 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -eq 2 ] || { echo "$*: expected exit 2, got $code"; exit 1; }
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "$*: expected one error line"; cat "$tmp/err"; exit 1; }
}
expect_bad --gpus nope
expect_bad --fit-max 0
printf 'gpu,launch,doubles,best_gbps\na100,eager,4096,25\n' >"$tmp/bad.csv"
expect_bad --gpus a100 --measured "$tmp/bad.csv"
echo "fit_launch_gaps: ok"
