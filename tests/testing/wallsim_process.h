// SPDX-License-Identifier: MIT
// Runs the wallsim binary (WALLSIM_BINARY) from the source tree and captures what it printed,
// for the system tests.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
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

inline size_t lines(const std::string& s) {
    return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

/// Bad input: exit code 2 and one line on stderr, "wallsim: error: ..." naming fragment.
inline void expect_bad_input(const ProcessResult& r, const std::string& fragment) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_THAT(r.err, ::testing::HasSubstr("wallsim: error: "));
    EXPECT_THAT(r.err, ::testing::HasSubstr(fragment));
}

}  // namespace sim::testing
