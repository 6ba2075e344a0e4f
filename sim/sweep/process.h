// SPDX-License-Identifier: MIT
// Child processes for the sweep: each point runs as its own `wallsim` process (posix_spawn), so
// a crash in one point cannot take the sweep down, and the Slurm client commands (sbatch,
// squeue, sacct, scontrol) run the same way with their output captured.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace sim::sweep {

/// Starts argv[0] (looked up in PATH when it has no '/') with stdin from /dev/null and stdout
/// and stderr appended to log_file (truncated first). Returns its pid; throws ConfigError when
/// the program cannot be started.
pid_t spawn_logged(const std::vector<std::string>& argv, const std::string& log_file);

/// The exit status of a finished child as a shell reports it: the exit code, or 128 + signal.
int exit_code_of(int wait_status);

/// "signal 11 (Segmentation fault)" for a status above 128, else "".
std::string signal_text(int exit_code);

struct Captured {
    int exit_code = -1;
    std::string out;  ///< stdout
    std::string err;  ///< stderr
};

/// Runs argv to completion and returns what it printed; scratch_dir holds the two capture
/// files while it runs. Throws ConfigError when the program cannot be started.
Captured run_captured(const std::vector<std::string>& argv, const std::string& scratch_dir);

/// The absolute path of the running executable (/proc/self/exe).
std::string self_executable();

}  // namespace sim::sweep
