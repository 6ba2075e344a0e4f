// SPDX-License-Identifier: MIT
// Small Kineto traces written here event by event, in the layout torch.profiler writes
// (cat, ph, pid/tid, ts/dur in microseconds, args with External id and correlation).
#include "sim/import/kineto_import.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>

#include "sim/core/error.h"
#include "sim/import/chrome_trace_reader.h"
#include "sim/trace/trace_parser.h"
#include "tests/testing/temp_dir.h"

namespace sim::import {
namespace {

using json = nlohmann::json;
using ::testing::HasSubstr;

json cpu_op(const std::string& name, int64_t ext, json dims, json types) {
    return {{"ph", "X"},
            {"cat", "cpu_op"},
            {"name", name},
            {"pid", 10},
            {"tid", 10},
            {"ts", 100.0},
            {"dur", 20.0},
            {"args", {{"External id", ext}, {"Input Dims", dims}, {"Input type", types}}}};
}

json launch(int64_t ext, int64_t corr, double ts) {
    return {{"ph", "X"},
            {"cat", "cuda_runtime"},
            {"name", "cudaLaunchKernel"},
            {"pid", 10},
            {"tid", 10},
            {"ts", ts},
            {"dur", 4.0},
            {"args", {{"External id", ext}, {"cbid", 211}, {"correlation", corr}}}};
}

json kernel(const std::string& name, int64_t stream, double ts, double dur, json args) {
    args["stream"] = stream;
    args["device"] = 0;
    return {{"ph", "X"},     {"cat", "kernel"}, {"name", name}, {"pid", 0},
            {"tid", stream}, {"ts", ts},        {"dur", dur},   {"args", args}};
}

KinetoProfile profile_of(const json& events, json extra = json::object()) {
    extra["traceEvents"] = events;
    return parse_kineto_profile(extra.dump(2), "test.json");
}

const char* const kGemm = "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_cublas";
const char* const kAdd =
    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float> >(int)";

TEST(KinetoImport, KernelTakesItsLaunchingOpsShapes) {
    json ev = json::array();
    ev.push_back(
        cpu_op("aten::mm", 7, {{256, 512}, {512, 1024}}, {"c10::BFloat16", "c10::BFloat16"}));
    ev.push_back(launch(7, 70, 101.0));
    ev.push_back(kernel(kGemm, 7, 110.0, 12.5, {{"External id", 7}, {"correlation", 70}}));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 1u);
    EXPECT_EQ(t.ops[0]["kind"], "gemm");
    EXPECT_EQ(t.ops[0]["m"], 256);
    EXPECT_EQ(t.ops[0]["n"], 1024);
    EXPECT_EQ(t.ops[0]["k"], 512);
    EXPECT_EQ(t.ops[0]["measured_us"], 12.5);
    EXPECT_TRUE(t.custom_reasons.empty());
}

TEST(KinetoImport, LinksThroughTheRuntimeCorrelationOrTheFlow) {
    json ev = json::array();
    ev.push_back(
        cpu_op("aten::add", 8, {{1000}, {1000}, json::array()}, {"float", "float", "Scalar"}));
    ev.push_back(launch(8, 80, 101.0));
    // No External id on the kernel: its correlation names the runtime call.
    ev.push_back(kernel(kAdd, 7, 110.0, 3.0, {{"correlation", 80}}));
    ev.push_back(
        cpu_op("aten::add", 9, {{2000}, {2000}, json::array()}, {"float", "float", "Scalar"}));
    ev.push_back(launch(9, 90, 120.0));
    // Neither: only the ac2g flow that binds to the kernel slice carries the correlation.
    ev.push_back(kernel(kAdd, 7, 130.0, 4.0, json::object()));
    ev.push_back({{"ph", "s"},
                  {"id", 90},
                  {"pid", 10},
                  {"tid", 10},
                  {"ts", 120.0},
                  {"cat", "ac2g"},
                  {"name", "ac2g"}});
    ev.push_back({{"ph", "f"},
                  {"id", 90},
                  {"pid", 0},
                  {"tid", 7},
                  {"ts", 130.0},
                  {"cat", "ac2g"},
                  {"name", "ac2g"},
                  {"bp", "e"}});
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 2u);
    EXPECT_EQ(t.ops[0]["elements"], 1000);
    EXPECT_EQ(t.ops[1]["elements"], 2000);
}

