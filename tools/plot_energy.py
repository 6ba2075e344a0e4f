#!/usr/bin/env python3
"""Energy of a wallsim run's operators: where the joules go, against arithmetic intensity.

Left: energy per FLOP of every op (compute and data movement, pJ/FLOP) against its arithmetic
intensity, with the hardware's ridge point; below the ridge, data movement dominates. Right:
each op's energy split into compute, data movement and static power over its duration.
Systolic and CIM runs count integer operations (pJ/op, op/B); their ridge is the array's peak
over its DRAM (tile buffer) bandwidth.

Examples:
  tools/plot_energy.py out/h100_sweep -o energy.png
  tools/plot_energy.py out/a100 out/h100 -o energy.png --svg --dtype bf16
  tools/plot_energy.py out/tpu out/cim -o energy_arrays.png
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

COLORS = {"compute": "#2f6f9f", "data_movement": "#c8553d", "static": "#999999"}
MARKERS = ["o", "s", "^", "D"]


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dirs", nargs="+", metavar="DIR", help="wallsim run output (stats.json + ops.csv)")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    ap.add_argument("--dtype", default="bf16",
                    help="tensor dtype of a GPU's ridge line (default bf16; systolic and CIM "
                         "runs have one peak)")
    ap.add_argument("--max-bars", type=int, default=24, help="ops in the breakdown panel (default 24)")
    return ap.parse_args(argv)


def energy_ops(run):
    ops = [op for op in run.ops if op.get("energy_j") is not None and (op.get("flops") or 0) > 0]
    if not ops:
        wo.die("%s: ops.csv has no energy columns with FLOPs (run it with this wallsim)" % run.dir)
    return ops


def main(argv=None):
    args = parse_args(argv)
    plt = wo.import_pyplot()  # first: it may re-execute this script under Debian's python3
    runs = [wo.load_run(d) for d in args.dirs]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(14, 5.5), gridspec_kw={"width_ratios": [1.1, 1]})

    ridges_drawn = set()
    for i, run in enumerate(runs):
        ops = [op for op in energy_ops(run) if (op.get("intensity") or 0) > 0]
        marker = MARKERS[i % len(MARKERS)]
        label = "%s, %s" % (run.hw_name, run.trace_name)
        xs = [op["intensity"] for op in ops]
        ax.scatter(xs, [op["compute_j"] / op["flops"] * 1e12 for op in ops], marker=marker,
                   color=COLORS["compute"], alpha=0.8, label="compute, " + label)
        ax.scatter(xs, [op["data_movement_j"] / op["flops"] * 1e12 for op in ops], marker=marker,
                   facecolors="none", edgecolors=COLORS["data_movement"], label="data movement, " + label)
        if run.counts_flops:
            peak, what = run.peak_flops("tensor", args.dtype), args.dtype
        else:
            roofs = run.default_roofs()
            peak, what = (run.peak_flops(*roofs[0]), roofs[0][0]) if roofs else (None, "")
        if peak and run.hw_name not in ridges_drawn:
            ridges_drawn.add(run.hw_name)
            try:
                ridge = peak / run.bandwidth()
            except wo.WallsimOutputError as e:
                wo.die(e)
            ax.axvline(ridge, color="#333333", linestyle="--", linewidth=1)
            label = " %s ridge: %.0f %s/B" % (what, ridge, run.op_word)
            if len(runs) > 1:
                label += " (%s)" % run.hw_name
            # Beside its line, not on it.
            ax.annotate(label, (ridge, 0.02), xycoords=("data", "axes fraction"), xytext=(-2, 0),
                        textcoords="offset points", fontsize=8, rotation=90, ha="right",
                        va="bottom")
    ax.set_xscale("log")
    ax.set_yscale("log")
    word = " or ".join(sorted({r.op_word for r in runs}))  # FLOP, op, or both
    ax.set_xlabel("arithmetic intensity (%s/B)" % word)
    ax.set_ylabel("energy per %s (pJ)" % word)
    ax.set_title("Energy per %s on the Roofline's x axis" % word)
    ax.grid(True, which="both", alpha=0.3)
    # Below the axes: inside, it would hide the ops at the top of the panel.
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2)

    run = runs[0]
    ops = energy_ops(run)[: args.max_bars]
    names = [op["name"] for op in ops]
    totals = [op["energy_j"] for op in ops]
    shares = {k: [op[k + "_j"] / t if t else 0 for op, t in zip(ops, totals)]
              for k in ("compute", "data_movement", "static")}
    left = [0.0] * len(ops)
    for key in ("compute", "data_movement", "static"):
        bx.barh(names, shares[key], left=left, color=COLORS[key], label=key.replace("_", " "))
        left = [a + b for a, b in zip(left, shares[key])]
    for y, op in enumerate(ops):
        bx.text(1.01, y, "%.3g J, %.0f W" % (op["energy_j"], op["power_w"] or 0), va="center", fontsize=7)
    bx.invert_yaxis()
    bx.set_xlim(0, 1.3)
    bx.set_xlabel("share of the op's energy")
    bx.set_title("Where each op's energy goes (%s)" % run.hw_name)
    bx.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=3)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
