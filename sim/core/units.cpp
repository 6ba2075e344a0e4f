// SPDX-License-Identifier: MIT
#include "sim/core/units.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace sim {

namespace {

struct UnitScale {
    std::string_view suffix;
    double scale;  // multiplier to the base unit
};

constexpr std::array kSizeUnits{
    UnitScale{"B", 1.0},         UnitScale{"KB", 1e3},           UnitScale{"MB", 1e6},
    UnitScale{"GB", 1e9},        UnitScale{"TB", 1e12},          UnitScale{"KiB", 1024.0},
    UnitScale{"MiB", 1048576.0}, UnitScale{"GiB", 1073741824.0}, UnitScale{"TiB", 1099511627776.0},
};
constexpr std::array kFrequencyUnits{UnitScale{"Hz", 1.0}, UnitScale{"kHz", 1e3},
                                     UnitScale{"MHz", 1e6}, UnitScale{"GHz", 1e9}};
constexpr std::array kPinRateUnits{UnitScale{"bps", 1.0}, UnitScale{"Kbps", 1e3},
                                   UnitScale{"Mbps", 1e6}, UnitScale{"Gbps", 1e9}};
constexpr std::array kBandwidthUnits{UnitScale{"B/s", 1.0},   UnitScale{"KB/s", 1e3},
                                     UnitScale{"MB/s", 1e6},  UnitScale{"GB/s", 1e9},
                                     UnitScale{"TB/s", 1e12}, UnitScale{"GiB/s", 1073741824.0}};
constexpr std::array kTimeUnits{UnitScale{"ps", 1e-12}, UnitScale{"ns", 1e-9},
                                UnitScale{"us", 1e-6}, UnitScale{"ms", 1e-3}, UnitScale{"s", 1.0}};
constexpr std::array kPowerUnits{UnitScale{"mW", 1e-3}, UnitScale{"W", 1.0}, UnitScale{"kW", 1e3}};
constexpr std::array kEnergyUnits{UnitScale{"fJ", 1e-15}, UnitScale{"pJ", 1e-12},
                                  UnitScale{"nJ", 1e-9},  UnitScale{"uJ", 1e-6},
                                  UnitScale{"mJ", 1e-3},  UnitScale{"J", 1.0}};

template <size_t N>
std::string join_units(const std::array<UnitScale, N>& units) {
    std::string s;
    for (const auto& u : units) {
        if (!s.empty()) s += ", ";
        s += u.suffix;
    }
    return s;
}

template <size_t N>
bool find_scale(const std::array<UnitScale, N>& units, std::string_view suffix, double& scale) {
    for (const auto& u : units) {
        if (u.suffix == suffix) {
            scale = u.scale;
            return true;
        }
    }
    return false;
}

bool scale_of(Dimension dim, std::string_view suffix, double& scale) {
    switch (dim) {
        case Dimension::Size: return find_scale(kSizeUnits, suffix, scale);
        case Dimension::Frequency: return find_scale(kFrequencyUnits, suffix, scale);
        case Dimension::PinRate: return find_scale(kPinRateUnits, suffix, scale);
        case Dimension::Bandwidth: return find_scale(kBandwidthUnits, suffix, scale);
        case Dimension::Time: return find_scale(kTimeUnits, suffix, scale);
        case Dimension::Power: return find_scale(kPowerUnits, suffix, scale);
        case Dimension::Energy: return find_scale(kEnergyUnits, suffix, scale);
    }
    return false;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

}  // namespace

std::string units_of(Dimension dim) {
    switch (dim) {
        case Dimension::Size: return join_units(kSizeUnits);
        case Dimension::Frequency: return join_units(kFrequencyUnits);
        case Dimension::PinRate: return join_units(kPinRateUnits);
        case Dimension::Bandwidth: return join_units(kBandwidthUnits);
        case Dimension::Time: return join_units(kTimeUnits);
        case Dimension::Power: return join_units(kPowerUnits);
        case Dimension::Energy: return join_units(kEnergyUnits);
    }
    return {};
}

double parse_quantity(std::string_view text, Dimension dim) {
    const std::string_view t = trim(text);
    const std::string expected = "expected a number with a unit (" + units_of(dim) + ")";
    // The numeric part is whatever strtod accepts; the rest, trimmed, is the unit.
    const std::string owned(t);
    char* end = nullptr;
    const double number = std::strtod(owned.c_str(), &end);
    if (end == owned.c_str()) throw std::invalid_argument("'" + owned + "': " + expected);
    const std::string_view suffix = trim(std::string_view(end));
    if (suffix.empty()) throw std::invalid_argument("'" + owned + "' has no unit; " + expected);
    double scale = 0.0;
    if (!scale_of(dim, suffix, scale)) {
        throw std::invalid_argument("'" + owned + "': unknown unit '" + std::string(suffix) +
                                    "'; " + expected);
    }
    if (!std::isfinite(number)) throw std::invalid_argument("'" + owned + "' is not finite");
    if (number < 0) throw std::invalid_argument("'" + owned + "' is negative; " + expected);
    return number * scale;
}

uint64_t parse_size_bytes(std::string_view text) {
    const double bytes = parse_quantity(text, Dimension::Size);
    if (bytes != std::floor(bytes) || bytes > 1.8e19) {
        throw std::invalid_argument("'" + std::string(trim(text)) +
                                    "' is not a whole number of bytes");
    }
    return static_cast<uint64_t>(bytes);
}

uint64_t parse_time_ps(std::string_view text) {
    const double seconds = parse_quantity(text, Dimension::Time);
    const double ps = seconds * 1e12;
    const double rounded = std::round(ps);
    // Values come from decimal text, so allow binary rounding noise, not real fractions of a ps.
    if (std::fabs(ps - rounded) > 1e-6 * std::max(1.0, rounded) || rounded > 1.8e19) {
        throw std::invalid_argument("'" + std::string(trim(text)) +
                                    "' is not a whole number of picoseconds");
    }
    return static_cast<uint64_t>(rounded);
}

}  // namespace sim
