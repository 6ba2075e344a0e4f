// SPDX-License-Identifier: MIT
#include "sim/config/param_table.h"

#include <cmath>
#include <cstdio>

namespace sim {

std::string format_number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

WholeBounds whole_bounds(uint64_t least, uint64_t most, bool unbounded, const std::string& suffix) {
    const std::string low = std::to_string(least), high = std::to_string(most);
    if (unbounded) return {"at least " + low, "must be at least " + low + suffix};
    return {low + " .. " + high, "must be between " + low + " and " + high + suffix};
}

std::string number_range(double least, double most, bool least_excluded) {
    const std::string low = (least_excluded ? "above " : "at least ") + format_number(least);
    if (std::isinf(most)) return low;
    if (!least_excluded) return "between " + format_number(least) + " and " + format_number(most);
    return low + " and at most " + format_number(most);
}

const char* base_unit_of(Dimension dim) {
    switch (dim) {
        case Dimension::Size: return "B";
        case Dimension::Frequency: return "Hz";
        case Dimension::PinRate: return "bit/s";
        case Dimension::Bandwidth: return "B/s";
        case Dimension::Time: return "s";
        case Dimension::Power: return "W";
        case Dimension::Energy: return "J";
    }
    return "";
}

void print_param_docs(std::ostream& os,
                      const std::string& section,
                      const std::string& file,
                      const std::string& description,
                      const std::vector<ParamDoc>& docs) {
    os << "### `" << section << "` (" << file << " file)\n\n" << description << "\n\n";
    os << "| key | type | default | range | unit | description |\n";
    os << "|---|---|---|---|---|---|\n";
    for (const ParamDoc& d : docs) {
        os << "| `" << d.key << "` | " << d.type << " | `" << d.default_text << "` | " << d.range
           << " | " << d.unit << " | " << d.description << " |\n";
    }
    os << "\n";
}

}  // namespace sim
