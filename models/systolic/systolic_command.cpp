// SPDX-License-Identifier: MIT
// `wallsim systolic`: runs a SCALE-Sim topology (or one GEMM) on a systolic array described by
// a wallsim hardware file (--hw) or by SCALE-Sim's own .cfg (--scalesim-config), and writes
// layers.csv (wallsim's timing) and stats.json, atomically; with a SCALE-Sim .cfg also
// SCALE-Sim v2's three reports, replayed by its own rules (scalesim_replay.h). --functional moves
// real values through the PE grid and checks the product; --wavefront prints it cycle by cycle.
#include <boost/program_options.hpp>

#include <charconv>
#include <cstdio>
#include <iostream>
#include <random>

#include "models/systolic/core/functional.h"
#include "models/systolic/core/reports.h"
#include "models/systolic/core/scalesim_io.h"
#include "models/systolic/register.h"
#include "models/systolic/systolic_params.h"
#include "sim/config/loader.h"
#include "sim/config/resolved.h"
#include "sim/engine/command_line.h"
#include "sim/engine/output_dir.h"
#include "sim/engine/run.h"

namespace sim::systolic {

namespace po = boost::program_options;

namespace {

Layer gemm_option(const std::string& text) {
    uint64_t v[3] = {0, 0, 0};
    const char* p = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 3; ++i) {
        const auto [next, ec] = std::from_chars(p, end, v[i]);
        const bool last = i == 2;
        if (ec != std::errc() || v[i] == 0 ||
            (last ? next != end : (next == end || *next != ','))) {
            throw option_error("--gemm",
                               "'" + text + "': expected M,N,K, three whole numbers >= 1");
        }
        p = next + 1;
    }
    return Layer::gemm(
        "gemm_" + std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]),
        v[0], v[1], v[2]);
}

IntMatrix random_matrix(uint64_t rows, uint64_t cols, std::mt19937_64& rng) {
    IntMatrix m(rows, cols);
    std::uniform_int_distribution<int> d(-128, 127);  // 8-bit operands, as on TPU v1
    for (auto& x : m.v)
        x = d(rng);
    return m;
}

void publish_array(StatGroup& hw, const ArrayParams& a) {
    hw.add_scalar("peak_ops", "op/s", "rows x cols x 2 x clock (a MAC is 2 ops)").set(a.peak_ops());
    hw.add_scalar("dram_bandwidth", "B/s", "DRAM behind the SRAM buffers; 0: unlimited")
        .set(a.dram_bytes_per_cycle * a.clock_hz);
    hw.add_counter("pes", "count", "processing elements (rows x cols)") +=
        uint64_t{a.rows} * a.cols;
    hw.add_scalar("clock", "Hz", "array clock").set(a.clock_hz);
}

}  // namespace

