// SPDX-License-Identifier: MIT
// `wallsim cim`: maps a GEMM, a convolution or a small MLP onto a CIM chip described by a
// configs/cim file, and reports peak figures, the layer's mapping, timing, energy per
// component, weight-programming cost, and functional accuracy against floating point.
#include <boost/program_options.hpp>

#include <cstdio>

#include "models/cim/cim_params.h"
#include "models/cim/cim_stats.h"
#include "models/cim/mlp_file.h"
#include "models/cim/register.h"
#include "sim/config/loader.h"
#include "sim/engine/command_line.h"
#include "sim/engine/output_dir.h"

namespace sim::cim {

namespace po = boost::program_options;

namespace {

// "a,b,c" with between least_count and most_count numbers, each in [least, 2^24].
std::vector<uint64_t> number_list(const std::string& option,
                                  const std::string& text,
                                  size_t least_count,
                                  size_t most_count,
                                  uint64_t least,
                                  const std::string& expected) {
    std::vector<uint64_t> out;
    size_t start = 0;
    while (true) {
        const size_t comma = text.find(',', start);
        const std::string part = text.substr(start, comma - start);
        out.push_back(whole_number_option(option, part, least, uint64_t{1} << 24));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (out.size() < least_count || out.size() > most_count)
        throw option_error(option, "'" + text + "': expected " + expected);
    return out;
}

// One line per layer for the terminal.
void print_layer(const StatGroup& g, const std::string& label, const std::string& bound) {
    const auto v = [&](const std::string& path) {
        const Stat* s = g.find(path);
        if (const auto* sc = dynamic_cast<const Scalar*>(s)) return sc->value();
        if (const auto* c = dynamic_cast<const Counter*>(s)) return double(c->value());
        throw SimBug("no stat " + path);
    };
    std::printf(
        "  %-10s %6.0f crossbars, utilisation %5.1f%%, %8.3g s (%s-bound), %8.3g J, "
        "ADC %4.1f%% of energy, %6.3g TOPS/W\n",
        label.c_str(), v("mapping.crossbars"), 100 * v("mapping.utilisation"), v("timing.time"),
        bound.c_str(), v("energy.total"), 100 * v("energy.adc_share"), v("energy.tops_per_w"));
}

}  // namespace

int run_cim_command(const Registry& /*registry*/, const std::vector<std::string>& args) {
    std::string cim_file, gemm_text, conv_text, mlp_path, sample_text, seed_text, out_dir;
    std::vector<std::string> overrides;
    po::options_description opts("wallsim cim options");
    opts.add_options()("help,h", "show this help")("cim", po::value(&cim_file)->required(),
                                                   "CIM chip config (configs/cim/*.yaml)")(
        "set", po::value(&overrides)->composing(), "override a config key: a.b=value (repeatable)")(
        "gemm", po::value(&gemm_text), "a GEMM layer M,K,N (M input vectors of K, N outputs)")(
        "conv", po::value(&conv_text),
        "a convolution BATCH,C,H,W,OUT_C,KERNEL[,STRIDE[,PAD]], lowered to a GEMM by im2col")(
        "mlp", po::value(&mlp_path), "an MLP with weights and an input batch (JSON)")(
        "sample", po::value(&sample_text)->default_value("16,1024,128"),
        "largest M,K,N simulated functionally for the accuracy check of --gemm/--conv")(
        "seed", po::value(&seed_text)->default_value("1"), "seed of data and device draws")(
        "out", po::value(&out_dir), "write stats.json, stats.txt and resolved_config.yaml here");
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts);
    const int workloads = !gemm_text.empty() + !conv_text.empty() + !mlp_path.empty();
    if (workloads > 1) throw option_error("--gemm", "give at most one of --gemm, --conv, --mlp");
    const uint64_t seed = whole_number_option("--seed", seed_text, 0, UINT64_MAX);
    const std::vector<uint64_t> sample =
        number_list("--sample", sample_text, 3, 3, 1, "three numbers M,K,N");

