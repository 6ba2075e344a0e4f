#!/usr/bin/env bash
# Runs the example experiment and draws its line plot and heatmap with tools/plot_sweep.py;
# an axis left out of the plot without --where is bad input (exit code 2).
set -euo pipefail
wallsim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$wallsim" sweep configs/experiments/hbm_bandwidth.yaml --jobs 2 --out "$tmp/sweep" --no-progress
tools/plot_sweep.py "$tmp/sweep" --metric time_s --x hbm.pin_rate --series sm.count -o "$tmp/lines.png"
tools/plot_sweep.py "$tmp/sweep/results.csv" --metric time_s --x hbm.pin_rate --y sm.count -o "$tmp/heat.svg"
tools/plot_sweep.py "$tmp/sweep" --metric gemm_time_us --x sm.count --where hbm.pin_rate=4Gbps \
  -o "$tmp/one.png"
for f in lines.png heat.svg one.png; do
  [ -s "$tmp/$f" ] || { echo "plot_sweep_test: $f was not drawn"; exit 1; }
done
set +e
tools/plot_sweep.py "$tmp/sweep" --metric time_s --x hbm.pin_rate -o "$tmp/bad.png" 2>"$tmp/err.txt"
rc=$?
set -e
[ $rc -eq 2 ] || { echo "plot_sweep_test: expected exit 2 for an unplotted axis, got $rc"; exit 1; }
grep -q "axis sm.count varies" "$tmp/err.txt" || { cat "$tmp/err.txt"; exit 1; }
[ ! -e "$tmp/bad.png" ] || { echo "plot_sweep_test: a plot was written despite the error"; exit 1; }
echo "plot_sweep_test: ok"
