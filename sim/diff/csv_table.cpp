// SPDX-License-Identifier: MIT
#include "sim/diff/csv_table.h"

#include "sim/core/error.h"

namespace sim::diff {

CsvTable parse_csv(const std::string& text, const std::string& file) {
    CsvTable rows;
    std::vector<std::string> row;
    std::string cell;
    bool quoted = false;
    bool row_has_text = false;
    int line = 1;
    int quote_line = 0;
    const auto end_row = [&] {
        row.push_back(std::move(cell));
        cell.clear();
        if (row_has_text || row.size() > 1) rows.push_back(std::move(row));
        row.clear();
        row_has_text = false;
    };
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') ++line;
        if (quoted) {
            if (c != '"') {
                cell += c;
            } else if (i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else {
                quoted = false;
            }
            continue;
        }
        if (c == '"') {
            quoted = true;
            quote_line = line;
            row_has_text = true;
        } else if (c == ',') {
            row.push_back(std::move(cell));
            cell.clear();
        } else if (c == '\n') {
            end_row();
        } else if (c != '\r') {
            cell += c;
            row_has_text = true;
        }
    }
    if (quoted) {
        throw ConfigError({file, quote_line, 0}, "",
                          "a quoted field is never closed (expected a CSV file)");
    }
    if (!cell.empty() || !row.empty() || row_has_text) end_row();
    return rows;
}

}  // namespace sim::diff
