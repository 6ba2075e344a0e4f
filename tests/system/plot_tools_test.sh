#!/usr/bin/env bash
# Runs two small simulations and draws every plot from them; fails if a plot is missing.
set -euo pipefail
wallsim="$1"
export WALLSIM="$wallsim"  # tools/gen_transformer_trace sizes memory with it
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$wallsim" run --hw configs/hw/a100.yaml --fidelity analytic --trace traces/examples/elementwise_sweep.yaml --out "$tmp/a100"
"$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --trace traces/examples/transformer_layer.yaml --out "$tmp/h100"
# The cycle-level GPU plots, from small versions of the experiments' traces.
for e in occupancy stride divergence; do
  sed 's/elements: [0-9]*/elements: 262144/' traces/examples/gpu_$e.yaml > "$tmp/gpu_$e.yaml"
  "$wallsim" run --hw configs/hw/h100.yaml --trace "$tmp/gpu_$e.yaml" --out "$tmp/gpu_$e" --no-progress
  tools/plot_gpu.py $e "$tmp/gpu_$e" -o "$tmp/plots/gpu_$e.png"
done
# The Tensor Core experiments' step plots, from an analytic 7B step (the cycle-level one takes
# minutes); plot_generations draws the same run twice.
tools/gen_transformer_trace --model 7b --dp 8 --zero 1 -o "$tmp/step.jsonl" >/dev/null  # fits 80 GB
"$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --trace "$tmp/step.jsonl" --out "$tmp/step" --no-progress
tools/plot_step.py "$tmp/step" -o "$tmp/plots/step.png" >"$tmp/step.txt"
grep -q MFU "$tmp/step.txt" || { echo "plot_step printed no MFU"; exit 1; }
tools/plot_generations.py "$tmp/step" "$tmp/step" -o "$tmp/plots/generations.png" --labels 'a,b'
tools/plot_roofline.py "$tmp/a100" "$tmp/h100" -o "$tmp/plots/roofline.png" --svg
# A baseline and its what-if on the same hardware, told apart by --label.
tools/plot_roofline.py "$tmp/h100" "$tmp/h100" --label baseline --label what-if \
  -o "$tmp/plots/roofline_labels.png"
if tools/plot_roofline.py "$tmp/h100" "$tmp/h100" --label one -o "$tmp/plots/bad.png" 2>/dev/null; then
  echo "plot_roofline accepted one --label for two runs"; exit 1
fi
tools/plot_ops.py "$tmp/h100" -o "$tmp/plots/ops.png" --svg
tools/plot_energy.py "$tmp/a100" "$tmp/h100" -o "$tmp/plots/energy.png" --svg
tools/plot_cost.py --wallsim "$wallsim" --hw configs/hw/a100.yaml,configs/hw/h100.yaml -o "$tmp/plots/cost.png"
tools/plot_systolic.py --wallsim "$wallsim" --figures roofline,traffic -o "$tmp/plots"
tools/plot_net.py --wallsim "$wallsim" --runs configs/net/dgx_h100.yaml,configs/net/pcie_box.yaml \
  --sizes 1KiB:1GiB -o "$tmp/plots/net.png"
tools/plot_scaling.py --wallsim "$wallsim" --layers 2 -o "$tmp/plots/scaling.png" >/dev/null
# Bulk copies against Luo et al.'s logs, from two of the validation cases.
"$wallsim" validate --filter bulk_copy_h800_1k --out "$tmp/bulk" >/dev/null
tools/plot_bulk_copy.py --csv "$tmp/bulk/validation.csv" -o "$tmp/plots/bulk_copy.png"
if tools/plot_bulk_copy.py --csv "$tmp/a100/ops.csv" -o "$tmp/plots/bad.png" 2>/dev/null; then
  echo "plot_bulk_copy accepted a CSV without bulk-copy cases"; exit 1
fi
# Cache bandwidth against the data set, two sizes on one GPU, and its bad input.
tools/plot_cache_read.py --wallsim "$wallsim" --gpus a100 --sizes 4096,65536 -o "$tmp/plots/cache_read.png"
if tools/plot_cache_read.py --wallsim "$wallsim" --gpus a100 --sizes 1000 -o "$tmp/plots/bad.png" 2>/dev/null; then
  echo "plot_cache_read accepted a data set that is not whole 128 kB blocks"; exit 1
