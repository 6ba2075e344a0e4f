#!/usr/bin/env python3
"""Writes the example MLP for `wallsim cim --mlp` (traces/examples/cim_mlp.json).

A 32-64-32-10 perceptron with ReLU between layers, weights drawn from N(0, 1/fan_in) and a
batch of 16 signed inputs from N(0, 1), all from a fixed seed, rounded to 4 decimals so the
file stays small and stable. Standard library only.

    tools/make_cim_mlp.py -o traces/examples/cim_mlp.json
"""
import argparse
import json
import math
import random


def matrix(rng, rows, cols, sigma):
    return [[round(rng.gauss(0.0, sigma), 4) for _ in range(cols)] for _ in range(rows)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--widths", default="32,64,32,10")
    ap.add_argument("--batch", type=int, default=16)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    widths = [int(w) for w in args.widths.split(",")]
    layers = []
    for i, (fan_in, fan_out) in enumerate(zip(widths, widths[1:])):
        last = i == len(widths) - 2
        layers.append({
            "weights": matrix(rng, fan_in, fan_out, 1.0 / math.sqrt(fan_in)),
            "bias": [round(rng.gauss(0.0, 0.1), 4) for _ in range(fan_out)],
            "activation": "none" if last else "relu",
        })
    doc = {"name": "mlp %s (seed %d)" % (args.widths, args.seed), "layers": layers,
           "input": matrix(rng, args.batch, widths[0], 1.0)}
    with open(args.output, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
