// SPDX-License-Identifier: MIT
// Model descriptions (configs/models/*.yaml) read into a TransformerShape: one key per field,
// unknown keys rejected, impossible shapes reported at the offending key's file:line. A model is
// named on the command line as a preset ("7b": configs/models/7b.yaml) or as a file.
#pragma once

#include <memory>
#include <string>

#include "models/training/core/transformer_shape.h"
#include "sim/config/config_node.h"
#include "sim/config/param_table.h"

namespace sim::training {

/// The keys of a model description (`wallsim list --params model`). kv_heads defaults to heads,
/// mlp to swiglu, tied_embeddings to false, micro_batch to 1; name may be left out (load_model
/// names the model after its file), and the others are required.
ParamTable<TransformerShape> model_param_table();

/// Reads a model description: its keys through model_param_table(), then the checks between
/// them (TransformerShape::check()).
TransformerShape shape_from_config(const ConfigNode& root);

/// A model the user named: its file, its document (for resolved output) and its shape.
struct ModelDescription {
    std::string file;
    std::string label;  ///< for reports: the file as given, or configs/models/<preset>.yaml
    std::shared_ptr<ConfigDocument> document;
    TransformerShape shape;
};

/// "7b" is configs/models/7b.yaml; anything with a '/' or ending in .yaml or .yml is a file.
/// Throws ConfigError (key `option`) for an unknown preset, listing the presets there are, and
/// ConfigError at file:line for a bad file.
ModelDescription load_model(const std::string& name_or_file, const std::string& option);

/// The folder of the shipped presets (configs/models in the source tree).
std::string model_presets_dir();

}  // namespace sim::training
