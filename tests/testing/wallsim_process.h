// SPDX-License-Identifier: MIT
// Runs the wallsim binary (WALLSIM_BINARY) from the source tree and captures what it printed,
// for the system tests.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/testing/temp_dir.h"

namespace sim::testing {

struct ProcessResult {
    int code = -1;
    std::string out;
    std::string err;
};

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// `wallsim args` in the source directory; stdout and stderr go through files in dir.
inline ProcessResult wallsim(const std::string& args, const TempDir& dir) {
    const auto out = dir.path() / "stdout.txt";
    const auto err = dir.path() / "stderr.txt";
    const std::string cmd = "cd " + std::string(WALLSIM_SOURCE_DIR) + " && " + WALLSIM_BINARY +
                            " " + args + " >" + out.string() + " 2>" + err.string() + " </dev/null";
    const int status = std::system(cmd.c_str());
    ProcessResult r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(out);
    r.err = slurp(err);
    return r;
}

}  // namespace sim::testing
