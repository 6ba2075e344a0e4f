// SPDX-License-Identifier: MIT
// A scratch directory per test (removed afterwards) and a way to put files in it.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace sim::testing {

class TempDir {
  public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        const std::string tag =
            info ? std::string(info->test_suite_name()) + "." + info->name() : "wallsim";
        path_ = std::filesystem::temp_directory_path() /
                ("wallsim-test-" + tag + "-" + std::to_string(::getpid()));
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    const std::filesystem::path& path() const { return path_; }
    /// Writes text to name (relative to the directory) and returns the full path.
    std::string write(const std::string& name, const std::string& text) const {
        const auto p = path_ / name;
        std::filesystem::create_directories(p.parent_path());
        std::ofstream(p, std::ios::binary) << text;
        return p.string();
    }

  private:
    std::filesystem::path path_;
};

/// The repository root (configs/, traces/), set by CMake.
inline std::string source_path(const std::string& relative) {
    return std::string(WALLSIM_SOURCE_DIR) + "/" + relative;
}

}  // namespace sim::testing
