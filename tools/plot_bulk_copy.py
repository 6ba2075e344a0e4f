#!/usr/bin/env python3
"""Bulk-copy bandwidth against copy size, simulated and measured, from `wallsim validate`.

Runs the bulk_copy validation cases (configs/validation/bulk_copy.yaml: Luo et al.'s TMA
bandwidth tests on an H800, one copy in flight per CTA) and draws each series' bandwidth
against the size of one copy: 1-D copies on the left, 2-D boxes on the right, one colour per
number of CTAs, simulated as lines and measured as crosses (docs/gpu_rows_and_latency.md).

Example:
  tools/plot_bulk_copy.py -o docs/images/bulk_copy_h800.png
  tools/plot_bulk_copy.py --csv out/validation/validation.csv -o bulk.png   # an earlier run
"""
import argparse
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

ONE_D = re.compile(r"^bulk_copy_h800_(\d+)k_(\d+)$")
TWO_D = re.compile(r"^bulk_copy_h800_2d_(\d+)x(\d+)_(\d+)$")


def read_cases(path):
    """{(kind, ctas): [(copy KiB, measured, simulated)]} from a validation.csv."""
    series = {}
    try:
        with open(path) as f:
            for row in csv.DictReader(f):
                one, two = ONE_D.match(row["id"]), TWO_D.match(row["id"])
                if one:
                    key, kib = ("1-D copies", int(one.group(2))), float(one.group(1))
                elif two:
                    w, h = int(two.group(1)), int(two.group(2))
                    key, kib = ("2-D boxes (FP32)", int(two.group(3))), w * h * 4 / 1024
                else:
                    continue
                series.setdefault(key, []).append(
                    (kib, float(row["measured"]), float(row["simulated"])))
    except (OSError, KeyError, ValueError) as e:
        wo.die("%s: expected a validation.csv of `wallsim validate` (%s)" % (path, e))
    if not series:
        wo.die("%s: no bulk_copy_h800 case in it" % path)
    return series


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", help="a validation.csv to draw instead of running the cases")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    args = ap.parse_args(argv)
    plt = wo.import_pyplot()
    series = wo.validation_cases(args.csv, args.wallsim, "bulk_copy", read_cases)
    kinds = sorted({kind for kind, _ in series})
    fig, axes = plt.subplots(1, len(kinds), figsize=(6 * len(kinds), 4.8), sharey=True,
                             squeeze=False)
    colours = {}
    for ax, kind in zip(axes[0], kinds):
        for (k, ctas), points in sorted(series.items()):
            if k != kind:
                continue
            colour = colours.setdefault(ctas, "C%d" % len(colours))
            points.sort()
            ax.plot([p[0] for p in points], [p[2] for p in points], marker="o", markersize=3,
                    color=colour, label="%d CTAs, simulated" % ctas)
            ax.plot([p[0] for p in points], [p[1] for p in points], linestyle="none", marker="x",
                    markersize=7, color=colour, label="%d CTAs, measured" % ctas)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes per copy (KiB)")
        ax.set_title(kind)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    axes[0][0].set_ylabel("bandwidth (GB/s), one copy in flight per CTA")
    fig.suptitle("TMA bulk copies on an H800: wallsim against Luo et al.'s raw logs", fontsize=11)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
