// SPDX-License-Identifier: MIT
#include "sim/config/param_table.h"

namespace sim {

void print_param_docs(std::ostream& os,
                      const std::string& section,
                      const std::string& description,
                      const std::vector<ParamDoc>& docs) {
    os << "### `" << section << "`\n\n" << description << "\n\n";
    os << "| key | type | default | range | unit | description |\n";
    os << "|---|---|---|---|---|---|\n";
    for (const ParamDoc& d : docs) {
        os << "| `" << d.key << "` | " << d.type << " | `" << d.default_text << "` | " << d.range
           << " | " << d.unit << " | " << d.description << " |\n";
    }
    os << "\n";
}

}  // namespace sim
