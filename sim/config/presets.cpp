// SPDX-License-Identifier: MIT
#include "sim/config/presets.h"

#include <algorithm>
#include <filesystem>

namespace sim {

namespace fs = std::filesystem;

namespace {
bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}
}  // namespace

std::string configs_dir() {
    return WALLSIM_CONFIGS_DIR;
}

bool looks_like_path(const std::string& text) {
    return text.find('/') != std::string::npos || ends_with(text, ".yaml") ||
           ends_with(text, ".yml");
}

std::vector<std::string> preset_names(const std::string& folder) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(fs::path(configs_dir()) / folder, ec)) {
        if (entry.is_regular_file(ec) && entry.path().extension() == ".yaml")
            names.push_back(entry.path().stem().string());
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string resolve_preset(const std::string& folder,
                           const std::string& name_or_path,
                           const std::string& base_dir,
                           const SourceLocation& at,
                           const std::string& key) {
    if (looks_like_path(name_or_path)) {
        const fs::path p(name_or_path);
        if (p.is_absolute() || base_dir.empty()) return name_or_path;
        return (fs::path(base_dir) / p).lexically_normal().string();
    }
    const fs::path preset = fs::path(configs_dir()) / folder / (name_or_path + ".yaml");
    std::error_code ec;
    if (!name_or_path.empty() && fs::is_regular_file(preset, ec)) return preset.string();
    std::string list;
    for (const std::string& n : preset_names(folder))
        list += (list.empty() ? "" : ", ") + n;
    throw ConfigError(at, key,
                      "'" + name_or_path + "' is neither a preset in configs/" + folder + " (" +
                          list + ") nor a file path (a path has a '/' or ends in .yaml)");
}

}  // namespace sim
