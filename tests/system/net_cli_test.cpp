// SPDX-License-Identifier: MIT
// `wallsim net` end to end: the shipped network presets, the textbook's gradient AllReduce, and
// bad input (exit code 2, one line, nothing written).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using ::testing::HasSubstr;
using testing::slurp;
using testing::wallsim;

TEST(NetCli, SweepsSizesAndWritesCsvAndStats) {
    testing::TempDir dir;
    const auto out = dir.path() / "net";
    const auto r = wallsim(
        "net --topology configs/net/dgx_h100.yaml --sizes 8B:1GiB --out " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string csv = slurp(out / "net.csv");
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 28);  // header + 8 B .. 1 GiB
    EXPECT_THAT(csv, HasSubstr(",nvls,simple,16\n")) << "NVLS at large sizes on NVSwitch 3";
    EXPECT_THAT(csv, HasSubstr(",ring,ll,1\n")) << "ring LL on one channel at 8 B";
    const auto stats = nlohmann::json::parse(slurp(out / "stats.json"));
    const double busbw = stats["net_run"]["busbw"]["value"];
    // NVLS: every link carries (P+1)/P of the message each way, so busbw can pass the link's
    // 371 GB/s (450 at NCCL's 20.6/25 per link) up to 2(P-1)/(P+1) x 371 x 0.85 = 490 GB/s.
    EXPECT_GT(busbw, 0.9 * 14.0 / 9 * 0.824 * 0.85 * 450e9);
    EXPECT_LT(busbw, 14.0 / 9 * 0.824 * 0.85 * 450e9);
    // Forced to the ring and Simple, it stays below the link.
    const auto ring = wallsim(
        "net --topology configs/net/dgx_h100.yaml --algo ring --proto "
        "simple --sizes 1GiB",
        dir);
    ASSERT_EQ(ring.code, 0) << ring.err;
    EXPECT_THAT(ring.out, HasSubstr(" ring "));
    EXPECT_THAT(ring.out, HasSubstr(" simple "));
}

TEST(NetCli, AnAllToAllRunsNcclsSendsAndReceives) {
    // A DGX H100 AllToAll: LL pieces at 1 KiB, each peer's one piece on its own channel (8 with
    // the copy to self); Simple at 256 MiB on all 32 send/receive channels, 28 of them carrying
    // sends to other GPUs, each held to nccl.p2p.channel_bandwidth (11 GB/s, docs/network.md).
    testing::TempDir dir;
    const auto small = dir.path() / "small", large = dir.path() / "large";
    const auto a = wallsim(
        "net --topology dgx_h100 --collective alltoall --sizes 1KiB --out " + small.string(), dir);
    ASSERT_EQ(a.code, 0) << a.err;
    EXPECT_THAT(slurp(small / "net.csv"), HasSubstr(",direct,ll,8\n"));
    const auto b = wallsim(
        "net --topology dgx_h100 --collective alltoall --sizes 256MiB --out " + large.string(),
        dir);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_THAT(slurp(large / "net.csv"), HasSubstr(",direct,simple,32\n"));
    const auto stats = nlohmann::json::parse(slurp(large / "stats.json"));
    const double busbw = stats["net_run"]["busbw"]["value"];
    EXPECT_NEAR(busbw, 28 * 11e9, 0.04 * 28 * 11e9);  // less the latencies
    EXPECT_LT(busbw, 0.824 * 450e9);
}

TEST(NetCli, AutoChoosesAsNcclOrTheFastest) {
    // At 32 MiB on a DGX A100 NCCL's estimate picks the ring's Simple protocol, the simulated
    // LL128 being faster (docs/network.md); --choose fastest keeps LL128. The stats say which.
    testing::TempDir dir;
    const auto nccl = dir.path() / "nccl", fastest = dir.path() / "fastest";
    const auto a = wallsim("net --topology dgx_a100 --sizes 32MiB --out " + nccl.string(), dir);
    ASSERT_EQ(a.code, 0) << a.err;
    const auto b = wallsim(
        "net --topology dgx_a100 --sizes 32MiB --choose fastest --out " + fastest.string(), dir);
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_THAT(slurp(nccl / "net.csv"), HasSubstr(",ring,simple,24\n"));
    EXPECT_THAT(slurp(fastest / "net.csv"), HasSubstr(",ring,ll128,24\n"));
    const auto stats = [](const std::filesystem::path& d) {
        return nlohmann::json::parse(slurp(d / "stats.json"));
    };
    EXPECT_EQ(stats(nccl)["meta"]["choice"], "nccl");
    EXPECT_EQ(stats(fastest)["meta"]["choice"], "fastest");
    EXPECT_LT(stats(fastest)["net_run"]["time"]["value"].get<double>(),
              stats(nccl)["net_run"]["time"]["value"].get<double>());
}

