#!/usr/bin/env bash
# LLM inference traces (tools/gen_transformer_trace --mode inference) run by wallsim at analytic
# fidelity (the test is about the trace and the run's accounting, not the kernels):
# - the run reports time to first token, time per output token, tokens/s and the KV-cache size,
#   the size `wallsim memory --mode inference` gives (one estimator), 2·L·kv_heads·d·2 bytes per
#   cached token;
# - decoding is weight-bandwidth-bound at small batches: a step at batch 8 takes little longer
#   than at batch 1 (< 1.3x), while at batch 256 the KV cache it reads outweighs the weights and
#   the step takes over 1.5x longer (the memory wall of serving, Kwon et al. 2023);
# - a KV cache that overflows the device is refused (exit 2, one line, how much cache fits).
set -euo pipefail
wallsim="$1"
export WALLSIM="$wallsim"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=tools/gen_transformer_trace
for b in 1 8 256; do
  $gen --model 7b --mode inference --batch $b --prompt 128 --generate 8 -o "$tmp/b$b.jsonl" >/dev/null
  "$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --no-progress \
    --trace "$tmp/b$b.jsonl" --out "$tmp/run_b$b" 2>"$tmp/summary_b$b"
done
grep -q "time to first token .* ms, per output token .* ms, .* tokens/s, KV cache .* GB" "$tmp/summary_b1"
"$wallsim" memory --model 7b --mode inference --batch 8 --prompt 128 --generate 8 --json >"$tmp/mem.json"
python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
def inference(run):
    return json.load(open(os.path.join(tmp, run, "stats.json")))["run"]["inference"]
mem = json.load(open(os.path.join(tmp, "mem.json")))["memory"]
i8 = inference("run_b8")
assert i8["kv_cache"]["value"] == round(mem["kv_cache"]["value"]), (i8["kv_cache"], mem["kv_cache"])
assert mem["kv_cache_per_token"]["value"] == 2 * 32 * 32 * 128 * 2
tpot = {b: inference("run_b%d" % b)["time_per_output_token"]["value"] for b in (1, 8, 256)}
ttft = {b: inference("run_b%d" % b)["time_to_first_token"]["value"] for b in (1, 8, 256)}
for b in (1, 8, 256):
    s = inference("run_b%d" % b)
    total = json.load(open(os.path.join(tmp, "run_b%d" % b, "stats.json")))["run"]["sim_time"]["value"]
    assert abs(s["tokens_per_second"]["value"] - b * 8 / total) < 1e-6 * b * 8 / total
    assert abs(ttft[b] + 7 * tpot[b] - total) < 1e-9
    print("batch %3d: TTFT %.2f ms, TPOT %.3f ms, %.0f tokens/s"
          % (b, 1e3 * ttft[b], 1e3 * tpot[b], s["tokens_per_second"]["value"]))
assert tpot[8] < 1.3 * tpot[1], tpot
assert tpot[256] > 1.5 * tpot[1], tpot
assert ttft[1] < ttft[8] < ttft[256]  # the prefill runs every prompt token of the batch
PY
# The KV cache of 512 sequences of 4096 tokens (1.1 TB) does not fit.
$gen --model 7b --mode inference --batch 512 --prompt 4096 -o "$tmp/big.jsonl" >/dev/null
set +e
"$wallsim" run --hw configs/hw/h100.yaml --fidelity analytic --no-progress --trace "$tmp/big.jsonl" \
  --out "$tmp/run_big" 2>"$tmp/err"; code=$?
set -e
[ "$code" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err"; exit 1; }
grep -q "a KV cache of at most .* GB fits" "$tmp/err"
for args in "--dp 2" "--checkpointing full" "--zero 1 --dp 2"; do
  set +e
  $gen --model 7b --mode inference $args -o "$tmp/bad.jsonl" 2>"$tmp/err"; code=$?
  set -e
  [ "$code" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -e "$tmp/bad.jsonl" ] ||
    { echo "$args: expected one error line and exit 2"; cat "$tmp/err"; exit 1; }
done
echo "gen_inference_trace ok"
