#!/usr/bin/env python3
"""Fit the device's gap between dependent kernels to gpu-benches' repeated small kernels.

A preset's runtime.stream_gap and runtime.graph_node_gap (docs/gpu.md, "Launching kernels")
are the device time one operator adds after the one before it on its stream, launched on a
stream or as a node of a CUDA graph. No datasheet gives them; this tool fits them to the
recorded outputs of gpu-benches' gpu-small-kernels (configs/validation/data/
gpu_benches_small_kernels.csv, docs/references.md [gpu-benches]) and checks the fit on the
recordings' larger kernels.

For each GPU of the CSV, one `wallsim run` of the benchmark's SCALE kernel at every recorded
size, with every launch cost set to 0, gives the model's own time for each kernel. An
operator is modelled alone, with cold caches, where the benchmark's kernels find their data in
L2: the fitted gap is the model's, what the model needs beside its own kernel time. A kernel of
the benchmark then takes

    graph:   kernel + graph_node_gap
    stream:  max(host, kernel + stream_gap)     host: the machine's enqueue time per launch

The gap (for a stream, the gap and the host's time together) with the least RMS relative
error over the rows of up to --fit-max doubles is the fit; the rows above, up to --check-max,
where the kernel's own time grows to several gaps, check it. The host's time belongs to the
recorded machine's CPU and driver, not to the GPU, so the presets do not take it; `host`
prints "<t" where the host set the pace at no row, only the bound t showing.

Example:
  tools/fit_launch_gaps.py
  tools/fit_launch_gaps.py --gpus a100 --fit-max 50000
"""
import argparse
import csv
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output as wo  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MEASURED = os.path.join(HERE, "..", "configs", "validation", "data",
                        "gpu_benches_small_kernels.csv")
BYTES_PER_DOUBLE = 16  # SCALE reads one double and writes one
STEP_US = 0.01         # the grid the fit searches
MAX_GAP_US = 5.0
HOST_RANGE_US = (0.5, 6.0)


def read_measured(path):
    """{(gpu, launch): [(doubles, us per kernel)]} from the benchmark's CSV."""
    curves = {}
    try:
        with open(path) as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                doubles, gbps = int(row["doubles"]), float(row["best_gbps"])
                if row["launch"] not in ("stream", "graph") or doubles <= 0 or gbps <= 0:
                    raise ValueError("row %s" % dict(row))
                us = doubles * BYTES_PER_DOUBLE / gbps / 1e3
                curves.setdefault((row["gpu"], row["launch"]), []).append((doubles, us))
    except (OSError, KeyError, ValueError, TypeError) as e:
        wo.die("%s: expected gpu,launch (stream or graph),doubles,best_gbps rows (%s)" % (path, e))
    return curves


def kernel_times(wallsim, gpu, sizes, tmp):
    """{doubles: the model's time for one SCALE kernel, us} on configs/hw/<gpu>.yaml."""
    lines = ["version: 1", "launch: graph", "ops:"]
    for d in sizes:
        lines.append("  - {name: scale_%d, kind: elementwise, elements: %d, inputs: 1, outputs: 1,"
                     " flops_per_element: 1, dtype: fp64, kernel: {block: 256}}" % (d, d))
    trace = os.path.join(tmp, gpu + ".yaml")
    with open(trace, "w") as f:
        f.write("\n".join(lines) + "\n")
    out = os.path.join(tmp, gpu)
    hw = os.path.join(HERE, "..", "configs", "hw", gpu + ".yaml")
    free = ["runtime.%s=0us" % k for k in
            ("stream_launch", "stream_gap", "graph_launch", "graph_node_gap")]
    args = ["run", "--hw", hw, "--trace", trace, "--no-progress", "--out", out]
    for s in free:
        args += ["--set", s]
    wo.run_wallsim(wallsim, args)
    with open(os.path.join(out, "ops.csv")) as f:
        return {int(r["name"].split("_")[1]): float(r["time_us"]) for r in csv.DictReader(f)}


def predict(launch, kernel_us, gap, host):
    return kernel_us + gap if launch == "graph" else max(host, kernel_us + gap)


