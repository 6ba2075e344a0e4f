#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One GPU's data-parallel training step as the step of eight GPUs of a system.

Reads a JSON Lines trace from tools/gen_transformer_trace --dp 8 (one device standing for
the eight, its collectives `group: 8`) and writes every operator once per GPU of
configs/systems/dgx_h100.yaml (named name@gpuN, `device: gpuN`, its after: on the same GPU)
and each collective once over the group [gpu0, ..., gpu7]. The input of the `--threads`
figures in docs/performance.md:

  tools/gen_transformer_trace --model 7b --dp 8 --zero 1 --layers-simulated 32 -o one.jsonl
  bench/spread_dp_step.py one.jsonl dp8.jsonl
  build/wallsim run --system configs/systems/dgx_h100.yaml --trace dp8.jsonl --out O --threads 2
"""
import json
import sys

GPUS = [f"gpu{i}" for i in range(8)]


def main(source, target):
    with open(source) as f:
        lines = f.read().splitlines()
    ops = [json.loads(line) for line in lines[1:]]
    if any("repeat" in op for op in ops):
        sys.exit("spread_dp_step.py: expand repeat blocks first (--layers-simulated = layers)")
    collectives = {op["name"] for op in ops if op.get("group") == 8}
    out = [lines[0]]
    for op in ops:
        if op["name"] in collectives:
            op = dict(op, group=GPUS)
            if "after" in op:
                op["after"] = [f"{a}@{g}" for a in op["after"] for g in GPUS]
            out.append(json.dumps(op))
            continue
        for gpu in GPUS:
            copy = dict(op, name=f"{op['name']}@{gpu}", device=gpu)
            if "after" in op:
                copy["after"] = [a if a in collectives else f"{a}@{gpu}" for a in op["after"]]
            out.append(json.dumps(copy))
    with open(target, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: bench/spread_dp_step.py ONE_DEVICE.jsonl EIGHT_GPUS.jsonl")
    main(sys.argv[1], sys.argv[2])