    std::shared_ptr<ConfigDocument> doc;
    const CimConfig cfg = load_cim_config(cim_file, overrides, &doc);
    GemmShape shape;
    if (!gemm_text.empty()) {
        const auto d = number_list("--gemm", gemm_text, 3, 3, 1, "three numbers M,K,N");
        shape = {d[0], d[1], d[2]};
    } else if (!conv_text.empty()) {
        const auto d =
            number_list("--conv", conv_text, 6, 8, 0, "BATCH,C,H,W,OUT_C,KERNEL[,STRIDE[,PAD]]");
        try {
            for (size_t i = 0; i < 6; ++i) {
                if (d[i] == 0) throw std::invalid_argument("dimensions must be at least 1");
            }
            shape = conv_as_gemm(d[0], d[1], d[2], d[3], d[4], d[5], d.size() > 6 ? d[6] : 1,
                                 d.size() > 7 ? d[7] : 0);
        } catch (const std::invalid_argument& e) {
            throw option_error("--conv", "'" + conv_text + "': " + e.what());
        }
    }
    MlpFile mlp;
    if (!mlp_path.empty()) mlp = read_mlp_file(mlp_path);
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    StatGroup stats(nullptr, "");
    publish_peak(stats.add_group("cim_peak"), cfg);
    Json meta = {{"wallsim_version", WALLSIM_VERSION},
                 {"cim_name", cfg.name},
                 {"cim_file", cim_file},
                 {"seed", seed},
                 {"overrides", overrides}};
    const auto peak = [&](const std::string& path) {
        const auto* stat = dynamic_cast<const Scalar*>(stats.find("cim_peak." + path));
        SIM_ASSERT(stat != nullptr, "no scalar stat cim_peak." << path);
        return stat->value();
    };
    std::printf("%s: %llu crossbars of %ux%u, %u-bit cells, %u-bit DAC, %u-bit ADC\n",
                cfg.name.c_str(), static_cast<unsigned long long>(cfg.organisation.crossbars()),
                cfg.crossbar.rows, cfg.crossbar.columns, cfg.crossbar.cell_bits,
                cfg.crossbar.dac_bits, cfg.crossbar.adc_bits);
    std::printf(
        "  peak       %.3g TOPS, %.3g W, %.3g mm^2: %.3g TOPS/W, %.3g TOPS/mm^2; "
        "ADC %.1f%% of power, %.1f%% of area\n",
        peak("ops_per_s") / 1e12, peak("power.total"), peak("area.total"), peak("tops_per_w"),
        peak("tops_per_mm2"), 100 * peak("power.adc_share"), 100 * peak("area.adc_share"));

    if (shape.m > 0) {
        meta["workload"] = !gemm_text.empty() ? "gemm " + gemm_text : "conv " + conv_text;
        StatGroup& layer = stats.add_group("cim_layer");
        const std::string bound = publish_layer(layer, cfg, shape);
        meta["layer_bound"] = bound;
        print_layer(layer, "layer", bound);
        const auto m = static_cast<uint32_t>(std::min(shape.m, sample[0]));
        const auto k = static_cast<uint32_t>(std::min(shape.k, sample[1]));
        const auto n = static_cast<uint32_t>(std::min(shape.n, sample[2]));
        const LayerAccuracy acc = random_gemm_accuracy(cfg, m, k, n, seed);
        StatGroup& ag = stats.add_group("cim_accuracy");
        ag.add_counter("sample_m", "count", "input vectors simulated functionally") += m;
        ag.add_counter("sample_k", "count", "reduction length simulated") += k;
        ag.add_counter("sample_n", "count", "outputs simulated") += n;
        publish_accuracy(ag, acc);
        std::printf(
            "  accuracy   %ux%ux%u sample: %.3g%% RMS error vs float (%.1f effective "
            "bits); analogue part alone %.1f bits\n",
            m, k, n, 100 * acc.vs_float.normalised_rms_error(), acc.vs_float.effective_bits(),
            acc.vs_integer.effective_bits());
    }
    if (!mlp_path.empty()) {
        meta["workload"] = "mlp " + mlp_path;
        meta["mlp_name"] = mlp.name;
        const MlpAccuracy acc = run_mlp(cfg, mlp.layers, mlp.input, seed);
        StatGroup& g = stats.add_group("cim_mlp");
        Json bounds = Json::array();
        for (size_t l = 0; l < mlp.layers.size(); ++l) {
            StatGroup& lg = g.add_group("layer" + std::to_string(l));
            const GemmShape s{mlp.input.rows, mlp.layers[l].inputs, mlp.layers[l].outputs};
            const std::string bound = publish_layer(lg, cfg, s);
            bounds.push_back(bound);
            publish_accuracy(lg.add_group("accuracy"), acc.layers[l]);
            print_layer(lg, "layer" + std::to_string(l), bound);
            std::printf("  %-10s %.3g%% RMS error vs float, %.1f effective bits\n", "",
                        100 * acc.layers[l].vs_float.normalised_rms_error(),
                        acc.layers[l].vs_float.effective_bits());
        }
        meta["layer_bound"] = bounds;
        publish_error(g.add_group("end_to_end"), acc.end_to_end);
        std::printf("  end to end %.3g%% RMS error vs float, %.1f effective bits\n",
                    100 * acc.end_to_end.normalised_rms_error(), acc.end_to_end.effective_bits());
    }
    if (out) {
        out->write_stats(meta, stats);
        out->write("resolved_config.yaml", dump_config(*doc));
        out->commit();
    }
    return 0;
}

}  // namespace sim::cim
