#!/usr/bin/env python3
"""Speed-up over FP32 of each op of a precision sweep (traces/examples/precision_sweep.yaml).

Op names are <op>_<precision> with precision fp32, tf32, bf16 or fp8; every op with an fp32
version gets one bar per precision: time at fp32 / time at that precision (log scale). GEMMs
are drawn in blues, the other ops in oranges. A black tick on each bar marks what the peaks
promise: for a GEMM the ratio of the precision's Tensor Core peak to the FP32 (CUDA-core) peak,
for a memory-bound op the ratio of element sizes (FP32 4 bytes, TF32 4 bytes in memory, BF16 2,
FP8 1).

Example:
  tools/plot_precision.py out/gpu/precision/h100 -o out/gpu/precision/precision.png
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

PRECISIONS = ["fp32", "tf32", "bf16", "fp8"]
BYTES = {"fp32": 4, "tf32": 4, "bf16": 2, "fp8": 1}
GEMM_COLORS = ["#c6dbef", "#6baed6", "#2171b5", "#08306b"]
OTHER_COLORS = ["#fdd0a2", "#fd8d3c", "#d94801", "#7f2704"]


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Speed-up over FP32 per op and precision of a precision-sweep run.")
    ap.add_argument("dir", metavar="DIR", help="wallsim output directory of precision_sweep")
    ap.add_argument("-o", "--output", required=True, metavar="OUT", help="output file (PNG or .svg)")
    ap.add_argument("--title", metavar="T", help="title (default: hardware name)")
    ap.add_argument("--dpi", type=int, default=120, help="PNG resolution (default 120)")
    args = ap.parse_args(argv)

    run = wo.load_run(args.dir)
    ops = {}
    for op in run.ops:
        base, _, prec = (op["name"] or "").rpartition("_")
        if prec in PRECISIONS and base:
            ops.setdefault(base, {})[prec] = op
    bases = [b for b in ops if "fp32" in ops[b] and (ops[b]["fp32"]["time_us"] or 0) > 0]
    if not bases:
        wo.die("%s: no op named <op>_fp32 with a time (is this a precision_sweep run?)" % run.dir)
    fp32_peak = run.peak_flops("vector", "fp32")

    plt = wo.import_pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter
    fig, ax = plt.subplots(figsize=(10, 4.8))
    w = 0.8 / len(PRECISIONS)
    for i, base in enumerate(bases):
        gemm = ops[base]["fp32"]["kind"] == "gemm"
        colors = GEMM_COLORS if gemm else OTHER_COLORS
        t32 = ops[base]["fp32"]["time_us"]
        line = []
        for j, prec in enumerate(PRECISIONS):
            op = ops[base].get(prec)
            if not op or not op["time_us"]:
                continue
            x = i - 0.4 + w * (j + 0.5)
            speedup = t32 / op["time_us"]
            ax.bar([x], [speedup], width=w * 0.92, color=colors[j], edgecolor="black", linewidth=0.4)
            ax.text(x, speedup * 1.05, "%.3g" % speedup, ha="center", va="bottom", fontsize=7)
            if gemm:
                peak = run.peak_flops("tensor", prec) if prec != "fp32" else fp32_peak
                ideal = peak / fp32_peak if peak and fp32_peak else None
            else:
                ideal = BYTES["fp32"] / BYTES[prec]
            if ideal:
                ax.plot([x - w * 0.46, x + w * 0.46], [ideal, ideal], color="black", linewidth=1.6)
            line.append("%s %.2fx" % (prec, speedup))
        print("%s: %s (fp32 %.1f us)" % (base, ", ".join(line), t32))
    ax.set_yscale("log")
    ax.set_yticks([1, 2, 4, 8, 16, 32])
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _pos: "%g" % v))
    ax.set_xticks(range(len(bases)))
    ax.set_xticklabels(bases, fontsize=9)
    ax.set_xlim(-0.6, len(bases) - 0.4)
    ax.set_ylabel("speed-up over FP32 (time FP32 / time)")
    ax.grid(True, axis="y", which="both", color="#eeeeee", linewidth=0.6)
    ax.set_axisbelow(True)
    handles = [Patch(facecolor=GEMM_COLORS[j], edgecolor="black", linewidth=0.4,
                     label="%s (GEMM)" % p.upper()) for j, p in enumerate(PRECISIONS)]
    other = ["FP32", "TF32 mode, fp32 tensors", "BF16", "FP8"]
    handles += [Patch(facecolor=OTHER_COLORS[j], edgecolor="black", linewidth=0.4,
                      label="%s (other ops)" % other[j]) for j in range(len(PRECISIONS))]
    handles.append(Line2D([], [], color="black", linewidth=1.6,
                          label="peak ratio (GEMM) / bytes ratio (other)"))
    ax.legend(handles=handles, fontsize=7.5, ncol=3, loc="upper right", framealpha=0.9)
    ax.set_ylim(0.5, ax.get_ylim()[1] * 2.5)
    ax.set_title(args.title or "Speed-up over FP32 by precision: %s" % run.hw_name, fontsize=11)
    fig.tight_layout()
    written = wo.save_figure(fig, args.output, dpi=args.dpi)
    print("wrote %s" % ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
