#!/usr/bin/env python3
"""Utilisation timeline of one training step (a wallsim run of a gen_transformer_trace trace).

Top: every op as a bar over its simulated time, its height the op's achieved FLOP/s in percent
of the dense BF16 Tensor Core peak; bottom: the same ops' HBM bandwidth in percent of peak.
Ops are coloured by class: GEMM, attention (forward and backward; `custom` ops named attention*
in older traces), element-wise
(elementwise, layernorm, softmax, reduction) and other (embedding, copies, collectives).
The title gives the step time, its MFU and the share of the step spent outside GEMMs; the side
panel splits the step time by class.

MFU = the step's FLOPs (sum of ops.csv flops) / (step time x dense BF16 Tensor peak of
stats.json hw.peak_flops.tensor.bf16).

Examples:
  tools/plot_step.py out/gpu/step/h100 -o out/gpu/step/step.png
  tools/plot_step.py out/gpu/step/h100 -o step.png --title "7B step on H100"
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

CLASSES = ["GEMM", "attention", "element-wise", "other"]
COLORS = {"GEMM": "#1f77b4", "attention": "#9467bd", "element-wise": "#ff7f0e", "other": "#7f7f7f"}
ELEMENTWISE_KINDS = {"elementwise", "layernorm", "softmax", "reduction"}


def op_class(op):
    """GEMM, attention, element-wise or other (older traces wrote attention's backward as `custom`)."""
    kind, name = op["kind"], op["name"] or ""
    if kind in ("gemm", "conv2d"):
        return "GEMM"
    if kind == "attention" or (kind == "custom" and name.startswith("attention")):
        return "attention"
    if kind in ELEMENTWISE_KINDS:
        return "element-wise"
    return "other"


def summarise(run):
    """Step time (s), FLOPs, MFU, BF16 peak and per-class time (s) of one run."""
    peak = run.peak_flops("tensor", "bf16")
    if not peak:
        wo.die("%s: stats.json has no hw.peak_flops.tensor.bf16" % run.dir)
    ends = [(op["start_us"] or 0.0) + (op["time_us"] or 0.0) for op in run.ops]
    step = run.stat("run", "sim_time") or max(ends, default=0.0) * 1e-6
    if step <= 0:
        wo.die("%s: the run has no simulated time" % run.dir)
    flops = sum(op["flops"] or 0.0 for op in run.ops)
    by_class = {c: 0.0 for c in CLASSES}
    for op in run.ops:
        by_class[op_class(op)] += (op["time_us"] or 0.0) * 1e-6
    busy = sum(by_class.values())
    return {"step_s": step, "flops": flops, "peak": peak, "mfu": flops / (step * peak),
            "time": by_class, "non_gemm_share": 1.0 - by_class["GEMM"] / busy if busy else 0.0,
            "gemm_tflops": (sum(op["flops"] or 0.0 for op in run.ops if op_class(op) == "GEMM")
                            / by_class["GEMM"] / 1e12) if by_class["GEMM"] else 0.0}


def summary_line(run, s):
    t = s["time"]
    return ("%s: step %.1f ms, %.3g TFLOP, MFU %.1f%%, non-GEMM %.1f%% of time (attention %.1f ms, "
            "element-wise %.1f ms, other %.1f ms), GEMMs %.1f ms at %.0f TFLOP/s" % (
                run.hw_name, s["step_s"] * 1e3, s["flops"] / 1e12, s["mfu"] * 100,
                s["non_gemm_share"] * 100, t["attention"] * 1e3, t["element-wise"] * 1e3,
                t["other"] * 1e3, t["GEMM"] * 1e3, s["gemm_tflops"]))


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Per-op utilisation timeline of a training-step run, with MFU and the "
                    "non-GEMM share of the step.")
    ap.add_argument("dir", metavar="DIR", help="wallsim output directory of the step")
    ap.add_argument("-o", "--output", required=True, metavar="OUT", help="output file (PNG or .svg)")
    ap.add_argument("--title", metavar="T", help="title (default: hardware and trace names)")
    ap.add_argument("--dpi", type=int, default=120, help="PNG resolution (default 120)")
    args = ap.parse_args(argv)

    run = wo.load_run(args.dir)
    s = summarise(run)
    try:
        bw = run.bandwidth()
    except wo.WallsimOutputError as e:
        wo.die(e)
    plt = wo.import_pyplot()
    from matplotlib.patches import Patch

    fig = plt.figure(figsize=(12, 5.6))
    grid = fig.add_gridspec(2, 2, width_ratios=[5, 1], height_ratios=[3, 2], wspace=0.08, hspace=0.12)
    ax_f = fig.add_subplot(grid[0, 0])
    ax_b = fig.add_subplot(grid[1, 0], sharex=ax_f)
    ax_s = fig.add_subplot(grid[:, 1])

    for ax, value in ((ax_f, lambda op: (op["achieved_tflops"] or 0.0) * 1e12 / s["peak"]),
                      (ax_b, lambda op: (op["achieved_gbps"] or 0.0) * 1e9 / bw)):
        for c in CLASSES:
            ops = [op for op in run.ops if op_class(op) == c and (op["time_us"] or 0) > 0]
            if ops:
                ax.bar([op["start_us"] / 1e3 for op in ops], [100 * value(op) for op in ops],
                       width=[op["time_us"] / 1e3 for op in ops], align="edge", color=COLORS[c],
                       linewidth=0)
        ax.set_ylim(0, 105)
        ax.grid(True, axis="y", color="#dddddd", linewidth=0.8)
        ax.set_axisbelow(True)
    ax_f.axhline(100 * s["mfu"], color="black", linestyle="--", linewidth=1)
    ax_f.annotate("MFU %.1f%%" % (100 * s["mfu"]), xy=(1.0, 100 * s["mfu"]),
                  xycoords=("axes fraction", "data"), xytext=(-4, 3), textcoords="offset points",
                  ha="right", va="bottom", fontsize=9)
    ax_f.set_ylabel("% of dense BF16\nTensor Core peak")
    # name the longest op outside the GEMMs (Adam in a training step)
    rest = [op for op in run.ops if op_class(op) != "GEMM"]
    top = max(rest, key=lambda op: op["time_us"] or 0.0, default=None)
    if top and (top["time_us"] or 0.0) > 0.05 * s["step_s"] * 1e6:
        ax_b.annotate("%s: %.1f ms at %.0f%% of HBM peak" % (
            top["name"], top["time_us"] / 1e3, 100 * (top["achieved_gbps"] or 0.0) * 1e9 / bw),
            xy=(top["start_us"] / 1e3, 100 * (top["achieved_gbps"] or 0.0) * 1e9 / bw),
            xytext=(-4, 6), textcoords="offset points", ha="right", va="bottom", fontsize=8)
    ax_b.set_ylabel("% of peak HBM\nbandwidth")
    ax_b.set_xlabel("simulated time in the step (ms)")
    ax_b.set_xlim(0, s["step_s"] * 1e3)
    plt.setp(ax_f.get_xticklabels(), visible=False)
    ax_f.legend(handles=[Patch(color=COLORS[c], label=c) for c in CLASSES], loc="upper left",
                fontsize=8, ncol=4, framealpha=0.9)

    # side panel: the step's time by class
    bottom = 0.0
    for c in CLASSES:
        t = s["time"][c] * 1e3
        ax_s.bar([0], [t], bottom=bottom, color=COLORS[c], width=0.6)
        if t > 0.03 * s["step_s"] * 1e3:
            ax_s.text(0, bottom + t / 2, "%s\n%.0f ms, %.0f%%" % (c, t, 100 * t / (s["step_s"] * 1e3)),
                      ha="center", va="center", fontsize=8, color="white")
        bottom += t
    ax_s.set_xlim(-0.5, 0.5)
    ax_s.set_xticks([])
    ax_s.yaxis.tick_right()
    ax_s.yaxis.set_label_position("right")
    ax_s.set_ylabel("step time by class (ms)")

    title = args.title or "%s: %s" % (run.hw_name, run.trace_name)
    fig.suptitle("%s\nstep %.1f ms, MFU %.1f%%, %.0f%% of the time outside GEMMs" % (
        title, s["step_s"] * 1e3, 100 * s["mfu"], 100 * s["non_gemm_share"]), fontsize=11)
    written = wo.save_figure(fig, args.output, dpi=args.dpi)
    print(summary_line(run, s))
    print("wrote %s" % ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
