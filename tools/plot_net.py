#!/usr/bin/env python3
"""Bus bandwidth against message size, as nccl-tests plots it, from `wallsim net`.

Runs `wallsim net` for each topology (and algorithm) and draws busbw against size on log axes:
latency-bound small messages on the left, the link rate on the right.

Example:
  tools/plot_net.py --runs configs/net/dgx_h100.yaml,configs/net/pcie_box.yaml \\
      --runs configs/net/cluster_h100_ib.yaml:ring,configs/net/cluster_h100_ib.yaml:hierarchical -o net.png
  tools/plot_net.py --runs configs/net/dgx_a100.yaml,configs/net/dgx_h100.yaml --sizes 1KiB:8GiB \
      --measured configs/validation/data/nccl_allreduce_busbw.csv -o net_vs_measured.png
"""
import argparse
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402


def sweep(wallsim, topology, algorithm, collective, sizes, outdir):
    cmd = [wallsim, "net", "--topology", topology, "--algo", algorithm,
           "--collective", collective, "--sizes", sizes, "--out", outdir]
    proc = wo.run_wallsim(cmd[0], cmd[1:])
    with open(os.path.join(outdir, "net.csv")) as f:
        rows = list(csv.DictReader(f))
    name = proc.stdout.splitlines()[0].split(":")[0]
    return name, [float(r["bytes"]) for r in rows], [float(r["busbw_gbps"]) for r in rows]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", action="append", required=True,
                    help="comma-separated TOPOLOGY[:ALGORITHM] (auto by default); repeatable")
    ap.add_argument("--collective", default="allreduce")
    ap.add_argument("--sizes", default="8B:8GiB")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    ap.add_argument("--measured", help="CSV of published points to overlay (label,bytes,busbw_gbps; "
                    "# comments), e.g. configs/validation/data/nccl_allreduce_busbw.csv")
    ap.add_argument("-o", "--output", required=True, help="PNG, or SVG when it ends in .svg")
    ap.add_argument("--svg", action="store_true", help="also write an SVG next to the PNG")
    args = ap.parse_args(argv)
    plt = wo.import_pyplot()
    runs = [item for group in args.runs for item in wo.split_list(group)]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(runs):
            topology, _, algorithm = run.partition(":")
            name, sizes, busbw = sweep(args.wallsim, topology, algorithm or "auto", args.collective,
                                       args.sizes, os.path.join(tmp, "r%d" % i))
            ax.plot(sizes, busbw, marker="o", markersize=3,
                    label="%s, %s" % (name, algorithm or "auto"))
    if args.measured:
        points = {}
        try:
            with open(args.measured) as f:
                for row in csv.DictReader(line for line in f if not line.startswith("#")):
                    points.setdefault(row["label"], []).append(
                        (float(row["bytes"]), float(row["busbw_gbps"])))
        except (OSError, KeyError, ValueError) as e:
            wo.die("%s: expected columns label,bytes,busbw_gbps (%s)" % (args.measured, e))
        for label, pts in points.items():
            ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle="none", marker="x",
                    markersize=5, label="measured: " + label)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("message size per GPU (bytes)")
    ax.set_ylabel("bus bandwidth (GB/s, nccl-tests)")
    ax.set_title("%s bus bandwidth against message size" % args.collective)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    wo.save_figure(fig, args.output, args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
