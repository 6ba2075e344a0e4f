// SPDX-License-Identifier: MIT
#include "sim/core/error.h"

namespace sim {

std::string SourceLocation::to_string() const {
    std::string s = file.empty() ? "<input>" : file;
    if (line > 0) {
        s += ':' + std::to_string(line);
        if (column > 0) s += ':' + std::to_string(column);
    }
    return s;
}

namespace {
std::string format_config_error(const SourceLocation& where,
                                const std::string& key,
                                const std::string& message) {
    std::string s = where.to_string() + ": ";
    if (!key.empty()) s += key + ": ";
    return s + message;
}
}  // namespace

ConfigError::ConfigError(const SourceLocation& where,
                         const std::string& key,
                         const std::string& message)
    : std::runtime_error(format_config_error(where, key, message)),
      where_(where),
      key_(key),
      message_(message) {}

}  // namespace sim