TEST(NetCli, TheChaptersGradientAllReduce) {
    // 7B parameters of FP16 gradients (14 GB) over 8 GPUs on NVLink: the textbook's ≈ 82 ms sits
    // between NVLink 4 (H100, NVLS) and NVLink 3 (A100, ring at NCCL's 20 of 25 GB/s per link).
    testing::TempDir dir;
    const auto time_ms = [&](const std::string& preset) {
        const auto out = dir.path() / preset;
        const auto r = wallsim(
            "net --topology configs/net/" + preset + ".yaml --sizes 14GB --out " + out.string(),
            dir);
        EXPECT_EQ(r.code, 0) << r.err;
        return nlohmann::json::parse(slurp(out / "stats.json"))["net_run"]["time"]["value"]
                   .get<double>() *
               1e3;
    };
    const double h100 = time_ms("dgx_h100"), a100 = time_ms("dgx_a100");
    // NVLS: 14 GB x 9/8 through each link at 450 x 0.824 x 0.85 GB/s, plus its chunk barriers
    // (5 us for each of 835 rounds of 128 KiB chunks: 4.2 ms).
    const double nvls_link_ms = 14e9 * 9 / 8 / (450e9 * 0.824 * 0.85) * 1e3;
    EXPECT_GT(h100, nvls_link_ms);
    EXPECT_LT(h100, 1.1 * nvls_link_ms);
    // Ring Simple: 2 x 7/8 x 14 GB at 300 x 0.8 GB/s, plus its step latencies.
    EXPECT_NEAR(a100, 2 * 7.0 / 8 * 14e9 / (300e9 * 0.8) * 1e3, 0.03 * a100);
    EXPECT_LT(h100, 82);
    EXPECT_GT(a100, 82);
}

TEST(NetCli, TraceCollectivesRunOnTheHardwareFilesNetwork) {
    // two_streams: each layer's gradient AllReduce (stream 1) overlaps the next layers'
    // kernels (stream 0). On NVSwitch most of it hides; on a PCIe tree most of it is exposed.
    testing::TempDir dir;
    const auto run = [&](const std::string& name, const std::string& extra) {
        const auto out = dir.path() / name;
        const auto r = wallsim(
            "run --hw configs/hw/h100.yaml --trace "
            "traces/examples/two_streams.yaml --out " +
                out.string() + extra,
            dir);
        EXPECT_EQ(r.code, 0) << r.err;
        return out;
    };
    const auto nvswitch = run("nvswitch", "");
    const auto pcie = run("pcie", " --set network.topology=configs/net/pcie_box.yaml");
    const auto analytic = run("analytic", " --fidelity analytic");
    EXPECT_THAT(slurp(nvswitch / "ops.csv"), HasSubstr(",allreduce,1,bf16,network,cycle,gpu.net,"));
    EXPECT_THAT(slurp(analytic / "ops.csv"), HasSubstr(",gpu.analytic,"));
    const auto comm = [&](const std::filesystem::path& out, const char* key) {
        return nlohmann::json::parse(
                   slurp(out / "stats.json"))["run"]["communication"][key]["value"]
            .get<double>();
    };
    EXPECT_LT(comm(nvswitch, "exposed_share"), 0.3);
    EXPECT_GT(comm(pcie, "exposed_share"), 0.7);
    for (const auto& out : {nvswitch, pcie, analytic}) {
        EXPECT_NEAR(comm(out, "exposed") + comm(out, "overlapped"), comm(out, "time"), 1e-12);
    }
    // The resolved hardware file still names a network that can be found.
    EXPECT_EQ(wallsim("validate-config " + (nvswitch / "resolved_config.yaml").string(), dir).code,
              0);
}

