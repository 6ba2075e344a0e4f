#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Per-application TOPS of a TPU run (ops named APP/layer, as traces/examples/tpu_v1_apps.yaml
names them) from its ops.csv, beside TPU v1's measured TOPS in Jouppi et al., ISCA 2017,
Table 3 (docs/references.md [jouppi2017]; host time excluded there, so the host transfers of
the trace are listed apart here).

  tools/tpu_apps.py out/tpu/ops.csv
"""
import csv
import sys
from collections import OrderedDict

TABLE3_TOPS = {"MLP0": 12.3, "MLP1": 9.7, "LSTM0": 3.7, "LSTM1": 2.8, "CNN0": 86.0, "CNN1": 14.1}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip())
    apps = OrderedDict()
    try:
        with open(sys.argv[1], newline="") as f:
            for row in csv.DictReader(f):
                app = row["name"].split("/")[0]
                a = apps.setdefault(app, {"flops": 0.0, "us": 0.0, "host_us": 0.0})
                a["flops"] += float(row["flops"] or 0)
                a["us"] += float(row["time_us"])
                if row["kind"] == "memcpy":
                    a["host_us"] += float(row["time_us"])
    except (OSError, KeyError, ValueError) as e:
        print(f"{sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    print(f"{'app':6} {'time_us':>10} {'host%':>6} {'TOPS':>7} {'paper':>6} {'diff':>6}")
    for app, a in apps.items():
        tops = a["flops"] / (a["us"] * 1e-6) / 1e12 if a["us"] > 0 else 0.0
        paper = TABLE3_TOPS.get(app)
        diff = f"{100 * (tops / paper - 1):+5.0f}%" if paper else ""
        print(f"{app:6} {a['us']:10.1f} {100 * a['host_us'] / a['us']:5.1f}% {tops:7.2f} "
              f"{paper if paper else '':>6} {diff:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
