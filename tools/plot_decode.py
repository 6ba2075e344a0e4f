#!/usr/bin/env python3
"""Decode time per output token against batch size, one line per GPU (wallsim runs of
`tools/gen_transformer_trace --mode inference` traces).

Each run directory is one (GPU, batch) point: its stats.json gives run.inference.batch and
run.inference.time_per_output_token, and its hardware name and HBM bandwidth. The dashed line of
each GPU is the time to read the weights once at peak bandwidth (weights from the header's
declared memory: weights / hw.hbm_bandwidth): a decode step can go no faster.

Example:
  tools/plot_decode.py out/decode/h100_b* out/decode/a100_b* -o decode.png
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402


def main(argv=None):
    ap = argparse.ArgumentParser(description="Decode time per token vs batch size, per GPU.")
    ap.add_argument("dirs", nargs="+", metavar="DIR", help="wallsim output directories")
    ap.add_argument("-o", "--output", required=True, metavar="OUT", help="PNG or SVG file")
    ap.add_argument("--weights", type=float, metavar="BYTES",
                    help="weight bytes per GPU, for the bandwidth floor (default: none drawn)")
    ap.add_argument("--title", default="Decode time per output token vs batch size")
    ap.add_argument("--dpi", type=int, default=120)
    args = ap.parse_args(argv)

    series = {}
    for d in args.dirs:
        run = wo.load_run(d)
        batch = run.stat("run", "inference", "batch")
        tpot = run.stat("run", "inference", "time_per_output_token")
        if batch is None or tpot is None:
            wo.die("%s: stats.json has no run.inference (is it an inference trace's run?)" % d)
        name = run.meta.get("hw_name") or d
        series.setdefault(name, {"bw": run.bandwidth(), "points": []})["points"].append(
            (batch, tpot * 1e3))

    plt = wo.import_pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for i, (name, s) in enumerate(sorted(series.items())):
        points = sorted(s["points"])
        line, = ax.plot([b for b, _ in points], [t for _, t in points], "o-", label=name)
        if args.weights:
            ax.axhline(args.weights / s["bw"] * 1e3, color=line.get_color(), ls="--", lw=0.8)
        print("%s: %s" % (name, ", ".join("b%d %.2f ms" % p for p in points)))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("batch (sequences decoded together)")
    ax.set_ylabel("time per output token (ms)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.set_title(args.title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.output, dpi=args.dpi)
    return 0


if __name__ == "__main__":
    sys.exit(main())
