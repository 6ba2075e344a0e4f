// SPDX-License-Identifier: MIT
// The validation suite's cases, read from configs/validation/*.yaml: each names the hardware
// and workload, the wallsim command that simulates it, where the simulated figure is read from
// its output, the published measurement with its source, and the tolerance. One list serves
// `wallsim validate` and tests/validation/, so adding a case is one YAML entry.
#pragma once

#include <string>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/core/error.h"

namespace sim {

/// How a figure is compared: against an independent measurement, or against the number the
/// model was built from (a datasheet peak, a calibration point), which holds by construction.
enum class CheckKind { Validation, Consistency };

struct ValidationCase {
    std::string id;         ///< unique, e.g. nccl_allreduce_8xh100_1gib
    std::string component;  ///< network, memory, gpu, tensor_core, ...
    CheckKind check = CheckKind::Validation;
    std::string hardware;  ///< what was measured, in words
    std::string workload;  ///< what ran, in words
    /// wallsim arguments; "{out}" stands for a fresh output directory for this case.
    std::vector<std::string> command;
    std::string metric_file;    ///< in {out}: a .json (metric_path) or .csv (metric_column)
    std::string metric_path;    ///< dotted path into the JSON, e.g. net_run.busbw.value
    std::string metric_column;  ///< CSV column name
    uint32_t metric_row = 0;    ///< CSV data row (0: the first after the header)
    double divide = 0;          ///< > 0: simulated = divide / value x scale (a rate from a time)
    double scale = 1;           ///< simulated = value x scale, in unit
    double measured = 0;        ///< the published figure, in unit
    std::string unit;           ///< e.g. GB/s
    std::string source;         ///< citation: docs/references.md [key] and where in it
    double tolerance = 0.1;     ///< relative, (0, 1]
    /// > 0: the datasheet peak of the measured rate, in unit (a Tensor Core peak for a GEMM).
    /// The case is then also compared as efficiency curves are, in points of this peak:
    /// 100 x (simulated - measured) / peak. 0: not a rate with a peak.
    double peak = 0;
    /// Non-empty: the workload's name when the same workload was measured on other systems
    /// too; the cases sharing it are compared with the range their measurements span
    /// (sim/engine/measurement_spread.h). At least two validations in one unit share a group.
    std::string group;
    SourceLocation group_at;  ///< where `group:` was given, for messages
    std::string known_gap;    ///< non-empty: why the model misses it today (tests skip it)
    bool slow = false;        ///< runs only with `wallsim validate --all` (minutes of CPU)
    std::string file;         ///< the file it came from, for messages
};

/// Every case of every *.yaml file in dir (sorted by file name, then in file order). Throws
/// ConfigError naming file, line and key for a malformed case, a duplicate id, or a directory
/// without cases.
std::vector<ValidationCase> load_validation_cases(const std::string& dir);

std::string to_string(CheckKind k);

}  // namespace sim
