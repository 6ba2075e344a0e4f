// SPDX-License-Identifier: MIT
#include "sim/engine/figure_text.h"

#include <cmath>
#include <cstdio>

namespace sim {

std::string formatted(const char* printf_format, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, printf_format, v);
    return buf;
}

std::string figure_text(double v) {
    return formatted(std::fabs(v) >= 100 ? "%.1f" : std::fabs(v) >= 1 ? "%.2f" : "%.3g", v);
}

}  // namespace sim