TEST(NetCli, BadInputIsOneLineExitTwoAndWritesNothing) {
    testing::TempDir dir;
    const auto out = dir.path() / "net";
    const std::string o = " --out " + out.string();
    const struct {
        std::string args, fragment;
    } cases[] = {
        {"net --topology configs/net/dgx_h100.yaml --collective allsum" + o, "--collective"},
        {"net --topology configs/net/dgx_h100.yaml --algo tree --collective allgather" + o,
         "AllReduce"},
        {"net --topology configs/net/dgx_a100.yaml --algo nvls" + o, "nvls_channels"},
        {"net --topology configs/net/dgx_h100.yaml --algo nvls --proto ll" + o, "--proto"},
        {"net --topology configs/net/dgx_h100.yaml --proto ll256" + o, "--proto"},
        {"net --topology configs/net/pcie_box.yaml --proto ll128" + o, "ll128"},
        {"net --topology configs/net/dgx_h100.yaml --set nccl.ring_channels=0" + o,
         "nccl.ring_channels"},
        {"net --topology configs/net/dgx_h100.yaml --set nccl.ll.chunk=8B" + o, "nccl.ll.chunk"},
        {"net --topology configs/net/dgx_h100.yaml --set nccl.simple.hop_latency=1us" + o,
         "nccl.simple.hop_latency"},
        {"net --topology configs/net/dgx_h100.yaml --sizes 1GiB:8B" + o, "--sizes"},
        {"net --topology configs/net/dgx_h100.yaml --set links.nvlink.bandwidth=-1GB/s" + o,
         "links.nvlink.bandwidth"},
        {"net --topology configs/net/dgx_h100.yaml --set links.nvlink.efficiency=1.5" + o,
         "links.nvlink.efficiency"},
        {"net --topology configs/net/dgx_h100.yaml --set nodes=0" + o, "nodes"},
        {"net --topology configs/net/dgx_h100.yaml --set links.nvlnk.bandwidth=1GB/s" + o,
         "links.nvlnk"},
        {"net --topology configs/net/dgx_h100.yaml --set nodes=2" + o, "links.nic"},
        {"net --topology configs/net/nothing.yaml" + o, "nothing.yaml"},
        {"run --hw configs/hw/h100.yaml --trace traces/examples/two_streams.yaml "
         "--set network.topology=configs/net/none.yaml" +
             o,
         "network.topology"},
        {"run --hw configs/hw/h100.yaml --trace traces/examples/two_streams.yaml "
         "--set network.algorithm=star" +
             o,
         "network.algorithm"},
        {"run --hw configs/hw/h100.yaml --trace traces/examples/two_streams.yaml "
         "--set network.choose=best" +
             o,
         "network.choose"},
        {"net --topology configs/net/dgx_h100.yaml --choose best" + o, "--choose"},
        {"net --topology configs/net/dgx_h100.yaml --set nccl.generation=blackwell" + o,
         "nccl.generation"},
        {"net --topology configs/net/dgx_h100.yaml --collective alltoall --set "
         "nccl.p2p.chunk=1KiB" +
             o,
         "nccl.p2p.chunk"},
        {"net --topology configs/net/dgx_h100.yaml --collective alltoall --set "
         "nccl.p2p.channel_bandwidth=-1GB/s" +
             o,
         "nccl.p2p.channel_bandwidth"},
        {"net --topology configs/net/dgx_h100.yaml --set nccl.p2p.chunks=1MiB" + o,
         "nccl.p2p.chunks"},
        {"net --topology configs/net/dgx_h100.yaml --collective alltoall --proto ll" + o,
         "nccl.p2p.ll_threshold"},
    };
    for (const auto& c : cases) {
        const auto r = wallsim(c.args, dir);
        EXPECT_EQ(r.code, 2) << c.args << "\n" << r.err;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_THAT(r.err, HasSubstr(c.fragment)) << c.args;
        EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
    }
}

}  // namespace
}  // namespace sim
