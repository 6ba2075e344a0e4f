// SPDX-License-Identifier: MIT
#include "sim/import/chakra_file.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include <climits>

#include "sim/core/error.h"
#include "sim/import/chrome_trace_reader.h"

namespace sim::import {

namespace {

namespace pio = google::protobuf::io;

// Reads the next length-delimited message; false at a clean end of the stream.
template <typename Message>
bool read_delimited(pio::CodedInputStream& in,
                    size_t total,
                    Message& message,
                    const std::string& label,
                    const std::string& what) {
    const int offset = in.CurrentPosition();
    if (static_cast<size_t>(offset) == total) return false;
    uint32_t size = 0;
    if (!in.ReadVarint32(&size)) {
        throw ConfigError(
            {label, 0, 0}, "",
            what + " at byte " + std::to_string(offset) + ": truncated or corrupt length prefix");
    }
    if (size > total - static_cast<size_t>(in.CurrentPosition())) {
        throw ConfigError({label, 0, 0}, "",
                          what + " at byte " + std::to_string(offset) + ": claims " +
                              std::to_string(size) + " bytes but only " +
                              std::to_string(total - in.CurrentPosition()) +
                              " remain (a truncated file?)");
    }
    const auto limit = in.PushLimit(static_cast<int>(size));
    if (!message.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
        throw ConfigError({label, 0, 0}, "",
                          what + " at byte " + std::to_string(offset) +
                              ": not a valid protobuf message of the Chakra schema");
    }
    in.PopLimit(limit);
    return true;
}

}  // namespace

ChakraFile parse_chakra(const std::string& bytes, const std::string& label) {
    if (bytes.size() > static_cast<size_t>(INT_MAX)) {
        throw ConfigError({label, 0, 0}, "", "files over 2 GiB are not supported");
    }
    ChakraFile f;
    f.path = label;
    pio::ArrayInputStream raw(bytes.data(), static_cast<int>(bytes.size()));
    pio::CodedInputStream in(&raw);
    in.SetTotalBytesLimit(INT_MAX);
    if (!read_delimited(in, bytes.size(), f.metadata, label, "the GlobalMetadata")) {
        throw ConfigError({label, 0, 0}, "", "empty file; expected a Chakra execution trace");
    }
    while (true) {
        ChakraProtoMsg::Node node;
        if (!read_delimited(in, bytes.size(), node, label,
                            "node " + std::to_string(f.nodes.size())))
            break;
        f.nodes.push_back(std::move(node));
    }
    return f;
}

ChakraFile read_chakra_file(const std::string& path) {
    return parse_chakra(read_maybe_gzip(path), path);
}

std::string encode_chakra(const ChakraProtoMsg::GlobalMetadata& metadata,
                          const std::vector<ChakraProtoMsg::Node>& nodes) {
    std::string out;
    {
        pio::StringOutputStream raw(&out);
        pio::CodedOutputStream coded(&raw);
        const auto put = [&coded](const google::protobuf::MessageLite& m) {
            coded.WriteVarint32(static_cast<uint32_t>(m.ByteSizeLong()));
            m.SerializeWithCachedSizes(&coded);
        };
        put(metadata);
        for (const auto& n : nodes)
            put(n);
    }
    return out;
}

}  // namespace sim::import