fi
if tools/plot_cache_read.py --wallsim "$wallsim" --gpus nope -o "$tmp/plots/bad.png" 2>/dev/null; then
  echo "plot_cache_read accepted an unknown preset"; exit 1
fi
# The whole suite at a glance (here the two cases above), and its bad input.
tools/plot_validation.py --csv "$tmp/bulk/validation.csv" -o "$tmp/plots/validation.png"
tools/plot_validation.py --csv "$tmp/bulk/validation.csv" --filter memory -o "$tmp/plots/validation_memory.png"
if tools/plot_validation.py --csv "$tmp/a100/ops.csv" -o "$tmp/plots/bad.png" 2>/dev/null; then
  echo "plot_validation accepted a CSV that is not a validation.csv"; exit 1
fi
if tools/plot_validation.py --csv "$tmp/bulk/validation.csv" --filter zzz -o "$tmp/plots/bad.png" 2>/dev/null; then
  echo "plot_validation accepted a filter matching no case"; exit 1
fi
# A systolic array and a CIM chip: their own roofs (the array's peak and the DRAM behind it; the
# crossbars' peak and the tile buffers), read from their stats.json.
"$wallsim" run --hw configs/hw/tpu_v1.yaml --trace traces/examples/tpu_mlp_cnn.yaml --out "$tmp/tpu" --no-progress
"$wallsim" run --hw configs/cim/isaac.yaml --trace traces/examples/tpu_mlp_cnn.yaml --out "$tmp/cim" --no-progress
for d in tpu cim; do
  tools/plot_roofline.py "$tmp/$d" -o "$tmp/plots/roofline_$d.png" --label-ops >"$tmp/out" 2>"$tmp/err"
  # Every op label found a free place (place_point_labels notes the ones that did not).
  if [ -s "$tmp/err" ]; then echo "plot_roofline $d:"; cat "$tmp/err"; exit 1; fi
  tools/plot_ops.py "$tmp/$d" -o "$tmp/plots/ops_$d.png"
done
grep -q "array  91.8 TOP/s" <(python3 -c '
import sys; sys.path.insert(0, "tools"); import wallsim_output as wo
r = wo.load_run(sys.argv[1]); u, d = r.default_roofs()[0]
print("%s  %s" % (r.roof_label(u, [d]), wo.fmt_si(r.peak_flops(u, d), r.rate_unit)), r.bandwidth())
' "$tmp/tpu") || { echo "the TPU run's roof is not its 256x256 array at 700 MHz"; exit 1; }
tools/plot_roofline.py "$tmp/tpu" "$tmp/cim" "$tmp/h100" -o "$tmp/plots/roofline_devices.png"
tools/plot_energy.py "$tmp/tpu" "$tmp/cim" -o "$tmp/plots/energy_devices.png"
# The shared runner: a failing wallsim is its one error line and exit code 2.
set +e
tools/plot_hbm.py --wallsim "$wallsim" --hw configs/hw/nothing.yaml -o "$tmp/plots/hbm.png" 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] || { echo "plot_hbm on a missing config: expected exit 2, got $code"; exit 1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "nothing.yaml" "$tmp/err" || { echo "plot_hbm:"; cat "$tmp/err"; exit 1; }
for f in roofline.png roofline.svg roofline_labels.png ops.png ops.svg energy.png energy.svg cost.png \
         systolic_roofline.png systolic_traffic.png net.png scaling.png step.png generations.png \
         roofline_tpu.png roofline_cim.png ops_tpu.png ops_cim.png roofline_devices.png \
         energy_devices.png; do
  test -s "$tmp/plots/$f" || { echo "missing $f"; exit 1; }
done
# A broken run directory is a one-line error with exit code 2.
set +e
tools/plot_roofline.py "$tmp/nothing" -o "$tmp/x.png" 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] || { echo "expected exit 2, got $code"; exit 1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "expected one error line"; cat "$tmp/err"; exit 1; }
# tools/gpu_experiment: no experiment, an unknown one or an unknown option is exit code 2.
for args in "" "nonsense" "step --bogus"; do
  set +e
  # shellcheck disable=SC2086
  tools/gpu_experiment $args 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -eq 2 ] || { echo "gpu_experiment $args: expected exit 2, got $code"; exit 1; }
done
echo "plot tools ok"
