#!/usr/bin/env python3
"""Roofline plot of one or more wallsim runs.

For every run (hardware) draws the HBM bandwidth slope and one flat roof per
chosen (unit, dtype), i.e. min(peak, bw * I), annotates the ridge point of the
highest chosen roof, and places each op with intensity > 0 at
(intensity, achieved TFLOP/s), coloured by kind.

Examples:
  tools/plot_roofline.py out/h100 -o plots/roofline.png
  tools/plot_roofline.py out/h100 out/a100 -o plots/cmp.png --svg --dtypes bf16,fp32
  tools/plot_roofline.py out/h100 -o r.svg --roofs tensor:fp8,tensor:bf16 --label-ops 10
  tools/plot_roofline.py out/base out/whatif --label baseline --label "6 HBM stacks" -o cmp.png
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

LINESTYLES = ["-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1))]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
ROOF_COLORS = ["#333333", "#7a4f9a", "#2f6f6f", "#8a5a2b", "#555599"]
SAME_PEAK_RTOL = 0.005  # roofs this close are drawn as one line


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description="Log-log roofline of wallsim runs (stats.json + ops.csv).",
        epilog="Roof selection: default is every tensor dtype plus vector fp32 of the first run. "
               "--units/--dtypes filter (either alone means: all of the other); --roofs lists "
               "explicit unit:dtype pairs and overrides both. Roofs with equal peaks are merged.")
    ap.add_argument("dirs", nargs="+", metavar="DIR", help="wallsim output directory (several = compare hardware)")
    ap.add_argument("-o", "--output", required=True, metavar="OUT",
                    help="output file; PNG, or SVG when it ends in .svg (format follows the extension)")
    ap.add_argument("--svg", action="store_true", help="also write OUT with the extension .svg")
    ap.add_argument("--units", metavar="U,U", help="compute units whose roofs to draw, e.g. tensor,vector")
    ap.add_argument("--dtypes", metavar="D,D", help="dtypes whose roofs to draw, e.g. bf16,fp32")
    ap.add_argument("--roofs", metavar="U:D,U:D", help="explicit roofs, e.g. tensor:bf16,vector:fp32")
    ap.add_argument("--label", action="append", metavar="NAME",
                    help="name of a run in the legend and labels, once per DIR in order "
                         "(default: its hardware name), e.g. --label baseline --label what-if")
    ap.add_argument("--title", metavar="T", help="plot title (default: hardware and trace names)")
    ap.add_argument("--label-ops", nargs="?", type=int, const=0, default=None, metavar="N",
                    help="label ops with their names; with N, only the N longest ops of each run")
    ap.add_argument("--dpi", type=int, default=150, help="PNG resolution (default 150)")
    ap.add_argument("--size", default="9x6", metavar="WxH", help="figure size in inches (default 9x6)")
    return ap.parse_args(argv)


def choose_roofs(runs, args):
    """List of (unit, dtype) pairs to draw, in a stable order."""
    first = runs[0]
    pairs = []

    def add(u, d):
        if (u, d) not in pairs:
            pairs.append((u, d))

    if args.roofs:
        for item in wo.split_list(args.roofs):
            if ":" not in item:
                wo.die("--roofs wants unit:dtype pairs, got %r" % item)
            u, d = item.split(":", 1)
            add(u.strip(), d.strip())
    elif args.units or args.dtypes:
        units = wo.split_list(args.units)
        dtypes = wo.split_list(args.dtypes)
        for run in runs:
            for u in (units or run.units()):
                for d in (dtypes or run.dtypes(u)):
                    if run.peak_flops(u, d):
                        add(u, d)
    else:
        for d in first.dtypes("tensor"):
            add("tensor", d)
        if first.peak_flops("vector", "fp32"):
            add("vector", "fp32")
    have = [p for p in pairs if any(r.peak_flops(*p) for r in runs)]
    if not have:
        avail = sorted({"%s:%s" % (u, d) for r in runs for u in r.units() for d in r.dtypes(u)})
        wo.die("no roof selected has a peak in stats.json hw.peak_flops (available: %s)"
               % (",".join(avail) or "none"))
    for p in pairs:
        if p not in have:
            sys.stderr.write("note: no peak for %s:%s in any run, skipped\n" % p)
    return have


def grouped_roofs(run, pairs):
    """[(peak_flops, ['tensor bf16', ...])] sorted by peak, highest first;
    pairs with (almost) equal peaks share one entry."""
    groups = []
    for u, d in pairs:
        p = run.peak_flops(u, d)
        if not p:
            continue
        for g in groups:
            if abs(g[0] - p) <= SAME_PEAK_RTOL * max(g[0], p):
                g[1].append((u, d))
                break
        else:
            groups.append([p, [(u, d)]])
    groups.sort(key=lambda g: -g[0])
    out = []
    for peak, members in groups:
        # "tensor bf16/fp16 + vector fp32"
        by_unit = {}
        for u, d in members:
            by_unit.setdefault(u, []).append(d)
        out.append((peak, " + ".join("%s %s" % (u, "/".join(ds)) for u, ds in by_unit.items())))
    return out


def decade_floor(v):
    return 10 ** math.floor(math.log10(v))


def decade_ceil(v):
    return 10 ** math.ceil(math.log10(v))


def main(argv=None):
    args = parse_args(argv)
    try:
        fig_w, fig_h = (float(x) for x in args.size.lower().split("x"))
    except ValueError:
        wo.die("--size wants WxH in inches, e.g. 9x6, got %r" % args.size)

    runs = [wo.load_run(d) for d in args.dirs]
    if args.label and len(args.label) != len(runs):
        wo.die("--label given %d time(s) for %d run(s); give one per DIR" %
               (len(args.label), len(runs)))
    run_names = args.label or [r.hw_name for r in runs]
    pairs = choose_roofs(runs, args)
    try:
        bws = [r.bandwidth() for r in runs]
    except wo.WallsimOutputError as e:
        wo.die(e)
    roofs = [grouped_roofs(r, pairs) for r in runs]

    # ---- what to plot, in TFLOP/s --------------------------------------
    points = []  # per run: list of (I, tflops, op)
    skipped = []
    for r in runs:
        pts, skip = [], 0
        for op in r.ops:
            i, t = op["intensity"] or 0.0, op["achieved_tflops"] or 0.0
            if i > 0 and t > 0:
                pts.append((i, t, op))
            elif i > 0:
                skip += 1  # zero achieved rate cannot sit on a log axis
        points.append(pts)
        skipped.append(skip)

    ridges = [g[0][0] / bw for g, bw in zip(roofs, bws) if g]
    # always show at least three decades of bandwidth slope below the ridge
    xs = [p[0] for pts in points for p in pts] + ridges + [x / 1000.0 for x in ridges]
    xlo = decade_floor(min(xs) / 2.0)
    xhi = decade_ceil(max(xs) * 2.0)
    if xhi / xlo < 100:
        xlo, xhi = xlo / 10, xhi * 10
    max_peak = max(g[0][0] for g in roofs if g) / 1e12
    ys = [p[1] for pts in points for p in pts]
    ys += [min(g[-1][0], bw * xlo) / 1e12 for g, bw in zip(roofs, bws) if g]
    ylo = decade_floor(min(ys) / 1.5)
    yhi = max_peak * 3.0

    plt = wo.import_pyplot()
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots(figsize=(fig_w, fig_h))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(xlo, xhi)
    ax.set_ylim(ylo, yhi)
    tick = FuncFormatter(lambda v, _pos: "%g" % v)
    ax.xaxis.set_major_formatter(tick)
    ax.yaxis.set_major_formatter(tick)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.8)
    ax.grid(True, which="minor", color="#f0f0f0", linewidth=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel("Arithmetic intensity (FLOP/byte)")
    ax.set_ylabel("Attainable performance (TFLOP/s)")

    multi = len(runs) > 1
    if args.title:
        title = args.title
    else:
        hws = " vs ".join(dict.fromkeys(run_names))
        traces = ", ".join(t for t in dict.fromkeys(r.trace_name for r in runs) if t)
        title = "Roofline: %s%s" % (hws, (" / " + traces) if traces else "")
    ax.set_title(title)
    fig.tight_layout()

    # ---- roofs ----------------------------------------------------------
    roof_labels = []  # (y_tflops, text, color)
    slope_labels = []  # (run_idx, bw)
    for ri, (run, groups, bw) in enumerate(zip(runs, roofs, bws)):
        ls = LINESTYLES[ri % len(LINESTYLES)]
        color = ROOF_COLORS[ri % len(ROOF_COLORS)] if multi else ROOF_COLORS[0]
        if not groups:
            sys.stderr.write("note: %s has none of the selected roofs\n" % run_names[ri])
            continue
        for gi, (peak, label) in enumerate(groups):
            ridge = peak / bw
            xs_ = [xlo] + ([ridge] if xlo < ridge < xhi else []) + [xhi]
            ys_ = [min(peak, bw * x) / 1e12 for x in xs_]
            ax.plot(xs_, ys_, linestyle=ls, color=color,
                    linewidth=2.0 if gi == 0 else 1.2, alpha=1.0 if gi == 0 else 0.75, zorder=2)
            text = "%s  %s" % (label, wo.fmt_si(peak, "FLOP/s"))
            if multi:
                text = "%s: %s" % (run_names[ri], text)
            roof_labels.append((peak / 1e12, text, color))
        slope_labels.append((ri, bw, color))

        # ridge point of the highest roof, labelled along its dotted drop line
        peak = groups[0][0]
        ridge = peak / bw
        if xlo < ridge < xhi:
            ax.plot([ridge], [peak / 1e12], marker="o", markersize=7, markerfacecolor="white",
                    markeredgecolor=color, markeredgewidth=1.5, zorder=4)
            ax.vlines(ridge, ylo, peak / 1e12, colors=color, linestyles=":", linewidth=0.9, zorder=1)
            text = "ridge %.3g FLOP/B" % ridge + ((" (%s)" % run_names[ri]) if multi else "")
            ax.annotate(text, xy=(ridge, ylo), xytext=(-3, 4), textcoords="offset points",
                        rotation=90, ha="right", va="bottom", fontsize=8, color=color, zorder=5)

    # roof labels in a column right of the axes, spread so they do not overlap,
    # each with a short leader to its roof
    fs = 7.5
    ax_h_pt = ax.get_position().height * fig_h * 72
    gap = fs * 1.35 / ax_h_pt
    lo, hi = math.log10(ylo), math.log10(yhi)
    frac = sorted(((math.log10(y) - lo) / (hi - lo), t, c) for y, t, c in roof_labels)
    pos = []
    for f, _t, _c in frac:
        pos.append(max(f, pos[-1] + gap) if pos else f)
    if pos and pos[-1] > 1.0:  # pushed past the top: shift the crowded run down
        pos[-1] = 1.0
        for k in range(len(pos) - 2, -1, -1):
            pos[k] = min(pos[k], pos[k + 1] - gap)
    for (f, t, c), p in zip(frac, pos):
        ax.annotate(t, xy=(1.0, f), xycoords="axes fraction", xytext=(1.035, p),
                    textcoords="axes fraction", ha="left", va="center", fontsize=fs, color=c,
                    annotation_clip=False,
                    arrowprops=dict(arrowstyle="-", color=c, lw=0.6, shrinkA=0, shrinkB=0))

    # bandwidth label along the slope (angle measured in display space)
    for ri, bw, color in slope_labels:
        x0 = xlo * 3.0 * 8.0 ** ri
        y0 = bw * x0 / 1e12
        if not (ylo < y0 < yhi):
            x0 = ylo * 1e12 / bw * 3.0
            y0 = bw * x0 / 1e12
        p1 = ax.transData.transform((x0, y0))
        p2 = ax.transData.transform((x0 * 10, y0 * 10))
        angle = math.degrees(math.atan2(p2[1] - p1[1], p2[0] - p1[0]))
        text = "HBM %s" % wo.fmt_si(bw, "B/s")
        if multi:
            text = "%s %s" % (run_names[ri], text)
        ax.text(x0, y0, text, rotation=angle, rotation_mode="anchor", ha="left", va="bottom",
                fontsize=8, color=color, zorder=5, transform_rotates_text=False)

    # ---- ops ------------------------------------------------------------
    kinds = list(dict.fromkeys(p[2]["kind"] or "?" for pts in points for p in pts))
    cmap = plt.get_cmap("tab10" if len(kinds) <= 10 else "tab20")
    kind_color = {k: cmap(i % cmap.N) for i, k in enumerate(kinds)}
    for ri, pts in enumerate(points):
        marker = MARKERS[ri % len(MARKERS)]
        for k in kinds:
            sel = [p for p in pts if (p[2]["kind"] or "?") == k]
            if sel:
                ax.scatter([p[0] for p in sel], [p[1] for p in sel], s=36, marker=marker,
                           color=kind_color[k], edgecolors="black", linewidths=0.4, alpha=0.85, zorder=6)
        if args.label_ops is not None:
            chosen = pts
            if args.label_ops > 0:
                chosen = sorted(pts, key=lambda p: -(p[2]["time_us"] or 0))[:args.label_ops]
            # ops at (almost) the same place share one label: "first (+k)"
            spots = {}
            for i, t, op in chosen:
                key = (round(math.log10(i) * 40), round(math.log10(t) * 40))
                spots.setdefault(key, [i, t, []])[2].append(op["name"] or "?")
            for i, t, names in spots.values():
                ax.annotate(names[0] + (" (+%d)" % (len(names) - 1) if len(names) > 1 else ""),
                            xy=(i, t), xytext=(4, 3), textcoords="offset points", fontsize=6,
                            color="#222222", zorder=7)

    handles = [Line2D([], [], linestyle="", marker="o", markersize=7, markerfacecolor=kind_color[k],
                      markeredgecolor="black", markeredgewidth=0.4, label=k) for k in kinds]
    if multi:
        for ri, r in enumerate(runs):
            color = ROOF_COLORS[ri % len(ROOF_COLORS)]
            handles.append(Line2D([], [], linestyle=LINESTYLES[ri % len(LINESTYLES)], color=color,
                                  marker=MARKERS[ri % len(MARKERS)], markerfacecolor="white",
                                  markeredgecolor="black", label=run_names[ri]))
    if handles:
        ax.legend(handles=handles, loc="upper left", fontsize=8, framealpha=0.9,
                  title="op kind" + (" / hardware" if multi else ""), title_fontsize=8)
    if not any(points):
        ax.text(0.7, 0.3, "no op with intensity > 0", transform=ax.transAxes, ha="center",
                color="#888888", fontsize=11)

    written = wo.save_figure(fig, args.output, svg=args.svg, dpi=args.dpi)
    nplot = sum(len(p) for p in points)
    nops = sum(len(r.ops) for r in runs)
    msg = "wrote %s (%d of %d ops plotted" % (", ".join(written), nplot, nops)
    if sum(skipped):
        msg += "; %d with zero achieved FLOP/s left out" % sum(skipped)
    print(msg + ")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
