// SPDX-License-Identifier: MIT
// `wallsim memory`: what training a transformer (configs/models/*.yaml) holds on one GPU,
// part by part: weights, gradients, Adam's states and activations (core/training_memory.h),
// beside the textbook's 20P / 18P rule of thumb, with data, tensor and pipeline parallelism and
// ZeRO. Prints a table; --out writes stats.json; --json prints the same JSON on stdout (what
// tools/gen_transformer_trace declares in its traces' headers: one estimator).
#include <boost/program_options.hpp>

#include <cstdio>
#include <functional>
#include <limits>

#include "models/training/core/inference_memory.h"
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

constexpr double kGB = 1e9;  // the textbook's unit: 1 byte per parameter of a 7B model is 7 GB
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
    const Parallelism& par = o.parallel;
    if (par.gpus() > 1) {
        const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
        std::printf(
            "%llu GPUs: data %llu (ZeRO-%llu) x tensor %llu x pipeline %llu (%llu "
            "micro-batches); per GPU of the most loaded stage: %.4g B parameters\n",
            u(par.gpus()), u(par.dp), u(par.zero), u(par.tp), u(par.pp), u(par.microbatches),
            m.parameters_per_gpu / 1e9);
    }
    // Bytes per parameter of the model, so that sharding shows as a smaller figure.
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
    // "2 x 10 layers": micro-batches in flight on pipeline stage 0 times its layers.
    const auto stage_layers = static_cast<unsigned long long>(s.layers / par.pp);
    const auto in_flight = static_cast<unsigned long long>(m.microbatches_in_flight);
    const std::string layers =
        in_flight == 1 ? std::to_string(stage_layers)
                       : std::to_string(in_flight) + " x " + std::to_string(stage_layers);
    char activations[96];
    if (o.checkpointing == Checkpointing::None) {
        std::snprintf(activations, sizeof activations, "activations (%s layers x %.3g GB)",
                      layers.c_str(), m.activations_per_layer / kGB);
    } else {
        std::snprintf(activations, sizeof activations, "activations (%s layer inputs + 1 layer)",
                      layers.c_str());
    }
    row(activations, m.activations);
    row("total", m.total());
    std::printf("\nthe textbook's rule [hw-chapter], activations = %gP:\n",
                m.activation_element_bytes);
    row("  activations", m.chapter_activations);
    row(amp ? "  total (18P)" : "  total (20P)", m.chapter_total());
    std::printf("(GB = 1e9 bytes, the textbook's unit)\n");
}

void publish(StatGroup& g, const TransformerShape& s, const MemoryBreakdown& m) {
    g.add_scalar("parameters", "count", "P: every parameter Adam updates").set(m.parameters);
    g.add_scalar("non_embedding_parameters", "count", "N: the layers and the final norm")
        .set(s.non_embedding_parameters());
    g.add_scalar("parameters_per_gpu", "count",
                 "parameters one GPU holds (the most loaded pipeline stage, 1/t of the split "
                 "weights)")
        .set(m.parameters_per_gpu);
    g.add_scalar("microbatches_in_flight", "count",
                 "micro-batches whose activations stage 0 holds at once (1F1B)")
        .set(m.microbatches_in_flight);
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
    g.add_scalar("chapter_activations", "B", "the textbook's rule: one value per parameter")
        .set(m.chapter_activations);
    g.add_scalar("chapter_total", "B", "model states + the textbook's activations (20P or 18P)")
        .set(m.chapter_total());
}

void print_inference_table(const ModelDescription& model,
                           const InferenceOptions& o,
                           const InferenceMemory& m) {
    const TransformerShape& s = model.shape;
    const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
    std::printf("%s (%s): %.4g B parameters; inference, bf16\n", s.name.c_str(),
                model.label.c_str(), s.parameters() / 1e9);
    std::printf("batch %llu x (prompt %llu + generate %llu), %llu KV heads of %llu%s\n", u(o.batch),
                u(o.prompt), u(o.generate), u(s.kv_heads), u(s.heads),
                o.tp > 1 ? (", tensor parallel " + std::to_string(o.tp)).c_str() : "");
    std::printf("\n%-44s %14s\n", "", "GB");
    std::printf("%-44s %14.2f\n", "weights (bf16)", m.weights / kGB);
    char kv[96];
    std::snprintf(kv, sizeof kv, "KV cache (%.0f tokens x %.4g MB)", m.cached_tokens,
                  m.kv_cache_per_token / 1e6);
    std::printf("%-44s %14.2f\n", kv, m.kv_cache / kGB);
    std::printf("%-44s %14.2f\n", "total", m.total() / kGB);
    std::printf("(GB = 1e9 bytes)\n");
}

void publish_inference(StatGroup& g, const TransformerShape& s, const InferenceMemory& m) {
    g.add_scalar("parameters", "count", "P: every parameter").set(s.parameters());
    g.add_scalar("parameters_per_gpu", "count",
                 "parameters one GPU holds (1/t of the split "
                 "weights)")
        .set(m.parameters_per_gpu);
    g.add_scalar("weights", "B", "bf16 weights").set(m.weights);
    g.add_scalar("kv_cache_per_token", "B",
                 "keys and values of one token of one sequence, all layers")
        .set(m.kv_cache_per_token);
    g.add_scalar("cached_tokens", "count", "batch x (prompt + generate - 1)").set(m.cached_tokens);
    g.add_scalar("kv_cache", "B", "the KV cache at the last decode step").set(m.kv_cache);
    g.add_scalar("total", "B", "weights + KV cache").set(m.total());
}

}  // namespace

