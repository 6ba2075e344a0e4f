#!/usr/bin/env python3
"""Loader for a wallsim output directory (stats.json + ops.csv).

Shared by tools/plot_roofline.py and tools/plot_ops.py.  Standard library only;
matplotlib is imported lazily through import_pyplot(), PyYAML through import_yaml().

    from wallsim_output import load_run
    run = load_run("out/h100_gpt")      # exits 2 with a one-line error if bad
    run.meta["hw_name"], run.stats, run.ops
    run.peak_flops("tensor", "bf16")    # FLOP/s, or None when not present
    run.bandwidth()                     # HBM bytes/s

Use load_run(dir, exit_on_error=False) to get a WallsimOutputError instead of
an exit.
"""

import csv
import json
import math
import os
import sys

PROG = "wallsim"

# Columns of ops.csv in the order wallsim writes them.
OPS_COLUMNS = [
    "index", "name", "kind", "stream", "dtype", "unit", "fidelity", "model",
    "start_us", "time_us", "flops", "bytes", "intensity", "achieved_tflops",
    "achieved_gbps", "roof_tflops", "flop_util", "bw_util", "bound",
    "energy_j", "compute_j", "data_movement_j", "static_j", "power_w", "tflops_per_w",
    "clock_mhz", "power_limited", "fallback",
]
# Columns the plotting tools cannot do without; the others are optional.
REQUIRED_COLUMNS = [
    "index", "name", "kind", "unit", "time_us", "flops", "bytes",
]
NUMERIC_COLUMNS = {
    "index", "stream", "start_us", "time_us", "flops", "bytes", "intensity",
    "achieved_tflops", "achieved_gbps", "roof_tflops", "flop_util", "bw_util",
    "energy_j", "compute_j", "data_movement_j", "static_j", "power_w", "tflops_per_w",
    "clock_mhz", "power_limited",
}


class WallsimOutputError(Exception):
    """A wallsim output directory is missing or malformed."""


def die(msg, code=2):
    """Print one line to stderr and exit (default status 2)."""
    msg = " ".join(str(msg).split())  # keep it on one line
    sys.stderr.write("%s: error: %s\n" % (os.path.basename(sys.argv[0]) or PROG, msg))
    sys.exit(code)


def _num(text, where):
    """'' -> None; numeric text -> float (non-finite -> None); else error."""
    text = (text or "").strip()
    if text == "":
        return None
    try:
        v = float(text)
    except ValueError:
        raise WallsimOutputError("%s: not a number: %r" % (where, text))
    return v if math.isfinite(v) else None


def _leaf_value(node):
    """A stat leaf is {"value": x, ...}; a bare number is accepted too."""
    if isinstance(node, dict):
        node = node.get("value")
    if isinstance(node, bool) or not isinstance(node, (int, float)):
        return None
    v = float(node)
    return v if math.isfinite(v) else None


class Run:
    """One wallsim run: meta (dict), stats (dict), ops (list of dicts)."""

    def __init__(self, path, stats, ops):
        self.dir = path
        self.stats = stats
        self.meta = stats.get("meta", {})
        self.ops = ops

    # ---- naming -------------------------------------------------------
    @property
    def hw_name(self):
        return str(self.meta.get("hw_name") or os.path.basename(os.path.normpath(self.dir)))

    @property
    def trace_name(self):
        return str(self.meta.get("trace_name") or "")

    # ---- stats ---------------------------------------------------------
    def stat(self, *path):
        """Value of the leaf stat at stats[path[0]][path[1]]..., or None."""
        node = self.stats
        for key in path:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return _leaf_value(node)

    def dtypes(self, unit):
        """Dtypes with a peak under hw.peak_flops.<unit>, in file order."""
        group = self.stats.get("hw", {}).get("peak_flops", {}).get(unit)
        if not isinstance(group, dict):
            return []
        return [d for d in group if self.peak_flops(unit, d)]

    def units(self):
        group = self.stats.get("hw", {}).get("peak_flops", {})
        return [u for u in group if isinstance(group[u], dict)] if isinstance(group, dict) else []

    def peak_flops(self, unit, dtype):
        """Peak FLOP/s of (unit, dtype), or None when not present / not > 0."""
        v = self.stat("hw", "peak_flops", unit, dtype)
        return v if v and v > 0 else None

    def bandwidth(self):
        """HBM bandwidth in bytes/s; raises WallsimOutputError when absent."""
        v = self.stat("hw", "hbm_bandwidth")
        if not v or v <= 0:
            raise WallsimOutputError(
                "%s: stats.json has no positive hw.hbm_bandwidth.value" % self.dir)
        return v

    # ---- ops -----------------------------------------------------------
    def total_time_us(self):
        return sum(op["time_us"] or 0.0 for op in self.ops)

    def __repr__(self):
        return "Run(%r, hw=%r, trace=%r, %d ops)" % (
            self.dir, self.hw_name, self.trace_name, len(self.ops))


def _load_stats(path):
    spath = os.path.join(path, "stats.json")
    if not os.path.isfile(spath):
        raise WallsimOutputError("%s: no stats.json (is this a wallsim output directory?)" % path)
    try:
        with open(spath, encoding="utf-8") as f:
            stats = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise WallsimOutputError("%s: cannot read: %s" % (spath, e))
    except json.JSONDecodeError as e:
        raise WallsimOutputError("%s: invalid JSON: %s" % (spath, e))
    if not isinstance(stats, dict):
        raise WallsimOutputError("%s: top level is not a JSON object" % spath)
    for group in ("meta", "hw"):
        if not isinstance(stats.get(group), dict):
            raise WallsimOutputError("%s: missing or non-object \"%s\" group" % (spath, group))
    return stats


