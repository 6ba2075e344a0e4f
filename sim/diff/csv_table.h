// SPDX-License-Identifier: MIT
// Reads a CSV file as RFC 4180 writes it (the dialect of sim/engine/csv_row.h: quoted fields
// may hold commas, doubled quotes and line breaks) into rows of text cells.
#pragma once

#include <string>
#include <vector>

namespace sim::diff {

/// Rows of cells, the header first. Blank lines are skipped.
using CsvTable = std::vector<std::vector<std::string>>;

/// Splits text into rows; file names the source in the ConfigError thrown for an unterminated
/// quoted field.
CsvTable parse_csv(const std::string& text, const std::string& file);

}  // namespace sim::diff
