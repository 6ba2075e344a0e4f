#!/usr/bin/env python3
"""Per-op utilisation bars of one wallsim run.

For each op (trace order, or the N longest with --top N) draws two horizontal
bars, FLOP utilisation and bandwidth utilisation in percent of the roof, and
writes the op's share of the summed op time (plus its time and bound) at the
right.

Examples:
  tools/plot_ops.py out/h100 -o plots/ops.png
  tools/plot_ops.py out/h100 -o plots/ops.png --svg --top 20
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

MAX_OPS = 400          # without --top, longer traces are cut to the longest ones
NAME_WIDTH = 38        # characters of the op name shown on the y axis
FLOP_COLOR = "#1f77b4"
BW_COLOR = "#ff7f0e"


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description="Per-op FLOP and bandwidth utilisation bars of a wallsim run (ops.csv).",
        epilog="Time share is each op's time_us over the sum of time_us of all ops in ops.csv "
               "(ops on different streams may overlap, so this is not a share of wall time). "
               "Without --top, traces longer than %d ops are cut to the %d longest." % (MAX_OPS, MAX_OPS))
    ap.add_argument("dir", metavar="DIR", help="wallsim output directory")
    ap.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output file; PNG, or SVG when it ends in .svg (format follows the extension)")
    ap.add_argument("--svg", action="store_true", help="also write OUT with the extension .svg")
    ap.add_argument("--top", type=int, metavar="N",
                    help="only the N ops with the largest time, longest first (default: all, trace order)")
    ap.add_argument("--title", metavar="T", help="plot title (default: hardware and trace names)")
    ap.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    ap.add_argument("--width", type=float, default=10.0, help="figure width in inches (default 10)")
    return ap.parse_args(argv)


def short(name, width=NAME_WIDTH):
    return name if len(name) <= width else name[:width - 1] + "\u2026"


def fmt_time(us):
    if us >= 1e6:
        return "%.3g s" % (us / 1e6)
    if us >= 1e3:
        return "%.3g ms" % (us / 1e3)
    return "%.3g us" % us


def main(argv=None):
    args = parse_args(argv)
    if args.top is not None and args.top <= 0:
        wo.die("--top wants a positive number, got %d" % args.top)
    run = wo.load_run(args.dir)

    total = run.total_time_us()
    ops = list(run.ops)
    if args.top is not None:
        ops = sorted(ops, key=lambda op: -(op["time_us"] or 0.0))[:args.top]
        order_note = "top %d of %d ops by time" % (len(ops), len(run.ops))
    elif len(ops) > MAX_OPS:
        keep = {id(op) for op in sorted(ops, key=lambda op: -(op["time_us"] or 0.0))[:MAX_OPS]}
        ops = [op for op in ops if id(op) in keep]
        sys.stderr.write("note: %d ops; showing the %d longest in trace order (use --top N)\n"
                         % (len(run.ops), MAX_OPS))
        order_note = "%d longest of %d ops, trace order" % (MAX_OPS, len(run.ops))
    else:
        order_note = "%d ops, trace order" % len(ops)

    plt = wo.import_pyplot()
    from matplotlib.ticker import FuncFormatter
    from matplotlib.transforms import blended_transform_factory

    n = len(ops)
    row_h = 0.32
    fig_h = max(2.8, 1.6 + row_h * max(n, 1))
    fig, ax = plt.subplots(figsize=(args.width, fig_h))

    bar_h = 0.38
    ys = list(range(n))
    fu = [100.0 * (op["flop_util"] or 0.0) for op in ops]
    bu = [100.0 * (op["bw_util"] or 0.0) for op in ops]
    # A systolic array's or CIM chip's roofs are its peak op/s and its DRAM (tile buffer)
    # bandwidth; ops.csv holds each op's utilisation of its own device's roofs.
    ax.barh([y - bar_h / 2 for y in ys], fu, height=bar_h, color=FLOP_COLOR,
            label="%s utilisation" % ("FLOP" if run.counts_flops else "compute (op/s)"))
    ax.barh([y + bar_h / 2 for y in ys], bu, height=bar_h, color=BW_COLOR,
            label="%s bandwidth utilisation" % run.memory_name)

    labels = []
    for op in ops:
        idx = "" if op["index"] is None else "#%d " % op["index"]
        extra = "/".join(x for x in (op["kind"], op["dtype"]) if x)
        labels.append("%s%s%s" % (idx, short(op["name"] or "?"), (" [%s]" % extra) if extra else ""))
    ax.set_yticks(ys)
    ax.set_yticklabels(labels, fontsize=7.5, family="monospace")
    ax.set_ylim(max(n, 1) - 0.5, -0.5)  # first op at the top

    xmax = max([100.0] + fu + bu) * 1.04
    ax.set_xlim(0, xmax)
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _p: "%g%%" % v))
    ax.axvline(100.0, color="#888888", linewidth=0.8, linestyle="--", zorder=0)
    ax.grid(True, axis="x", color="#e4e4e4", linewidth=0.8)
    ax.set_axisbelow(True)

    # right-hand column: time share, time, bound
    tr = blended_transform_factory(ax.transAxes, ax.transData)
    ax.text(1.01, -0.5, "%6s %9s  %s" % ("share", "time", "bound"), transform=tr, ha="left",
            va="bottom", fontsize=7, color="#555555", family="monospace")
    for y, op in zip(ys, ops):
        t = op["time_us"] or 0.0
        share = 100.0 * t / total if total > 0 else 0.0
        ax.text(1.01, y, "%5.1f%% %9s  %s" % (share, fmt_time(t), op["bound"] or ""),
                transform=tr, ha="left", va="center", fontsize=7, family="monospace")

    if n == 0:
        ax.text(0.5, 0.5, "no ops in ops.csv", transform=ax.transAxes, ha="center", color="#888888")

    if args.title:
        title = args.title
    else:
        title = "Per-op utilisation: %s" % run.hw_name
        if run.trace_name:
            title += " / %s" % run.trace_name
    ax.set_title(title, loc="left", pad=12)
    ax.set_xlabel("Utilisation of peak (%%)\n%s; share = %% of summed op time (%s)"
                  % (order_note, fmt_time(total)))
    fig.tight_layout()
    ax_h_pt = ax.get_position().height * fig_h * 72
    if n:
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -44.0 / ax_h_pt), ncol=2, fontsize=8, frameon=False)

    written = wo.save_figure(fig, args.output, svg=args.svg, dpi=args.dpi)
    print("wrote %s (%d of %d ops)" % (", ".join(written), n, len(run.ops)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
