// SPDX-License-Identifier: MIT
// The layout of a sweep's output directory and the record each finished point leaves in it:
//   DIR/.wallsim-sweep        marker: the directory is a sweep's and may be updated
//   DIR/results.csv           one row per point (written last, atomically)
//   DIR/sweep.json            the experiment's name, axis columns and metric columns
//   DIR/points/<key>/         the point's own wallsim output (stats.json, ops.csv, ...)
//   DIR/logs/<key>.log        what the point printed (stdout and stderr)
//   DIR/logs/<key>.status     its exit code and wall time (JSON), written when it ends
//   DIR/slurm/                the job script and the task list of --slurm
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace sim::sweep {

/// How a point's process ended.
struct PointStatus {
    int exit_code = -1;  ///< as a shell reports it: 128 + signal when killed
    double wall_s = 0;   ///< wall time of the process
    std::string error;   ///< why the point did not run, when its process never ended normally
};

class SweepDir {
  public:
    /// Checks that root may be used (absent, empty, or an earlier sweep's) and creates its
    /// folders unless dry_run. Throws ConfigError (key "--out") otherwise.
    SweepDir(const std::string& root, bool dry_run);

    const std::filesystem::path& root() const { return root_; }
    std::filesystem::path point_dir(const std::string& key) const;
    std::filesystem::path log_file(const std::string& key) const;
    std::filesystem::path status_file(const std::string& key) const;
    std::filesystem::path slurm_dir() const { return root_ / "slurm"; }

    /// True when the point's output is complete (a wallsim output is committed atomically).
    bool finished(const std::string& key) const;
    /// Removes what an earlier, unfinished attempt of the point left.
    void forget(const std::string& key) const;

    /// Writes text to root/name through a temporary file and a rename.
    void write_atomically(const std::string& name, const std::string& text) const;

    static constexpr const char* kMarker = ".wallsim-sweep";

  private:
    std::filesystem::path root_;
};

/// Writes a point's status file (atomically).
void write_status(const std::filesystem::path& file, const PointStatus& status);
/// Reads a status file: {"exit_code", "wall_s"}, or {"exit_code", "start", "end"} as the
/// Slurm job script writes it; nullopt when absent or unreadable.
std::optional<PointStatus> read_status(const std::filesystem::path& file);

/// The line of a point's log that says why it failed: the last "wallsim: ..." error line,
/// else the last non-empty line; "" for an empty or missing log.
std::string error_line(const std::filesystem::path& log_file);

}  // namespace sim::sweep
