#!/usr/bin/env python3
"""Compute-in-memory experiments: runs `wallsim cim` sweeps and draws five figures.

    tools/plot_cim.py -o docs/images            # all figures, about a minute
    tools/plot_cim.py -o /tmp/cim --quick       # fewer points (the smoke test)

Figures (PNG, in the output directory):
  cim_breakdown.png   peak power and chip area of the ISAAC preset per component
  cim_adc_sweep.png   ADC resolution: effective bits vs energy per MVM (ISAAC, 16-bit)
  cim_cell_xbar.png   cell bits and crossbar size: effective bits and peak TOPS/W
  cim_drift.png       conductance drift: end-to-end effective bits of the example MLP over time
  cim_tops_per_w.png  peak TOPS/W of the CIM presets beside the GPU presets (per W of TDP)
Each figure's numbers are also printed, one line per point.
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wallsim_output  # noqa: E402

plt = wallsim_output.import_pyplot()  # re-executes under Debian's python3 when matplotlib is missing

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
ISAAC = os.path.join(ROOT, "configs", "cim", "isaac.yaml")
TEACHING = os.path.join(ROOT, "configs", "cim", "teaching.yaml")
MLP = os.path.join(ROOT, "traces", "examples", "cim_mlp.json")
COMPONENTS = ["cells", "dac", "sample_hold", "adc", "shift_add", "ima_buffers", "tile_buffer",
              "network", "tile_digital", "chip_io", "programming"]


class Runner:
    def __init__(self, wallsim, tmp):
        self.wallsim = wallsim
        self.tmp = tmp
        self.count = 0

    def cim(self, config, args, sets=()):
        self.count += 1
        out = os.path.join(self.tmp, "run%d" % self.count)
        cmd = [self.wallsim, "cim", "--cim", config, "--out", out] + list(args)
        for s in sets:
            cmd += ["--set", s]
        wallsim_output.run_wallsim(cmd[0], cmd[1:])
        return wallsim_output.load_json(os.path.join(out, "stats.json"))


def v(node):
    return node["value"]


def breakdown(runner, outdir):
    s = runner.cim(ISAAC, [])
    peak = s["cim_peak"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5.5))
    for ax, group, unit in ((axes[0], "power", "W"), (axes[1], "area", "mm²")):
        vals = [(c, v(peak[group][c])) for c in COMPONENTS if c in peak[group] and v(peak[group][c]) > 0]
        total = sum(x for _, x in vals)
        vals.sort(key=lambda p: -p[1])
        labels = ["%s %.1f%%" % (c, 100 * x / total) if x / total > 0.02 else "" for c, x in vals]
        explode = [0.08 if c == "adc" else 0 for c, _ in vals]
        ax.pie([x for _, x in vals], labels=labels, explode=explode, startangle=90, counterclock=False)
        ax.set_title("%s: %.1f %s" % ("Peak power" if group == "power" else "Chip area", total, unit))
        for c, x in vals:
            print("breakdown %s %s %.4g %s (%.1f%%)" % (group, c, x, unit, 100 * x / total))
    fig.suptitle("%s: ADC %.0f%% of power, %.0f%% of area; ADC+DAC+S&H %.0f%% of power" % (
        s["meta"]["cim_name"], 100 * v(peak["power"]["adc_share"]), 100 * v(peak["area"]["adc_share"]),
        100 * v(peak["power"]["converter_share"])))
    save(fig, outdir, "cim_breakdown.png")


def adc_sweep(runner, outdir, quick):
    bits = [4, 6, 8] if quick else [4, 5, 6, 7, 8, 9, 10]
    gemm = ["--gemm", "1024,2048,1024", "--sample", "16,512,128"]
    fig, ax = plt.subplots(figsize=(8, 5))
    for label, sets in (("ideal device", []),
                        ("variation σ=0.02, write noise 0.1", ["nonideality.variation_sigma=0.02",
                                                               "nonideality.write_noise_sigma=0.1"])):
        xs, ys = [], []
        for b in bits:
            s = runner.cim(ISAAC, gemm, sets + ["crossbar.adc_bits=%d" % b])
            e = v(s["cim_layer"]["energy"]["per_vector"]) * 1e6
            eff = v(s["cim_accuracy"]["vs_float"]["effective_bits"])
            xs.append(e)
            ys.append(eff)
            print("adc_sweep %s bits=%d energy_per_mvm=%.4g uJ adc_share=%.3f effective_bits=%.2f" % (
                label, b, e, v(s["cim_layer"]["energy"]["adc_share"]), eff))
        line, = ax.plot(xs, ys, marker="o", label=label)
        for x, y, b in zip(xs, ys, bits):
            ax.annotate("%d b" % b, (x, y), textcoords="offset points", xytext=(4, -12), fontsize=8,
                        color=line.get_color())
    ax.set_xscale("log")
    ax.set_xlabel("Energy per MVM of a 2048x1024 layer, whole chip (µJ)")
    ax.set_ylabel("Effective bits vs float (16-bit operands)")
    ax.set_title("ADC resolution: accuracy vs energy (ISAAC preset, flipped encoding)")
    ax.grid(True, alpha=0.3)
    ax.legend()
    save(fig, outdir, "cim_adc_sweep.png")


def cell_xbar_sweep(runner, outdir, quick):
    device = ["nonideality.variation_sigma=0.02"]
    gemm = ["--gemm", "16,512,128", "--sample", "8,512,64"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    cells = [1, 2, 4] if quick else [1, 2, 3, 4]
    sizes = [64, 128, 256] if quick else [32, 64, 128, 256, 512]
    sweeps = (
        (axes[0], "cell bits", cells, lambda c: ["crossbar.cell_bits=%d" % c]),
        (axes[1], "crossbar rows = columns", sizes,
         lambda n: ["crossbar.rows=%d" % n, "crossbar.columns=%d" % n, "crossbar.columns_per_adc=%d" % n,
                    "area.crossbar_mm2=%g" % (0.000025 * (n / 128.0) ** 2)]),
    )
    for ax, what, values, sets in sweeps:
        effs, tops = [], []
        for x in values:
            s = runner.cim(ISAAC, gemm, device + sets(x))
            effs.append(v(s["cim_accuracy"]["vs_float"]["effective_bits"]))
            tops.append(v(s["cim_peak"]["tops_per_w"]))
            print("cell_xbar %s=%d effective_bits=%.2f peak_tops_per_w=%.3f tops_per_mm2=%.3f util=%.2f" % (
                what.split()[0], x, effs[-1], tops[-1], v(s["cim_peak"]["tops_per_mm2"]),
                v(s["cim_layer"]["mapping"]["utilisation"])))
        ax.plot(values, effs, marker="o", color="tab:blue", label="effective bits")
        ax.set_xlabel(what + " (8-bit ADC, one ADC per crossbar)")
        ax.set_ylabel("Effective bits vs float", color="tab:blue")
        ax2 = ax.twinx()
        ax2.plot(values, tops, marker="s", color="tab:red", label="peak TOPS/W")
        ax2.set_ylabel("Peak TOPS/W", color="tab:red")
        if what.startswith("crossbar"):
            ax.set_xscale("log", base=2)
        ax.set_xticks(values)
        ax.set_xticklabels([str(x) for x in values])
        ax.grid(True, alpha=0.3)
        ax.set_title("ISAAC preset, variation σ=0.02: " + what)
    save(fig, outdir, "cim_cell_xbar.png")


def drift(runner, outdir, quick):
    times = [1, 1e2, 1e4, 1e6, 1e8] if quick else [1, 10, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]
    fig, ax = plt.subplots(figsize=(8, 5))
    for nu in ([0.01, 0.05] if quick else [0.005, 0.01, 0.02, 0.05]):
        effs = []
        for t in times:
            s = runner.cim(TEACHING, ["--mlp", MLP], ["nonideality.drift_nu=%g" % nu,
                                                       "nonideality.time_since_programming=%gs" % t])
            effs.append(v(s["cim_mlp"]["end_to_end"]["effective_bits"]))
            print("drift nu=%g t=%gs effective_bits=%.2f" % (nu, t, effs[-1]))
        ax.plot(times, effs, marker="o", label="ν = %g" % nu)
    ax.set_xscale("log")
    ax.set_xlabel("Time since programming (s); 1 day = 8.6e4 s, 1 year = 3.2e7 s")
    ax.set_ylabel("End-to-end effective bits of the MLP")
    ax.set_title("Conductance drift G(t) = G0 (t/1 s)^-ν: teaching preset, example MLP")
    ax.grid(True, alpha=0.3)
    ax.legend()
    save(fig, outdir, "cim_drift.png")


def gpu_efficiency(wallsim, hw):
    proc = wallsim_output.run_wallsim(wallsim, ["validate-config", hw])
    name, values = None, {}
    for line in proc.stdout.splitlines():
        if line.startswith(hw) and "(" in line:
            name = line.split("(", 1)[1].split(",")[0]
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith("hw.peak_efficiency.tensor."):
            values[parts[0].rsplit(".", 1)[1]] = float(parts[1])
    return name, values


def tops_per_w(runner, outdir):
    bars = []
    for label, config, sets in (("ISAAC-like\n16-bit", ISAAC, []),
                                ("ISAAC-like\n8-bit", ISAAC, ["data.weight_bits=8", "data.input_bits=8"]),
                                ("teaching\n8-bit", TEACHING, [])):
        s = runner.cim(config, [], sets)
        bars.append((label, v(s["cim_peak"]["tops_per_w"]), "tab:green"))
    for hw in ("a100", "h100", "h200"):
        name, eff = gpu_efficiency(runner.wallsim, os.path.join(ROOT, "configs", "hw", hw + ".yaml"))
        short = hw.upper()
        bars.append(("%s\nBF16" % short, eff["bf16"] / 1e12, "tab:blue"))
        if "int8" in eff:
            bars.append(("%s\nINT8" % short, eff["int8"] / 1e12, "tab:purple"))
    fig, ax = plt.subplots(figsize=(11, 5))
    ax.bar(range(len(bars)), [b[1] for b in bars], color=[b[2] for b in bars])
    for i, b in enumerate(bars):
        ax.text(i, b[1], "%.2f" % b[1], ha="center", va="bottom", fontsize=8)
        print("tops_per_w %s %.3f" % (b[0].replace("\n", " "), b[1]))
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([b[0] for b in bars], fontsize=8)
    ax.set_ylabel("Peak TOPS/W (GPU: dense tensor peak / TDP)")
    ax.set_title("Analogue CIM (green; ISAAC is 32 nm, 2016) beside digital GPUs (7 nm / 4 nm)")
    ax.grid(True, axis="y", alpha=0.3)
    save(fig, outdir, "cim_tops_per_w.png")


def save(fig, outdir, name):
    fig.tight_layout()
    path = os.path.join(outdir, name)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    print("wrote %s" % path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-o", "--output-dir", required=True, help="directory for the PNGs")
    ap.add_argument("--quick", action="store_true", help="fewer points per sweep")
    ap.add_argument("--wallsim", default=os.path.join(ROOT, "build", "wallsim"))
    args = ap.parse_args()
    if not os.access(args.wallsim, os.X_OK):
        wallsim_output.die("%s is not an executable; build first or pass --wallsim" % args.wallsim)
    os.makedirs(args.output_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        runner = Runner(args.wallsim, tmp)
        breakdown(runner, args.output_dir)
        adc_sweep(runner, args.output_dir, args.quick)
        cell_xbar_sweep(runner, args.output_dir, args.quick)
        drift(runner, args.output_dir, args.quick)
        tops_per_w(runner, args.output_dir)


if __name__ == "__main__":
    main()
