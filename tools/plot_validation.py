#!/usr/bin/env python3
"""How accurate is wallsim, in one picture: every case of `wallsim validate`.

Left, the signed error of each case, grouped by component and by the first word of its id
(NCCL cases by collective): validations within tolerance as dots, known gaps as crosses,
consistency checks (datasheet peaks, fitted points) as grey squares, the ±10% band shaded.
Right, simulated against measured for the same cases on log axes (each in its own unit), with
the y = x line and ±10% either side: a correlation plot as Accel-Sim draws its own.

Example:
  tools/plot_validation.py -o docs/images/validation.png          # runs the suite (~2 min)
  tools/plot_validation.py --csv out/validation/validation.csv -o v.png   # an earlier run
  tools/plot_validation.py --filter network -o net.png             # one component
"""
import argparse
import csv
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

COLOURS = {"gpu": "C0", "memory": "C1", "network": "C2", "launch": "C4", "tensor_core": "C5"}


def family(case_id):
    """The first word of a case id; for NCCL cases, the collective as well."""
    words = case_id.split("_")
    return "_".join(words[:2]) if words[0] == "nccl" and len(words) > 1 else words[0]


def read_cases(path):
    """[{id, component, check, measured, simulated, error, tolerance}] from validation.csv."""
    cases = []
    try:
        with open(path) as f:
            for row in csv.DictReader(f):
                if not row["simulated"]:
                    continue  # a case whose run failed: wallsim validate reported it
                cases.append({
                    "id": row["id"],
                    "component": row["component"],
                    "check": row["check"],
                    "measured": float(row["measured"]),
                    "simulated": float(row["simulated"]),
                    "error": float(row["error"]),
                    "tolerance": float(row["tolerance"]),
                })
    except (OSError, KeyError, ValueError) as e:
        wo.die("%s: expected a validation.csv of `wallsim validate` (%s)" % (path, e))
    if not cases:
        wo.die("%s: no case with a simulated figure in it" % path)
    return cases


def marker_of(case):
    if case["check"] == "consistency":
        return "s", "0.55"
    colour = COLOURS.get(case["component"], "C7")
    if abs(case["error"]) <= case["tolerance"]:
        return "o", colour
    return "x", colour


def draw_errors(ax, cases):
    groups = sorted({(c["component"], family(c["id"])) for c in cases})
    position = {g: i for i, g in enumerate(groups)}
    counts = {}
    for c in cases:
        g = (c["component"], family(c["id"]))
        k = counts.get(g, 0)
        counts[g] = k + 1
        # Spread a group's points sideways, deterministically, so that equal errors stay apart.
        x = position[g] + ((k * 0.37) % 1.0 - 0.5) * 0.6
        marker, colour = marker_of(c)
        ax.plot(x, 100 * c["error"], linestyle="none", marker=marker, color=colour, markersize=5,
                alpha=0.8)
    ax.axhspan(-10, 10, color="0.9", zorder=0)
    ax.axhline(0, color="0.4", linewidth=0.8)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["%s (%d)" % (g[1], counts[g]) for g in groups], rotation=60, ha="right",
                       fontsize=8)
    ax.set_xlim(-0.7, len(groups) - 0.3)
    ax.set_ylabel("error of the simulated figure (%)")
    ax.grid(True, axis="y", alpha=0.3)
    within = sum(1 for c in cases if c["check"] == "validation" and abs(c["error"]) <= c["tolerance"])
    validations = sum(1 for c in cases if c["check"] == "validation")
    ax.set_title("%d of %d validations within tolerance (dots; crosses: known gaps; "
                 "squares: consistency checks)" % (within, validations), fontsize=9)


def draw_correlation(ax, cases):
    for component in sorted({c["component"] for c in cases}):
        mine = [c for c in cases if c["component"] == component and c["measured"] > 0
                and c["simulated"] > 0]
        if not mine:
            continue
        ax.plot([c["measured"] for c in mine], [c["simulated"] for c in mine], linestyle="none",
                marker="o", markersize=4, alpha=0.7, color=COLOURS.get(component, "C7"),
                label="%s (%d)" % (component, len(mine)))
    low = min(min(c["measured"], c["simulated"]) for c in cases if c["measured"] > 0)
    high = max(max(c["measured"], c["simulated"]) for c in cases)
    line = [low / 2, high * 2]
    ax.plot(line, line, color="0.3", linewidth=0.8)
    for f in (0.9, 1.1):
        ax.plot(line, [v * f for v in line], color="0.6", linewidth=0.6, linestyle="--")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("measured (each case in its own unit)")
    ax.set_ylabel("simulated")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    logs = [math.log(c["simulated"] / c["measured"]) for c in cases if c["measured"] > 0
            and c["simulated"] > 0]
    mean_abs = 100 * sum(abs(math.exp(v) - 1) for v in logs) / len(logs)
    ax.set_title("simulated against measured: y = x and ±10%%; mean |error| of the %d cases "
                 "%.1f%%" % (len(logs), mean_abs), fontsize=9)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", help="a validation.csv to draw instead of running the suite")
    ap.add_argument("--filter", help="run only the cases whose id or component contains this")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    args = ap.parse_args(argv)
    plt = wo.import_pyplot()
    cases = wo.validation_cases(args.csv, args.wallsim, args.filter, read_cases)
    if args.csv and args.filter:
        cases = [c for c in cases if args.filter in c["id"] or args.filter in c["component"]]
        if not cases:
            wo.die("--filter: '%s' matches no case of %s" % (args.filter, args.csv))
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 5.5),
                                      gridspec_kw={"width_ratios": [1.6, 1]})
    draw_errors(left, cases)
    draw_correlation(right, cases)
    fig.suptitle("wallsim against published measurements (`wallsim validate`, "
                 "docs/validation.md)", fontsize=11)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
