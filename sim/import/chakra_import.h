// SPDX-License-Identifier: MIT
// Chakra execution traces (one .et per rank, [chakra-et]) -> wallsim operators for one rank,
// read as ASTRA-sim's feeder reads them: a GPU compute node (COMP_NODE, is_cpu_op false) has
// FLOPs (num_ops) and bytes (tensor_size), or else only its measured duration_micros; a
// collective (COMM_COLL_NODE) has comm_type and comm_size bytes; send/receive nodes have
// comm_size; memory nodes tensor_size. Dependencies are data_deps and ctrl_deps; through
// nodes that are not imported (CPU ops, metadata) they pass to the imported nodes above them.
// Compute runs on stream 0, collectives on stream 1, memory on stream 2 unless the node names
// its stream, so communication overlaps compute wherever the graph allows.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/import/imported_trace.h"

namespace sim::import {

struct ChakraImportOptions {
    uint64_t rank = 0;              ///< index into the files of the rank written
    std::optional<uint64_t> group;  ///< ranks in a collective; default: the number of files
};

/// Reads every file (all must be valid Chakra traces) and converts files[options.rank].
/// Throws ConfigError on unreadable files, unknown dependencies and dependency cycles.
ImportedTrace import_chakra(const std::vector<std::string>& files,
                            const ChakraImportOptions& options);

}  // namespace sim::import
