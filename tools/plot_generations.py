#!/usr/bin/env python3
"""The same training step on several GPUs: stacked bars of the step time split into GEMM and
non-GEMM ops (attention, element-wise, other), with each GPU's MFU and non-GEMM share.

Left: step time per GPU, stacked by op class (tools/plot_step.py's classes). Right: MFU and
the share of the step outside GEMMs, in percent. MFU is against each run's own dense BF16 Tensor
Core peak (stats.json hw.peak_flops.tensor.bf16), so a what-if with doubled FLOP/s is measured
against its doubled peak.

Examples:
  tools/plot_generations.py out/gpu/generations/{a100,h100,h200} -o gen.png
  tools/plot_generations.py a100 h100 h200 h100x2 -o gen.png --labels "A100,H100,H200,2x FLOP/s"
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402
from plot_step import CLASSES, COLORS, summarise, summary_line  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Step time split into GEMM and non-GEMM ops, MFU and non-GEMM share, per GPU.")
    ap.add_argument("dirs", nargs="+", metavar="DIR", help="wallsim output directories, one per GPU")
    ap.add_argument("-o", "--output", required=True, metavar="OUT", help="output file (PNG or .svg)")
    ap.add_argument("--labels", metavar="L,L",
                    help="bar labels, comma-separated; \\n breaks a line (default: hw names)")
    ap.add_argument("--title", metavar="T", default="The same training step on each GPU",
                    help="title")
    ap.add_argument("--dpi", type=int, default=120, help="PNG resolution (default 120)")
    args = ap.parse_args(argv)

    runs = [wo.load_run(d) for d in args.dirs]
    labels = [r.hw_name for r in runs]
    if args.labels:
        labels = [t.strip().replace("\\n", "\n") for t in args.labels.split(",")]
        if len(labels) != len(runs):
            wo.die("--labels has %d labels for %d directories" % (len(labels), len(runs)))
    sums = [summarise(r) for r in runs]
    plt = wo.import_pyplot()  # before printing: it may re-run the script under another python3
    for r, s in zip(runs, sums):
        print(summary_line(r, s))

    fig, (ax_t, ax_p) = plt.subplots(1, 2, figsize=(11, 4.8), gridspec_kw={"width_ratios": [3, 2]})
    x = list(range(len(runs)))
    bottom = [0.0] * len(runs)
    for c in CLASSES:
        h = [s["time"][c] * 1e3 for s in sums]
        ax_t.bar(x, h, bottom=bottom, color=COLORS[c], width=0.6, label=c)
        bottom = [b + v for b, v in zip(bottom, h)]
    for i, s in enumerate(sums):
        ax_t.text(i, s["step_s"] * 1e3, "%.0f ms\nMFU %.0f%%" % (s["step_s"] * 1e3, 100 * s["mfu"]),
                  ha="center", va="bottom", fontsize=9)
        g = s["time"]["GEMM"] * 1e3
        ax_t.text(i, g / 2, "%.0f ms" % g, ha="center", va="center", fontsize=8, color="white")
        ax_t.text(i, g + (s["step_s"] * 1e3 - g) / 2, "%.0f ms" % (s["step_s"] * 1e3 - g),
                  ha="center", va="center", fontsize=8, color="black")
    ax_t.set_xticks(x)
    ax_t.set_xticklabels(labels, fontsize=9)
    ax_t.set_ylabel("step time (ms)")
    ax_t.set_ylim(0, max(s["step_s"] for s in sums) * 1e3 * 1.2)
    ax_t.legend(fontsize=8, loc="upper right", framealpha=0.9)
    ax_t.set_title("step time by op class", fontsize=10)

    w = 0.38
    mfu = [100 * s["mfu"] for s in sums]
    share = [100 * s["non_gemm_share"] for s in sums]
    ax_p.bar([i - w / 2 for i in x], mfu, width=w, color="#2ca02c", label="MFU")
    ax_p.bar([i + w / 2 for i in x], share, width=w, color="#d62728", label="non-GEMM share of time")
    for i in x:
        ax_p.text(i - w / 2, mfu[i], "%.0f" % mfu[i], ha="center", va="bottom", fontsize=8)
        ax_p.text(i + w / 2, share[i], "%.0f" % share[i], ha="center", va="bottom", fontsize=8)
    ax_p.set_xticks(x)
    ax_p.set_xticklabels(labels, fontsize=9)
    ax_p.set_ylabel("%")
    ax_p.set_ylim(0, 100)
    ax_p.legend(fontsize=8, loc="upper left", framealpha=0.9)
    ax_p.set_title("MFU (of each GPU's BF16 peak) and non-GEMM share", fontsize=10)
    for ax in (ax_t, ax_p):
        ax.grid(True, axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
    fig.suptitle(args.title, fontsize=11)
    fig.tight_layout()
    written = wo.save_figure(fig, args.output, dpi=args.dpi)
    print("wrote %s" % ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
