// SPDX-License-Identifier: MIT
#include "sim/import/op_shapes.h"

#include <gtest/gtest.h>

namespace sim::import {
namespace {

using json = nlohmann::json;

TraceOp describe(const std::string& op, const json& args, Work w, const std::string& kernel = "") {
    auto r = describe_from_op(CpuOp{op, args}, w, kernel);
    if (auto* reason = std::get_if<std::string>(&r)) ADD_FAILURE() << op << ": " << *reason;
    return std::get<TraceOp>(r);
}

std::string reason(const std::string& op, const json& args, Work w) {
    auto r = describe_from_op(CpuOp{op, args}, w, "");
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

TEST(OpShapes, AddmmTakesMat1AndMat2AndTheirLayouts) {
    const json args = {
        {"Input Dims", {{12288}, {2048, 4096}, {4096, 12288}, json::array(), json::array()}},
        {"Input type", {"c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"}},
        {"Input Strides", {{1}, {4096, 1}, {1, 4096}, json::array(), json::array()}}};
    const TraceOp t = describe("aten::addmm", args, Work::Gemm);
    EXPECT_EQ(t["kind"], "gemm");
    EXPECT_EQ(t["m"], 2048);
    EXPECT_EQ(t["n"], 12288);
    EXPECT_EQ(t["k"], 4096);
    EXPECT_EQ(t["layout"], "nt");  // mat2 is column-major: a transposed weight
    EXPECT_EQ(t["dtype"], "bf16");
}

TEST(OpShapes, BmmBatchAndTf32FromTheKernel) {
    const json args = {{"Input Dims", {{8, 128, 64}, {8, 64, 256}}},
                       {"Input type", {"float", "float"}}};
    const TraceOp t = describe("aten::bmm", args, Work::Gemm, "ampere_tf32_s1688gemm_tf32_128x128");
    EXPECT_EQ(t["batch"], 8);
    EXPECT_EQ(t["m"], 128);
    EXPECT_EQ(t["n"], 256);
    EXPECT_EQ(t["k"], 64);
    EXPECT_EQ(t["dtype"], "tf32");
}

TEST(OpShapes, MismatchedGemmIsRefused) {
    const json args = {{"Input Dims", {{16, 32}, {33, 8}}}, {"Input type", {"float", "float"}}};
    EXPECT_EQ(reason("aten::mm", args, Work::Gemm), "K does not match");
}

TEST(OpShapes, AttentionLayoutsAndCausality) {
    // _scaled_dot_product_flash_attention: [batch, heads, seq, dim], is_causal at 4.
    json sdpa = {{"Input Dims", {{2, 16, 1024, 64}, {2, 16, 512, 64}, {2, 16, 512, 64}}},
                 {"Input type", {"c10::Half", "c10::Half", "c10::Half"}},
                 {"Concrete Inputs", {"", "", "", "0.", "True"}}};
    TraceOp t = describe("aten::_scaled_dot_product_flash_attention", sdpa, Work::AttentionForward);
    EXPECT_EQ(t["batch"], 2);
    EXPECT_EQ(t["heads"], 16);
    EXPECT_EQ(t["seq"], 1024);
    EXPECT_EQ(t["kv_seq"], 512);
    EXPECT_EQ(t["head_dim"], 64);
    EXPECT_EQ(t["causal"], true);
    EXPECT_EQ(t["dtype"], "fp16");
    // _flash_attention_forward: [batch, seq, heads, dim], is_causal at 8.
    json fa = {{"Input Dims", {{2, 1024, 16, 64}, {2, 1024, 16, 64}}},
               {"Input type", {"c10::BFloat16", "c10::BFloat16"}},
               {"Concrete Inputs", {"", "", "", "", "", "", "", "0.", "False"}}};
    t = describe("aten::_flash_attention_forward", fa, Work::AttentionForward);
    EXPECT_EQ(t["heads"], 16);
    EXPECT_EQ(t["seq"], 1024);
    EXPECT_FALSE(t.contains("causal"));
    EXPECT_FALSE(t.contains("kv_seq"));
}

TEST(OpShapes, ElementwiseBroadcastsAndCountsFullSizeInputs) {
    const json args = {{"Input Dims", {{4, 1024, 768}, {768}, json::array()}},
                       {"Input type", {"float", "float", "Scalar"}}};
    const TraceOp t = describe("aten::add", args, Work::Elementwise);
    EXPECT_EQ(t["elements"], 4 * 1024 * 768);
    EXPECT_EQ(t["inputs"], 1);  // the bias is broadcast, read once from cache
    EXPECT_EQ(t["dtype"], "fp32");
}

TEST(OpShapes, ReductionOutputsFromTheReducedDims) {
    const json args = {{"Input Dims", {{64, 1000}, json::array(), json::array(), json::array()}},
                       {"Input type", {"float", "", "Scalar", ""}},
                       {"Concrete Inputs", {"", "[-1]", "False", ""}}};
    const TraceOp t = describe("aten::sum", args, Work::Reduction);
    EXPECT_EQ(t["elements"], 64000);
    EXPECT_EQ(t["outputs"], 64);
}

TEST(OpShapes, SoftmaxAndLayerNormRows) {
    json sm = {{"Input Dims", {{8, 128, 50257}, json::array(), json::array()}},
               {"Input type", {"c10::Half", "Scalar", "Scalar"}},
               {"Concrete Inputs", {"", "-1", "False"}}};
    TraceOp t = describe("aten::_softmax", sm, Work::Softmax);
    EXPECT_EQ(t["rows"], 1024);
    EXPECT_EQ(t["cols"], 50257);
    json ln = {{"Input Dims", {{8, 128, 768}, json::array(), {768}, {768}, json::array()}},
               {"Input type", {"float", "", "float", "float", "Scalar"}}};
    t = describe("aten::native_layer_norm", ln, Work::LayerNorm);
    EXPECT_EQ(t["kind"], "layernorm");
    EXPECT_EQ(t["rows"], 1024);
    EXPECT_EQ(t["cols"], 768);
}

TEST(OpShapes, CopyConvertingDtypesMovesBothSizes) {
    const json args = {{"Input Dims", {{1000}, {1000}, json::array()}},
                       {"Input type", {"float", "c10::BFloat16", "Scalar"}}};
    const TraceOp t = describe("aten::copy_", args, Work::Copy);
    EXPECT_EQ(t["kind"], "memcpy");
    EXPECT_EQ(t["bytes"], 1000 * (4 + 2) / 2);  // memcpy d2d reads and writes `bytes`
}

TEST(OpShapes, ConcatSizeFromTheKernelTemplate) {
    const json args = {{"Input Dims", {{{10, 4}, {20, 4}}, json::array()}},
                       {"Input type", {"TensorList", "Scalar"}}};
    auto r = describe_from_op(CpuOp{"aten::cat", args}, Work::Concat,
                              "void at::native::(anonymous namespace)::CatArrayBatchedCopy<"
                              "at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int>");
    ASSERT_TRUE(std::holds_alternative<TraceOp>(r));
    EXPECT_EQ(std::get<TraceOp>(r)["bytes"], (40 + 80) * 2);
}

TEST(OpShapes, NoShapesAndUnmodelledDtypes) {
    EXPECT_NE(reason("aten::mm", json::object(), Work::Gemm).find("record_shapes"),
              std::string::npos);
    const json ints = {{"Input Dims", {{10}, {10}}}, {"Input type", {"long int", "long int"}}};
    EXPECT_NE(reason("aten::add", ints, Work::Elementwise).find("not modelled"), std::string::npos);
}

TEST(OpShapes, CollectiveBytesAreThePerDeviceBuffer) {
    const json ar = {{"Collective name", "allreduce"},
                     {"dtype", "BFloat16"},
                     {"In msg nelems", 1000},
                     {"Out msg nelems", 1000},
                     {"Group size", 8}};
    auto r = describe_collective(ar, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 0);
    ASSERT_TRUE(std::holds_alternative<TraceOp>(r));
    EXPECT_EQ(std::get<TraceOp>(r)["kind"], "allreduce");
    EXPECT_EQ(std::get<TraceOp>(r)["bytes"], 2000);
    EXPECT_EQ(std::get<TraceOp>(r)["group"], 8);
    // all_gather_into_tensor: each rank sends its 1000 elements; the buffer is the output.
    const json ag = {{"Collective name", "_allgather_base"},
                     {"dtype", "Float"},
                     {"In msg nelems", 1000},
                     {"Out msg nelems", 4000}};
    r = describe_collective(ag, "ncclDevKernel_AllGather_RING_LL", 4);
    ASSERT_TRUE(std::holds_alternative<TraceOp>(r));
    EXPECT_EQ(std::get<TraceOp>(r)["bytes"], 16000);
    EXPECT_EQ(std::get<TraceOp>(r)["group"], 4);  // from distributedInfo's world size
    EXPECT_TRUE(std::holds_alternative<std::string>(
        describe_collective(json{{"Collective name", "broadcast"}}, "ncclKernel_Broadcast", 8)));
}

TEST(OpShapes, Dtypes) {
    EXPECT_EQ(dtype_of("c10::BFloat16"), "bf16");
    EXPECT_EQ(dtype_of("c10::Half"), "fp16");
    EXPECT_EQ(dtype_of("float"), "fp32");
    EXPECT_EQ(dtype_of("double"), "fp64");
    EXPECT_EQ(dtype_of("c10::Float8_e4m3fn"), "fp8");
    EXPECT_EQ(dtype_of("BFloat16"), "bf16");
    EXPECT_EQ(dtype_of("long int"), "");
}

}  // namespace
}  // namespace sim::import
