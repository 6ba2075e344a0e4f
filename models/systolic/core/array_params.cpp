// SPDX-License-Identifier: MIT
#include "models/systolic/core/array_params.h"

#include <cmath>
#include <stdexcept>

#include "sim/core/error.h"

namespace sim::systolic {

std::string to_string(Dataflow d) {
    switch (d) {
        case Dataflow::WeightStationary: return "ws";
        case Dataflow::OutputStationary: return "os";
        case Dataflow::InputStationary: return "is";
    }
    return "?";
}

Dataflow parse_dataflow(const std::string& s) {
    if (s == "ws") return Dataflow::WeightStationary;
    if (s == "os") return Dataflow::OutputStationary;
    if (s == "is") return Dataflow::InputStationary;
    throw std::invalid_argument("'" + s + "' is not a dataflow; expected one of: ws, os, is");
}

void ArrayParams::validate() const {
    const auto fail = [](const char* key, const std::string& what) {
        throw ConfigError({}, key, what);
    };
    if (rows < 1 || rows > 65536) fail("rows", "must be from 1 to 65536");
    if (cols < 1 || cols > 65536) fail("cols", "must be from 1 to 65536");
    if (!(clock_hz > 0) || !std::isfinite(clock_hz)) fail("clock", "must be > 0");
    if (word_bytes < 1 || word_bytes > 16) fail("word_bytes", "must be from 1 to 16");
    const uint64_t least = double_buffered ? 2 : 1;
    if (ifmap_sram_bytes < least) fail("ifmap", "must be at least " + std::to_string(least) + " B");
    if (filter_sram_bytes < least)
        fail("filter", "must be at least " + std::to_string(least) + " B");
    if (ofmap_sram_bytes < least) fail("ofmap", "must be at least " + std::to_string(least) + " B");
    if (!(dram_bytes_per_cycle >= 0) || !std::isfinite(dram_bytes_per_cycle))
        fail("bandwidth", "must be >= 0 (0: unlimited)");
    for (const auto& [key, v] : {std::pair{"mac", mac_energy_j},
                                 {"sram_per_byte", sram_energy_per_byte},
                                 {"dram_per_byte", dram_energy_per_byte},
                                 {"static_power", static_power_w}}) {
        if (!(v >= 0) || !std::isfinite(v)) fail(key, "must be >= 0");
    }
}

}  // namespace sim::systolic
