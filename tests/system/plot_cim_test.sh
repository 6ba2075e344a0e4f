#!/usr/bin/env bash
# Runs the CIM sweeps with few points and checks that every figure was drawn.
set -euo pipefail
wallsim="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tools/plot_cim.py -o "$tmp" --quick --wallsim "$wallsim" >"$tmp/log"
for f in cim_breakdown cim_adc_sweep cim_cell_xbar cim_drift cim_tops_per_w; do
  test -s "$tmp/$f.png" || { echo "missing $f.png"; cat "$tmp/log"; exit 1; }
done
# The printed numbers include the ISAAC chip totals.
grep -q "^tops_per_w ISAAC-like 16-bit 0.627" "$tmp/log" || { echo "unexpected ISAAC TOPS/W"; exit 1; }
echo "plot_cim ok"
