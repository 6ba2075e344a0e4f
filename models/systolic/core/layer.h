// SPDX-License-Identifier: MIT
// One layer as the array sees it: a convolution (SCALE-Sim's topology row) or a GEMM, lowered
// to the operand matrices SCALE-Sim builds by im2col. ifmap matrix: M x K (one row per output
// pixel, one column per filter tap), filter matrix: K x N, ofmap matrix: M x N, with
// M = output pixels = P x Q, K = window = R x S x C, N = number of filters.
#pragma once

#include <cstdint>
#include <string>

namespace sim::systolic {

struct Layer {
    std::string name;
    uint64_t ifmap_h = 1, ifmap_w = 1;    ///< input feature map, pixels
    uint64_t filter_h = 1, filter_w = 1;  ///< kernel, pixels
    uint64_t channels = 1;                ///< input channels
    uint64_t num_filters = 1;             ///< output channels
    uint64_t stride = 1;
    uint64_t batch = 1;  ///< images (folded into M, as a batch of output pixels)

    /// A GEMM M x K by K x N the way SCALE-Sim reads "Layer,M,N,K": ifmap M x K, a 1 x K
    /// filter over one channel, N filters.
    static Layer gemm(std::string name, uint64_t m, uint64_t n, uint64_t k);

    uint64_t ofmap_h() const { return (ifmap_h - filter_h) / stride + 1; }
    uint64_t ofmap_w() const { return (ifmap_w - filter_w) / stride + 1; }
    uint64_t m() const { return batch * ofmap_h() * ofmap_w(); }   ///< output pixels
    uint64_t k() const { return filter_h * filter_w * channels; }  ///< window size
    uint64_t n() const { return num_filters; }
    uint64_t macs() const { return m() * n() * k(); }
    /// Distinct ifmap words (what DRAM holds; im2col repeats them, DRAM does not).
    uint64_t ifmap_words() const { return batch * ifmap_h * ifmap_w * channels; }
    uint64_t filter_words() const { return k() * n(); }
    uint64_t ofmap_words() const { return m() * n(); }
    /// Throws ConfigError (key = field) on a zero size or a kernel larger than the input.
    void validate() const;
};

}  // namespace sim::systolic
