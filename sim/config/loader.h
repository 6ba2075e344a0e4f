// SPDX-License-Identifier: MIT
// Reads a YAML config file into a ConfigDocument: resolves `extends:` (a preset this file
// starts from, path relative to the including file, merged key by key with this file winning),
// then applies command-line overrides (`--set a.b.c=value`, later ones winning). Each subtree
// remembers the file it came from, so errors point at the right file and line.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/config/config_node.h"

namespace sim {

/// The whole content of a text file; throws ConfigError when it is missing, a directory or
/// unreadable.
std::string read_text_file(const std::string& path);

/// Loads path (with its extends chain) and applies overrides ("a.b.c=value", value in YAML
/// syntax). `extends:` names a file relative to the including file, or a preset: a bare name
/// (no '/', no .yaml) is <name>.yaml next to the including file if there is one, else the
/// shipped preset configs/<preset_folder>/<name>.yaml (sim/config/presets.h). Throws
/// ConfigError for a missing file, malformed YAML, a cycle in extends, a root that is not a
/// map, or a malformed override.
std::shared_ptr<ConfigDocument> load_config(const std::string& path,
                                            const std::vector<std::string>& overrides = {},
                                            const std::string& preset_folder = "");

/// A config written inline in another file (an instance of a system file): node's keys, on
/// top of the file its `extends:` names (relative to file, as in a config file of its own),
/// minus the keys in skip (consumed by the caller); then overrides. Errors point into file.
std::shared_ptr<ConfigDocument> load_inline_config(const YAML::Node& node,
                                                   const std::string& file,
                                                   const std::vector<std::string>& skip,
                                                   const std::vector<std::string>& overrides = {},
                                                   const std::string& preset_folder = "hw");

/// Parses YAML text (for tests and inline configs); `label` stands in for the file name.
std::shared_ptr<ConfigDocument> parse_config_text(const std::string& text,
                                                  const std::string& label);

/// Applies one "a.b.c=value" override to a document.
void apply_override(ConfigDocument& doc, const std::string& assignment);

/// The document as YAML text (extends resolved, overrides applied), for resolved_config.yaml.
std::string dump_config(const ConfigDocument& doc);

}  // namespace sim
