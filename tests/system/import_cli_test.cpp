// SPDX-License-Identifier: MIT
// `wallsim import`, `wallsim run` on what it wrote, `wallsim compare` and the run's
// timeline.json, end to end; bad input is one line and exit code 2 and leaves no output.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "sim/import/chakra_file.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/wallsim_process.h"

namespace sim {
namespace {

using testing::expect_bad_input;
using ::testing::HasSubstr;
using testing::slurp;
using testing::wallsim;

const std::string kExample = "traces/examples/pytorch/gpt_layer.json";

TEST(ImportCli, PytorchTraceImportsRunsAndCompares) {
    testing::TempDir dir;
    const auto trace = dir.path() / "gpt.jsonl";
    auto r = wallsim("import pytorch " + kExample + " -o " + trace.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("NVIDIA H100 80GB HBM3, 132 SMs, sm_90"));
    EXPECT_THAT(r.out, HasSubstr("--hw configs/hw/h100.yaml"));
    EXPECT_THAT(r.out, HasSubstr("1 cross-stream dependencies"));
    EXPECT_THAT(r.out, HasSubstr("unclassified kernel"));
    const auto out = dir.path() / "run";
    r = wallsim("run --hw configs/hw/h100.yaml --fidelity analytic --no-progress --trace " +
                    trace.string() + " --out " + out.string(),
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string ops = slurp(out / "ops.csv");
    EXPECT_THAT(ops, HasSubstr(",measured_us,error,launch_gap_us\n"));
    EXPECT_THAT(ops, HasSubstr(",measured,"));  // custom ops replaying their time
    // A replayed op takes its measured time and the gap of its launch, which the error, like
    // a profiler's kernel duration, leaves out: it is exactly 0.
    EXPECT_THAT(ops, ::testing::ContainsRegex(",measured,[^\n]*,0,[1-9][0-9.]*\n"));

    r = wallsim("compare " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("gemm"));
    EXPECT_THAT(r.out, HasSubstr("attention"));
    EXPECT_THAT(r.out, HasSubstr("custom (replayed)"));
    EXPECT_THAT(r.out, HasSubstr("total"));
    const std::string csv = slurp(out / "compare.csv");
    EXPECT_THAT(csv, ::testing::StartsWith("class,ops,measured_us,simulated_us,error,mape\n"));

    // The timeline: one slice per operator, a track per stream, the op's args.
    const auto tl = nlohmann::json::parse(slurp(out / "timeline.json"));
    size_t slices = 0, tracks = 0;
    for (const auto& e : tl["traceEvents"]) {
        if (e["ph"] == "X") {
            ++slices;
            EXPECT_TRUE(e["args"].contains("flops"));
            EXPECT_TRUE(e["args"].contains("bound"));
            EXPECT_TRUE(e["args"].contains("fidelity"));
            EXPECT_TRUE(e["args"].contains("measured_us"));
        }
        if (e["name"] == "thread_name") ++tracks;
    }
    EXPECT_EQ(slices, testing::lines(ops) - 1);
    EXPECT_EQ(tracks, 2u);
}

// A real profile: torch.profiler on an A100 (AlexNet training steps), from Holistic Trace
// Analysis' test data [hta] (traces/examples/pytorch/README.md). Recorded without shapes, so
// its kernels replay their measured time; its host copies are from pageable memory, which
// the CPU stages (the host's speed): replayed too. Its memsets are simulated.
TEST(ImportCli, ARealA100ProfileImportsAndRuns) {
    testing::TempDir dir;
    const auto trace = dir.path() / "alexnet.jsonl";
    auto r = wallsim(
        "import pytorch traces/examples/pytorch/hta_alexnet_a100.json.gz -o " + trace.string(),
        dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("98 operators on 2 stream(s)"));
    EXPECT_THAT(r.out, HasSubstr("NVIDIA A100-PG509-200, 108 SMs, sm_80"));
    EXPECT_THAT(r.out, HasSubstr("--hw configs/hw/a100.yaml"));
    EXPECT_THAT(r.out, HasSubstr("16 copy from or to pageable host memory"));
    EXPECT_THAT(r.out, HasSubstr("profile with record_shapes=True"));
    const auto out = dir.path() / "run";
    r = wallsim("run --hw configs/hw/a100.yaml --no-progress --trace " + trace.string() +
                    " --out " + out.string(),
                dir);
    ASSERT_EQ(r.code, 0) << r.err;
    r = wallsim("compare " + out.string(), dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("elementwise                3"));
    EXPECT_THAT(r.out, HasSubstr("custom (replayed)         95"));
}

TEST(ImportCli, GzipTraceImportsTheSame) {
    testing::TempDir dir;
    const std::string gz = (dir.path() / "p.json.gz").string();
    ASSERT_EQ(
        std::system(
            ("gzip -c " + std::string(WALLSIM_SOURCE_DIR) + "/" + kExample + " > " + gz).c_str()),
        0);
    const auto a =
        wallsim("import pytorch " + kExample + " -o " + (dir.path() / "a.jsonl").string(), dir);
    const auto b =
        wallsim("import pytorch " + gz + " -o " + (dir.path() / "b.jsonl").string(), dir);
    ASSERT_EQ(a.code, 0) << a.err;
    ASSERT_EQ(b.code, 0) << b.err;
    // Same operators; only the header's name (the file's) differs.
    const std::string ta = slurp(dir.path() / "a.jsonl"), tb = slurp(dir.path() / "b.jsonl");
    EXPECT_EQ(ta.substr(ta.find('\n')), tb.substr(tb.find('\n')));
}

TEST(ImportCli, BadInputIsOneLineAndLeavesNoOutput) {
    testing::TempDir dir;
    const std::string out = (dir.path() / "t.jsonl").string();
    const std::string not_json =
        dir.write("bad.json", "{\"traceEvents\": [\n  {\"ph\": oops}\n]}\n");
    expect_bad_input(wallsim("import pytorch " + not_json + " -o " + out, dir), "bad.json:2:");
    const std::string no_events = dir.write("none.json", "{\"schemaVersion\": 1}\n");
    expect_bad_input(wallsim("import pytorch " + no_events + " -o " + out, dir), "traceEvents");
    expect_bad_input(
        wallsim("import pytorch " + kExample + " -o " + dir.path().string() + "/x.yaml", dir),
        ".jsonl");
    expect_bad_input(wallsim("import tensorflow x -o " + out, dir), "pytorch or chakra");
    expect_bad_input(wallsim("import pytorch absent.json -o " + out, dir), "no such file");
    ChakraProtoMsg::GlobalMetadata meta;
    ChakraProtoMsg::Node node;
    node.set_id(1);
    node.set_name("a_kernel_with_a_long_name");
    node.set_type(ChakraProtoMsg::COMP_NODE);
    const std::string et = import::encode_chakra(meta, {node});
    const std::string cut = dir.write("cut.et", et.substr(0, et.size() - 4));
    expect_bad_input(wallsim("import chakra " + cut + " -o " + out, dir), "truncated");
    EXPECT_FALSE(std::filesystem::exists(out));
    expect_bad_input(wallsim("compare " + dir.path().string(), dir), "no ops.csv");
}

TEST(ImportCli, ChakraRanksImport) {
    testing::TempDir dir;
    ChakraProtoMsg::GlobalMetadata meta;
    meta.set_version("0.0.4");
    ChakraProtoMsg::Node gemm;
    gemm.set_id(1);
    gemm.set_name("gemm");
    gemm.set_type(ChakraProtoMsg::COMP_NODE);
    auto* flops = gemm.add_attr();
    flops->set_name("num_ops");
    flops->set_int64_val(int64_t{1} << 34);
    auto* bytes = gemm.add_attr();
    bytes->set_name("tensor_size");
    bytes->set_uint64_val(uint64_t{1} << 26);
    ChakraProtoMsg::Node ar;
    ar.set_id(2);
    ar.set_name("allreduce");
    ar.set_type(ChakraProtoMsg::COMM_COLL_NODE);
    ar.add_data_deps(1);
    auto* type = ar.add_attr();
    type->set_name("comm_type");
    type->set_int64_val(ChakraProtoMsg::ALL_REDUCE);
    auto* size = ar.add_attr();
    size->set_name("comm_size");
    size->set_int64_val(int64_t{1} << 28);
    std::string files;
    for (int rank = 0; rank < 4; ++rank)
        files += " " + dir.write("r" + std::to_string(rank) + ".et",
                                 import::encode_chakra(meta, {gemm, ar}));
    const std::string out = (dir.path() / "c.jsonl").string();
    auto r = wallsim("import chakra" + files + " -o " + out, dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_THAT(slurp(out), HasSubstr("\"kind\":\"allreduce\",\"bytes\":268435456,\"group\":4"));
    r = wallsim("run --hw configs/hw/h100.yaml --fidelity analytic --no-progress --trace " + out +
                    " --out " + (dir.path() / "run").string(),
                dir);
    EXPECT_EQ(r.code, 0) << r.err;
    expect_bad_input(wallsim("import chakra" + files + " --rank 4 -o " + out, dir), "--rank");
}

}  // namespace
}  // namespace sim