def _load_ops(path):
    opath = os.path.join(path, "ops.csv")
    if not os.path.isfile(opath):
        raise WallsimOutputError("%s: no ops.csv" % path)
    ops = []
    try:
        with open(opath, newline="", encoding="utf-8") as f:
            reader = csv.reader(f)
            header = next(reader, None)
            if header is None:
                raise WallsimOutputError("%s: empty file (no header)" % opath)
            header = [h.strip() for h in header]
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise WallsimOutputError("%s: header lacks column(s) %s" % (opath, ",".join(missing)))
            for row in reader:
                if not row or all(not c.strip() for c in row):
                    continue
                where = "%s:%d" % (opath, reader.line_num)
                if len(row) != len(header):
                    raise WallsimOutputError("%s: %d fields, header has %d" % (where, len(row), len(header)))
                op = {}
                for col, text in zip(header, row):
                    if col in NUMERIC_COLUMNS:
                        op[col] = _num(text, "%s column %s" % (where, col))
                    else:
                        op[col] = text.strip()
                for col in OPS_COLUMNS:  # optional columns default to empty
                    op.setdefault(col, None if col in NUMERIC_COLUMNS else "")
                _fill_derived(op)
                ops.append(op)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise WallsimOutputError("%s: cannot read: %s" % (opath, e))
    return ops


def _fill_derived(op):
    """Integer index; fill intensity / achieved_tflops when left empty."""
    if op["index"] is not None:
        op["index"] = int(op["index"])
    if op["stream"] is not None and op["stream"] == int(op["stream"]):
        op["stream"] = int(op["stream"])
    flops, nbytes, t = op["flops"] or 0.0, op["bytes"] or 0.0, op["time_us"] or 0.0
    if op["intensity"] is None:
        op["intensity"] = flops / nbytes if nbytes > 0 else 0.0
    if op["achieved_tflops"] is None:
        op["achieved_tflops"] = flops / (t * 1e-6) / 1e12 if t > 0 else 0.0
    if op["achieved_gbps"] is None:
        op["achieved_gbps"] = nbytes / (t * 1e-6) / 1e9 if t > 0 else 0.0


def load_run(path, exit_on_error=True):
    """Load DIR/stats.json and DIR/ops.csv into a Run.

    On a missing or malformed directory/file, print one line to stderr and
    exit 2 (or raise WallsimOutputError when exit_on_error is False).
    """
    try:
        if not os.path.isdir(path):
            raise WallsimOutputError("%s: no such directory" % path)
        stats = _load_stats(path)
        ops = _load_ops(path)
    except WallsimOutputError as e:
        if exit_on_error:
            die(e)
        raise
    return Run(path, stats, ops)


# ---- plotting helpers shared by the tools ---------------------------------

SYSTEM_PYTHON = "/usr/bin/python3"


def _reexec_under_system_python():
    """Re-run this script once under Debian's /usr/bin/python3 when this interpreter (e.g. a
    pyenv python3 ahead of Debian's on PATH) is a different one. Returns only when it cannot."""
    if (os.environ.get("WALLSIM_PLOT_REEXEC") != "1" and os.path.exists(SYSTEM_PYTHON)
            and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON)):
        os.environ["WALLSIM_PLOT_REEXEC"] = "1"
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)


def import_pyplot():
    """Return matplotlib.pyplot on the Agg backend.

    If this interpreter lacks matplotlib (e.g. a pyenv python3 ahead of
    Debian's on PATH) and Debian's /usr/bin/python3 is a different
    interpreter, re-run the script under it once.
    """
    try:
        import matplotlib
    except ImportError:
        _reexec_under_system_python()
        die("matplotlib is not available to %s (apt-get install python3-matplotlib)" % sys.executable)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def import_yaml():
    """Return the yaml module (PyYAML), re-running the script under Debian's python3 once
    when this interpreter lacks it, as import_pyplot does."""
    try:
        import yaml
    except ImportError:
        _reexec_under_system_python()
        die("PyYAML is not available to %s (apt-get install python3-yaml)" % sys.executable)
    return yaml


def output_paths(out, svg):
    """Files to write for -o OUT [--svg]: OUT itself, plus OUT.svg with --svg."""
    paths = [out]
    if svg and not out.lower().endswith(".svg"):
        paths.append(os.path.splitext(out)[0] + ".svg")
    return paths


def save_figure(fig, out, svg=False, dpi=150):
    """Save fig to OUT (format from its extension, PNG if none) and, with
    svg, to the .svg sibling.  Creates parent directories.  Returns paths."""
    written = []
    for p in output_paths(out, svg):
        parent = os.path.dirname(os.path.abspath(p))
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as e:
            die("cannot create %s: %s" % (parent, e))
        ext = os.path.splitext(p)[1].lower().lstrip(".")
        fmt = ext if ext in fig.canvas.get_supported_filetypes() else "png"
        try:
            fig.savefig(p, format=fmt, dpi=dpi, bbox_inches="tight")
        except OSError as e:
            die("cannot write %s: %s" % (p, e))
        written.append(p)
    return written


def split_list(text):
    """'a, b,c' -> ['a', 'b', 'c'] (lowercased, empties dropped)."""
    return [t.strip().lower() for t in (text or "").split(",") if t.strip()]


def fmt_si(value, unit=""):
    """989.4e12 -> '989 T'; used for FLOP/s and B/s labels."""
    for scale, prefix in ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            v = value / scale
            return ("%.3g %s%s" % (v, prefix, unit)).strip()
    return ("%.3g %s" % (value, unit)).strip()


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="Check and summarise wallsim output directories.")
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    a = ap.parse_args()
    for d in a.dirs:
        r = load_run(d)
        print("%s: hw=%s trace=%s ops=%d op-time=%.3f us" % (
            d, r.hw_name, r.trace_name, len(r.ops), r.total_time_us()))
