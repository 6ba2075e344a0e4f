#!/usr/bin/env python3
"""The economics of a training run across hardware, from `wallsim cost`.

Left: what one training run costs on each hardware file: renting the GPU-hours, or owning the
GPUs (depreciation plus electricity at the facility's PUE). Right: the facility power of a
cluster against its GPU count (whole nodes, PUE), with the textbook's 2048-GPU cluster marked.

Example:
  tools/plot_cost.py --hw configs/hw/a100.yaml,configs/hw/h100.yaml,configs/hw/h200.yaml \\
      --params 70B --tokens 10T --mfu 0.4 -o cost.png
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

GPU_COUNTS = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]


def cost(wallsim, hw_files, extra, outdir):
    cmd = [wallsim, "cost", "--out", outdir] + extra
    for hw in hw_files:
        cmd += ["--hw", hw]
    wo.run_wallsim(cmd[0], cmd[1:])
    return wo.load_json(os.path.join(outdir, "cost.json"))["columns"]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hw", required=True, help="comma-separated hardware files")
    ap.add_argument("--params", default="70B", help="model parameters (default 70B)")
    ap.add_argument("--tokens", default="10T", help="training tokens (default 10T)")
    ap.add_argument("--mfu", default="0.4", help="model FLOPs utilisation (default 0.4)")
    ap.add_argument("--pue", default="1.4", help="facility PUE (default 1.4)")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    args = ap.parse_args(argv)
    plt = wo.import_pyplot()
    hw_files = wo.split_list(args.hw)
    common = ["--params", args.params, "--tokens", args.tokens, "--mfu", args.mfu, "--pue", args.pue]

    with tempfile.TemporaryDirectory() as tmp:
        run = cost(args.wallsim, hw_files, common, os.path.join(tmp, "run"))
        power = {}
        for n in GPU_COUNTS:
            for col in cost(args.wallsim, hw_files, common + ["--gpus", str(n)], os.path.join(tmp, "g%d" % n)):
                power.setdefault(col["hardware"], []).append(col["cluster_power_w"])

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5))
    names = [c["hardware"].replace("NVIDIA ", "") for c in run]
    x = list(range(len(run)))
    width = 0.38
    rent = [c["rent_cost"] / 1e6 for c in run]
    dep = [c["depreciation_cost"] / 1e6 for c in run]
    elec = [c["facility_electricity_cost"] / 1e6 for c in run]
    ax.bar([i - width / 2 for i in x], rent, width, color="#2f6f9f", label="rent (cloud price × GPU-hours)")
    ax.bar([i + width / 2 for i in x], dep, width, color="#7a4f9a", label="own: depreciation")
    ax.bar([i + width / 2 for i in x], elec, width, bottom=dep, color="#c8553d",
           label="own: electricity with PUE")
    for i, c in enumerate(run):
        ax.text(i, max(rent[i], dep[i] + elec[i]) * 1.02, "%.2f M GPU-h" % (c["gpu_hours"] / 1e6),
                ha="center", fontsize=8)
    ax.set_xticks(x)
    ax.set_xticklabels(names, fontsize=8)
    ax.set_ylabel("US dollars (millions)")
    ax.set_title("%s parameters × %s tokens at MFU %s" % (args.params, args.tokens, args.mfu))
    ax.legend(fontsize=8)

    for i, (hw, watts) in enumerate(power.items()):
        mw = [w / 1e6 for w in watts]
        bx.plot(GPU_COUNTS, mw, marker="osD^"[i % 4], linestyle=["-", "--", ":", "-."][i % 4],
                label="%s: %.2f MW at 2048" % (hw.replace("NVIDIA ", ""), mw[GPU_COUNTS.index(2048)]))
    bx.axvline(2048, color="#555555", linestyle=":", linewidth=1)
    bx.annotate(" the textbook's 2048 GPUs", (2048, 0.9), xycoords=("data", "axes fraction"), fontsize=8)
    bx.set_xscale("log", base=2)
    bx.set_yscale("log")
    bx.set_xlabel("GPUs (whole nodes)")
    bx.set_ylabel("facility power (MW), PUE %s" % args.pue)
    bx.set_title("Cluster power: nodes at full load × PUE")
    bx.grid(True, which="both", alpha=0.3)
    bx.legend(fontsize=8)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