int run_memory_command(const Registry& /*registry*/, const std::vector<std::string>& args) {
    std::string model_text, precision_text, checkpointing_text, attention_text, batch_text,
        seq_text, out_dir, dp_text, tp_text, pp_text, microbatches_text, zero_text, mode,
        prompt_text, generate_text;
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
    add("dp", po::value(&dp_text)->default_value("1"), "data-parallel GPUs");
    add("zero", po::value(&zero_text)->default_value("0"),
        "ZeRO stage over the --dp GPUs: 1 shards optimizer states, 2 also gradients, 3 also "
        "weights");
    add("tp", po::value(&tp_text)->default_value("1"),
        "tensor-parallel GPUs (Megatron): divides heads, kv_heads and ffn_hidden");
    add("pp", po::value(&pp_text)->default_value("1"), "pipeline stages: divides the layers");
    add("microbatches", po::value(&microbatches_text)->default_value("1"),
        "micro-batches per step (1F1B pipeline: stage 0 holds min(pp, microbatches))");
    add("mode", po::value(&mode)->default_value("training"),
        "training, or inference: bf16 weights and the KV cache (--prompt, --generate, --batch, "
        "--tp)");
    add("prompt", po::value(&prompt_text)->default_value("512"), "inference: prompt tokens");
    add("generate", po::value(&generate_text)->default_value("128"), "inference: generated tokens");
    add("out", po::value(&out_dir), "write stats.json and stats.txt here");
    add("json", "print stats.json's content on stdout instead of the table");
    if (print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = parse_options(args, opts);
    constexpr uint64_t kMaxGpus = 1'000'000;

    MemoryOptions o;
    o.precision = parse_choice("--precision", precision_text, parse_precision);
    o.checkpointing = parse_choice("--checkpointing", checkpointing_text, parse_checkpointing);
    o.attention = parse_choice("--attention", attention_text, parse_attention);
    const ModelDescription model = load_model(model_text, "--model");
    o.batch = batch_text.empty() ? model.shape.micro_batch
                                 : whole_number_option("--batch", batch_text, 1, kMaxBatch);
    o.seq = seq_text.empty() ? model.shape.seq : whole_number_option("--seq", seq_text, 1, kMaxSeq);
    o.parallel.dp = whole_number_option("--dp", dp_text, 1, kMaxGpus);
    o.parallel.tp = whole_number_option("--tp", tp_text, 1, kMaxGpus);
    o.parallel.pp = whole_number_option("--pp", pp_text, 1, kMaxGpus);
    o.parallel.microbatches =
        whole_number_option("--microbatches", microbatches_text, 1, kMaxBatch);
    o.parallel.zero = whole_number_option("--zero", zero_text, 0, 3);
    if (const std::string problem = o.parallel.problem(model.shape); !problem.empty()) {
        const size_t colon = problem.find(": ");
        throw option_error(problem.substr(0, colon), problem.substr(colon + 2));
    }
    if (mode != "training" && mode != "inference")
        throw option_error("--mode", "'" + mode + "' is not one of: training, inference");
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    StatGroup stats(nullptr, "");
    Json meta;
    std::function<void()> print;
    MemoryBreakdown m;
    InferenceOptions io;
    InferenceMemory im;
    if (mode == "inference") {
        io.batch = o.batch;
        io.prompt = whole_number_option("--prompt", prompt_text, 1, kMaxSeq);
        io.generate = whole_number_option("--generate", generate_text, 1, kMaxSeq);
        io.tp = o.parallel.tp;
        if (o.parallel.dp > 1 || o.parallel.pp > 1 || o.parallel.zero > 0)
            throw option_error("--mode", "inference takes --tp only (no --dp, --pp or --zero)");
        im = inference_memory(model.shape, io);
        publish_inference(stats.add_group("memory"), model.shape, im);
        meta = {{"wallsim_version", WALLSIM_VERSION},
                {"model", model.shape.name},
                {"model_file", model.label},
                {"mode", mode},
                {"batch", io.batch},
                {"prompt", io.prompt},
                {"generate", io.generate},
                {"tp", io.tp}};
        print = [&] { print_inference_table(model, io, im); };
    } else {
        m = training_memory(model.shape, o);
        publish(stats.add_group("memory"), model.shape, m);
        print = [&] { print_table(model, o, m); };
        meta = {{"wallsim_version", WALLSIM_VERSION},
                {"model", model.shape.name},
                {"model_file", model.label},
                {"precision", to_string(o.precision)},
                {"checkpointing", to_string(o.checkpointing)},
                {"attention", to_string(o.attention)},
                {"batch", o.batch},
                {"seq", o.seq},
                {"dp", o.parallel.dp},
                {"zero", o.parallel.zero},
                {"tp", o.parallel.tp},
                {"pp", o.parallel.pp},
                {"microbatches", o.parallel.microbatches}};
    }
    if (vm.count("json")) {
        // The model as read (defaults applied), so that tools need no reader of their own.
        const TransformerShape& shape = model.shape;
        meta["shape"] = {{"name", shape.name},
                         {"layers", shape.layers},
                         {"hidden", shape.hidden},
                         {"heads", shape.heads},
                         {"kv_heads", shape.kv_heads},
                         {"ffn_hidden", shape.ffn_hidden},
                         {"mlp", to_string(shape.mlp)},
                         {"vocab", shape.vocab},
                         {"tied_embeddings", shape.tied_embeddings},
                         {"seq", shape.seq},
                         {"micro_batch", shape.micro_batch}};
        Json json;
        json["meta"] = meta;
        const Json tree = stats.to_json();  // items() must not outlive it
        for (const auto& [key, value] : tree.items())
            json[key] = value;
        std::printf("%s\n", json.dump(2).c_str());
    } else {
        print();
    }
    if (out) {
        out->write_stats(meta, stats);
        out->write("model.yaml", dump_config(*model.document));
        out->commit();
    }
    return 0;
}

}  // namespace sim::training
