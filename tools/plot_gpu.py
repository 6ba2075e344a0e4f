#!/usr/bin/env python3
"""Plots of the cycle-level GPU experiments, from one wallsim run directory each.

  occupancy   achieved HBM bandwidth against resident warps per SM, and where the warps'
              time went (traces/examples/gpu_occupancy.yaml)
  stride      bytes moved at L1, L2 and HBM per useful byte, and the time, against the
              access stride (traces/examples/gpu_stride.yaml)
  divergence  time and warp-instructions against the paths a warp splits into
              (traces/examples/gpu_divergence.yaml)

Reads ops.csv and kernels.csv (written when the cycle-level GPU ran the ops).

Examples:
  tools/plot_gpu.py occupancy out/gpu_occupancy -o occupancy.png
  tools/plot_gpu.py stride out/gpu_stride -o stride.png --svg
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

STALLS = [("issuing", "issuing", "#2ca02c"),
          ("stall_memory", "memory", "#d62728"),
          ("stall_dependency", "dependency", "#ff7f0e"),
          ("stall_pipeline", "pipeline busy", "#9467bd"),
          ("stall_barrier", "barrier", "#8c564b"),
          ("not_selected", "not selected", "#7f7f7f")]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Plots of the cycle-level GPU experiments.")
    ap.add_argument("experiment", choices=["occupancy", "stride", "divergence"])
    ap.add_argument("dir", metavar="DIR", help="wallsim output directory of the experiment's trace")
    ap.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output file; PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write OUT with the extension .svg")
    ap.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    return ap.parse_args(argv)


def load_kernels(run):
    path = os.path.join(run.dir, "kernels.csv")
    if not os.path.isfile(path):
        wo.die("%s: no kernels.csv (were the ops run by the cycle-level GPU, gpu.sm?)" % run.dir)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    by_index = {}
    for r in rows:
        try:
            by_index[int(r["index"])] = {k: (float(v) if k not in ("name", "kernel", "tile", "occupancy_limiter") else v)
                                         for k, v in r.items()}
        except (KeyError, ValueError) as e:
            wo.die("%s: malformed kernels.csv (%s)" % (path, e))
    joined = []
    for op in run.ops:
        k = by_index.get(op["index"])
        if k:
            joined.append((op, k))
    if not joined:
        wo.die("%s: kernels.csv names none of the ops in ops.csv" % run.dir)
    return joined


def stall_bars(ax, xs, kernels, width):
    bottom = [0.0] * len(xs)
    for key, label, color in STALLS:
        total = [sum(k[s] for s, _, _ in STALLS) or 1.0 for k in kernels]
        share = [k[key] / t * 100 for k, t in zip(kernels, total)]
        ax.bar(xs, share, width, bottom=bottom, label=label, color=color)
        bottom = [b + s for b, s in zip(bottom, share)]
    ax.set_ylabel("share of resident warp time (%)")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))


def plot_occupancy(plt, run, rows):
    peak = run.bandwidth()
    warps = [k["theoretical_occupancy"] * 64 for _, k in rows]
    achieved = [k["dram_gbps"] for _, k in rows]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    a.plot(warps, achieved, "o-", color="#1f77b4")
    a.axhline(peak / 1e9, ls="--", color="k", lw=0.8)
    a.text(warps[0], peak / 1e9 * 0.97, "peak HBM %.0f GB/s" % (peak / 1e9), va="top", fontsize=8)
    for w, g, (_, k) in zip(warps, achieved, rows):
        a.annotate("%.0f%%" % (g * 1e9 / peak * 100), (w, g), textcoords="offset points",
                   xytext=(0, 6), ha="center", fontsize=7)
    a.set_xlabel("resident warps per SM (occupancy limited by shared memory)")
    a.set_ylabel("achieved HBM bandwidth (GB/s)")
    a.set_ylim(0, peak / 1e9 * 1.08)
    a.set_title("Latency hiding needs warps")
    stall_bars(b, warps, [k for _, k in rows], 5)
    b.set_xlabel("resident warps per SM")
    b.set_title("Where the warps' time goes")
    fig.suptitle("%s: FP32 c = a + b, %s" % (run.hw_name, run.trace_name), fontsize=10)
    return fig


def plot_stride(plt, run, rows):
    strides = [int(op["name"].split("_")[-1]) if op["name"].split("_")[-1].isdigit() else i + 1
               for i, (op, _) in enumerate(rows)]
    base = rows[0][1]["l1_bytes"] or 1.0
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    for key, label in (("l1_bytes", "L1 (loads)"), ("l2_bytes", "L2 (loads and stores)"),
                       ("dram_read_bytes", "HBM reads")):
        a.plot(strides, [k[key] / base for _, k in rows], "o-", label=label)
    a.set_xscale("log", base=2)
    a.set_xlabel("stride between neighbouring threads (elements)")
    a.set_ylabel("bytes moved / bytes at stride 1 (L1)")
    a.set_title("Sectors moved per useful byte")
    a.legend(fontsize=8)
    times = [op["time_us"] for op, _ in rows]
    b.plot(strides, times, "o-", color="#d62728")
    b.set_xscale("log", base=2)
    b.set_xlabel("stride (elements)")
    b.set_ylabel("kernel time (us)")
    b.set_title("Time")
    fig.suptitle("%s: FP32 copy, coalesced vs strided" % run.hw_name, fontsize=10)
    return fig


def plot_divergence(plt, run, rows):
    paths = [int(op["name"].split("_")[-1]) if op["name"].split("_")[-1].isdigit() else i + 1
             for i, (op, _) in enumerate(rows)]
    t0 = rows[0][0]["time_us"] or 1.0
    w0 = rows[0][1]["warp_instructions"] or 1.0
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    a.plot(paths, [op["time_us"] / t0 for op, _ in rows], "o-", label="time")
    a.plot(paths, [k["warp_instructions"] / w0 for _, k in rows], "s--", label="warp-instructions")
    a.plot(paths, paths, ":", color="k", lw=0.8, label="paths (full serialisation)")
    a.set_xscale("log", base=2)
    a.set_yscale("log", base=2)
    a.set_xlabel("paths a warp's branch splits into")
    a.set_ylabel("relative to one path")
    a.set_title("SIMT serialises divergent paths")
    a.legend(fontsize=8)
    stall_bars(b, list(range(len(paths))), [k for _, k in rows], 0.6)
    b.set_xticks(list(range(len(paths))))
    b.set_xticklabels([str(p) for p in paths])
    b.set_xlabel("paths")
    b.set_title("Where the warps' time goes")
    fig.suptitle("%s: FP32 element-wise, 128 FLOP per element" % run.hw_name, fontsize=10)
    return fig


def main(argv=None):
    args = parse_args(argv)
    plt = wo.import_pyplot()
    run = wo.load_run(args.dir)
    rows = load_kernels(run)
    fig = {"occupancy": plot_occupancy, "stride": plot_stride,
           "divergence": plot_divergence}[args.experiment](plt, run, rows)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg, args.dpi)
    return 0


if __name__ == "__main__":
    sys.exit(main())
