// SPDX-License-Identifier: MIT
#include "models/training/model_params.h"

#include <algorithm>
#include <filesystem>
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

TransformerShape shape_from_config(const ConfigNode& root) {
    TransformerShape s;
    root.get("name", s.name);
    // Required keys are read like the others and checked after the unknown keys, so that a
    // misspelt key is reported as such rather than as the key it was meant to be.
    const std::pair<const char*, bool> required[] = {
        {"layers", root.get("layers", s.layers)},
        {"hidden", root.get("hidden", s.hidden)},
        {"heads", root.get("heads", s.heads)},
        {"ffn_hidden", root.get("ffn_hidden", s.ffn_hidden)},
        {"vocab", root.get("vocab", s.vocab)},
        {"seq", root.get("seq", s.seq)},
    };
    s.kv_heads = s.heads;
    root.get("kv_heads", s.kv_heads);
    std::string mlp = to_string(s.mlp);
    root.get_choice("mlp", mlp, {"swiglu", "gelu"});
    s.mlp = parse_mlp_kind(mlp);
    root.get("tied_embeddings", s.tied_embeddings);
    root.get("micro_batch", s.micro_batch);
    root.reject_unknown_keys();
    for (const auto& [key, present] : required) {
        if (!present) root.fail(key, "required key is missing");
    }
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
