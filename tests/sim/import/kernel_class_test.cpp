// SPDX-License-Identifier: MIT
#include "sim/import/kernel_class.h"

#include <gtest/gtest.h>

namespace sim::import {
namespace {

TEST(KernelClass, LibraryKernelNames) {
    EXPECT_EQ(classify_kernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x256x64_"
                              "warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas"),
              Work::Gemm);
    EXPECT_EQ(classify_kernel("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_32x5_tn"),
              Work::Gemm);
    EXPECT_EQ(classify_kernel("nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTT"), Work::Gemm);
    EXPECT_EQ(classify_kernel("void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_"
                              "bf16_64x64_32x6_tn_align8>(Params)"),
              Work::Gemm);
    EXPECT_EQ(classify_kernel("void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, "
                              "128, 64, 4> >(pytorch_flash::Flash_fwd_params)"),
              Work::AttentionForward);
    EXPECT_EQ(classify_kernel("fmha_cutlassB_bf16_aligned_64x64_k128_sm80(PyTorchMemEffAttention"
                              "::AttentionBackwardKernel<...>::Params)"),
              Work::AttentionBackward);
    EXPECT_EQ(classify_kernel("void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<"
                              "Flash_bwd_kernel_traits<128> >(pytorch_flash::Flash_bwd_params)"),
              Work::AttentionBackward);
    EXPECT_EQ(classify_kernel("void at::native::vectorized_elementwise_kernel<4, "
                              "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >"
                              "(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, "
                              "3>)"),
              Work::Elementwise);
    EXPECT_EQ(classify_kernel("void at::native::unrolled_elementwise_kernel<at::native::"
                              "direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}>"
                              "(int)"),
              Work::Copy);
    EXPECT_EQ(classify_kernel("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float>"
                              " >(at::native::ReduceOp<float>)"),
              Work::Reduction);
    EXPECT_EQ(classify_kernel("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, "
                              "float, float, float>(float*, float const*, int)"),
              Work::Softmax);
    EXPECT_EQ(classify_kernel("void at::native::(anonymous namespace)::vectorized_layer_norm_"
                              "kernel<float, float>(int, float, float const*)"),
              Work::LayerNorm);
    EXPECT_EQ(classify_kernel("triton_red_fused__to_copy_add_mean_mul_pow_rsqrt_0"),
              Work::Reduction);
    EXPECT_EQ(classify_kernel("triton_poi_fused_add_mul_silu_1"), Work::Elementwise);
    EXPECT_EQ(classify_kernel("void at::native::(anonymous namespace)::CatArrayBatchedCopy<"
                              "at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 2,"
                              " 128, 1>(...)"),
              Work::Concat);
    EXPECT_EQ(classify_kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned "
                              "long, ncclWork*)"),
              Work::Collective);
    EXPECT_EQ(classify_kernel("my_fancy_kernel(float*)"), Work::Unknown);
}

TEST(KernelClass, OpNames) {
    EXPECT_EQ(classify_op("aten::addmm"), Work::Gemm);
    EXPECT_EQ(classify_op("aten::bmm"), Work::Gemm);
    EXPECT_EQ(classify_op("aten::_scaled_dot_product_flash_attention"), Work::AttentionForward);
    EXPECT_EQ(classify_op("aten::_flash_attention_backward"), Work::AttentionBackward);
    EXPECT_EQ(classify_op("aten::native_layer_norm_backward"), Work::LayerNorm);
    EXPECT_EQ(classify_op("aten::_log_softmax"), Work::Softmax);
    EXPECT_EQ(classify_op("record_param_comms"), Work::Collective);
    // Element-wise ops are not listed: their kernels' names decide.
    EXPECT_EQ(classify_op("aten::add"), std::nullopt);
    EXPECT_EQ(classify_op("MyModule.forward"), std::nullopt);
}

TEST(KernelClass, CollectiveKinds) {
    EXPECT_EQ(collective_kind("ncclDevKernel_AllGather_RING_LL(ncclDevComm*)"), "allgather");
    EXPECT_EQ(collective_kind("ncclKernel_ReduceScatter_RING_LL_Sum_float"), "reducescatter");
    EXPECT_EQ(collective_kind("all_gather_into_tensor"), "allgather");
    EXPECT_EQ(collective_kind("all_to_allv"), "alltoall");
    EXPECT_EQ(collective_kind("ncclDevKernel_SendRecv(ncclDevComm*)"), "sendrecv");
    EXPECT_EQ(collective_kind("broadcast"), "");
}

TEST(KernelClass, ShortNames) {
    EXPECT_EQ(short_kernel_name("void at::native::vectorized_elementwise_kernel<4, "
                                "at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >"
                                "(int, at::native::CUDAFunctor_add<float>)"),
              "vectorized_elementwise_kernel");
    EXPECT_EQ(short_kernel_name("void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, "
                                "float>(float*, float const*, int)"),
              "cunn_SoftMaxForward");
    EXPECT_EQ(short_kernel_name("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*)"),
              "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
    EXPECT_LE(short_kernel_name(std::string(100, 'a')).size(), 64u);
}

}  // namespace
}  // namespace sim::import
