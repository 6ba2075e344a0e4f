#!/usr/bin/env bash
# Training-step traces with a declared memory footprint, recomputation marks and parallelism
# (tools/gen_transformer_trace + wallsim run, analytic fidelity: the test is about the traces
# and the run's accounting, not the kernels).
# - memory: the trace header declares what `wallsim memory --json` computes for the same
#   options (one estimator); a 70B step refused on one 80 GB H100 with exit 2, one line saying
#   by how much and what would fit; the same step fits with ZeRO-3 over 64 GPUs and
#   checkpointing.
# - MFU/HFU: with full checkpointing the recomputed forward pass is hardware FLOPs only, so
#   HFU/MFU is near 4/3 (Korthikanti et al. 2022 §5; below 4/3 because the output projection
#   is not recomputed and attention's backward is 2.5x its forward: within 2%), and MFU's
#   numerator equals the FLOPs of the step without checkpointing (consistency check).
# - tensor parallelism (Shoeybi et al. 2019 §3): four all-reduces of b·s·h activations per
#   layer (two forward, two backward) over the t GPUs, and 1/t of the layers' GEMM FLOPs.
# - ZeRO (Rajbhandari et al. 2020 §7): stages 1 and 2 move what the all-reduce moves; stage 3
#   1.5x (weights gathered again for the backward pass), a little less here because the
#   embedding's weights are not needed for its backward pass (within 1.44..1.5).
# - 1F1B pipeline (Narayanan et al. 2021 §2.2): with uniform stages the bubble is
#   (p - 1)/(m + p - 1) of the step. With data parallelism too, the last micro-batch's backward
#   pass overlaps the gradient reduce-scatter, which takes SMs and HBM bandwidth from it
#   (operators on concurrent streams contend): that micro-batch is slower and the bubble a
#   little larger (consistency check of the contention, not a published figure).
set -euo pipefail
wallsim="$1"
export WALLSIM="$wallsim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=tools/gen_transformer_trace
run() { "$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --no-progress "$@"; }
run200() { "$wallsim" run --hw configs/hw/h200.yaml --fidelity analytic --no-progress "$@"; }

# 1. Memory: a 70B step does not fit one H100.
$gen --model 70b -o "$tmp/70b.jsonl" >/dev/null
set +e
run --trace "$tmp/70b.jsonl" --out "$tmp/run_70b" 2>"$tmp/err"; code=$?
set -e
cat "$tmp/err"
[ "$code" -eq 2 ] || { echo "70b on one H100: expected exit 2, got $code"; exit 1; }
[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "expected one error line"; exit 1; }
grep -q "memory: the trace needs .* GB per device" "$tmp/err"
grep -q "hbm.capacity is 80.0 GB: .* too much" "$tmp/err"
grep -q -- "--zero 3" "$tmp/err"
[ ! -e "$tmp/run_70b" ] || { echo "a refused run left output"; exit 1; }
# ...and fits with ZeRO-3 over 64 GPUs and full checkpointing.
$gen --model 70b --dp 64 --zero 3 --checkpointing full -o "$tmp/70b_zero3.jsonl" >/dev/null
run --trace "$tmp/70b_zero3.jsonl" --out "$tmp/run_70b_zero3" 2>/dev/null

# 2. MFU and HFU, with and without checkpointing (one H200: 126 GB unsharded).
for ckpt in none full; do
  $gen --model 7b --checkpointing $ckpt -o "$tmp/7b_$ckpt.jsonl" >/dev/null
  run200 --trace "$tmp/7b_$ckpt.jsonl" --out "$tmp/run_7b_$ckpt" 2>"$tmp/summary_$ckpt"
  grep -q "MFU [0-9.]*%, HFU [0-9.]*%" "$tmp/summary_$ckpt"
done

# 3. Tensor parallelism, ZeRO, pipeline.
$gen --model 70b --tp 8 --pp 8 --microbatches 4 --stage 3 --checkpointing full \
  -o "$tmp/70b_tp8.jsonl" >/dev/null
$gen --model 7b --tp 4 -o "$tmp/7b_tp4.jsonl" >/dev/null  # 4 GPUs: 33 GB each
run --trace "$tmp/7b_tp4.jsonl" --out "$tmp/run_7b_tp4" 2>/dev/null
for zero in 0 1 2 3; do
  $gen --model 7b --dp 8 --zero $zero --checkpointing full -o "$tmp/7b_zero$zero.jsonl" >/dev/null
  run200 --trace "$tmp/7b_zero$zero.jsonl" --out "$tmp/run_7b_zero$zero" 2>/dev/null
done
$gen --model 7b --pp 4 --microbatches 8 --stage 1 -o "$tmp/7b_pp4.jsonl" >/dev/null
run --trace "$tmp/7b_pp4.jsonl" --out "$tmp/run_7b_pp4" 2>"$tmp/summary_pp"
grep -q "pipeline bubble" "$tmp/summary_pp"
$gen --model 7b --pp 4 --microbatches 8 --stage 1 --dp 2 --zero 1 -o "$tmp/7b_pp4_dp2.jsonl" >/dev/null
run --trace "$tmp/7b_pp4_dp2.jsonl" --out "$tmp/run_7b_pp4_dp2" 2>/dev/null

python3 - "$tmp" "$wallsim" <<'PY'
import json, os, subprocess, sys
tmp, wallsim = sys.argv[1], sys.argv[2]

def lines(name):
    return [json.loads(l) for l in open(os.path.join(tmp, name)) if l.strip()]

def expanded(ops):
    for op in ops:
        if "repeat" in op:
            for _ in range(op["repeat"]):
                yield from expanded(op["ops"])
        else:
            yield op

def stats(run):
    return json.load(open(os.path.join(tmp, run, "stats.json")))

def value(s, *path):
    for key in path:
        s = s[key]
    return s["value"]

# The header declares what `wallsim memory` says for the same options.
for trace, flags in [("70b.jsonl", ["--model", "70b"]),
                     ("70b_zero3.jsonl", ["--model", "70b", "--dp", "64", "--zero", "3",
                                          "--checkpointing", "full"]),
                     ("70b_tp8.jsonl", ["--model", "70b", "--tp", "8", "--pp", "8",
                                        "--microbatches", "4", "--checkpointing", "full"]),
                     ("7b_zero1.jsonl", ["--model", "7b", "--dp", "8", "--zero", "1",
                                         "--checkpointing", "full"])]:
    header = lines(trace)[0]["memory"]
    out = subprocess.run([wallsim, "memory", "--json", "--attention", "fused"] + flags,
                         stdout=subprocess.PIPE, check=True, universal_newlines=True).stdout
    m = json.loads(out)["memory"]
    expected = {"weights": m["weights"]["value"], "gradients": m["gradients"]["value"],
                "optimizer": m["optimizer_states"]["value"],
                "activations": m["activations"]["value"]}
    for key, v in expected.items():
        assert abs(header[key] - v) <= 1, (trace, key, header[key], v)
    print("%s: %.1f GB per GPU declared" % (trace, sum(header.values()) / 1e9))

# HFU/MFU near 4/3 with full checkpointing; MFU's numerator is the step without it.
none, full = stats("run_7b_none")["run"], stats("run_7b_full")["run"]
assert abs(value(none, "hfu") / value(none, "mfu") - 1) < 1e-12
ratio = value(full, "hfu") / value(full, "mfu")
print("HFU/MFU with full checkpointing: %.4f (MFU %.3f, HFU %.3f)"
      % (ratio, value(full, "mfu"), value(full, "hfu")))
assert abs(ratio / (4 / 3) - 1) < 0.02, ratio
assert abs(value(full, "model_flops") / value(none, "model_flops") - 1) < 1e-9
assert value(full, "mfu") < value(none, "mfu")  # the recomputation costs time, not model work

# Tensor parallelism: per layer, two all-reduces forward and two backward of b·s·h·2 bytes.
ops = list(expanded(lines("70b_tp8.jsonl")[1:]))
tp = [op["name"].split(".")[1] for op in ops if op["kind"] == "allreduce" and op["group"] == 8
      and op["name"].startswith("mb0.") and op["bytes"] == 4096 * 8192 * 2]
count = {name: tp.count(name) for name in set(tp)}
tokens, h = 4096, 8192
# Stage 3 of 8 has 10 layers, no embedding and no loss: every all-reduce is a layer's.
assert len(tp) == len([op for op in ops if op["kind"] == "allreduce" and op["group"] == 8
                       and op["name"].startswith("mb0.")]), "an all-reduce of another size"
assert count == {"attn_tp_allreduce": 10, "ffn_tp_allreduce": 10,
                 "attn_tp_allreduce_bwd": 10, "ffn_tp_allreduce_bwd": 10,
                 "recompute_attn_tp_allreduce": 10, "recompute_ffn_tp_allreduce": 10}, count
print("TP=8: per layer 2 forward + 2 backward all-reduces of %d B (+2 recomputed)" % (tokens * h * 2))
# 1/t of the layers' GEMM FLOPs on each GPU.
def gemm_flops(trace, layers_only=True):
    return sum(2 * op["m"] * op["n"] * op["k"] for op in expanded(lines(trace)[1:])
               if op["kind"] == "gemm" and not op["name"].startswith("lm_head"))
assert abs(gemm_flops("7b_tp4.jsonl") * 4 / gemm_flops("7b_none.jsonl") - 1) < 1e-9

# ZeRO: bytes on the wire per GPU.
wire = [value(stats("run_7b_zero%d" % z)["run"], "wire_bytes") for z in range(4)]
print("ZeRO wire bytes / all-reduce's: " + ", ".join("%.3f" % (w / wire[0]) for w in wire))
assert abs(wire[1] / wire[0] - 1) < 1e-3 and abs(wire[2] / wire[0] - 1) < 1e-3
assert 1.44 < wire[3] / wire[0] <= 1.5, wire[3] / wire[0]

# The 1F1B bubble with uniform stages.
pipe = stats("run_7b_pp4")["run"]["pipeline"]
share = pipe["bubble_share"]["value"]
print("PP=4, m=8: bubble %.4f of the step (expected 3/11 = %.4f)" % (share, 3 / 11))
assert abs(share - 3 / 11) < 1e-9
assert abs(pipe["step_time"]["value"] - value(stats("run_7b_pp4")["run"], "sim_time")
           - pipe["bubble"]["value"]) < 1e-12
# With DP=2 and ZeRO-1 the gradient reduce-scatter overlaps the last micro-batch's backward.
share_dp = stats("run_7b_pp4_dp2")["run"]["pipeline"]["bubble_share"]["value"]
print("PP=4, m=8, DP=2 ZeRO-1: bubble %.4f of the step" % share_dp)
assert 3 / 11 < share_dp < 3 / 11 * 1.05, share_dp
PY

# Bad layouts: one line, exit 2, no trace written.
for args in "--model 7b --tp 3" "--model 7b --pp 5" "--model 7b --zero 3 --dp 8 --pp 2" \
            "--model 7b --zero 1" "--model 7b --pp 2 --stage 2" "--model 7b --zero 4"; do
  set +e
  $gen $args -o "$tmp/bad.jsonl" 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -eq 2 ] || { echo "$args: expected exit 2, got $code"; exit 1; }
  [ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "$args: expected one error line"; cat "$tmp/err"; exit 1; }
  [ ! -e "$tmp/bad.jsonl" ] || { echo "$args: wrote a trace"; exit 1; }
done
echo "gen_parallel_trace ok"
