// SPDX-License-Identifier: MIT
// `wallsim hbm --trace`: Ramulator 2 and DRAMSim3 address traces on the Ramulator presets, the
// outputs they write, determinism, and bad traces (exit code 2, file:line, nothing in --out).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using testing::expect_bad_input;
using ::testing::HasSubstr;
using testing::slurp;
using testing::wallsim;

std::string write_file(const testing::TempDir& dir,
                       const std::string& name,
                       const std::string& text) {
    const auto path = dir.path() / name;
    std::ofstream(path) << text;
    return path.string();
}

// A stream of loads and a store every fourth access over 4 MiB, in Ramulator's format.
std::string load_store_stream() {
    std::string text;
    for (uint64_t a = 0; a < (4u << 20); a += 64)
        text += (a / 64 % 4 == 3 ? "ST 0x" : "LD 0x") + [&] {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(a));
            return std::string(buf);
        }() + "\n";
    return text;
}

TEST(HbmTraceCli, ReplaysARamulatorTraceOnTheRamulatorHbm3Preset) {
    testing::TempDir dir;
    const std::string trace = write_file(dir, "stream.trace", load_store_stream());
    const auto out = dir.path() / "out";
    const auto r = wallsim(
        "hbm --hw configs/hbm/ramulator_hbm3.yaml --trace " + trace + " --out " + out.string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("ramulator, 65536 accesses"));
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(stats["meta"]["trace_format"], "ramulator");
    EXPECT_EQ(stats["meta"]["request_bytes"], 32);  // one burst, Ramulator's transaction
    EXPECT_EQ(stats["hbm_run"]["requests"]["value"], 65536);
    EXPECT_EQ(stats["hbm_run"]["bytes_written"]["value"], 16384 * 32);
    EXPECT_TRUE(stats["hbm_run"]["pseudo_channels"].contains("pc31"));
    // The same run again gives the same stats.
    const auto again = dir.path() / "again";
    ASSERT_EQ(wallsim("hbm --hw configs/hbm/ramulator_hbm3.yaml --trace " + trace + " --out " +
                          again.string(),
                      dir)
                  .code,
              0);
    EXPECT_EQ(slurp(out / "stats.json"), slurp(again / "stats.json"));
}

TEST(HbmTraceCli, ReplaysADramSim3TraceOnTheRamulatorHbm2Preset) {
    testing::TempDir dir;
    const std::string trace = write_file(
        dir, "d3.trace", "0x2000D5C0 READ  30\n0x1FF96FC0 WRITE 160\n0x2000D600 READ 165\n");
    const auto out = dir.path() / "out";
    const auto r = wallsim("hbm --hw configs/hbm/ramulator_hbm2.yaml --trace " + trace +
                               " --request-bytes 32 --out " + out.string(),
                           dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    EXPECT_EQ(stats["meta"]["trace_format"], "dramsim3");
    EXPECT_EQ(stats["meta"]["issue_per_cycle"], 1);
    EXPECT_EQ(stats["hbm_run"]["requests"]["value"], 3);
}

TEST(HbmTraceCli, BadTracesAndOptionsAreOneLineErrorsAndLeaveNoOutput) {
    testing::TempDir dir;
    const std::string bad = write_file(dir, "bad.trace", "LD 0x40\nLD 0x80\nLOAD 0x100\n");
    const auto out = dir.path() / "out";
    const std::string hw = "hbm --hw configs/hbm/ramulator_hbm3.yaml ";
    expect_bad_input(wallsim(hw + "--trace " + bad + " --out " + out.string(), dir),
                     "bad.trace:3: access type 'LOAD' is not LD or ST");
    EXPECT_FALSE(std::filesystem::exists(out));
    expect_bad_input(wallsim(hw + "--trace " + (dir.path() / "none.trace").string(), dir),
                     "cannot open the trace file");
    const std::string ok = write_file(dir, "ok.trace", "LD 0x40\n");
    expect_bad_input(wallsim(hw + "--trace " + ok + " --pattern random", dir),
                     "--pattern: does not apply to --trace");
    expect_bad_input(wallsim(hw + "--trace " + ok + " --trace-format gem5", dir), "--trace-format");
    expect_bad_input(wallsim(hw + "--trace " + ok + " --request-bytes 48", dir), "--request-bytes");
    expect_bad_input(wallsim(hw + "--issue-per-cycle 2", dir), "applies only with --trace");
}

TEST(HbmTraceCli, MemoryPresetsRejectImpossibleMechanismSettings) {
    testing::TempDir dir;
    const std::string ok = write_file(dir, "ok.trace", "LD 0x40\n");
    const std::string hw = "hbm --hw configs/hbm/ramulator_hbm3.yaml --trace " + ok + " ";
    expect_bad_input(wallsim(hw + "--set hbm.command_bus.act_cycles=0.7", dir),
                     "hbm.command_bus.act_cycles");
    expect_bad_input(wallsim(hw + "--set hbm.controller.queues=shared", dir),
                     "hbm.controller.queues");
    expect_bad_input(wallsim(hw + "--set hbm.organisation.stack_ids=1", dir), "hbm.timing.t_ccd_r");
    expect_bad_input(wallsim("hbm --hw configs/hbm/ramulator_hbm2.yaml --trace " + ok +
                                 " --set hbm.controller.refresh=per_bank --set "
                                 "hbm.timing.t_rrefd=1000",
                             dir),
                     "hbm.timing.t_refi");
}

}  // namespace
}  // namespace sim
