#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs SCALE-Sim v2 and `wallsim systolic` on the same .cfg and topology CSV and compares
their COMPUTE_REPORT.csv, BANDWIDTH_REPORT.csv and DETAILED_ACCESS_REPORT.csv byte for byte
(docs/systolic.md). SCALE-Sim is not a wallsim dependency: point --scalesim at a checkout of
github.com/scalesim-project/scale-sim-v2 (the folder holding the `scalesim` package), with
numpy and tqdm importable by --python.

  tools/compare_scalesim.py --scalesim ~/scale-sim-v2 CFG TOPOLOGY [CFG TOPOLOGY ...]

Exit status 0 when every report of every pair is identical, 1 otherwise, 2 on bad input.
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile

REPORTS = ["COMPUTE_REPORT.csv", "BANDWIDTH_REPORT.csv", "DETAILED_ACCESS_REPORT.csv"]
HERE = os.path.dirname(os.path.abspath(__file__))


def run_name(cfg):
    with open(cfg) as f:
        for line in f:
            key, sep, value = line.partition("=")
            if sep and key.strip().lower() == "run_name":
                return value.strip()
    sys.exit(f"{cfg}: no run_name in [general]")


def is_gemm(topology):
    with open(topology) as f:
        header = [c.strip().lower() for c in f.readline().split(",")]
    return header[1:4] == ["m", "n", "k"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scalesim", required=True, help="folder holding the scalesim package")
    ap.add_argument("--python", default="python3", help="Python with numpy and tqdm")
    ap.add_argument("--wallsim", default=os.path.join(HERE, "..", "build", "wallsim"))
    ap.add_argument("pairs", nargs="+", help="CFG TOPOLOGY pairs")
    args = ap.parse_args()
    if len(args.pairs) % 2:
        ap.error("give CFG TOPOLOGY pairs")
    for p in args.pairs:
        if not os.path.isfile(p):
            print(f"{p}: no such file", file=sys.stderr)
            return 2
    env = dict(os.environ, PYTHONPATH=os.path.abspath(args.scalesim))
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(0, len(args.pairs), 2):
            cfg, topo = args.pairs[i], args.pairs[i + 1]
            ref = os.path.join(tmp, f"ref{i}")
            mine = os.path.join(tmp, f"wallsim{i}")
            subprocess.run([args.python, "-m", "scalesim.scale", "-c", cfg, "-t", topo, "-p", ref,
                            "-i", "gemm" if is_gemm(topo) else "conv"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            subprocess.run([args.wallsim, "systolic", "--scalesim-config", cfg, "--topology", topo,
                            "--out", mine], check=True, stdout=subprocess.DEVNULL)
            for report in REPORTS:
                with open(os.path.join(ref, run_name(cfg), report)) as f:
                    a = f.read().splitlines()
                with open(os.path.join(mine, report)) as f:
                    b = f.read().splitlines()
                if a == b:
                    print(f"same      {cfg} {topo} {report}")
                    continue
                same = False
                print(f"DIFFERENT {cfg} {topo} {report}")
                sys.stdout.writelines(line + "\n" for line in difflib.unified_diff(
                    a, b, "scalesim", "wallsim", lineterm="", n=0))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
