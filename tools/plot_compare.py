#!/usr/bin/env python3
"""Measured against simulated time of a run of an imported trace.

Left: every operator's simulated time against its measured time (log-log, one
colour per operator kind, the diagonal where they agree, the +-2x band dashed).
Right: the summed measured and simulated time per kind, side by side.  Custom
operators that replay their measured time are drawn in grey and kept apart
("custom (replayed)"): they agree by construction.

Examples:
  wallsim import pytorch prof.json.gz -o mine.jsonl
  wallsim run --hw configs/hw/h100.yaml --trace mine.jsonl --out out/mine
  tools/plot_compare.py out/mine -o compare.png
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

REPLAYED = "custom (replayed)"
REPLAYED_COLOR = "#9e9e9e"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description="Measured vs simulated operator times of a wallsim run (ops.csv of a trace "
                    "written by `wallsim import`).")
    ap.add_argument("dir", metavar="DIR", help="wallsim output directory")
    ap.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output file; PNG, or SVG when it ends in .svg")
    ap.add_argument("--title", metavar="T", help="figure title (default: hardware and trace)")
    ap.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    return ap.parse_args(argv)


def op_class(op):
    return REPLAYED if op["bound"] == "measured" else op["kind"]


def own_us(op):
    """The operator's simulated time without its launch gap: what a profiler's kernel duration,
    the measured time, covers (ops.csv's error column compares the same)."""
    return op["time_us"] - (op.get("launch_gap_us") or 0.0)


def main(argv=None):
    a = parse_args(argv)
    run = wo.load_run(a.dir)
    ops = [op for op in run.ops if op["measured_us"] and op["measured_us"] > 0 and own_us(op) > 0]
    if not ops:
        wo.die("%s: no operator has a measured time (run a trace written by wallsim import)"
               % os.path.join(a.dir, "ops.csv"))
    plt = wo.import_pyplot()
    classes = sorted({op_class(op) for op in ops}, key=lambda c: (c == REPLAYED, c))
    # tab10 without its grey, which marks the replayed ops.
    palette = [plt.get_cmap("tab10")(i) for i in range(10) if i != 7]
    color = {c: (REPLAYED_COLOR if c == REPLAYED else palette[i % len(palette)])
             for i, c in enumerate(classes)}

    fig, (scatter, bars) = plt.subplots(1, 2, figsize=(13, 5.5),
                                        gridspec_kw={"width_ratios": [1.1, 1]})
    lo = min(min(op["measured_us"], own_us(op)) for op in ops)
    hi = max(max(op["measured_us"], own_us(op)) for op in ops)
    lo, hi = lo / 1.5, hi * 1.5
    scatter.plot([lo, hi], [lo, hi], color="black", lw=0.8, label="simulated = measured")
    scatter.plot([lo, hi], [2 * lo, 2 * hi], color="black", lw=0.6, ls="--", label="2x")
    scatter.plot([lo, hi], [lo / 2, hi / 2], color="black", lw=0.6, ls="--")
    for c in classes:
        xs = [op["measured_us"] for op in ops if op_class(op) == c]
        ys = [own_us(op) for op in ops if op_class(op) == c]
        scatter.scatter(xs, ys, s=18, color=color[c], label="%s (%d)" % (c, len(xs)),
                        alpha=0.85, edgecolors="none")
    scatter.set_xscale("log")
    scatter.set_yscale("log")
    scatter.set_xlim(lo, hi)
    scatter.set_ylim(lo, hi)
    scatter.set_xlabel("measured time per operator (us)")
    scatter.set_ylabel("simulated time per operator, without its launch gap (us)")
    scatter.grid(True, which="both", lw=0.3, alpha=0.5)
    scatter.legend(fontsize=7, loc="upper left")

    measured = [sum(op["measured_us"] for op in ops if op_class(op) == c) for c in classes]
    simulated = [sum(own_us(op) for op in ops if op_class(op) == c) for c in classes]
    ys = range(len(classes))
    h = 0.38
    bars.barh([y - h / 2 for y in ys], measured, height=h, color=[color[c] for c in classes],
              alpha=0.45, label="measured")
    bars.barh([y + h / 2 for y in ys], simulated, height=h, color=[color[c] for c in classes],
              label="simulated")
    for y, m, s in zip(ys, measured, simulated):
        err = (s - m) / m * 100 if m > 0 else 0.0
        bars.text(max(m, s) * 1.02, y, "%+.0f%%" % err, va="center", fontsize=8)
    bars.set_yticks(list(ys))
    bars.set_yticklabels(classes, fontsize=8)
    bars.invert_yaxis()
    bars.set_xlabel("summed operator time (us): pale measured, solid simulated")
    bars.set_xlim(0, max(measured + simulated) * 1.18)
    bars.grid(True, axis="x", lw=0.3, alpha=0.5)

    title = a.title or "%s on %s: measured vs simulated" % (run.trace_name, run.hw_name)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    out_dir = os.path.dirname(os.path.abspath(a.output))
    if not os.path.isdir(out_dir):
        wo.die("%s: directory does not exist" % out_dir)
    fig.savefig(a.output, dpi=a.dpi)
    print("wrote %s" % a.output)


if __name__ == "__main__":
    main()
