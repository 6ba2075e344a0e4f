#!/usr/bin/env python3
"""Data-parallel scaling from 8 to 1024 GPUs: how much of a training step communication takes.

Builds a data-parallel backward pass (L layers; after each layer's weight-gradient GEMM, its
gradient bucket is all-reduced on a second stream while the next layer computes), runs it with
`wallsim run` for each GPU count on a cluster network, and plots:
  left:  scaling efficiency = compute time / step time (weak scaling, same work per GPU);
  right: communication time / compute time, with the 20% rule of thumb.

Example:
  tools/plot_scaling.py --hw configs/hw/h100.yaml --network configs/net/cluster_h100_ib.yaml -o scaling.png
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

GPU_COUNTS = [8, 16, 32, 64, 128, 256, 512, 1024]


def dp_trace(path, gpus, layers, tokens, hidden, bucket_bytes):
    # Each layer's weight gradient: [hidden x tokens] x [tokens x hidden], in BF16.
    lines = ['{"version": 1, "name": "dp_step_%d"}' % gpus]
    for layer in range(layers):
        lines.append('{"name": "wgrad%d", "kind": "gemm", "m": %d, "n": %d, "k": %d, "dtype": "bf16"}'
                     % (layer, hidden, hidden, tokens))
        lines.append('{"name": "allreduce%d", "kind": "allreduce", "bytes": %d, "group": %d, '
                     '"dtype": "bf16", "stream": 1, "after": ["wgrad%d"]}'
                     % (layer, bucket_bytes, gpus, layer))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def step(wallsim, hw, network, algorithm, trace, out, fidelity):
    cmd = [wallsim, "run", "--hw", hw, "--trace", trace, "--out", out, "--no-progress",
           "--fidelity", fidelity,
           "--set", "network.topology=" + network, "--set", "network.algorithm=" + algorithm]
    wo.run_wallsim(cmd[0], cmd[1:])
    run = wo.load_json(os.path.join(out, "stats.json"))["run"]
    compute = run["by_kind"]["gemm"]["time"]["value"]
    return run["sim_time"]["value"], compute, run["communication"]["time"]["value"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hw", default="configs/hw/h100.yaml")
    ap.add_argument("--network", default="configs/net/cluster_h100_ib.yaml",
                    help="a configs/net file with enough nodes for the largest count")
    ap.add_argument("--algorithms", default="ring,hierarchical")
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--fidelity", default="auto", choices=["analytic", "auto", "sampled", "cycle"],
                    help="of the whole run (default auto: the GEMMs on the sampled cycle-level GPU, "
                         "the collectives on the NCCL model, seconds per point; analytic also "
                         "makes every collective bytes / bandwidth, so the algorithms do not differ)")
    ap.add_argument("--hidden", type=int, default=8192, help="layer width: an H x H weight per layer")
    ap.add_argument("--tokens", type=int, default=32768, help="tokens per GPU per step")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    args = ap.parse_args(argv)
    plt = wo.import_pyplot()
    bucket = args.hidden * args.hidden * 2  # one layer's BF16 weight gradient
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5))
    with tempfile.TemporaryDirectory() as tmp:
        for algorithm in wo.split_list(args.algorithms):
            eff, ratio = [], []
            for n in GPU_COUNTS:
                trace = os.path.join(tmp, "dp%d.jsonl" % n)
                dp_trace(trace, n, args.layers, args.tokens, args.hidden, bucket)
                total, compute, comm = step(args.wallsim, args.hw, args.network, algorithm, trace,
                                            os.path.join(tmp, "%s%d" % (algorithm, n)), args.fidelity)
                eff.append(compute / total)
                ratio.append(comm / compute)
                print("%-12s %5d GPUs: step %.2f ms, compute %.2f ms, communication %.2f ms"
                      % (algorithm, n, total * 1e3, compute * 1e3, comm * 1e3))
            ax.plot(GPU_COUNTS, [100 * e for e in eff], marker="o", label=algorithm)
            bx.plot(GPU_COUNTS, [100 * r for r in ratio], marker="o", label=algorithm)
    bx.axhline(20, color="#c8553d", linestyle="--", label="20% rule of thumb")
    for a in (ax, bx):
        a.set_xscale("log", base=2)
        a.set_xlabel("GPUs (data parallel: %d layers of %d x %d, %d tokens per GPU)"
                     % (args.layers, args.hidden, args.hidden, args.tokens))
        a.grid(True, which="both", alpha=0.3)
        a.legend(fontsize=8)
    ax.set_ylabel("scaling efficiency: compute / step (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Weak scaling of a data-parallel step")
    bx.set_ylabel("communication / compute (%)")
    bx.set_title("When communication outgrows the 20% rule")
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
