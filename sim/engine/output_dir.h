// SPDX-License-Identifier: MIT
// Writes a run's outputs atomically: everything goes into a hidden sibling directory, which
// replaces the requested directory only when the run succeeded. A failed run leaves no
// half-written output. An existing directory is replaced only if it is empty or an earlier
// wallsim output (it holds the marker file), never an unrelated directory.
#pragma once

#include <filesystem>
#include <string>

#include "sim/stats/group.h"

namespace sim {

class OutputDir {
  public:
    /// Checks that final_dir may be written and creates the staging directory; throws
    /// ConfigError (key "--out") when it may not.
    explicit OutputDir(const std::string& final_dir);
    /// Removes the staging directory unless commit() succeeded.
    ~OutputDir();
    OutputDir(const OutputDir&) = delete;
    OutputDir& operator=(const OutputDir&) = delete;

    /// Path of a file inside the staging directory.
    std::filesystem::path file(const std::string& name) const { return staging_ / name; }
    /// Writes text to a file in the staging directory.
    void write(const std::string& name, const std::string& text) const;
    /// stats.json ({"meta": meta} followed by the stats tree) and stats.txt.
    void write_stats(const Json& meta, const StatGroup& stats) const;
    /// Moves the staging directory into place.
    void commit();

    static constexpr const char* kMarker = ".wallsim-output";

  private:
    std::filesystem::path final_;
    std::filesystem::path staging_;
    bool committed_ = false;
};

}  // namespace sim
