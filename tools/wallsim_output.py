#!/usr/bin/env python3
"""Loader for a wallsim output directory (stats.json + ops.csv), and the helpers every plot
tool shares: run_wallsim() runs wallsim and turns a failure into one error line and exit 2,
load_json() reads what it wrote, place_point_labels() writes labels that do not overlap.

Standard library only; matplotlib is imported lazily through import_pyplot(), PyYAML through
import_yaml().

    from wallsim_output import load_run
    run = load_run("out/h100_gpt")      # exits 2 with a one-line error if bad
    run.meta["hw_name"], run.stats, run.ops
    run.peak_flops("tensor", "bf16")    # FLOP/s, or None when not present
    run.bandwidth()                     # HBM bytes/s (DRAM of a systolic array, tile buffers
                                        # of a CIM chip)
    run.default_roofs()                 # the (unit, dtype) roofs a plot draws by default

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
    "measured_us", "error", "launch_gap_us",
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
    "measured_us", "error", "launch_gap_us",
}


# Devices other than GPUs have one compute roof and one memory roof, each a stat of their own
# under hw.*: a systolic array's peak (rows x cols x 2 x clock) and the DRAM behind its buffers,
# a CIM chip's peak (every crossbar busy) and its tile buffers. Their peaks count integer
# operations, not FLOPs; the one roof is the pair (unit, ARRAY_DTYPE).
DEVICE_ROOFS = {
    "systolic": {"unit": "array", "peak": ("hw", "peak_ops"), "memory": "DRAM",
                 "bandwidth": ("hw", "dram_bandwidth")},
    "cim": {"unit": "crossbars", "peak": ("hw", "ops_per_s"), "memory": "tile buffers",
            "bandwidth": ("hw", "buffer_bandwidth")},
}
ARRAY_DTYPE = "ops"


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

    @property
    def device(self):
        """meta.device: "gpu", "systolic", "cim", ... ("gpu" for runs that predate it)."""
        return str(self.meta.get("device") or "gpu")

    @property
    def _roof(self):
        return DEVICE_ROOFS.get(self.device)

    @property
    def counts_flops(self):
        """True when peaks and ops count FLOPs (GPUs); False for integer arrays."""
        return self._roof is None

    @property
    def op_word(self):
        """What a peak counts: "FLOP", or "op" for systolic and CIM integer arrays."""
        return "FLOP" if self.counts_flops else "op"

    @property
    def rate_unit(self):
        """Unit of the peaks: "FLOP/s", or "OP/s" for integer arrays."""
        return "FLOP/s" if self.counts_flops else "OP/s"

    @property
    def memory_name(self):
        """The memory under the bandwidth roof: "HBM", "DRAM", "tile buffers"."""
        return self._roof["memory"] if self._roof else "HBM"

    def dtypes(self, unit):
        """Dtypes with a peak under hw.peak_flops.<unit>, in file order."""
        if self._roof:
            return [ARRAY_DTYPE] if self.peak_flops(unit, ARRAY_DTYPE) else []
        group = self.stats.get("hw", {}).get("peak_flops", {}).get(unit)
        if not isinstance(group, dict):
            return []
        return [d for d in group if self.peak_flops(unit, d)]

    def units(self):
        if self._roof:
            return [self._roof["unit"]] if self.stat(*self._roof["peak"]) else []
        group = self.stats.get("hw", {}).get("peak_flops", {})
        return [u for u in group if isinstance(group[u], dict)] if isinstance(group, dict) else []

    def peak_flops(self, unit, dtype):
        """Peak FLOP/s (op/s of an integer array) of (unit, dtype), or None when not present /
        not > 0."""
        if self._roof:
            ok = unit == self._roof["unit"] and dtype == ARRAY_DTYPE
            v = self.stat(*self._roof["peak"]) if ok else None
        else:
            v = self.stat("hw", "peak_flops", unit, dtype)
        return v if v and v > 0 else None

    def default_roofs(self):
        """(unit, dtype) pairs a plot draws unless told otherwise: a GPU's Tensor Core dtypes
        and vector fp32; the one roof of any other device."""
        if self._roof:
            return [(u, ARRAY_DTYPE) for u in self.units()]
        pairs = [("tensor", d) for d in self.dtypes("tensor")]
        if self.peak_flops("vector", "fp32"):
            pairs.append(("vector", "fp32"))
        return pairs

    def roof_label(self, unit, dtypes):
        """"tensor bf16/fp16" for a GPU roof, the unit alone ("array") for the others."""
        real = [d for d in dtypes if d != ARRAY_DTYPE]
        return "%s %s" % (unit, "/".join(real)) if real else unit

    def bandwidth(self):
        """Memory-roof bandwidth in bytes/s: HBM of a GPU, the DRAM behind a systolic array,
        the tile buffers of a CIM chip. Raises WallsimOutputError when absent or unlimited."""
        path = self._roof["bandwidth"] if self._roof else ("hw", "hbm_bandwidth")
        v = self.stat(*path)
        if v is not None and v == 0 and self.device == "systolic":
            raise WallsimOutputError(
                "%s: the array's DRAM bandwidth is unlimited (hw.dram_bandwidth = 0), so it has "
                "no memory roof" % self.dir)
        if not v or v <= 0:
            raise WallsimOutputError(
                "%s: stats.json has no positive %s.value (a %s run)"
                % (self.dir, ".".join(path), self.device))
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


# ---- running wallsim -------------------------------------------------------

def default_wallsim():
    """build/wallsim of the repository this tools/ folder belongs to."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "wallsim")


