// SPDX-License-Identifier: MIT
// Reads an operator trace (YAML or JSON Lines, traces/README.md) into a Trace: expands repeat
// blocks, resolves names in `after:`, validates every field. Any problem is a ConfigError
// naming the file, line, column and key.
#pragma once

#include <string>

#include "sim/trace/op.h"

namespace sim {

/// Parses a trace file; the encoding follows the extension (.yaml/.yml or .jsonl).
Trace parse_trace_file(const std::string& path);
/// Parses YAML trace text; label stands in for the file name in errors.
Trace parse_trace_yaml(const std::string& text, const std::string& label);
/// Parses JSON Lines trace text; label stands in for the file name in errors.
Trace parse_trace_jsonl(const std::string& text, const std::string& label);

}  // namespace sim