TEST(KinetoImport, KernelsWithoutALaunchingOpReplayTheirTime) {
    json ev = json::array();
    ev.push_back(kernel(kAdd, 7, 50.0, 2.0, {{"correlation", 3}}));  // before the window
    ev.push_back(cpu_op("my_ext::op", 5, {{10}}, {"float"}));
    ev.push_back(launch(5, 50, 101.0));
    ev.push_back(
        kernel("my_kernel(float*)", 7, 110.0, 6.0, {{"External id", 5}, {"correlation", 50}}));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 2u);
    EXPECT_EQ(t.ops[0]["kind"], "custom");
    EXPECT_EQ(t.ops[0]["duration_us"], 2.0);
    EXPECT_EQ(t.ops[1]["kind"], "custom");
    EXPECT_EQ(t.custom_reasons.at("unclassified kernel"), 1u);
    EXPECT_EQ(t.custom_reasons.size(), 2u);
}

TEST(KinetoImport, CopiesOfPageableMemoryReplayTheirTime) {
    const auto copy = [](const std::string& name, double ts, double dur) {
        return json{{"ph", "X"},    {"cat", "gpu_memcpy"},
                    {"name", name}, {"pid", 0},
                    {"tid", 7},     {"ts", ts},
                    {"dur", dur},   {"args", {{"device", 0}, {"stream", 7}, {"bytes", 1 << 20}}}};
    };
    json ev = json::array();
    ev.push_back(copy("Memcpy HtoD (Pageable -> Device)", 10.0, 240.0));
    ev.push_back(copy("Memcpy HtoD (Pinned -> Device)", 300.0, 45.0));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 2u);
    EXPECT_EQ(t.ops[0]["kind"], "custom");
    EXPECT_EQ(t.ops[0]["duration_us"], 240.0);
    EXPECT_EQ(t.ops[1]["kind"], "memcpy");
    EXPECT_EQ(t.ops[1]["direction"], "h2d");
    EXPECT_EQ(t.custom_reasons.size(), 1u);
    EXPECT_THAT(t.custom_reasons.begin()->first, HasSubstr("pageable host memory"));
}

TEST(KinetoImport, CopiesLargerThanATraceHoldsReplayTheirTime) {
    // A record of 2^60 bytes (a corrupt or fuzzed profile) must not become a memcpy the trace
    // parser refuses (at most 64 PiB): found by kineto_fuzzer.
    json ev = json::array();
    ev.push_back({{"ph", "X"},
                  {"cat", "gpu_memcpy"},
                  {"name", "Memcpy DtoD (Device -> Device)"},
                  {"pid", 0},
                  {"tid", 7},
                  {"ts", 10.0},
                  {"dur", 3.5},
                  {"args", {{"device", 0}, {"stream", 7}, {"bytes", uint64_t{1} << 60}}}});
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 1u);
    EXPECT_EQ(t.ops[0]["kind"], "custom");
    EXPECT_EQ(t.ops[0]["duration_us"], 3.5);
    EXPECT_THAT(t.custom_reasons.begin()->first,
                HasSubstr("a memcpy a trace cannot hold (bytes: must be at most 64PiB)"));
    EXPECT_NO_THROW(parse_trace_jsonl(to_jsonl(t), "imported.jsonl"));
}

TEST(KinetoImport, OperatorsTheTraceParserRefusesReplayTheirTime) {
    // A 5 x 5 filter over an unpadded 2 x 2 input: recorded shapes the trace format refuses
    // (kernel_h larger than the padded input) become a custom op replaying the kernel's time.
    json ev = json::array();
    json conv = cpu_op("aten::convolution", 1, {{1, 3, 2, 2}, {4, 3, 5, 5}, json::array()},
                       {"float", "float", ""});
    conv["args"]["Concrete Inputs"] = {"",       "",      "",       "[1, 1]", "[0, 0]",
                                       "[1, 1]", "False", "[0, 0]", "1"};
    ev.push_back(conv);
    ev.push_back(launch(1, 10, 100.0));
    ev.push_back(kernel("sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nhwckrsc_nhwc", 7, 110.0,
                        6.0, {{"External id", 1}, {"correlation", 10}}));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 1u);
    EXPECT_EQ(t.ops[0]["kind"], "custom");
    EXPECT_EQ(t.ops[0]["duration_us"], 6.0);
    EXPECT_EQ(t.ops[0]["unit"], "tensor");
    ASSERT_EQ(t.custom_reasons.size(), 1u);
    EXPECT_THAT(t.custom_reasons.begin()->first,
                HasSubstr("a conv2d a trace cannot hold (kernel_h: kernel is taller"));
    EXPECT_NO_THROW(parse_trace_jsonl(to_jsonl(t), "imported.jsonl"));
}

