// SPDX-License-Identifier: MIT
// Reads SCALE-Sim v2's own input files as they are:
//  - hardware configs (.cfg, Python configparser syntax): [general] run_name;
//    [architecture_presets] ArrayHeight, ArrayWidth, IfmapSramSzkB, FilterSramSzkB,
//    OfmapSramSzkB, IfmapOffset, FilterOffset, OfmapOffset, Dataflow, Bandwidth, MemoryBanks;
//    [run_presets] InterfaceBandwidth (CALC: DRAM bandwidth unlimited, the report gives the
//    bandwidth needed; USER: Bandwidth words per cycle, stalls when it is too low);
//    [network_presets] TopologyCsvLoc. Keys are case-insensitive, as in configparser.
//  - topology CSVs: convolutions ("Layer name, IFMAP Height, IFMAP Width, Filter Height,
//    Filter Width, Channels, Num Filter, Strides,") or GEMMs ("Layer, M, N, K,"), told apart by
//    the header. Layers whose name contains "DP" are depthwise: one layer per channel, as
//    SCALE-Sim expands them.
// Errors are ConfigErrors naming the file, the line and the key or column.
#pragma once

#include <string>
#include <vector>

#include "models/systolic/core/array_params.h"
#include "models/systolic/core/layer.h"

namespace sim::systolic {

struct ScaleSimConfig {
    std::string run_name;
    ArrayParams array;             ///< SCALE-Sim's model: 1-byte words, double-buffered, no overlap
    bool user_bandwidth = false;   ///< InterfaceBandwidth: USER
    uint64_t bandwidth_words = 0;  ///< USER: Bandwidth, DRAM words per cycle (0 in CALC mode)
    uint64_t ifmap_offset = 0, filter_offset = 0, ofmap_offset = 0;  ///< read, not used
    std::string topology;  ///< [network_presets] TopologyCsvLoc, if present
};

/// Parses text read from file (the name is used in errors).
ScaleSimConfig parse_scalesim_config(const std::string& text, const std::string& file);
ScaleSimConfig read_scalesim_config(const std::string& path);

struct Topology {
    bool gemm = false;  ///< "Layer, M, N, K" form
    std::vector<Layer> layers;
};

Topology parse_topology_csv(const std::string& text, const std::string& file);
Topology read_topology_csv(const std::string& path);

/// Reads a whole file; throws ConfigError when it cannot be opened.
std::string read_text_file(const std::string& path);

}  // namespace sim::systolic
