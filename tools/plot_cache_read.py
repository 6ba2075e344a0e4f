#!/usr/bin/env python3
"""Cache bandwidth against the data set, simulated and measured: gpu-benches' L2 cache test.

Runs the cache_read operator (docs/gpu_rows_and_latency.md, "cache_read") on each GPU preset at
a series of data sets, one `wallsim run --fidelity cycle` per GPU, and draws its warm_read_gbps
against the data set as lines, with the benchmark's recorded outputs as crosses
(configs/validation/data/gpu_benches_l2.csv, docs/references.md [gpu-benches]) and the preset's
L2 size marked: the L2 plateau, the fall to DRAM, and where the model departs from the
hardware.

Example:
  tools/plot_cache_read.py -o docs/images/cache_read.png
  tools/plot_cache_read.py --gpus a100 --sizes 4096,65536 -o quick.png
"""
import argparse
import csv
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MEASURED = os.path.join(HERE, "..", "configs", "validation", "data", "gpu_benches_l2.csv")
BLOCK = 131072  # the operator's default block_bytes
SIZES_KB = [2048, 8192, 16896, 25600, 30720, 36864, 40448, 44032, 48128, 57856, 100352]


def read_measured(path):
    """{gpu: [(data set kB, GB/s)]} from the benchmark's CSV."""
    curves = {}
    try:
        with open(path) as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                curves.setdefault(row["gpu"], []).append(
                    (float(row["data_set_kb"]), float(row["gbps"])))
    except (OSError, KeyError, ValueError) as e:
        wo.die("%s: expected gpu,data_set_kb,gbps rows (%s)" % (path, e))
    return curves


def parse_sizes(text):
    try:
        sizes = [int(s) for s in text.split(",") if s]
    except ValueError:
        wo.die("--sizes: expected kB counts separated by commas, got '%s'" % text)
    for kb in sizes:
        if kb <= 0 or kb * 1024 % BLOCK:
            wo.die("--sizes: %d kB is not a whole number of 128 kB blocks" % kb)
    return sizes


def simulate(wallsim, gpu, sizes, tmp):
    """([(data set kB, warm GB/s)], L2 bytes) of the cache_read operator on
    configs/hw/<gpu>.yaml, the L2's size as the run reports it (stats.json hw.l2_size)."""
    lines = ["version: 1", "ops:"]
    for kb in sizes:
        footprint = kb * 1024
        ctas = max(2048, 2 * footprint // BLOCK)
        lines.append("  - {name: read_%d, kind: cache_read, footprint: %d, ctas: %d}"
                     % (kb, footprint, ctas))
    trace = os.path.join(tmp, gpu + ".yaml")
    with open(trace, "w") as f:
        f.write("\n".join(lines) + "\n")
    out = os.path.join(tmp, gpu)
    hw = os.path.join(HERE, "..", "configs", "hw", gpu + ".yaml")
    wo.run_wallsim(wallsim, ["run", "--hw", hw, "--fidelity", "cycle", "--trace", trace,
                             "--no-progress", "--out", out])
    with open(os.path.join(out, "kernels.csv")) as f:
        rows = {r["name"]: float(r["warm_read_gbps"]) for r in csv.DictReader(f)}
    with open(os.path.join(out, "stats.json")) as f:
        l2_bytes = json.load(f)["hw"]["l2_size"]["value"]
    return [(kb, rows["read_%d" % kb]) for kb in sizes], l2_bytes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpus", default="a100,h200", help="presets of configs/hw, comma-separated")
    ap.add_argument("--sizes", default=",".join(str(s) for s in SIZES_KB),
                    help="data sets in kB (multiples of 128), comma-separated")
    ap.add_argument("--measured", default=MEASURED, help="the benchmark's CSV (gpu,data_set_kb,gbps)")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    args = ap.parse_args(argv)
    gpus = [g for g in args.gpus.split(",") if g]
    for g in gpus:
        if not os.path.exists(os.path.join(HERE, "..", "configs", "hw", g + ".yaml")):
            wo.die("--gpus: no preset configs/hw/%s.yaml" % g)
    sizes = parse_sizes(args.sizes)
    measured = read_measured(args.measured)
    plt = wo.import_pyplot()
    with tempfile.TemporaryDirectory() as tmp:
        simulated = {g: simulate(args.wallsim, g, sizes, tmp) for g in gpus}
    fig, ax = plt.subplots(figsize=(8, 5))
    for i, g in enumerate(gpus):
        colour = "C%d" % i
        points, l2_bytes = simulated[g]
        ax.plot([kb / 1024 for kb, _ in points], [bw / 1000 for _, bw in points], marker="o",
                markersize=3, color=colour, label="%s, simulated" % g.upper())
        if g in measured:
            ax.plot([kb / 1024 for kb, _ in measured[g]], [bw / 1000 for _, bw in measured[g]],
                    linestyle="none", marker="x", markersize=6, color=colour,
                    label="%s, gpu-benches" % g.upper())
        ax.axvline(l2_bytes / 1024 / 1024, color=colour, linestyle=":", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("data set (MiB); dotted: the L2")
    ax.set_ylabel("bandwidth (TB/s), every SM reading the data set over and over")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Cache bandwidth: wallsim's cache_read against gpu-benches' L2 cache test",
                 fontsize=10)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
