// SPDX-License-Identifier: MIT
// `wallsim cost`: what a training run costs on one or more accelerators, side by side. Each
// column is a hardware file with a given MFU (--hw, --mfu) or a simulated step (--run DIR:
// its hardware, its achieved FLOP/s as the MFU and its average power as the GPU's power).
#include <boost/program_options.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "models/economics/core/training_cost.h"
#include "models/economics/economics_params.h"
#include "models/economics/register.h"
#include "models/hw/hw_params.h"
#include "sim/config/loader.h"
#include "sim/config/resolved.h"
#include "sim/engine/command_line.h"
#include "sim/engine/output_dir.h"
#include "sim/engine/run.h"
#include "sim/stats/group.h"

namespace sim::economics {

namespace po = boost::program_options;

namespace {

double number_option(const std::string& option, const std::string& text, double least) {
    double v = 0;
    try {
        v = parse_count(text);
    } catch (const std::invalid_argument& e) {
        throw option_error(option, e.what());
    }
    if (!(v >= least)) {
        char bound[32];
        std::snprintf(bound, sizeof bound, "%g", least);
        throw option_error(option, "'" + text + "' must be at least " + bound);
    }
    return v;
}

struct Column {
    std::string label;  ///< what the user named: a file or a run directory
    GpuEconomics gpu;
    double mfu = 0;
    std::string mfu_source;  ///< "given" or "simulated"
};

// The hardware file's figures for the bill; prices from the file unless overridden.
GpuEconomics economics_of(const ConfigNode& root, DType dtype, const std::string& label) {
    const hw::HardwareParams& hw = resolved<hw::HardwareParams>(root);
    const EconomicsParams& e = resolved<EconomicsParams>(root);
    GpuEconomics g;
    g.name = hw.name.empty() ? label : hw.name;
    g.peak_flops = hw.peak_flops(ComputeUnit::Tensor, dtype);
    if (!(g.peak_flops > 0)) {
        throw ConfigError(root.location(), "compute.tensor",
                          label + " has no dense " + to_string(dtype) + " tensor rate");
    }
    g.power = hw.tdp_watts;
    g.node_power = e.node_power;
    g.gpus_per_node = e.gpus_per_node;
    g.cloud_price_per_hour = e.cloud_price_per_hour;
    g.purchase_price = e.purchase_price;
    g.life_years = e.depreciation_years;
    return g;
}

// A hardware file checked as `wallsim run` checks it (every model reads its keys; an unknown
// key is an error), then read for the bill.
GpuEconomics economics_of_file(const Registry& registry,
                               const std::string& file,
                               const std::vector<std::string>& overrides,
                               DType dtype,
                               const std::string& label) {
    StatGroup stats(nullptr, "");
    Logging logging(spdlog::level::warn, [] { return TimePs{0}; });
    const HardwareSetup setup(registry, file, overrides, stats, logging, 1);
    return economics_of(setup.root(), dtype, label);
}

// A `wallsim run` output: its resolved hardware, its MFU and its average power.
Column column_of_run(const Registry& registry, const std::string& dir, DType dtype) {
    const std::string stats_path = dir + "/stats.json";
    std::ifstream in(stats_path);
    if (!in) throw option_error("--run", "'" + stats_path + "' cannot be read");
    Json stats;
    try {
        stats = Json::parse(in);
    } catch (const std::exception& e) {
        throw option_error("--run", "'" + stats_path + "' is not JSON: " + e.what());
    }
    const auto scalar = [&](const char* group, const char* key) {
        if (!stats.contains(group) || !stats[group].contains(key) ||
            !stats[group][key].contains("value")) {
            throw option_error("--run", "'" + stats_path + "' has no " + group + "." + key +
                                            " (is it a `wallsim run` output?)");
        }
        return stats[group][key]["value"].get<double>();
    };
    // MFU counts model FLOPs only (recomputation left out) over the whole step (a pipeline's
    // bubble included): the run's own run.mfu numerator and time, against this table's peak.
    const bool has_mfu = stats["run"].contains("model_flops");
    const double flops = scalar("run", has_mfu ? "model_flops" : "flops");
    const bool pipelined = stats["run"].contains("pipeline");
    const double seconds = pipelined ? stats["run"]["pipeline"]["step_time"]["value"].get<double>()
                                     : scalar("run", "sim_time");
    Column c;
    c.label = dir;
    c.gpu = economics_of_file(registry, dir + "/resolved_config.yaml", {}, dtype, dir);
    if (!(seconds > 0 && flops > 0))
        throw option_error("--run", "'" + dir + "' ran no FLOPs: no MFU to take from it");
    c.mfu = flops / seconds / c.gpu.peak_flops;
    c.mfu_source = "simulated";
    // run.mfu (model FLOPs, recomputation excluded) when the run reports it.
    const Json& run = stats["run"];
    if (run.contains("mfu") && run["mfu"].contains("value")) {
        const double mfu = run["mfu"]["value"].get<double>();
        if (mfu > 0) c.mfu = mfu;
    }
    // The simulated power: what the run drew under its power limit (run.power.average; older
    // outputs have only run.energy.average_power).
    double watts = 0;
    if (run.contains("power") && run["power"].contains("average"))
        watts = run["power"]["average"]["value"].get<double>();
    else if (run.contains("energy") && run["energy"].contains("average_power"))
        watts = run["energy"]["average_power"]["value"].get<double>();
    if (watts > 0) c.gpu.power = watts;
    return c;
}

void print_table(const std::vector<Column>& columns,
                 const std::vector<TrainingCost>& costs,
                 const TrainingJob& job) {
    std::printf("Training %.3g parameters on %.3g tokens: 6ND = %.3g FLOP\n", job.parameters,
                job.tokens, costs.front().flops);
    std::printf("%-28s", "");
    for (const Column& c : columns)
        std::printf(" %22.22s", c.gpu.name.c_str());
    std::printf("\n");
    const auto row = [&](const char* name, const char* format, auto value) {
        std::printf("%-28s", name);
        for (size_t i = 0; i < columns.size(); ++i) {
            char cell[64];
            std::snprintf(cell, sizeof cell, format, value(columns[i], costs[i]));
            std::printf(" %22s", cell);
        }
        std::printf("\n");
    };
    using C = const Column&;
    using T = const TrainingCost&;
    row("peak (dense) TFLOP/s", "%.1f", [](C c, T) { return c.gpu.peak_flops / 1e12; });
    row("MFU", "%.1f%%", [](C c, T) { return 100 * c.mfu; });
    row("GPU-hours at MFU 1 (bound)", "%.4g M", [](C, T t) { return t.ideal_gpu_hours / 1e6; });
    row("GPU-hours", "%.4g M", [](C, T t) { return t.gpu_hours / 1e6; });
    if (job.gpus > 0) row("wall-clock days", "%.1f", [](C, T t) { return t.wall_days; });
    row("rent ($, cloud price)", "%.4g M", [](C, T t) { return t.rent_cost / 1e6; });
    row("GPU power (W)", "%.0f", [](C c, T) { return c.gpu.power; });
    row("electricity, IT ($)", "%.4g M", [](C, T t) { return t.electricity_cost / 1e6; });
    row("electricity, with PUE ($)", "%.4g M",
        [](C, T t) { return t.facility_electricity_cost / 1e6; });
    row("energy with PUE (GWh)", "%.4g", [](C, T t) { return t.facility_energy_kwh / 1e6; });
    row("carbon (t CO2e)", "%.4g", [](C, T t) { return t.carbon_tonnes; });
    row("own: depreciation ($)", "%.4g M", [](C, T t) { return t.depreciation_cost / 1e6; });
    row("own: depreciation + power", "%.4g M", [](C, T t) { return t.own_cost / 1e6; });
    row("buy beats rent above", "%.0f%% busy", [](C, T t) {
        return std::isfinite(t.break_even_utilisation) ? 100 * t.break_even_utilisation : INFINITY;
    });
    if (job.gpus > 0)
        row("cluster power, PUE (MW)", "%.3g", [](C, T t) { return t.cluster_power / 1e6; });
}

Json json_of(const Column& c, const TrainingCost& t) {
    return {{"hardware", c.gpu.name},
            {"source", c.label},
            {"peak_flops", c.gpu.peak_flops},
            {"mfu", c.mfu},
            {"mfu_source", c.mfu_source},
            {"gpu_power_w", c.gpu.power},
            {"cloud_price_per_hour", c.gpu.cloud_price_per_hour},
            {"purchase_price", c.gpu.purchase_price},
            {"flops", t.flops},
            {"ideal_gpu_hours", t.ideal_gpu_hours},
            {"gpu_hours", t.gpu_hours},
            {"wall_days", t.wall_days},
            {"rent_cost", t.rent_cost},
            {"it_energy_kwh", t.it_energy_kwh},
            {"facility_energy_kwh", t.facility_energy_kwh},
            {"electricity_cost", t.electricity_cost},
            {"facility_electricity_cost", t.facility_electricity_cost},
            {"carbon_tonnes", t.carbon_tonnes},
            {"depreciation_cost", t.depreciation_cost},
            {"own_cost", t.own_cost},
            {"break_even_utilisation",
             std::isfinite(t.break_even_utilisation) ? Json(t.break_even_utilisation) : Json()},
            {"cluster_power_w", t.cluster_power}};
}

}  // namespace

int run_cost_command(const Registry& registry, const std::vector<std::string>& args) {
    std::string params_text, tokens_text, mfu_text, gpus_text, pue_text, price_text, carbon_text,
        basis, dtype_text, cloud_text, purchase_text, years_text, out_dir;
    std::vector<std::string> hw_files, runs, overrides;
    po::options_description opts("wallsim cost options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("params", po::value(&params_text)->required(), "model parameters N (e.g. 70B)");
    add("tokens", po::value(&tokens_text)->required(), "training tokens D (e.g. 10T)");
    add("hw", po::value(&hw_files)->composing(), "hardware file (repeatable: side by side)");
    add("set", po::value(&overrides)->composing(), "override a key of every --hw file");
    add("mfu", po::value(&mfu_text)->default_value("0.4"), "MFU for --hw columns, (0, 1]");
    add("run", po::value(&runs)->composing(),
        "a `wallsim run` output: its hardware, simulated MFU and average power (repeatable)");
    add("dtype", po::value(&dtype_text)->default_value("bf16"), "training precision (peak)");
    add("gpus", po::value(&gpus_text), "cluster size: wall-clock days and cluster power");
    add("pue", po::value(&pue_text)->default_value("1.4"), "facility power / IT power");
    add("electricity-price", po::value(&price_text)->default_value("0.12"), "$ per kWh");
    add("grid-intensity", po::value(&carbon_text)->default_value("0.4"), "kg CO2e per kWh");
    add("power-basis", po::value(&basis)->default_value("gpu"),
        "gpu: bill the GPUs' power (the textbook); node: the whole node's");
    add("cloud-price", po::value(&cloud_text), "override: $ per GPU-hour rented");
    add("purchase-price", po::value(&purchase_text), "override: $ per GPU bought");
    add("depreciation-years", po::value(&years_text), "override: depreciation period");
    add("out", po::value(&out_dir), "write cost.json here");
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts);

    TrainingJob job;
    job.parameters = number_option("--params", params_text, 1);
    job.tokens = number_option("--tokens", tokens_text, 1);
    job.mfu = number_option("--mfu", mfu_text, 0);
    if (!(job.mfu > 0 && job.mfu <= 1)) throw option_error("--mfu", "must be in (0, 1]");
    if (!gpus_text.empty()) {
        const double g = number_option("--gpus", gpus_text, 1);
        if (g != std::floor(g) || g > 1e8)
            throw option_error("--gpus", "must be a whole number up to 1e8");
        job.gpus = static_cast<uint64_t>(g);
    }
    Site site;
    site.pue = number_option("--pue", pue_text, 1);
    site.electricity_price = number_option("--electricity-price", price_text, 0);
    site.grid_intensity = number_option("--grid-intensity", carbon_text, 0);
    if (basis != "gpu" && basis != "node")
        throw option_error("--power-basis", "'" + basis + "' is not one of: gpu, node");
    site.node_power_basis = basis == "node";
    const auto dtype = parse_dtype(dtype_text);
    if (!dtype) throw option_error("--dtype", "'" + dtype_text + "' is not a dtype");
    if (hw_files.empty() && runs.empty()) throw option_error("--hw", "give --hw or --run");

    std::vector<Column> columns;
    for (const std::string& file : hw_files) {
        Column c;
        c.label = file;
        c.gpu = economics_of_file(registry, file, overrides, *dtype, file);
        c.mfu = job.mfu;
        c.mfu_source = "given";
        columns.push_back(c);
    }
    for (const std::string& dir : runs)
        columns.push_back(column_of_run(registry, dir, *dtype));
    for (Column& c : columns) {
        if (!cloud_text.empty())
            c.gpu.cloud_price_per_hour = number_option("--cloud-price", cloud_text, 0);
        if (!purchase_text.empty())
            c.gpu.purchase_price = number_option("--purchase-price", purchase_text, 0);
        if (!years_text.empty()) {
            c.gpu.life_years = number_option("--depreciation-years", years_text, 0);
            if (!(c.gpu.life_years > 0)) throw option_error("--depreciation-years", "must be > 0");
        }
        if (!(c.gpu.cloud_price_per_hour > 0)) {
            throw option_error("--cloud-price", c.label +
                                                    " has no economics.cloud_price_per_hour; "
                                                    "give --cloud-price");
        }
    }
    std::vector<TrainingCost> costs;
    for (const Column& c : columns) {
        TrainingJob j = job;
        j.mfu = c.mfu;
        if (!(j.mfu > 0 && j.mfu <= 1)) {
            throw option_error("--run", c.label + ": simulated MFU " + std::to_string(j.mfu) +
                                            " is outside (0, 1]");
        }
        try {
            costs.push_back(training_cost(j, c.gpu, site));
        } catch (const std::invalid_argument& e) {
            throw option_error(c.label, e.what());
        }
    }
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);
    print_table(columns, costs, job);
    if (out) {
        Json json;
        json["meta"] = {{"parameters", job.parameters},
                        {"tokens", job.tokens},
                        {"gpus", job.gpus},
                        {"pue", site.pue},
                        {"electricity_price", site.electricity_price},
                        {"grid_intensity", site.grid_intensity},
                        {"power_basis", basis},
                        {"dtype", dtype_text}};
        json["columns"] = Json::array();
        for (size_t i = 0; i < columns.size(); ++i)
            json["columns"].push_back(json_of(columns[i], costs[i]));
        out->write("cost.json", json.dump(2) + "\n");
        out->commit();
    }
    return 0;
}

}  // namespace sim::economics
