#!/usr/bin/env python3
"""Loaded latency vs achieved bandwidth of the cycle-level HBM model (the classic DRAM curve).

Runs `wallsim hbm` at a range of offered bandwidths for one or more patterns and plots mean and
p99 read latency against the bandwidth actually achieved. Example:

    tools/plot_hbm.py --hw configs/hw/h100.yaml --patterns stream,random -o hbm_h100.png
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output  # noqa: E402

plt = wallsim_output.import_pyplot()  # re-executes under Debian's python3 when matplotlib is missing


def run_point(wallsim, hw, pattern, nbytes, offered, outdir):
    cmd = [wallsim, "hbm", "--hw", hw, "--pattern", pattern, "--bytes", nbytes, "--out", outdir]
    if offered:
        cmd += ["--offered", "%.6gGB/s" % (offered / 1e9)]
    wallsim_output.run_wallsim(cmd[0], cmd[1:])
    s = wallsim_output.load_json(os.path.join(outdir, "stats.json"))
    run = s["hbm_run"]
    return (run["achieved_bandwidth"]["value"], run["read_latency"]["mean"]["value"],
            run["read_latency"]["p99"]["value"], run["peak_bandwidth"]["value"], s["meta"]["hw_name"])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hw", required=True, help="hardware config")
    ap.add_argument("--patterns", default="stream,random", help="comma-separated wallsim hbm patterns")
    ap.add_argument("--bytes", default="16MiB", help="bytes per point")
    ap.add_argument("--points", type=int, default=10, help="offered-load points (fractions of peak)")
    ap.add_argument("--wallsim", default=os.path.join(os.path.dirname(__file__), "..", "build", "wallsim"))
    ap.add_argument("-o", "--output", required=True, help="output image (.png or .svg)")
    args = ap.parse_args()

    fig, ax = plt.subplots(figsize=(8, 5))
    with tempfile.TemporaryDirectory() as tmp:
        for pattern in args.patterns.split(","):
            # First the saturated point, to learn the peak; then fractions of it.
            bw, mean, p99, peak, hw_name = run_point(args.wallsim, args.hw, pattern, args.bytes, None,
                                                     os.path.join(tmp, pattern + "_max"))
            points = []
            for i in range(1, args.points + 1):
                offered = peak * i / args.points
                points.append(run_point(args.wallsim, args.hw, pattern, args.bytes, offered,
                                        os.path.join(tmp, "%s_%d" % (pattern, i)))[:3])
            points.append((bw, mean, p99))
            points.sort()
            xs = [p[0] / 1e9 for p in points]
            line, = ax.plot(xs, [p[1] for p in points], marker="o", label="%s mean" % pattern)
            ax.plot(xs, [p[2] for p in points], marker="x", linestyle="--", color=line.get_color(),
                    label="%s p99" % pattern)
        ax.axvline(peak / 1e9, color="black", linestyle=":", label="peak %.0f GB/s" % (peak / 1e9))
    ax.set_xlabel("Achieved bandwidth (GB/s)")
    ax.set_ylabel("Read latency (ns)")
    ax.set_title("Loaded latency: %s" % hw_name)
    ax.grid(True, alpha=0.3)
    ax.legend()
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    fig.tight_layout()
    fig.savefig(args.output, dpi=150)
    print("wrote %s" % args.output)


if __name__ == "__main__":
    main()
