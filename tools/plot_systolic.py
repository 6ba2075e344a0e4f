#!/usr/bin/env python3
"""Systolic-array experiments (TPU-like), drawn by running the wallsim binary.

Four figures, each from `wallsim systolic` or `wallsim run` on configs/hw/tpu_v1.yaml:
  utilisation  utilisation vs GEMM shape on the 256x256 array (square, tall-skinny, small batch)
  sweep        ResNet-18 (SCALE-Sim's topology) on square arrays of 8..512 PEs a side
  roofline     TPU v1 Roofline with the MLP/LSTM/CNN layers of traces/examples/tpu_mlp_cnn.yaml
  traffic      DRAM bytes (O(n^2)) vs MACs (O(n^3)) of square GEMMs

Example (writes systolic_<figure>.png into the folder):

    tools/plot_systolic.py -o docs/images
"""
import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output  # noqa: E402

plt = wallsim_output.import_pyplot()

HERE = os.path.dirname(os.path.abspath(__file__))
TPU = os.path.join(HERE, "..", "configs", "hw", "tpu_v1.yaml")
TRACE = os.path.join(HERE, "..", "traces", "examples", "tpu_mlp_cnn.yaml")
RESNET = os.path.join(HERE, "..", "..", "shared", "reference", "scalesim-inputs", "topologies",
                      "Resnet18.csv")
# Isolates the array from memory: a DRAM far faster than any fold needs, unlimited SRAM ports.
NO_WALL = ["--set", "systolic.dram.bandwidth=1000TB/s", "--set", "systolic.sram.port_bytes_per_cycle=0"]


def wallsim(binary, args, outdir):
    wallsim_output.run_wallsim(binary, args + ["--out", outdir])


def systolic(binary, tmp, tag, args):
    out = os.path.join(tmp, tag)
    wallsim(binary, ["systolic", "--hw", TPU] + args, out)
    stats = wallsim_output.load_json(os.path.join(out, "stats.json"))
    with open(os.path.join(out, "layers.csv")) as f:
        layers = list(csv.DictReader(f))
    return stats, layers


def utilisation(binary, tmp, ax):
    sizes = [16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
    shapes = {
        "square n x n x n": lambda n: (n, n, n),
        "tall-skinny 32768 x n x n": lambda n: (32768, n, n),
        "small batch 8 x n x n (MLP-like)": lambda n: (8, n, n),
    }
    for label, shape in shapes.items():
        ys = []
        for n in sizes:
            m, nn, k = shape(n)
            stats, _ = systolic(binary, tmp, "u_%d_%d_%d" % (m, nn, k),
                                ["--gemm", "%d,%d,%d" % (m, nn, k)] + NO_WALL)
            ys.append(100 * stats["systolic_run"]["overall_utilisation"]["value"])
        ax.plot(sizes, ys, marker="o", label=label)
    ax.axhline(50, color="grey", linestyle=":", label="50%")
    ax.set_xscale("log", base=2)
    ax.set_xlabel("n (GEMM M x N x K as labelled)")
    ax.set_ylabel("PE utilisation (%)")
    ax.set_title("Utilisation vs shape, 256x256 ws, memory unlimited")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)


def sweep(binary, tmp, ax, topology):
    sides = [8, 16, 32, 64, 128, 256, 512]
    cycles, util = [], []
    for s in sides:
        stats, _ = systolic(binary, tmp, "s_%d" % s,
                            ["--topology", topology, "--set", "systolic.rows=%d" % s,
                             "--set", "systolic.cols=%d" % s] + NO_WALL)
        cycles.append(stats["systolic_run"]["total_cycles"]["value"])
        util.append(100 * stats["systolic_run"]["overall_utilisation"]["value"])
    ax.plot(sides, cycles, marker="o", color="C0", label="total cycles")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("array side (R = C)")
    ax.set_ylabel("ResNet-18 cycles", color="C0")
    ax2 = ax.twinx()
    ax2.plot(sides, util, marker="s", color="C3", label="utilisation")
    ax2.set_ylabel("utilisation (%)", color="C3")
    ax2.set_ylim(0, 100)
    ax.set_title("ResNet-18 on R x R ws arrays, DRAM and SRAM ports unlimited")
    ax.grid(True, alpha=0.3)


def roofline(binary, tmp, ax):
    out = os.path.join(tmp, "roof")
    wallsim(binary, ["run", "--hw", TPU, "--trace", TRACE], out)
    run = wallsim_output.load_run(out)
    hw = run.stats["hw"]
    peak = hw["peak_ops"]["value"]
    bw = hw["dram_bandwidth"]["value"]
    xs = [10 ** (i / 10) for i in range(0, 51)]
    ax.plot(xs, [min(peak, bw * x) / 1e12 for x in xs], color="black",
            label="roof: %.1f TOPS, %.0f GB/s" % (peak / 1e12, bw / 1e9))
    ax.axvline(peak / bw, color="grey", linestyle=":", label="ridge %.0f ops/B" % (peak / bw))
    for op in run.ops:
        x = op["flops"] / op["bytes"]
        y = op["flops"] / (op["time_us"] * 1e-6) / 1e12
        marker = "^" if "cnn" in op["name"] else ("s" if "lstm" in op["name"] else "o")
        ax.scatter([x], [y], marker=marker, s=50, zorder=3)
        ax.annotate(op["name"], (x, y), textcoords="offset points", xytext=(4, -10), fontsize=7)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ops per DRAM (weight) byte")
    ax.set_ylabel("TOPS")
    ax.set_title("TPU v1 Roofline: MLP/LSTM memory-bound, CNN compute-bound")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")


def traffic(binary, tmp, ax):
    sizes = [64, 128, 256, 512, 1024, 2048, 4096, 8192]
    macs, dram = [], []
    for n in sizes:
        stats, _ = systolic(binary, tmp, "t_%d" % n,
                            ["--gemm", "%d,%d,%d" % (n, n, n), "--set",
                             "systolic.dram.activations_in_dram=true"])
        macs.append(stats["systolic_run"]["macs"]["value"])
        dram.append(stats["systolic_run"]["dram_bytes"]["value"])
    ax.plot(sizes, macs, marker="o", label="MACs (slope 3)")
    ax.plot(sizes, dram, marker="s", label="DRAM bytes (slope 2 while operands fit)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("n (square GEMM n x n x n, int8)")
    ax.set_ylabel("count")
    ax.set_title("O(n^3) MACs vs O(n^2) memory traffic, TPU v1 buffers")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wallsim", default=os.path.join(HERE, "..", "build", "wallsim"))
    ap.add_argument("--topology", default=RESNET, help="SCALE-Sim topology for the array sweep")
    ap.add_argument("--figures", default="utilisation,sweep,roofline,traffic")
    ap.add_argument("-o", "--output", required=True, help="output folder")
    args = ap.parse_args()
    os.makedirs(args.output, exist_ok=True)
    draw = {"utilisation": utilisation, "sweep": lambda b, t, a: sweep(b, t, a, args.topology),
            "roofline": roofline, "traffic": traffic}
    with tempfile.TemporaryDirectory() as tmp:
        for name in wallsim_output.split_list(args.figures):
            if name not in draw:
                wallsim_output.die("unknown figure '%s'; expected one of: %s" % (name, ", ".join(draw)))
            fig, ax = plt.subplots(figsize=(7, 4.5))
            draw[name](args.wallsim, tmp, ax)
            fig.tight_layout()
            path = os.path.join(args.output, "systolic_%s.png" % name)
            fig.savefig(path, dpi=120)
            plt.close(fig)
            print("wrote %s" % path)


if __name__ == "__main__":
    main()