TEST(KinetoImport, DurationsOutsideWhatATraceHoldsAreDroppedOrRefused) {
    // Found by kineto_fuzzer: a kernel of 1e-9 us became a custom op of 0 ps, one of 1e13 us a
    // time the trace parser refuses.
    json ev = json::array();
    ev.push_back(kernel("some_kernel", 7, 10.0, 1e-9, json::object()));
    ev.push_back(kernel(kAdd, 7, 20.0, 2.0, json::object()));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 1u);
    EXPECT_EQ(t.ops[0]["measured_us"], 2.0);
    EXPECT_THAT(t.notes.at(0), HasSubstr("1 activities with zero duration (under 1 ps)"));
    EXPECT_NO_THROW(parse_trace_jsonl(to_jsonl(t), "imported.jsonl"));

    json longest = json::array();
    longest.push_back(kernel("some_kernel", 7, 10.0, 1e13, json::object()));
    EXPECT_THAT([&] { profile_of(longest); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("dur: must be at most 1e12")));
}

TEST(KinetoImport, StreamWaitEventOrdersTheStreams) {
    json ev = json::array();
    ev.push_back(
        cpu_op("aten::add", 1, {{100}, {100}, json::array()}, {"float", "float", "Scalar"}));
    ev.push_back(launch(1, 10, 100.0));
    ev.push_back(kernel(kAdd, 7, 110.0, 5.0, {{"External id", 1}, {"correlation", 10}}));
    ev.push_back(
        cpu_op("aten::add", 2, {{200}, {200}, json::array()}, {"float", "float", "Scalar"}));
    ev.push_back(launch(2, 12, 102.0));  // after the event record (correlation 11)
    ev.push_back(kernel(kAdd, 7, 116.0, 5.0, {{"External id", 2}, {"correlation", 12}}));
    // Stream 20 waits (call 13) for the event recorded (call 11) on stream 7.
    ev.push_back({{"ph", "X"},
                  {"cat", "cuda_sync"},
                  {"name", "Stream Wait Event"},
                  {"pid", 0},
                  {"tid", 20},
                  {"ts", 115.0},
                  {"dur", 0},
                  {"args",
                   {{"cuda_sync_kind", "Stream Wait Event"},
                    {"wait_on_stream", 7},
                    {"wait_on_cuda_event_record_corr_id", 11},
                    {"stream", 20},
                    {"correlation", 13},
                    {"device", 0}}}});
    const json comms = {{"Collective name", "allreduce"},
                        {"dtype", "Float"},
                        {"In msg nelems", 4096},
                        {"Out msg nelems", 4096},
                        {"Group size", 4}};
    json rpc = cpu_op("record_param_comms", 3, {{4096}}, {"float"});
    rpc["args"].update(comms);
    ev.push_back(rpc);
    ev.push_back(launch(3, 14, 103.0));
    ev.push_back(kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*)", 20, 117.0, 30.0,
                        {{"External id", 3}, {"correlation", 14}}));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 3u);
    EXPECT_EQ(t.streams, 2u);
    const TraceOp& ar = t.ops[2];
    EXPECT_EQ(ar["kind"], "allreduce");
    EXPECT_EQ(ar["bytes"], 4096 * 4);
    EXPECT_EQ(ar["group"], 4);
    EXPECT_EQ(ar["stream"], 1);
    // The all-reduce waits for the first add (launched before the record), not the second.
    ASSERT_TRUE(ar.contains("after"));
    EXPECT_EQ(ar["after"], TraceOp::array({t.ops[0]["name"]}));
    EXPECT_EQ(t.dependencies, 1u);
    // The written trace is one wallsim parses.
    const Trace parsed = parse_trace_jsonl(to_jsonl(t), "out.jsonl");
    ASSERT_EQ(parsed.ops.size(), 3u);
    EXPECT_EQ(parsed.ops[2].after, std::vector<size_t>{0});
    EXPECT_EQ(parsed.ops[2].measured_us, 30.0);
}

TEST(KinetoImport, TheLongestMatchingKernelCarriesTheOpsShapes) {
    json ev = json::array();
    ev.push_back(cpu_op("aten::native_layer_norm_backward", 4, {{64, 1024}, {64, 1024}},
                        {"float", "float"}));
    ev.push_back(launch(4, 40, 100.0));
    ev.push_back(kernel("void at::native::layer_norm_grad_input_kernel<float>(int)", 7, 110.0, 9.0,
                        {{"External id", 4}, {"correlation", 40}}));
    ev.push_back(launch(4, 41, 105.0));
    ev.push_back(kernel("void at::native::GammaBetaBackwardCUDAKernel<float>(long)", 7, 120.0, 4.0,
                        {{"External id", 4}, {"correlation", 41}}));
    const ImportedTrace t = import_kineto(profile_of(ev), {});
    ASSERT_EQ(t.ops.size(), 2u);
    EXPECT_EQ(t.ops[0]["kind"], "layernorm");
    EXPECT_EQ(t.ops[1]["kind"], "custom");
    EXPECT_EQ(t.custom_reasons.at("further kernel of one op"), 1u);
}

