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
// main prints what() as one line: control characters that came from the input (a newline in
// a quoted key, the character yaml-cpp names in "unknown escape character: ") are written as
// escapes instead.
std::string one_line(const std::string& text) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if ((byte < 0x20 && c != '\t') || byte == 0x7f) {
            out += "\\x";
            out += kHex[byte >> 4];
            out += kHex[byte & 0xf];
        } else {
            out += c;
        }
    }
    return out;
}

std::string format_config_error(const SourceLocation& where,
                                const std::string& key,
                                const std::string& message) {
    std::string s = where.to_string() + ": ";
    if (!key.empty()) s += key + ": ";
    return one_line(s + message);
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
