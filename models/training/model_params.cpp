// SPDX-License-Identifier: MIT
#include "models/training/model_params.h"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <utility>
#include <vector>

#include "sim/config/loader.h"
#include "sim/engine/command_line.h"

namespace sim::training {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Preset names in a natural order: 7b, 13b, 70b.
std::vector<std::string> preset_names(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".yaml") names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    return names;
}

}  // namespace

ParamTable<TransformerShape> model_param_table() {
    using S = TransformerShape;
    constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();
    ParamTable<S> t;
    t.custom({"name", "text", "file stem", "any", "", "the model's name in reports"},
             [](const ConfigNode& n, S& s) { n.get("name", s.name); });
    t.integer("layers", &S::layers, 1, kNoLimit, "layers", "decoder layers L").required();
    t.integer("hidden", &S::hidden, 1, kNoLimit, "", "model width h; heads must divide it")
        .required();
    t.integer("heads", &S::heads, 1, kNoLimit, "heads",
              "attention (query) heads a; head_dim = h / a")
        .required();
    const WholeBounds kv = whole_bounds(1, kNoLimit, true, "");
    t.custom({"kv_heads", "integer", "heads", kv.range, "heads",
              "key/value heads; must divide heads (fewer than heads: grouped-query attention)"},
             [kv](const ConfigNode& n, S& s) {
                 s.kv_heads = s.heads;
                 if (n.get("kv_heads", s.kv_heads) && s.kv_heads < 1)
                     n.fail("kv_heads",
                            "= " + std::to_string(s.kv_heads) + " is out of range: " + kv.rule);
             });
    t.integer("ffn_hidden", &S::ffn_hidden, 1, kNoLimit, "", "MLP width f").required();
    t.options("mlp", &S::mlp, {{"swiglu", MlpKind::SwiGlu}, {"gelu", MlpKind::Gelu}},
              "swiglu: gate, up and down projections (3·h·f weights); gelu: up and down (2·h·f)");
    t.integer("vocab", &S::vocab, 1, kNoLimit, "tokens", "vocabulary V").required();
    t.flag("tied_embeddings", &S::tied_embeddings,
           "the output projection reuses the input embedding");
    t.integer("seq", &S::seq, 1, kNoLimit, "tokens", "training sequence length s").required();
    t.integer("micro_batch", &S::micro_batch, 1, kNoLimit, "sequences",
              "sequences per GPU per step b");
    return t;
}

TransformerShape shape_from_config(const ConfigNode& root) {
    const ParamTable<TransformerShape> table = model_param_table();
    // Unknown keys come first, so that a misspelt key is reported as such rather than as the
    // required key it was meant to be.
    for (const ParamDoc& key : table.describe())
        root.accept(key.key);
    root.reject_unknown_keys();
    TransformerShape s;
    table.read(root, s);
    if (const TransformerShape::Problem p = s.check(); !p.field.empty())
        root.fail(p.field, p.message);
    return s;
}

std::string model_presets_dir() {
    return WALLSIM_MODELS_DIR;
}

ModelDescription load_model(const std::string& name_or_file, const std::string& option) {
    ModelDescription m;
    const bool is_file = name_or_file.find('/') != std::string::npos ||
                         ends_with(name_or_file, ".yaml") || ends_with(name_or_file, ".yml");
    if (is_file) {
        m.file = name_or_file;
        m.label = name_or_file;
    } else {
        const std::filesystem::path preset =
            std::filesystem::path(model_presets_dir()) / (name_or_file + ".yaml");
        if (name_or_file.empty() || !std::filesystem::is_regular_file(preset)) {
            std::string list;
            for (const std::string& n : preset_names(model_presets_dir()))
                list += (list.empty() ? "" : ", ") + n;
            throw option_error(option, "'" + name_or_file + "' is not a model preset (" + list +
                                           ") or a .yaml file");
        }
        m.file = preset.string();
        m.label = "configs/models/" + name_or_file + ".yaml";
    }
    m.document = load_config(m.file);
    m.shape = shape_from_config(ConfigNode::root_of(m.document));
    if (m.shape.name.empty()) m.shape.name = std::filesystem::path(m.file).stem().string();
    return m;
}

}  // namespace sim::training
