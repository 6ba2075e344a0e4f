// SPDX-License-Identifier: MIT
// `wallsim memory`: what training a transformer (configs/models/*.yaml) holds on one GPU,
// part by part: weights, gradients, Adam's states and activations (core/training_memory.h),
// beside the chapter's 20P / 18P rule of thumb. Prints a table; --out writes stats.json.
#include <boost/program_options.hpp>

#include <cstdio>
#include <limits>

#include "models/training/core/training_memory.h"
#include "models/training/model_params.h"
#include "models/training/register.h"
#include "sim/config/loader.h"
#include "sim/engine/command_line.h"
#include "sim/engine/output_dir.h"
#include "sim/stats/group.h"

namespace sim::training {

namespace po = boost::program_options;

namespace {

constexpr double kGB = 1e9;  // the chapter's unit: 1 byte per parameter of a 7B model is 7 GB
constexpr uint64_t kMaxBatch = 1'000'000;
constexpr uint64_t kMaxSeq = 100'000'000;

template <typename F>
F parse_choice(const std::string& option, const std::string& text, F (*parse)(const std::string&)) {
    try {
        return parse(text);
    } catch (const std::invalid_argument& e) {
        throw option_error(option, e.what());
    }
}

void print_table(const ModelDescription& model, const MemoryOptions& o, const MemoryBreakdown& m) {
    const TransformerShape& s = model.shape;
    const double p = m.parameters;
    std::printf("%s (%s): %.4g B parameters, %.4g B in the layers\n", s.name.c_str(),
                model.label.c_str(), p / 1e9, s.non_embedding_parameters() / 1e9);
    std::printf("%s, batch %llu x seq %llu, checkpointing %s, attention %s\n",
                o.precision == Precision::Amp ? "mixed precision (amp)" : "fp32",
                static_cast<unsigned long long>(o.batch), static_cast<unsigned long long>(o.seq),
                to_string(o.checkpointing).c_str(), to_string(o.attention).c_str());
    std::printf("\n%-44s %12s %10s\n", "", "bytes/param", "GB");
    const auto row = [&](const std::string& name, double bytes) {
        std::printf("%-44s %12.4g %10.2f\n", name.c_str(), bytes / p, bytes / kGB);
    };
    const bool amp = o.precision == Precision::Amp;
    row(amp ? "weights (fp16/bf16)" : "weights (fp32)", m.weights);
    row(amp ? "gradients (fp16/bf16)" : "gradients (fp32)", m.gradients);
    if (amp) row("optimizer: fp32 master weights", m.master_weights);
    row("optimizer: Adam m (fp32)", m.adam_m);
    row("optimizer: Adam v (fp32)", m.adam_v);
    row("model states", m.model_states());
    const auto layers = static_cast<unsigned long long>(s.layers);
    char activations[96];
    if (o.checkpointing == Checkpointing::None) {
        std::snprintf(activations, sizeof activations, "activations (%llu layers x %.3g GB)",
                      layers, m.activations_per_layer / kGB);
    } else {
        std::snprintf(activations, sizeof activations, "activations (%llu layer inputs + 1 layer)",
                      layers);
    }
    row(activations, m.activations);
    row("total", m.total());
    std::printf("\nthe chapter's rule (K16-02), activations = %gP:\n", m.activation_element_bytes);
    row("  activations", m.chapter_activations);
    row(amp ? "  total (18P)" : "  total (20P)", m.chapter_total());
    std::printf("(GB = 1e9 bytes, the chapter's unit)\n");
}

void publish(StatGroup& g, const TransformerShape& s, const MemoryBreakdown& m) {
    g.add_scalar("parameters", "count", "P: every parameter Adam updates").set(m.parameters);
    g.add_scalar("non_embedding_parameters", "count", "N: the layers and the final norm")
        .set(s.non_embedding_parameters());
    g.add_scalar("weights", "B", "weights in the training precision").set(m.weights);
    g.add_scalar("gradients", "B", "gradients in the training precision").set(m.gradients);
    g.add_scalar("master_weights", "B", "fp32 master weights (mixed precision only)")
        .set(m.master_weights);
    g.add_scalar("adam_m", "B", "Adam first moment, fp32").set(m.adam_m);
    g.add_scalar("adam_v", "B", "Adam second moment, fp32").set(m.adam_v);
    g.add_scalar("optimizer_states", "B", "master weights, m and v").set(m.optimizer_states());
    g.add_scalar("model_states", "B", "weights, gradients and optimizer states")
        .set(m.model_states());
    g.add_scalar("activations_per_layer", "B",
                 "one layer's activations kept for backward without recomputation "
                 "(Korthikanti et al. 2022)")
        .set(m.activations_per_layer);
    g.add_scalar("activations", "B", "all layers' activations, after checkpointing")
        .set(m.activations);
    g.add_scalar("total", "B", "model states + activations").set(m.total());
    g.add_scalar("chapter_activations", "B", "the chapter's rule: one value per parameter")
        .set(m.chapter_activations);
    g.add_scalar("chapter_total", "B", "model states + the chapter's activations (20P or 18P)")
        .set(m.chapter_total());
}

}  // namespace

int run_memory_command(const Registry& /*registry*/, const std::vector<std::string>& args) {
    std::string model_text, precision_text, checkpointing_text, attention_text, batch_text,
        seq_text, out_dir;
    po::options_description opts("wallsim memory options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("model", po::value(&model_text)->required(),
        "a preset of configs/models (7b, 13b, 70b) or a model .yaml file");
    add("precision", po::value(&precision_text)->default_value("amp"),
        "fp32 (all fp32) or amp (fp16/bf16 weights, gradients, activations; fp32 Adam)");
    add("checkpointing", po::value(&checkpointing_text)->default_value("none"),
        "none, or full: keep layer inputs only and recompute each layer in backward");
    add("attention", po::value(&attention_text)->default_value("naive"),
        "naive: the softmax scores are kept (the paper's formula); fused: FlashAttention");
    add("batch", po::value(&batch_text), "micro-batch in sequences (default: the model's)");
    add("seq", po::value(&seq_text), "sequence length in tokens (default: the model's)");
    add("out", po::value(&out_dir), "write stats.json and stats.txt here");
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts);

    MemoryOptions o;
    o.precision = parse_choice("--precision", precision_text, parse_precision);
    o.checkpointing = parse_choice("--checkpointing", checkpointing_text, parse_checkpointing);
    o.attention = parse_choice("--attention", attention_text, parse_attention);
    const ModelDescription model = load_model(model_text, "--model");
    o.batch = batch_text.empty() ? model.shape.micro_batch
                                 : whole_number_option("--batch", batch_text, 1, kMaxBatch);
    o.seq = seq_text.empty() ? model.shape.seq : whole_number_option("--seq", seq_text, 1, kMaxSeq);
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    const MemoryBreakdown m = training_memory(model.shape, o);
    print_table(model, o, m);
    if (out) {
        StatGroup stats(nullptr, "");
        publish(stats.add_group("memory"), model.shape, m);
        out->write_stats({{"wallsim_version", WALLSIM_VERSION},
                          {"model", model.shape.name},
                          {"model_file", model.label},
                          {"precision", to_string(o.precision)},
                          {"checkpointing", to_string(o.checkpointing)},
                          {"attention", to_string(o.attention)},
                          {"batch", o.batch},
                          {"seq", o.seq}},
                         stats);
        out->write("model.yaml", dump_config(*model.document));
        out->commit();
    }
    return 0;
}

}  // namespace sim::training