int run_systolic_command(const Registry& registry, const std::vector<std::string>& args) {
    std::string hw_file, cfg_file, topology_file, gemm_text, out_dir, seed_text;
    std::vector<std::string> overrides;
    po::options_description opts("wallsim systolic options");
    opts.add_options()("help,h", "show this help")("hw", po::value(&hw_file),
                                                   "wallsim hardware file with device: systolic")(
        "scalesim-config", po::value(&cfg_file), "SCALE-Sim .cfg hardware config, as it is")(
        "set", po::value(&overrides)->composing(), "override a --hw key: a.b.c=value")(
        "topology", po::value(&topology_file), "SCALE-Sim topology CSV (conv or GEMM M,N,K)")(
        "gemm", po::value(&gemm_text), "one GEMM M,N,K instead of a topology")(
        "functional", "compute the product through the PE grid and check it (small layers)")(
        "timing-only",
        "with --scalesim-config: skip SCALE-Sim's reports (their replay costs one step per SRAM "
        "access); write layers.csv and stats.json only")(
        "wavefront", "with --functional: print the grid every cycle (arrays up to 32x32)")(
        "seed", po::value(&seed_text)->default_value("1"), "seed of the functional operands")(
        "out", po::value(&out_dir),
        "write layers.csv and stats.json here, and with --scalesim-config SCALE-Sim v2's "
        "COMPUTE_REPORT.csv, BANDWIDTH_REPORT.csv and DETAILED_ACCESS_REPORT.csv");
    if (print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = parse_options(args, opts);
    if (hw_file.empty() == cfg_file.empty())
        throw option_error("--hw", "give exactly one of --hw and --scalesim-config");
    if (!cfg_file.empty() && !overrides.empty())
        throw option_error("--set", "--set applies to --hw files only");
    if (topology_file.empty() == gemm_text.empty())
        throw option_error("--topology", "give exactly one of --topology and --gemm");
    const bool functional = vm.count("functional") > 0;
    const bool wavefront = vm.count("wavefront") > 0;
    if (wavefront && !functional) throw option_error("--wavefront", "needs --functional");
    const uint64_t seed = whole_number_option("--seed", seed_text, 0, UINT64_MAX);

    // Validate every input before the output directory is touched.
    StatGroup stats(nullptr, "");
    Logging logging(spdlog::level::warn, [] { return TimePs{0}; });
    std::unique_ptr<HardwareSetup> setup;
    std::unique_ptr<ScaleSimConfig> scalesim;
    ArrayParams array;
    std::string hw_name;
    if (!hw_file.empty()) {
        setup = std::make_unique<HardwareSetup>(registry, hw_file, overrides, stats, logging, seed);
        if (setup->device() != "systolic") {
            throw option_error("--hw", hw_file + " describes a '" + setup->device() +
                                           "' device; wallsim systolic needs device: systolic");
        }
        array = resolved<SystolicParams>(setup->root()).array;
        hw_name = setup->name();
    } else {
        scalesim = std::make_unique<ScaleSimConfig>(read_scalesim_config(cfg_file));
        array = scalesim->array;
        hw_name = scalesim->run_name;
        publish_array(stats.add_group("hw"), array);
    }
    std::vector<LayerRun> runs;
    if (!topology_file.empty()) {
        for (Layer& l : read_topology_csv(topology_file).layers)
            runs.push_back({std::move(l), {}});
    } else {
        runs.push_back({gemm_option(gemm_text), {}});
    }
    if (functional) {
        for (const LayerRun& r : runs) {
            const Layer& l = r.layer;
            if (l.m() > kFunctionalMaxSide || l.n() > kFunctionalMaxSide ||
                l.k() > kFunctionalMaxSide) {
                throw option_error("--functional",
                                   "layer " + l.name + " is " + std::to_string(l.m()) + "x" +
                                       std::to_string(l.n()) + "x" + std::to_string(l.k()) +
                                       " (M x N x K); functional mode takes sides up to " +
                                       std::to_string(kFunctionalMaxSide));
            }
        }
        if (wavefront && (array.rows > 32 || array.cols > 32))
            throw option_error("--wavefront", "needs an array of at most 32x32");
    }
    for (LayerRun& r : runs)
        r.timing = time_layer(array, r.layer);
    // SCALE-Sim's own reports, by its rules, for its own hardware description.
    std::vector<ScaleSimLayerReport> scalesim_reports;
    const bool replay = scalesim && !out_dir.empty() && vm.count("timing-only") == 0;
    if (replay) {
        for (const LayerRun& r : runs) {
            try {
                scalesim_reports.push_back(replay_scalesim_layer(*scalesim, r.layer));
            } catch (const ConfigError& e) {
                throw ConfigError({topology_file.empty() ? "--gemm" : topology_file, 0, 0},
                                  r.layer.name, e.message());
            }
        }
    }
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    std::string functional_csv =
        "index,name,m,n,k,matches_reference,cycles,timing_compute_cycles\n";
    if (functional) {
        std::mt19937_64 rng(seed);
        for (size_t i = 0; i < runs.size(); ++i) {
            const Layer& l = runs[i].layer;
            const IntMatrix a = random_matrix(l.m(), l.k(), rng);
            const IntMatrix b = random_matrix(l.k(), l.n(), rng);
            const FunctionalResult f =
                run_functional(array, a, b, wavefront ? &std::cout : nullptr);
            const bool ok = f.c == reference_gemm(a, b);
            std::printf(
                "functional %s (%llu x %llu x %llu, %s): product %s the reference GEMM; "
                "%llu cycles stepped, timing model %llu compute cycles\n",
                l.name.c_str(), (unsigned long long)l.m(), (unsigned long long)l.n(),
                (unsigned long long)l.k(), to_string(array.dataflow).c_str(),
                ok ? "equals" : "DIFFERS FROM", (unsigned long long)f.cycles,
                (unsigned long long)runs[i].timing.compute_cycles);
            SIM_ASSERT(ok, "functional product of " << l.name << " differs from the reference");
            functional_csv += std::to_string(i) + "," + l.name + "," + std::to_string(l.m()) + "," +
                              std::to_string(l.n()) + "," + std::to_string(l.k()) + "," +
                              (ok ? "true" : "false") + "," + std::to_string(f.cycles) + "," +
                              std::to_string(runs[i].timing.compute_cycles) + "\n";
        }
    }

    uint64_t total = 0, compute = 0, stall = 0, macs = 0, dram = 0;
    double e_mac = 0, e_sram = 0, e_dram = 0;
    std::printf("%s: %ux%u %s array, %zu layers\n", hw_name.c_str(), array.rows, array.cols,
                to_string(array.dataflow).c_str(), runs.size());
    std::printf("  %-24s %12s %10s %7s %7s %s\n", "layer", "cycles", "stalls", "util%", "map%",
                "bound");
    for (const LayerRun& r : runs) {
        const LayerTiming& t = r.timing;
        total += t.total_cycles;
        compute += t.compute_cycles;
        stall += t.stall_cycles;
        macs += t.macs;
        dram += t.dram_bytes;
        e_mac += t.mac_energy;
        e_sram += t.sram_energy;
        e_dram += t.dram_energy;
        std::printf("  %-24s %12llu %10llu %7.2f %7.2f %s\n", r.layer.name.c_str(),
                    (unsigned long long)t.total_cycles, (unsigned long long)t.stall_cycles,
                    100 * t.overall_utilisation, 100 * t.mapping_efficiency,
                    t.memory_bound ? "memory" : "compute");
    }
    const double seconds = double(total) / array.clock_hz;
    const double e_static = array.static_power_w * seconds;
    std::printf(
        "  total %llu cycles (%llu stalls), %.6g s at %.4g MHz, %.4g TOPS achieved of "
        "%.4g peak\n",
        (unsigned long long)total, (unsigned long long)stall, seconds, array.clock_hz / 1e6,
        2.0 * double(macs) / seconds / 1e12, array.peak_ops() / 1e12);

    StatGroup& g = stats.add_group("systolic_run");
    g.add_counter("layers", "count", "layers simulated") += runs.size();
    g.add_counter("macs", "count", "useful multiply-accumulates") += macs;
    g.add_counter("total_cycles", "cycle", "all layers, one after another") += total;
    g.add_counter("compute_cycles", "cycle", "fill + stream + drain of every fold") += compute;
    g.add_counter("stall_cycles", "cycle", "cycles the array waited for DRAM") += stall;
    g.add_scalar("time", "s", "total cycles / clock").set(seconds);
    g.add_scalar("achieved_ops", "op/s", "2 x MACs / time").set(2.0 * double(macs) / seconds);
    g.add_scalar("overall_utilisation", "ratio", "MACs / (rows x cols x total cycles)")
        .set(double(macs) / (double(total) * array.rows * array.cols));
    g.add_scalar("dram_bytes", "B", "DRAM traffic of all layers").set(double(dram));
    StatGroup& e = g.add_group("energy");
    e.add_scalar("mac", "J", "MACs x energy per MAC").set(e_mac);
    e.add_scalar("sram", "J", "SRAM bytes x energy per byte").set(e_sram);
    e.add_scalar("dram", "J", "DRAM bytes x energy per byte").set(e_dram);
    e.add_scalar("static", "J", "static power x time").set(e_static);
    e.add_scalar("total", "J", "all of the above").set(e_mac + e_sram + e_dram + e_static);

    if (out) {
        out->write_stats(Json{{"wallsim_version", WALLSIM_VERSION},
                              {"hw_name", hw_name},
                              {"hw_file", hw_file.empty() ? cfg_file : hw_file},
                              {"topology", topology_file.empty() ? gemm_text : topology_file},
                              {"dataflow", to_string(array.dataflow)},
                              {"overrides", overrides}},
                         stats);
        if (replay) {
            out->write("COMPUTE_REPORT.csv", compute_report_csv(scalesim_reports));
            out->write("BANDWIDTH_REPORT.csv", bandwidth_report_csv(scalesim_reports));
            out->write("DETAILED_ACCESS_REPORT.csv", detailed_access_report_csv(scalesim_reports));
        }
        out->write("layers.csv", layers_csv(runs, array));
        if (functional) out->write("functional.csv", functional_csv);
        if (setup) out->write("resolved_config.yaml", dump_config(setup->document()));
        out->commit();
    }
    return 0;
}

}  // namespace sim::systolic
