// SPDX-License-Identifier: MIT
// What an importer produces: operators in wallsim's trace format (traces/README.md), each a
// JSON object with the trace's own keys, plus the counts the import summary reports. Importers
// finish with keep_parsable, which checks the operators with the parser `wallsim run` uses.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace sim::import {

/// One operator of the trace being written: its trace keys (name, kind, sizes, dtype, stream,
/// after, measured_us), in the order they are written.
using TraceOp = nlohmann::ordered_json;

struct ImportedTrace {
    std::string name;           ///< the trace header's name
    std::string source;         ///< where it came from (file, format), for the summary
    std::string device;         ///< the GPU the trace was recorded on, "" when unknown
    std::string suggested_hw;   ///< a configs/hw preset for that GPU, "" when none fits
    std::vector<TraceOp> ops;   ///< in program order; `after` names earlier ops only
    uint64_t streams = 0;       ///< distinct streams
    uint64_t dependencies = 0;  ///< cross-stream `after` edges
    uint64_t skipped = 0;       ///< records read but not operators (CPU ops, metadata)
    /// Why operators became `custom` (replaying their measured duration): reason -> count.
    std::map<std::string, uint64_t> custom_reasons;
    /// Notes about what the source did not record (one line each).
    std::vector<std::string> notes;
};

/// The trace as JSON Lines text: a header line, then one operator per line.
std::string to_jsonl(const ImportedTrace& trace);

/// Makes every operator one the trace parser accepts: an operator it refuses (a shape beyond
/// what a trace holds, such as a copy over 64 PiB or a filter wider than its padded input) becomes
/// a custom operator replaying its measured time, with the parser's words as the reason. One
/// parse when nothing is refused. Throws ConfigError naming the operator when a refused one has
/// no measured time to replay. Importers call it last.
void keep_parsable(ImportedTrace& trace);

/// Writes the trace to path atomically (a sibling temporary file renamed into place); throws
/// ConfigError when path cannot be written. It writes what keep_parsable left, which the
/// parser accepts: importers call keep_parsable last (and the fuzz targets check they do).
void write_trace(const ImportedTrace& trace, const std::string& path);

/// The summary printed after an import: operators per kind with their measured time, custom
/// operators by reason, streams and dependencies, the recorded GPU and its preset.
void print_summary(const ImportedTrace& trace, const std::string& out_path, std::ostream& os);

}  // namespace sim::import
