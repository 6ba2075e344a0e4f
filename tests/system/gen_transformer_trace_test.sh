#!/usr/bin/env bash
# tools/gen_transformer_trace on the 7b preset: each trace validates and runs on H200 (an
# unsharded 7B step with Adam needs 126 GB: more than an 80 GB H100 holds), and the
# GEMM FLOPs of one step are 6·N·tokens (8·N·tokens with full checkpointing), N being the
# non-embedding parameters as `wallsim memory` counts them.
# Tolerance: the output projection is a GEMM outside N and adds 6·V·h·tokens (2.0% of 6·N·tokens
# for 7B), so the total must be within 3%; the layers' GEMMs alone must be within 0.01% (the
# norm weights are in N but in no GEMM: 2·h per layer, 0.004%). With --dp 8 the all-reduce
# buckets add up to 2·P bytes (bf16 gradients) on stream 1, and over half their time overlaps
# the backward pass. The runs are analytic: the test is about the trace, not the kernels.
set -euo pipefail
wallsim="$1"
export WALLSIM="$wallsim"  # the generator sizes memory with it
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$wallsim" memory --model 7b --out "$tmp/memory" >/dev/null
for ckpt in none full; do
  tools/gen_transformer_trace --model 7b --checkpointing "$ckpt" --dp 8 -o "$tmp/step_$ckpt.jsonl"
  "$wallsim" validate-trace "$tmp/step_$ckpt.jsonl"
  "$wallsim" run --hw configs/hw/h200.yaml --fidelity analytic --trace "$tmp/step_$ckpt.jsonl" --out "$tmp/run_$ckpt" \
    --no-progress
done
# The YAML encoding, every layer written out, no data parallelism: the same GEMMs. FP32 too.
# These two keep more than an H200 holds unsharded (the stored scores; fp32): ZeRO-3 over 8 GPUs.
tools/gen_transformer_trace --model 7b --layers-simulated 32 --attention naive --dp 8 --zero 3 \
  -o "$tmp/step.yaml"
tools/gen_transformer_trace --model 7b --precision fp32 --dp 8 --zero 3 -o "$tmp/step_fp32.jsonl"
for step in step.yaml step_fp32.jsonl; do
  "$wallsim" validate-trace "$tmp/$step"
  "$wallsim" run --hw configs/hw/h200.yaml --fidelity analytic --trace "$tmp/$step" --out "$tmp/run_${step%.*}" \
    --no-progress
done
python3 - "$tmp" <<'PY'
import csv, json, os, sys
tmp = sys.argv[1]
stats = json.load(open(os.path.join(tmp, "memory", "stats.json")))
n = stats["memory"]["non_embedding_parameters"]["value"]
tokens = stats["meta"]["batch"] * stats["meta"]["seq"]
def gemm_flops(run):
    total = layers = 0.0
    kinds = set()
    for op in csv.DictReader(open(os.path.join(tmp, run, "ops.csv"))):
        kinds.add(op["kind"])
        if op["kind"] == "gemm":
            total += float(op["flops"])
            if not op["name"].startswith("lm_head"):
                layers += float(op["flops"])
    return total, layers, kinds
for run, per_token in [("run_none", 6), ("run_full", 8), ("run_step", 6), ("run_step_fp32", 6)]:
    total, layers, kinds = gemm_flops(run)
    expected = per_token * n * tokens
    print("%s: GEMM %.6g FLOP = %.4f x N x tokens (layers alone %.5f)"
          % (run, total, total / (n * tokens), layers / (n * tokens)))
    assert abs(total / expected - 1) <= 0.03, (run, total, expected)
    assert abs(layers / expected - 1) <= 1e-4, (run, layers, expected)
    assert {"gemm", "attention", "elementwise", "layernorm", "softmax",
            "embedding"} <= kinds, kinds
    assert ("allreduce" in kinds) == (run in ("run_none", "run_full")), kinds
# --dp 8: the buckets add up to the bf16 gradients, 2·P bytes, and mostly hide behind backward.
def expanded(ops):
    for op in ops:
        if "repeat" in op:
            for _ in range(op["repeat"]):
                yield from expanded(op["ops"])
        else:
            yield op
lines = [json.loads(l) for l in open(os.path.join(tmp, "step_none.jsonl")) if l.strip()][1:]
buckets = [op for op in expanded(lines) if op["kind"] == "allreduce"]
assert all(op["stream"] == 1 and op["group"] == 8 for op in buckets)
assert sum(op["bytes"] for op in buckets) == 2 * stats["memory"]["parameters"]["value"]
comm = json.load(open(os.path.join(tmp, "run_none", "stats.json")))["run"]["communication"]
print("all-reduce %.1f ms, %.1f ms exposed" % (1e3 * comm["time"]["value"],
                                               1e3 * comm["exposed"]["value"]))
assert comm["overlapped"]["value"] > 0.5 * comm["time"]["value"]
PY
# Bad input is one line on stderr and exit code 2.
for args in "--model 7x" "--model 7b --batch -1" "--model 7b --layers-simulated 5" \
            "--model 7b --precision fp16"; do
  set +e
  tools/gen_transformer_trace $args -o "$tmp/bad.jsonl" 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -eq 2 ] || { echo "$args: expected exit 2, got $code"; exit 1; }
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "$args: expected one error line"; cat "$tmp/err"; exit 1; }
done
# A bad model file is wallsim's own message: the generator reads the model through wallsim.
printf 'layers: 2\nhidden: 64\nheads: 4\nffn_hidden: 128\nvocab: 100\nseq: 0\n' >"$tmp/bad_model.yaml"
set +e
WALLSIM="$wallsim" tools/gen_transformer_trace --model "$tmp/bad_model.yaml" -o "$tmp/bad.jsonl" \
  2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] || { echo "bad model: expected exit 2, got $code"; exit 1; }
grep -q "bad_model.yaml:6:6: seq: = 0 is out of range: must be at least 1" "$tmp/err" ||
  { echo "bad model: unexpected message"; cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/bad.jsonl" ] || { echo "bad model: wrote a trace"; exit 1; }
echo "gen_transformer_trace ok"