def rms(errors):
    return math.sqrt(sum(e * e for e in errors) / len(errors)) if errors else float("nan")


def errors(rows, kernels, launch, gap, host):
    return [predict(launch, kernels[d], gap, host) / us - 1 for d, us in rows]


def fit(rows, kernels, launch):
    """(gap, host, RMS relative error) with the least RMS error over rows, on a 0.01 us grid:
    searched 0.1 us apart first, then 0.01 us apart around the best point."""
    def grid(lo, hi, step):
        lo, hi = max(lo, 0.0), max(hi, lo)
        return [lo + i * step for i in range(int(round((hi - lo) / step)) + 1)]

    def best_of(gaps, hosts):
        best = None
        for host in hosts:
            for gap in gaps:
                e = rms(errors(rows, kernels, launch, gap, host))
                if best is None or e < best[2]:
                    best = (gap, host, e)
        return best

    coarse = 10 * STEP_US
    hosts = [0.0] if launch == "graph" else grid(*HOST_RANGE_US, coarse)
    gap, host, _ = best_of(grid(0.0, MAX_GAP_US, coarse), hosts)
    fine_hosts = [0.0] if launch == "graph" else grid(
        max(HOST_RANGE_US[0], host - coarse), min(HOST_RANGE_US[1], host + coarse), STEP_US)
    return best_of(grid(gap - coarse, min(MAX_GAP_US, gap + coarse), STEP_US), fine_hosts)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpus", default="a100,h200", help="presets of configs/hw, comma-separated")
    ap.add_argument("--measured", default=MEASURED,
                    help="the benchmark's CSV (gpu,launch,doubles,best_gbps)")
    ap.add_argument("--fit-max", type=int, default=100000,
                    help="fit to the rows of up to this many doubles (default 100000, 1.6 MB)")
    ap.add_argument("--check-max", type=int, default=710000,
                    help="check on the rows above --fit-max up to this many doubles")
    ap.add_argument("--wallsim", default="build/wallsim", help="the wallsim binary")
    args = ap.parse_args(argv)
    if args.fit_max <= 0 or args.check_max <= args.fit_max:
        wo.die("--fit-max must be positive and --check-max above it, got %d and %d"
               % (args.fit_max, args.check_max))
    gpus = [g for g in args.gpus.split(",") if g]
    measured = read_measured(args.measured)
    for g in gpus:
        if not os.path.exists(os.path.join(HERE, "..", "configs", "hw", g + ".yaml")):
            wo.die("--gpus: no preset configs/hw/%s.yaml" % g)
        if not any(gpu == g for gpu, _ in measured):
            wo.die("--gpus: %s has no rows in %s" % (g, args.measured))
    print("%-5s %-6s %6s %6s %5s %9s %10s %10s %12s" % (
        "gpu", "launch", "gap_us", "host", "rows", "fit_rms", "check_rows", "check_rms",
        "check_worst"))
    with tempfile.TemporaryDirectory() as tmp:
        for g in gpus:
            sizes = sorted({d for (gpu, _), rows in measured.items() if gpu == g
                            for d, _ in rows if d <= args.check_max})
            kernels = kernel_times(args.wallsim, g, sizes, tmp)
            for launch in ("stream", "graph"):
                rows = measured.get((g, launch), [])
                fit_rows = [r for r in rows if r[0] <= args.fit_max]
                check_rows = [r for r in rows if args.fit_max < r[0] <= args.check_max]
                if not fit_rows:
                    continue
                gap, host, fit_rms = fit(fit_rows, kernels, launch)
                check = errors(check_rows, kernels, launch, gap, host)
                worst = max(check, key=abs) if check else float("nan")
                # A host faster than the device at every row sets no time: only its bound shows.
                device_floor = min(kernels[d] + gap for d, _ in fit_rows)
                host_text = ("-" if launch == "graph" else
                             "%.2f" % host if host >= device_floor else "<%.2f" % device_floor)
                print("%-5s %-6s %6.2f %6s %5d %8.1f%% %10d %9.1f%% %+11.1f%%" % (
                    g, launch, gap, host_text, len(fit_rows), 100 * fit_rms, len(check_rows),
                    100 * rms(check), 100 * worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
