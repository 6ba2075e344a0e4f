// SPDX-License-Identifier: MIT
// Reads a Chrome trace JSON document (the format of torch.profiler / Kineto and of
// chrome://tracing, [chrome-trace]), plain or gzip-compressed, without building it in memory
// whole: nlohmann's SAX interface streams it, and each element of `traceEvents` is handed
// over, with the line it starts on, as a small JSON object and then dropped. A 100 MB profile
// therefore needs memory for what the caller keeps, not for the document.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>

namespace sim::import {

/// The whole file as bytes, decompressed when it is gzip (zlib reads plain files as they
/// are). Throws ConfigError naming the file when it is missing, unreadable or truncated.
std::string read_maybe_gzip(const std::string& path);

struct ChromeTraceSink {
    /// One element of traceEvents and the line of the file it starts on (1-based).
    std::function<void(const nlohmann::json& event, int line)> event;
    /// A top-level key other than traceEvents, with its value (deviceProperties,
    /// distributedInfo, schemaVersion, ...).
    std::function<void(const std::string& key, const nlohmann::json& value)> metadata;
};

/// Streams text (a Chrome trace JSON object) into sink. label names the file in errors.
/// Throws ConfigError with file:line:column on malformed JSON, a document that is not an
/// object, or one without a traceEvents array.
void stream_chrome_trace(const std::string& text, const std::string& label, ChromeTraceSink& sink);

}  // namespace sim::import
