#!/usr/bin/env python3
"""Plot a metric of a wallsim sweep (results.csv) against one or two of its axes.

One axis: a line of the metric against --x; --series AXIS draws one line per value of a
second axis. Two axes: --y AXIS draws a heatmap (x by y, coloured by the metric, each cell
labelled). Axes the plot does not show must hold one value, or be fixed with --where
AXIS=VALUE. Values such as "4.8Gbps" are placed by their number; others are categories.
Failed points are left out (and counted on stderr).

Examples:
  tools/plot_sweep.py out/sweeps/hbm_bandwidth --metric time_s --x hbm.pin_rate \\
      --series sm.count -o plots/sweep_lines.png
  tools/plot_sweep.py out/sweeps/hbm_bandwidth --metric time_s --x hbm.pin_rate \\
      --y sm.count -o plots/sweep_heatmap.png
"""

import argparse
import csv
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

NUMBER = re.compile(r"^\s*([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?)\s*([A-Za-z/%]*)\s*$")


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description="Plot a metric of a wallsim sweep against its axes.")
    ap.add_argument("results", metavar="SWEEP", help="sweep directory or its results.csv")
    ap.add_argument("--metric", required=True, help="metric column of results.csv")
    ap.add_argument("--x", required=True, metavar="AXIS", help="axis along x")
    ap.add_argument("--y", metavar="AXIS", help="second axis: draw a heatmap")
    ap.add_argument("--series", metavar="AXIS", help="second axis: one line per value")
    ap.add_argument("--where", action="append", default=[], metavar="AXIS=VALUE",
                    help="fix an axis the plot does not show (repeatable)")
    ap.add_argument("--logx", action="store_true", help="logarithmic x axis (line plots)")
    ap.add_argument("--logy", action="store_true", help="logarithmic metric axis (line plots)")
    ap.add_argument("--title", help="plot title (default: the metric and the sweep)")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    return ap.parse_args(argv)


def read_results(path):
    if os.path.isdir(path):
        path = os.path.join(path, "results.csv")
    if not os.path.isfile(path):
        wo.die("%s: not found (give a sweep directory or its results.csv)" % path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows or "status" not in rows[0]:
        wo.die("%s: not a wallsim sweep's results.csv (no status column)" % path)
    return path, rows


def number_of(text):
    """(value, unit) for '4.8Gbps', or None for a word."""
    m = NUMBER.match(text)
    return (float(m.group(1)), m.group(4)) if m else None


def order(values):
    """Distinct values in numeric order when all are numbers, else first-seen order."""
    distinct = list(dict.fromkeys(values))
    nums = [number_of(v) for v in distinct]
    if all(n is not None for n in nums):
        return [v for _, v in sorted(zip([n[0] for n in nums], distinct))], True
    return distinct, False


def main(argv=None):
    args = parse_args(argv)
    if args.y and args.series:
        wo.die("give --y (heatmap) or --series (lines), not both")
    path, rows = read_results(args.results)
    columns = list(rows[0].keys())
    for name in [args.metric, args.x, args.y, args.series]:
        if name and name not in columns:
            wo.die("%s has no column %r; its columns: %s" % (path, name, ", ".join(columns)))
    fixed = {}
    for item in args.where:
        key, sep, value = item.partition("=")
        if not sep or key not in columns:
            wo.die("--where wants AXIS=VALUE with an axis of %s, got %r" % (path, item))
        fixed[key] = value
    rows = [r for r in rows if all(r[k] == v for k, v in fixed.items())]
    failed = [r for r in rows if r["status"] != "ok"]
    rows = [r for r in rows if r["status"] == "ok" and r[args.metric] != ""]
    if failed:
        sys.stderr.write("plot_sweep.py: leaving out %d failed point(s)\n" % len(failed))
    if not rows:
        wo.die("no successful point with a value of %r to plot" % args.metric)
    about = os.path.join(os.path.dirname(path), "sweep.json")
    axes = []
    if os.path.isfile(about):
        with open(about) as f:
            axes = json.load(f).get("axes", [])
    shown = {args.x, args.y, args.series} - {None}
    for axis in axes:
        if axis in shown or axis in fixed:
            continue
        values = sorted({r[axis] for r in rows})
        if len(values) > 1:
            wo.die("axis %s varies (%s) but is not plotted; fix it with --where %s=VALUE or show "
                   "it with --series/--y" % (axis, ", ".join(values), axis))

    plt = wo.import_pyplot()
    title = args.title or "%s (%s)" % (args.metric, os.path.basename(os.path.dirname(
        os.path.abspath(path))))
    xs, x_numeric = order([r[args.x] for r in rows])
    if args.y:
        ys, _ = order([r[args.y] for r in rows])
        grid = [[float("nan")] * len(xs) for _ in ys]
        for r in rows:
            grid[ys.index(r[args.y])][xs.index(r[args.x])] = float(r[args.metric])
        fig, ax = plt.subplots(figsize=(1.2 * len(xs) + 3, 0.6 * len(ys) + 2.5))
        im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
        ax.set_xticks(range(len(xs)), labels=xs)
        ax.set_yticks(range(len(ys)), labels=ys)
        ax.set_ylabel(args.y)
        finite = [v for row in grid for v in row if v == v]
        middle = (min(finite) + max(finite)) / 2
        for i, row in enumerate(grid):
            for j, v in enumerate(row):
                if v == v:
                    ax.text(j, i, "%.3g" % v, ha="center", va="center", fontsize=8,
                            color="white" if v < middle else "black")
        fig.colorbar(im, ax=ax, label=args.metric)
    else:
        fig, ax = plt.subplots(figsize=(8, 5))
        groups = order([r[args.series] for r in rows])[0] if args.series else [None]
        for g in groups:
            pts = [r for r in rows if g is None or r[args.series] == g]
            pts.sort(key=lambda r: xs.index(r[args.x]))
            px = [number_of(r[args.x])[0] if x_numeric else xs.index(r[args.x]) for r in pts]
            py = [float(r[args.metric]) for r in pts]
            ax.plot(px, py, marker="o", label=None if g is None else "%s = %s" % (args.series, g))
        if not x_numeric:
            ax.set_xticks(range(len(xs)), labels=xs)
        if args.series:
            ax.legend()
        ax.set_ylabel(args.metric)
        ax.grid(True, alpha=0.3)
        if args.logx:
            ax.set_xscale("log")
        if args.logy:
            ax.set_yscale("log")
    unit = number_of(xs[0])[1] if x_numeric else ""
    ax.set_xlabel(args.x + (" (%s)" % unit if unit else ""))
    ax.set_title(title)
    fig.tight_layout()
    out_dir = os.path.dirname(os.path.abspath(args.output))
    os.makedirs(out_dir, exist_ok=True)
    fig.savefig(args.output, dpi=args.dpi)
    print(args.output)


if __name__ == "__main__":
    main()