def validation_cases(csv_path, wallsim, case_filter, read):
    """The cases of a `wallsim validate` run, as read(path of its validation.csv) gives them:
    csv_path's when given (an earlier run), else a fresh run of the cases matching case_filter
    (all of them when it is empty)."""
    if csv_path:
        return read(csv_path)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "validation")
        extra = ["--filter", case_filter] if case_filter else []
        run_wallsim(wallsim, ["validate", "--out", out] + extra)
        return read(os.path.join(out, "validation.csv"))


def run_wallsim(wallsim, args, exit_on_error=True):
    """Run `wallsim ARGS...` and return its subprocess.CompletedProcess (text stdout/stderr).

    When wallsim cannot be started or exits non-zero, print its last error line (it reports
    bad input in one line) and exit 2, or raise WallsimOutputError when exit_on_error is
    False. Every plot tool that drives wallsim goes through here.
    """
    import subprocess
    cmd = [wallsim] + [str(a) for a in args]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        err = WallsimOutputError("cannot run %s: %s (build it with tools/build, or pass --wallsim)"
                                 % (wallsim, e.strerror or e))
    else:
        if proc.returncode == 0:
            return proc
        lines = [l for l in proc.stderr.strip().splitlines() if l.strip()]
        what = " ".join(str(a) for a in args[:1])
        err = WallsimOutputError(lines[-1] if lines else "wallsim %s failed with exit code %d"
                                 % (what, proc.returncode))
    if exit_on_error:
        die(err)
    raise err


def load_json(path, exit_on_error=True):
    """A JSON file wallsim wrote (stats.json, cost.json), or a one-line error and exit 2."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        err = WallsimOutputError("%s: cannot read: %s" % (path, e.strerror or e))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        err = WallsimOutputError("%s: invalid JSON: %s" % (path, e))
    if exit_on_error:
        die(err)
    raise err


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


def place_point_labels(fig, ax, labels, points=(), fontsize=6, color="#222222"):
    """Write each (x, y, text) of labels next to its point so that no two labels overlap and no
    label covers a point of points ((x, y) in data units) or leaves the axes: offsets around
    the point are tried nearest first, then further out with a leader line. A label that fits
    nowhere is placed at the last candidate and counted. Returns how many had to overlap."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax_box = ax.get_window_extent(renderer)
    taken = []
    from matplotlib.text import Text
    from matplotlib.transforms import Bbox
    pad = 3.0 * fig.dpi / 72.0  # a marker's radius, in pixels
    for x, y in points:
        px, py = ax.transData.transform((x, y))
        taken.append(Bbox.from_extents(px - pad, py - pad, px + pad, py + pad))
    # The lines already drawn (roofs, ridges), as small boxes every few pixels along them.
    for t in ax.texts:  # labels already written (a slope's bandwidth, a ridge)
        taken.append(t.get_window_extent(renderer))
    from matplotlib.collections import LineCollection
    step = 3.0 * fig.dpi / 72.0
    paths = [line.get_transform().transform(line.get_xydata()) for line in ax.get_lines()]
    for coll in ax.collections:  # vlines and hlines (ridge drop lines)
        if isinstance(coll, LineCollection):
            paths += [coll.get_transform().transform(seg) for seg in coll.get_segments()]
    for xy in paths:
        for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:]):
            n = max(1, int(math.hypot(x1 - x0, y1 - y0) / step))
            for k in range(n + 1):
                px, py = x0 + (x1 - x0) * k / n, y0 + (y1 - y0) * k / n
                if ax_box.contains(px, py):
                    taken.append(Bbox.from_extents(px - 1, py - 1, px + 1, py + 1))
    candidates = []
    for reach in (1.0, 2.5, 4.5, 7.0):
        for dx, dy in ((4, 3), (4, -3), (-4, 3), (-4, -3), (0, 6), (0, -6)):
            candidates.append((dx * reach, dy * reach, reach > 1.0))
    crowded = 0
    for x, y, text in labels:
        for n, (dx, dy, leader) in enumerate(candidates):
            ann = ax.annotate(
                text, xy=(x, y), xytext=(dx, dy), textcoords="offset points", fontsize=fontsize,
                color=color, zorder=7, ha="left" if dx > 0 else "right" if dx < 0 else "center",
                va="bottom" if dy > 0 else "top",
                arrowprops=dict(arrowstyle="-", color="#888888", lw=0.5) if leader else None)
            ann.update_positions(renderer)
            box = Text.get_window_extent(ann, renderer)  # the text alone, not its leader
            fits = (ax_box.contains(box.x0, box.y0) and ax_box.contains(box.x1, box.y1)
                    and not any(box.overlaps(t) for t in taken))
            if fits or n == len(candidates) - 1:
                crowded += 0 if fits else 1
                taken.append(box)
                break
            ann.remove()
    return crowded


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