TEST(KinetoImport, DeviceFromDeviceProperties) {
    json ev = json::array({kernel(kAdd, 7, 1.0, 1.0, json::object())});
    const json extra = {{"deviceProperties",
                         {{{"id", 0},
                           {"name", "NVIDIA H100 80GB HBM3"},
                           {"numSms", 132},
                           {"computeMajor", 9},
                           {"computeMinor", 0}}}}};
    const ImportedTrace t = import_kineto(profile_of(ev, extra), {});
    EXPECT_THAT(t.device, HasSubstr("NVIDIA H100 80GB HBM3, 132 SMs, sm_90"));
    EXPECT_EQ(t.suggested_hw, "h100");
    EXPECT_EQ(preset_for_gpu("NVIDIA A100-SXM4-80GB"), "a100");
    EXPECT_EQ(preset_for_gpu("NVIDIA GeForce RTX 4090"), "");
}

TEST(KinetoImport, AnAbsentDeviceIsAnError) {
    json ev = json::array({kernel(kAdd, 7, 1.0, 1.0, json::object())});
    KinetoImportOptions o;
    o.device = 3;
    EXPECT_THAT([&] { import_kineto(profile_of(ev), o); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("devices present: 0")));
}

TEST(KinetoProfileErrors, NotJsonNamesTheLine) {
    EXPECT_THAT(
        [] { parse_kineto_profile("{\n  \"traceEvents\": [\n  {\"ph\": X}\n]}", "p.json"); },
        ::testing::ThrowsMessage<ConfigError>(HasSubstr("p.json:3:")));
}

TEST(KinetoProfileErrors, MissingTraceEvents) {
    EXPECT_THAT([] { parse_kineto_profile("{\"schemaVersion\": 1}", "p.json"); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("traceEvents: required key")));
    EXPECT_THAT([] { parse_kineto_profile("[1, 2]", "p.json"); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("a JSON object")));
}

TEST(KinetoProfileErrors, ABadFieldNamesItsEventsLine) {
    const std::string text =
        "{\"traceEvents\": [\n"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 1},\n"
        "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 2, \"dur\": \"long\"}\n"
        "]}";
    EXPECT_THAT(
        [&] { parse_kineto_profile(text, "p.json"); },
        ::testing::ThrowsMessage<ConfigError>(HasSubstr("p.json:3: dur: expected a number")));
}

// Found by fuzz/kineto_fuzzer: an id beyond int64_t (a float, or an unsigned integer) was
// converted anyway, undefined behaviour for the float.
TEST(KinetoProfileErrors, AnIntegerBeyond64BitsIsAnError) {
    for (const std::string id : {"1.8e126", "9223372036854775808", "-9.3e18"}) {
        const std::string text =
            "{\"traceEvents\": [\n"
            "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"ts\": 1, \"dur\": 1,\n"
            " \"args\": {\"correlation\": " +
            id + "}}\n]}";
        EXPECT_THAT([&] { parse_kineto_profile(text, "p.json"); },
                    ::testing::ThrowsMessage<ConfigError>(
                        HasSubstr("p.json:2: args.correlation: expected an integer")))
            << id;
    }
}

TEST(ChromeTraceReader, ReadsGzipAndRejectsATruncatedOne) {
    const sim::testing::TempDir dir;
    const std::string text = "{\"traceEvents\": [{\"ph\": \"i\", \"name\": \"x\"}]}";
    const std::string path = (dir.path() / "t.json.gz").string();
    gzFile f = gzopen(path.c_str(), "wb");
    gzwrite(f, text.data(), static_cast<unsigned>(text.size()));
    gzclose(f);
    EXPECT_EQ(read_maybe_gzip(path), text);
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string cut = (dir.path() / "cut.json.gz").string();
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() - 6);
    EXPECT_THAT([&] { read_maybe_gzip(cut); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("cut.json.gz")));
    EXPECT_THAT([&] { read_maybe_gzip((dir.path() / "absent.json").string()); },
                ::testing::ThrowsMessage<ConfigError>(HasSubstr("no such file")));
}

}  // namespace
}  // namespace sim::import
