// SPDX-License-Identifier: MIT
// Chakra execution trace files (.et, [chakra-et]): a stream of length-delimited protobuf
// messages, a varint byte count before each, holding one GlobalMetadata and then the graph's
// Nodes; MLCommons' tools may gzip them. Reading checks every length against the bytes left,
// so a truncated file is reported, not half-read.
#pragma once

#include <string>
#include <vector>

#include "sim/import/proto/et_def.pb.h"

namespace sim::import {

struct ChakraFile {
    std::string path;
    ChakraProtoMsg::GlobalMetadata metadata;
    std::vector<ChakraProtoMsg::Node> nodes;  ///< in file order
};

/// Reads a .et file (plain or gzip). Throws ConfigError naming the file, the message and its
/// byte offset when the file is missing, truncated or not a Chakra trace.
ChakraFile read_chakra_file(const std::string& path);

/// Parses .et bytes already in memory; label names them in errors.
ChakraFile parse_chakra(const std::string& bytes, const std::string& label);

/// The .et encoding of metadata and nodes (what MLCommons' encodeMessage writes).
std::string encode_chakra(const ChakraProtoMsg::GlobalMetadata& metadata,
                          const std::vector<ChakraProtoMsg::Node>& nodes);

}  // namespace sim::import
