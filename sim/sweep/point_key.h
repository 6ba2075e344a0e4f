// SPDX-License-Identifier: MIT
// The name of a point's output directory: a SHA-256 digest of everything that determines its
// result, so that rerunning a sweep finds the points it already ran and a changed input reruns
// only the points it reaches. What goes in: the wallsim version, the command, every option
// (a value naming a file contributes the file's content, not its name; a hardware, system or
// topology file contributes its resolved config: extends chain merged, --set overrides applied)
// and the --set overrides (through the resolved config, or as written when no option takes
// them). What does not: the output directory, file names, the
// machine. A file that a config names inside itself (not on the command line) is not read.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/sweep/experiment.h"

namespace sim::sweep {

class PointKeys {
  public:
    /// version: the wallsim version the points run with.
    explicit PointKeys(std::string version) : version_(std::move(version)) {}

    /// The text that is hashed (for --dry-run and tests).
    std::string inputs(const std::string& command, const Point& point);
    /// The first 16 hex digits of the SHA-256 of inputs().
    std::string key(const std::string& command, const Point& point);

  private:
    std::string file_digest(const std::string& path);
    std::string config_digest(const std::string& path, const std::vector<std::string>& sets);

    std::string version_;
    std::map<std::string, std::string> file_digests_;  // one read per file per sweep
};

/// SHA-256 of bytes as 64 lower-case hex digits (OpenSSL's EVP interface).
std::string sha256_hex(const std::string& bytes);

}  // namespace sim::sweep
