// SPDX-License-Identifier: MIT
// How the validation reports write a number: one printf format, and a figure with about four
// significant digits, as the validation tables print measured and simulated values. Pure C++.
#pragma once

#include <string>

namespace sim {

/// v written with one printf conversion, e.g. formatted("%+.1f%%", 12.34) is "+12.3%".
std::string formatted(const char* printf_format, double v);

/// v with about four significant digits: 1234.5, 12.35, 0.0397.
std::string figure_text(double v);

}  // namespace sim
