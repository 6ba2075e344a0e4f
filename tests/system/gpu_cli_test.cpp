// SPDX-License-Identifier: MIT
// `wallsim run` with the cycle-level GPU: memory-bound ops go to gpu.sm, kernels.csv holds what
// happened inside each kernel, --fidelity cycle picks gpu.sm_cycle, kernel hints reach the
// kernel, bad hints are bad input, and runs are deterministic.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "tests/testing/wallsim_process.h"

namespace sim::testing {
namespace {

using ::testing::HasSubstr;

std::string write_trace(const TempDir& dir, const std::string& ops) {
    const auto path = dir.path() / "t.yaml";
    std::ofstream(path) << "version: 1\nname: t\nops:\n" << ops;
    return path.string();
}

const char* kSmallOps =
    "  - {name: add, kind: elementwise, elements: 1048576, inputs: 2, outputs: 1, "
    "flops_per_element: 1, dtype: fp32}\n"
    "  - {name: strided, kind: elementwise, elements: 262144, inputs: 1, outputs: 1, "
    "flops_per_element: 0, dtype: fp32, kernel: {vector: 1, stride: 16, block: 128}}\n"
    "  - {name: sm, kind: softmax, rows: 256, cols: 1024, dtype: fp16}\n";

TEST(GpuCli, MemoryBoundOpsRunOnTheCycleLevelGpuAndWriteKernelsCsv) {
    TempDir dir;
    const auto r =
        wallsim("run --hw configs/hw/h100.yaml --no-progress --trace " +
                    write_trace(dir, kSmallOps) + " --out " + (dir.path() / "o").string(),
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string ops = slurp(dir.path() / "o" / "ops.csv");
    EXPECT_THAT(ops, HasSubstr(",cycle,gpu.sm,"));
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    EXPECT_EQ(lines(kernels), 4u);  // header and three kernels
    EXPECT_THAT(kernels, HasSubstr("occupancy_limiter,theoretical_occupancy,achieved_occupancy"));
    EXPECT_THAT(kernels, HasSubstr("stall_memory,stall_dependency,stall_pipeline,stall_barrier"));
    EXPECT_THAT(kernels,
                HasSubstr("1,strided,elementwise,,2048,128,"));  // the hints' block; no tile
    EXPECT_THAT(kernels, HasSubstr("2,sm,softmax,,256,"));
    const auto stats = nlohmann::json::parse(slurp(dir.path() / "o" / "stats.json"));
    EXPECT_EQ(stats["models"]["gpu_sm"]["kernels"]["value"], 3);
}

TEST(GpuCli, GemmsAndAttentionRunOnTheTensorCoresAndRepeatsAreReused) {
    TempDir dir;
    const std::string gemm = "kind: gemm, m: 512, n: 512, k: 512, dtype: bf16}\n";
    const auto r = wallsim(
        "run --hw configs/hw/h100.yaml --no-progress --trace " +
            write_trace(dir, "  - {name: g1, " + gemm + "  - {name: g2, " + gemm +
                                 "  - {name: fa, kind: attention, batch: 1, heads: 4, seq: 512, "
                                 "head_dim: 64, dtype: bf16}\n") +
            " --out " + (dir.path() / "o").string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string ops = slurp(dir.path() / "o" / "ops.csv");
    EXPECT_THAT(ops, HasSubstr("\n0,g1,gemm,0,bf16,tensor,cycle,gpu.sm,"));
    EXPECT_THAT(ops, HasSubstr("\n2,fa,attention,0,bf16,tensor,cycle,gpu.sm,"));
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    EXPECT_THAT(kernels, HasSubstr(",flash_attention,"));
    const auto stats = nlohmann::json::parse(slurp(dir.path() / "o" / "stats.json"));
    EXPECT_EQ(stats["models"]["gpu_sm"]["kernels"]["value"], 3);
    EXPECT_EQ(stats["models"]["gpu_sm"]["reused"]["value"], 1);  // g2 is g1 again
}

/// Column `name` of kernels.csv's first kernel row.
double first_kernel_column(const std::string& kernels, const std::string& name) {
    std::istringstream in(kernels);
    std::string header, row, cell;
    std::getline(in, header);
    std::getline(in, row);
    std::istringstream names(header), cells(row);
    while (std::getline(names, cell, ',')) {
        std::string value;
        std::getline(cells, value, ',');
        if (cell == name) return std::stod(value);
    }
    ADD_FAILURE() << "no column " << name;
    return 0;
}

TEST(GpuCli, KernelsCsvReportsSharedMemoryThroughput) {
    // An A100 mma.sync GEMM loads its fragments from shared memory with ldmatrix: some, but
    // never more than the 128 bytes per cycle per SM the banks serve (108 SMs at 1410 MHz).
    TempDir dir;
    const auto r = wallsim("run --hw configs/hw/a100.yaml --no-progress --trace " +
                               write_trace(dir,
                                           "  - {name: g, kind: gemm, m: 1024, n: 1024, k: 1024, "
                                           "dtype: fp16}\n") +
                               " --out " + (dir.path() / "o").string(),
                           dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    const double gbps = first_kernel_column(kernels, "shared_gbps");
    EXPECT_GT(gbps, 1000.0);
    EXPECT_LE(gbps, 128.0 * 108 * 1.41);
    // Every fragment of A and B per warp and k-slice: at least the bytes of A and B once.
    EXPECT_GT(first_kernel_column(kernels, "shared_bytes"), 2.0 * 1024 * 1024 * 2);
}

TEST(GpuCli, AGemmOfFewTilesAndLongKSplitsKAndSaysSo) {
    // 512 x 512 outputs fill half of an H100's SMs: the kernel library splits K (two kernels:
    // the split GEMM and the reduce), unless the trace pins split_k. A split_k that cuts a
    // k-tile falls back to the analytic model and says why.
    TempDir dir;
    const std::string gemm = "kind: gemm, m: 512, n: 512, k: 65536, dtype: bf16";
    const auto r = wallsim(
        "run --hw configs/hw/h100.yaml --no-progress --trace " +
            write_trace(dir, "  - {name: auto, " + gemm + "}\n" + "  - {name: whole, " + gemm +
                                 ", kernel: {split_k: 1}}\n" + "  - {name: ragged, " + gemm +
                                 ", kernel: {split_k: 3}}\n") +
            " --out " + (dir.path() / "o").string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    EXPECT_THAT(kernels, HasSubstr(",auto,gemm_splitk+splitk_reduce,"));
    EXPECT_THAT(kernels, HasSubstr(",whole,gemm,"));
    const std::string ops = slurp(dir.path() / "o" / "ops.csv");
    EXPECT_THAT(ops, HasSubstr("split-K needs the 1024 k-tiles to divide evenly into 3 splits"));
    const auto stats = nlohmann::json::parse(slurp(dir.path() / "o" / "stats.json"));
    EXPECT_EQ(stats["run"]["fidelity"]["fallbacks"]["total"]["value"], 1);
}

TEST(GpuCli, FidelityCyclePicksTheModelThatSimulatesEveryCta) {
    TempDir dir;
    const auto r =
        wallsim("run --hw configs/hw/h100.yaml --no-progress --fidelity cycle --trace " +
                    write_trace(dir, kSmallOps) + " --out " + (dir.path() / "o").string(),
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(slurp(dir.path() / "o" / "ops.csv"), HasSubstr(",cycle,gpu.sm_cycle,"));
}

TEST(GpuCli, SameTraceSameStats) {
    TempDir dir;
    const std::string trace = write_trace(dir, kSmallOps);
    for (const char* out : {"a", "b"}) {
        ASSERT_EQ(wallsim("run --hw configs/hw/a100.yaml --no-progress --trace " + trace +
                              " --out " + (dir.path() / out).string(),
                          dir)
                      .code,
                  0);
    }
    EXPECT_EQ(slurp(dir.path() / "a" / "kernels.csv"), slurp(dir.path() / "b" / "kernels.csv"));
    const auto a = nlohmann::json::parse(slurp(dir.path() / "a" / "stats.json"));
    const auto b = nlohmann::json::parse(slurp(dir.path() / "b" / "stats.json"));
    EXPECT_EQ(a["run"], b["run"]);
    EXPECT_EQ(a["models"], b["models"]);
}

TEST(GpuCli, TensorKernelsAreDeterministic) {
    // A GEMM on H100's wgmma path, one with a long k whose loop is fast-forwarded, and a causal
    // attention backward: two runs give the same kernels.csv and stats.
    TempDir dir;
    const std::string trace =
        write_trace(dir,
                    "  - {name: g, kind: gemm, m: 2048, n: 2048, k: 1024, dtype: bf16}\n"
                    "  - {name: long_k, kind: gemm, m: 1024, n: 1024, k: 8192, dtype: bf16}\n"
                    "  - {name: bwd, kind: attention, batch: 1, heads: 4, seq: 1024, head_dim: 64, "
                    "causal: true, backward: true, dtype: bf16}\n");
    for (const char* out : {"a", "b"}) {
        const auto r = wallsim("run --hw configs/hw/h100.yaml --no-progress --trace " + trace +
                                   " --out " + (dir.path() / out).string(),
                               dir);
        ASSERT_EQ(r.code, 0) << r.err;
    }
    EXPECT_EQ(slurp(dir.path() / "a" / "kernels.csv"), slurp(dir.path() / "b" / "kernels.csv"));
    EXPECT_EQ(slurp(dir.path() / "a" / "stats.json"), slurp(dir.path() / "b" / "stats.json"));
    EXPECT_THAT(slurp(dir.path() / "a" / "ops.csv"), HasSubstr("bwd,attention"));
    EXPECT_THAT(slurp(dir.path() / "a" / "ops.csv"),
                HasSubstr("long_k,gemm,0,bf16,tensor,sampled"));
}

TEST(GpuCli, LongRowsRunAtEveryFidelity) {
    // GPT-2's and Llama-3's vocabularies: once "does not fit on an SM" even at analytic.
    const std::string ops =
        "  - {name: gpt2, kind: softmax, rows: 4, cols: 50257, dtype: fp32}\n"
        "  - {name: llama3, kind: layernorm, rows: 4, cols: 128256, dtype: bf16}\n";
    for (const char* fidelity : {"analytic", "cycle"}) {
        TempDir dir;
        const auto r = wallsim("run --hw configs/hw/h100.yaml --no-progress --fidelity " +
                                   std::string(fidelity) + " --trace " + write_trace(dir, ops) +
                                   " --out " + (dir.path() / "o").string(),
                               dir);
        ASSERT_EQ(r.code, 0) << fidelity << ": " << r.err;
    }
}

TEST(GpuCli, AGemmsTileAndLibraryHintsReachTheKernelAndKernelsCsvNamesTheTile) {
    TempDir dir;
    const std::string gemm = "  - {name: g, kind: gemm, m: 512, n: 576, k: 1024, dtype: bf16, ";
    const auto run = [&](const std::string& hw, const std::string& hints, const char* out) {
        return wallsim("run --hw configs/hw/" + hw + ".yaml --no-progress --trace " +
                           write_trace(dir, gemm + "kernel: {" + hints + "}}\n") + " --out " +
                           (dir.path() / out).string(),
                       dir);
    };
    const auto pinned = run("h100", "tile: [128, 144], cluster: [2, 1], split_k: 1", "a");
    ASSERT_EQ(pinned.code, 0) << pinned.err;
    const std::string kernels = slurp(dir.path() / "a" / "kernels.csv");
    EXPECT_THAT(kernels, HasSubstr("index,name,kernel,tile,ctas,"));
    EXPECT_THAT(kernels, HasSubstr(",gemm,128x144x64 4 stages cluster 2x1,16,"));
    const auto deepgemm = run("h100", "library: deepgemm", "b");
    ASSERT_EQ(deepgemm.code, 0) << deepgemm.err;
    EXPECT_THAT(slurp(dir.path() / "b" / "kernels.csv"), HasSubstr(",gemm,"));
    // Hints the GPU or the library cannot honour are bad input, naming the op's line.
    expect_bad_input(run("a100", "library: deepgemm", "c"), "DeepGEMM's GEMM runs on Hopper");
    expect_bad_input(run("h100", "tile: [96, 128]", "d"), "wgmma covers M in warpgroups");
    expect_bad_input(run("h100", "tile: [128, 128], cluster: [1, 2]", "e"),
                     "576 / 128 makes 5, an odd number");
    expect_bad_input(run("h100", "library: deepgemm, split_k: 2", "f"),
                     "DeepGEMM's GEMM does not split K");
}

TEST(GpuCli, PointerChaseReportsLoadToUseLatencyInKernelsCsv) {
    TempDir dir;
    const std::string ops =
        "  - {name: l1, kind: pointer_chase, footprint: 4096, stride: 128, steps: 256}\n";
    const auto r = wallsim("run --hw configs/hw/h100.yaml --no-progress --trace " +
                               write_trace(dir, ops) + " --out " + (dir.path() / "o").string(),
                           dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    EXPECT_THAT(kernels,
                HasSubstr(",load_to_use_cycles,shared_gbps,shared_bytes,warm_read_gbps\n"));
    EXPECT_THAT(kernels, HasSubstr(",33,0,0,0\n"));  // the H100 preset's L1 hit latency
    // A Roofline has no latency: refused, not guessed.
    const auto analytic =
        wallsim("run --hw configs/hw/h100.yaml --no-progress --fidelity analytic --trace " +
                    write_trace(dir, ops) + " --out " + (dir.path() / "a").string(),
                dir);
    expect_bad_input(analytic, "pointer chase measures load-to-use latency");
    expect_bad_input(
        wallsim("validate-trace " + write_trace(dir,
                                                "  - {kind: pointer_chase, footprint: 1000, "
                                                "stride: 128}\n"),
                dir),
        "footprint: must be a whole number of strides");
}

TEST(GpuCli, BulkCopyReportsTheBandwidthItsCopiesReachAndFallsBackWhenTheyDoNotFit) {
    TempDir dir;
    const std::string ops =
        "  - {name: fits, kind: bulk_copy, ctas: 132, copy_bytes: 8192, copies: 16}\n"
        "  - {name: tile, kind: bulk_copy, ctas: 132, copy_bytes: 8192, copies: 16, rows: 32, "
        "row_pitch: 131072}\n"
        "  - {name: too_big, kind: bulk_copy, ctas: 132, copy_bytes: 65536, copies: 4, "
        "in_flight: 4}\n";
    const auto r = wallsim("run --hw configs/hw/h100.yaml --no-progress --fidelity cycle --trace " +
                               write_trace(dir, ops) + " --out " + (dir.path() / "o").string(),
                           dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    EXPECT_THAT(kernels, HasSubstr(",fits,bulk_copy,\"8192 B copies, 1 in flight\",132,32,"));
    EXPECT_THAT(kernels, HasSubstr(",tile,bulk_copy,\"8192 B copies of 32 rows, 1 in flight\","));
    const std::string csv = slurp(dir.path() / "o" / "ops.csv");
    EXPECT_THAT(csv, HasSubstr("in_flight x copy_bytes is 262144 B of shared memory per CTA, "
                               "more than an SM has (233472 B)"));
}

TEST(GpuCli, CacheReadReportsItsWarmBandwidthAndTheRooflineRefusesIt) {
    TempDir dir;
    const std::string ops =
        "  - {name: l2, kind: cache_read, footprint: 4194304, ctas: 512}\n"
        "  - {name: dram, kind: cache_read, footprint: 134217728, block_bytes: 131072}\n";
    const auto trace = write_trace(dir, ops);
    const auto r = wallsim("run --hw configs/hw/a100.yaml --no-progress --fidelity cycle --trace " +
                               trace + " --out " + (dir.path() / "o").string(),
                           dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string kernels = slurp(dir.path() / "o" / "kernels.csv");
    EXPECT_THAT(kernels, HasSubstr(",l2,cache_read,\"131072 B blocks, 32 regions\",512,1024,"));
    // The warm bandwidth: an L2-resident data set reads faster than the pins, one more than
    // three times the L2 no faster than them.
    const auto warm = [&](const std::string& name) {
        const size_t row = kernels.find("," + name + ",cache_read,");
        const size_t end = kernels.find('\n', row);
        const std::string line = kernels.substr(row, end - row);
        return std::stod(line.substr(line.rfind(',') + 1));
    };
    // The pins' bandwidth as the run's HBM model reports it, in GB/s.
    const auto stats = nlohmann::json::parse(slurp(dir.path() / "o" / "stats.json"));
    const double pins = stats["hw"]["hbm"]["peak_bandwidth"]["value"].get<double>() / 1e9;
    EXPECT_GT(warm("l2"), 1.5 * pins);
    EXPECT_LT(warm("dram"), pins);
    EXPECT_GT(warm("dram"), 0.5 * pins);
    // A Roofline has no caches: refused, not guessed.
    expect_bad_input(wallsim("run --hw configs/hw/a100.yaml --no-progress --fidelity analytic "
                             "--trace " +
                                 trace + " --out " + (dir.path() / "a").string(),
                             dir),
                     "a cache read measures the bandwidth of the caches");
}

// A decode step's attention kernels grow with the context, one token a step. Once a second
// length is seen, the sampled model interpolates them between the two lengths of its grid (16 an
// octave) around theirs instead of simulating every length. Against simulating each exactly:
// each op within 12%, the sum within 1% (measured 11.7% and 0.5%). The exact kernels are not
// smooth in the context themselves: a P·V kernel is 2 us, a few DRAM rows per pseudo-channel,
// and whether its rows meet a bank being refreshed moves it by up to 15% from one length to the
// next (2.48, 2.12, 2.14, 2.47 us seven tokens apart), which an interpolation cannot follow.
TEST(GpuCli, DecodeStepsInterpolateTheirAttentionKernelsAlongTheContext) {
    TempDir dir;
    const auto trace = [&](bool decode) {
        const auto path = dir.path() / (decode ? "decode.yaml" : "exact.yaml");
        std::ofstream f(path);
        f << "version: 1\nname: t\n"
          << (decode ? "inference: {batch: 1, prompt: 128, generate: 256}\n" : "") << "ops:\n";
        for (int ctx = 129; ctx < 300; ctx += 7) {
            const std::string c = std::to_string(ctx);
            const std::string token = decode ? ", token: " + std::to_string(ctx - 128) : "";
            f << "  - {name: qk" << c << ", kind: gemm, m: 1, n: " << c
              << ", k: 128, batch: 32, layout: nt, dtype: bf16" << token << "}\n"
              << "  - {name: sm" << c << ", kind: softmax, rows: 32, cols: " << c << ", dtype: bf16"
              << token << "}\n"
              << "  - {name: pv" << c << ", kind: gemm, m: 1, n: 128, k: " << c
              << ", batch: 32, dtype: bf16" << token << "}\n";
        }
        return path.string();
    };
    const auto run = [&](bool decode) {
        const auto out = dir.path() / (decode ? "d" : "e");
        const auto r = wallsim("run --hw configs/hw/h100.yaml --no-progress --trace " +
                                   trace(decode) + " --out " + out.string(),
                               dir);
        EXPECT_EQ(r.code, 0) << r.err;
        return out;
    };
    const auto decode = run(true), exact = run(false);
    const auto times = [](const std::filesystem::path& out) {
        std::map<std::string, double> t;
        std::istringstream in(slurp(out / "ops.csv"));
        std::string line;
        std::getline(in, line);
        while (std::getline(in, line)) {
            std::vector<std::string> f;
            std::istringstream row(line);
            for (std::string c; std::getline(row, c, ',');)
                f.push_back(c);
            t[f.at(1)] = std::stod(f.at(9));  // name, time_us
        }
        return t;
    };
    const auto d = times(decode), e = times(exact);
    ASSERT_EQ(d.size(), e.size());
    double sum_d = 0, sum_e = 0;
    for (const auto& [name, t] : e) {
        EXPECT_NEAR(d.at(name), t, 0.12 * t) << name;
        sum_d += d.at(name);
        sum_e += t;
    }
    EXPECT_NEAR(sum_d, sum_e, 0.01 * sum_e);
    const auto stats = nlohmann::json::parse(slurp(decode / "stats.json"));
    EXPECT_GT(stats["models"]["gpu_sm"]["interpolated"]["value"].get<int>(), 40);
    const auto exact_stats = nlohmann::json::parse(slurp(exact / "stats.json"));
    EXPECT_EQ(exact_stats["models"]["gpu_sm"]["interpolated"]["value"].get<int>(), 0);
}

// `--threads N` simulates the operators' kernels on N threads before the run; the run then
// finds them ready. Everything it writes is byte-identical to one thread's: kernels on several
// devices (some shared by identical GPUs), a decode step's interpolated kernels, cycle-level
// HBM traffic, a collective.
TEST(GpuCli, ThreadsSimulateKernelsAheadWithIdenticalResults) {
    TempDir dir;
    std::string ops;
    for (int d = 0; d < 4; ++d) {
        const std::string gpu = "gpu" + std::to_string(d);
        ops += "  - {name: g" + gpu + ", device: " + gpu +
               ", kind: gemm, m: 512, n: " + std::to_string(256 * (d % 2 + 1)) +
               ", k: 1024, dtype: bf16}\n";
        ops += "  - {name: add" + gpu + ", device: " + gpu +
               ", kind: elementwise, elements: 1048576, dtype: fp32}\n";
    }
    for (int ctx = 129; ctx < 200; ctx += 9) {
        const std::string c = std::to_string(ctx);
        ops += "  - {name: qk" + c + ", device: gpu0, kind: gemm, m: 1, n: " + c +
               ", k: 128, batch: 32, layout: nt, dtype: bf16, token: " + std::to_string(ctx - 128) +
               "}\n";
    }
    ops += "  - {name: rnd, device: gpu1, kind: dram_traffic, bytes: 1048576, pattern: random}\n";
    ops +=
        "  - {name: grads, kind: allreduce, bytes: 16777216, dtype: bf16, "
        "group: [gpu0, gpu1, gpu2, gpu3]}\n";
    const auto path = dir.path() / "t.yaml";
    std::ofstream(path)
        << "version: 1\nname: t\ninference: {batch: 1, prompt: 128, generate: 128}\n"
        << "ops:\n"
        << ops;
    const std::string trace = path.string();
    const auto run = [&](int threads) {
        const auto out = dir.path() / ("t" + std::to_string(threads));
        const auto r = wallsim("run --system configs/systems/dgx_h100.yaml --no-progress --trace " +
                                   trace + " --threads " + std::to_string(threads) + " --out " +
                                   out.string() + " --log engine=info",
                               dir);
        EXPECT_EQ(r.code, 0) << r.err;
        return std::make_pair(out, r.err);
    };
    const auto [one, one_log] = run(1);
    const auto [three, three_log] = run(3);
    for (const char* file : {"stats.json", "ops.csv", "kernels.csv", "timeline.json"})
        EXPECT_EQ(slurp(one / file), slurp(three / file)) << file;
    // Ahead of the run: two GEMM shapes, one element-wise kernel (identical GPUs share both),
    // and the decode step's grid points.
    EXPECT_THAT(three_log, HasSubstr("operator simulations ahead of the run on 3 threads"));
    EXPECT_THAT(one_log, ::testing::Not(HasSubstr("ahead of the run")));
    const auto stats = nlohmann::json::parse(slurp(three / "stats.json"));
    EXPECT_GT(stats["devices"]["gpu0"]["models"]["gpu_sm"]["interpolated"]["value"].get<int>(), 0);

    const auto bad = wallsim("run --hw configs/hw/h100.yaml --no-progress --trace " + trace +
                                 " --threads 0 --out " + (dir.path() / "bad").string(),
                             dir);
    EXPECT_EQ(bad.code, 2);
    EXPECT_THAT(bad.err, HasSubstr("--threads"));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "bad"));
}

TEST(GpuCli, BadKernelHintsAreBadInput) {
    TempDir dir;
    const auto run = [&](const std::string& hints) {
        return wallsim("run --hw configs/hw/h100.yaml --no-progress --trace " +
                           write_trace(dir, "  - {kind: elementwise, elements: 1024, kernel: " +
                                                hints + "}\n") +
                           " --out " + (dir.path() / "o").string(),
                       dir);
    };
    expect_bad_input(run("{block: 100}"), "t.yaml:4:");
    expect_bad_input(run("{block: 100}"), "multiple of 32");
    expect_bad_input(run("{blok: 64}"), "blok: unknown key");
    expect_bad_input(run("{divergence: 64}"), "1..32 paths");
    expect_bad_input(run("{vector: 3}"), "power of two");
    expect_bad_input(run("{stride: -2}"), "stride");
    // A CTA that no SM can hold.
    expect_bad_input(run("{shared_memory: 300000}"), "does not fit on an SM");
    expect_bad_input(run("{mma: mma_sync}"), "only gemm, conv2d and attention");
    expect_bad_input(run("{split_k: 2}"), "only gemm kernels split K");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "o"));
}

TEST(GpuCli, AnMmaInstructionTheGpuLacksIsBadInput) {
    TempDir dir;
    const std::string trace = write_trace(
        dir, "  - {kind: gemm, m: 256, n: 256, k: 256, dtype: bf16, kernel: {mma: wgmma}}\n");
    expect_bad_input(wallsim("run --hw configs/hw/a100.yaml --no-progress --trace " + trace +
                                 " --out " + (dir.path() / "o").string(),
                             dir),
                     "t.yaml:4:5: kernel: this GPU's Tensor Cores have no wgmma");
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "o"));
}

}  // namespace
}  // namespace sim::testing
