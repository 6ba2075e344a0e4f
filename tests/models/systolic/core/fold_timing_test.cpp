// SPDX-License-Identifier: MIT
// The closed-form fold timing against cases worked by hand, the peak rate, folding and
// utilisation of a shape that pads the array, SRAM/DRAM counts, and memory stalls.
#include "models/systolic/core/fold_timing.h"

#include <gtest/gtest.h>

namespace sim::systolic {
namespace {

ArrayParams small(uint32_t r, uint32_t c, Dataflow df) {
    ArrayParams p;
    p.rows = r;
    p.cols = c;
    p.dataflow = df;
    p.dram_bytes_per_cycle = 0;  // unlimited: compute cycles only
    p.validate();
    return p;
}

TEST(FoldTiming, WeightStationaryOneFoldByHand) {
    // 4x4 array, C = A(5x4) B(4x4): ws maps K=4 on the rows, N=4 on the columns, streams M=5.
    //   preload: 4 weight rows shift in                         4 cycles
    //   stream: input rows t = 0..4 enter array row 0           5 cycles
    //   skew: row 3 gets its last input 3 cycles after row 0    3 cycles
    //   drain: the last partial sum crosses columns 1..3        3 cycles
    //   total 4 + 5 + 3 + 3 = 15 = 2R + C + T - 2
    const ArrayParams p = small(4, 4, Dataflow::WeightStationary);
    const LayerTiming t = time_layer(p, Layer::gemm("g", 5, 4, 4));
    EXPECT_EQ(t.folds, 1u);
    EXPECT_EQ(t.compute_cycles, 15u);
    EXPECT_EQ(t.stall_cycles, 0u);
    EXPECT_EQ(t.total_cycles, 15u);
    EXPECT_EQ(t.macs, 80u);
    EXPECT_DOUBLE_EQ(t.overall_utilisation, 80.0 / (16 * 15));  // a third: fill and drain
    EXPECT_DOUBLE_EQ(t.mapping_efficiency, 1.0);
}

TEST(FoldTiming, WeightStationaryFoldsByHand) {
    // 4x4 array, M=3, N=5, K=6: Sr = K = 6 -> 2 row folds (4 + 2 rows), Sc = N = 5 -> 2 column
    // folds (4 + 1 columns): 4 folds of 2*4 + 4 + 3 - 2 = 13 cycles = 52 cycles.
    // Mapping efficiency: used PEs 4*4 + 2*4 + 4*1 + 2*1 = 30 of 4 x 16 = 64.
    const ArrayParams p = small(4, 4, Dataflow::WeightStationary);
    const LayerTiming t = time_layer(p, Layer::gemm("g", 3, 5, 6));
    EXPECT_EQ(t.row_folds, 2u);
    EXPECT_EQ(t.col_folds, 2u);
    EXPECT_EQ(t.compute_cycles, 52u);
    EXPECT_DOUBLE_EQ(t.mapping_efficiency, 30.0 / 64.0);
    // SRAM words: every weight once (6*5); the streamed ifmap once per column fold (2 x 3*6);
    // partial sums T x used columns per fold (3*5 per row fold, 2 row folds).
    EXPECT_EQ(t.filter_sram_reads, 30u);
    EXPECT_EQ(t.ifmap_sram_reads, 36u);
    EXPECT_EQ(t.ofmap_sram_writes, 30u);
    // DRAM: everything fits the 32 KiB working halves: each operand crosses once.
    EXPECT_EQ(t.filter_dram_reads, 30u);
    EXPECT_EQ(t.ifmap_dram_reads, 18u);
    EXPECT_EQ(t.ofmap_dram_writes, 15u);
    EXPECT_EQ(t.ofmap_dram_reads, 0u);
}

TEST(FoldTiming, PreloadOverlapPaysTheFirstPreloadOnly) {
    // Same 4 folds; with the next tile shifting in during the current fold only the first
    // fold pays R = 4: 13 + 3 x (13 - 4) = 40.
    ArrayParams p = small(4, 4, Dataflow::WeightStationary);
    p.preload_overlap = true;
    EXPECT_EQ(time_layer(p, Layer::gemm("g", 3, 5, 6)).compute_cycles, 40u);
}

TEST(FoldTiming, OutputStationaryOneFoldByHand) {
    // 4x4 array, M=4, N=4, K=5: os maps M on the rows, N on the columns, streams K.
    // A(i,k) reaches PE(i,j) at cycle k + i + j; the last MAC, PE(3,3) with k = 4, happens at
    // cycle 4 + 3 + 3 = 10: 11 cycles = R + C + T - 2. No preload.
    const ArrayParams p = small(4, 4, Dataflow::OutputStationary);
    const LayerTiming t = time_layer(p, Layer::gemm("g", 4, 4, 5));
    EXPECT_EQ(t.compute_cycles, 11u);
    // Each ifmap element is read once per column fold, each filter element once per row fold.
    EXPECT_EQ(t.ifmap_sram_reads, 20u);
    EXPECT_EQ(t.filter_sram_reads, 20u);
    EXPECT_EQ(t.ofmap_sram_writes, 16u);
}

TEST(FoldTiming, InputStationaryOneFoldByHand) {
    // 4x4 array, M=4, N=3, K=4: is maps K on the rows, M on the columns, streams N = 3:
    // 2*4 + 4 + 3 - 2 = 13.
    const ArrayParams p = small(4, 4, Dataflow::InputStationary);
    const LayerTiming t = time_layer(p, Layer::gemm("g", 4, 3, 4));
    EXPECT_EQ(t.map.sr, 4u);
    EXPECT_EQ(t.map.sc, 4u);
    EXPECT_EQ(t.map.t, 3u);
    EXPECT_EQ(t.compute_cycles, 13u);
}

TEST(FoldTiming, PeakIsRowsTimesColsTimesTwoTimesClock) {
    ArrayParams p = small(256, 256, Dataflow::WeightStationary);
    p.clock_hz = 700e6;
    EXPECT_DOUBLE_EQ(p.peak_ops(), 256.0 * 256 * 2 * 700e6);  // TPU v1: 91.75 TOPS
    EXPECT_NEAR(p.peak_ops() / 1e12, 92, 0.5);
}

TEST(FoldTiming, ConvolutionIsLoweredByIm2col) {
    // SCALE-Sim's Conv2_1a: 56x56 input, 3x3x64 kernel, 64 filters, stride 1, no padding:
    // 54 x 54 = 2916 output pixels, window 576.
    Layer l;
    l.ifmap_h = l.ifmap_w = 56;
    l.filter_h = l.filter_w = 3;
    l.channels = 64;
    l.num_filters = 64;
    EXPECT_EQ(l.m(), 2916u);
    EXPECT_EQ(l.k(), 576u);
    EXPECT_EQ(l.n(), 64u);
    // ws on 32x32: 18 row folds x 2 column folds of 2*32 + 32 + 2916 - 2 cycles.
    const LayerTiming t = time_layer(small(32, 32, Dataflow::WeightStationary), l);
    EXPECT_EQ(t.folds, 36u);
    EXPECT_EQ(t.compute_cycles, 36u * (64 + 32 + 2916 - 2));
}

TEST(FoldTiming, SmallMatricesPadTheArrayBelowHalf) {
    // A 100x100 weight matrix on a 256x256 ws array uses 100*100 of 65536 PEs: 15%.
    const LayerTiming t =
        time_layer(small(256, 256, Dataflow::WeightStationary), Layer::gemm("g", 1000, 100, 100));
    EXPECT_EQ(t.folds, 1u);
    EXPECT_NEAR(t.mapping_efficiency, 10000.0 / 65536.0, 1e-12);
    EXPECT_LT(t.overall_utilisation, 0.5);
    // 257 rows need a second row fold of one row: mapping efficiency (256 + 1) / (2 x 256).
    const LayerTiming u =
        time_layer(small(256, 256, Dataflow::WeightStationary), Layer::gemm("g", 1000, 256, 257));
    EXPECT_EQ(u.folds, 2u);
    EXPECT_NEAR(u.mapping_efficiency, 257.0 / 512.0, 1e-12);
}

TEST(FoldTiming, MemoryStallAppearsWhenDramBandwidthIsCut) {
    // 32x32 ws, M=32, N=256, K=256: 64 folds of 64 + 32 + 32 - 2 = 126 cycles, each needing a
    // fresh 1 KiB weight tile. At 1 B/cycle a tile takes 1024 cycles: the array waits.
    ArrayParams p = small(32, 32, Dataflow::WeightStationary);
    const Layer l = Layer::gemm("g", 32, 256, 256);
    p.dram_bytes_per_cycle = 1;
    const LayerTiming slow = time_layer(p, l);
    EXPECT_EQ(slow.compute_cycles, 64u * 126);
    EXPECT_GT(slow.stall_cycles, 60u * (1024 - 126));
    EXPECT_TRUE(slow.memory_bound);
    // Raised to 1 MB/cycle the fetches hide behind compute; what is left is the first fold's
    // fetch and the last fold's write-back, one cycle each.
    p.dram_bytes_per_cycle = 1e6;
    const LayerTiming fast = time_layer(p, l);
    EXPECT_LE(fast.stall_cycles, 2u);
    EXPECT_FALSE(fast.memory_bound);
    // Without double buffering nothing overlaps: every fetch and write-back is exposed.
    p.dram_bytes_per_cycle = 64;
    p.double_buffered = false;
    const LayerTiming serial = time_layer(p, l);
    p.double_buffered = true;
    const LayerTiming overlapped = time_layer(p, l);
    EXPECT_GT(serial.stall_cycles, overlapped.stall_cycles);
}

TEST(FoldTiming, OperandThatDoesNotFitIsRefetchedPerFold) {
    // ws: the ifmap streams once per column fold. With 4 column folds and an ifmap larger
    // than the ifmap buffer's working half it crosses DRAM 4 times; when it fits, once.
    ArrayParams p = small(8, 8, Dataflow::WeightStationary);
    const Layer l = Layer::gemm("g", 64, 32, 8);  // ifmap 64 x 8 = 512 B, 4 column folds
    p.ifmap_sram_bytes = 2048;
    EXPECT_EQ(time_layer(p, l).ifmap_dram_reads, 512u);
    p.ifmap_sram_bytes = 512;  // working half 256 B
    EXPECT_EQ(time_layer(p, l).ifmap_dram_reads, 4u * 512);
}

TEST(FoldTiming, PartialSumsThatDoNotFitGoOutAndComeBack) {
    // ws, K = 16 on 8 rows: 2 row folds accumulate into the same T x C partial sums.
    ArrayParams p = small(8, 8, Dataflow::WeightStationary);
    const Layer l = Layer::gemm("g", 64, 8, 16);  // psums 64 x 8 = 512 B
    p.ofmap_sram_bytes = 4096;
    const LayerTiming fits = time_layer(p, l);
    EXPECT_EQ(fits.ofmap_dram_writes, 512u);
    EXPECT_EQ(fits.ofmap_dram_reads, 0u);
    p.ofmap_sram_bytes = 256;
    const LayerTiming spills = time_layer(p, l);
    EXPECT_EQ(spills.ofmap_dram_writes, 1024u);
    EXPECT_EQ(spills.ofmap_dram_reads, 512u);
}

TEST(FoldTiming, NarrowSramPortStretchesTheFold) {
    // 4x4 ws, M=5, N=4, K=4: one fold of 15 cycles that reads 5 x 4 = 20 ifmap words and 16
    // weights and writes 5 x 4 = 20 partial sums. A 1-byte port per buffer needs 20 cycles for
    // the ifmap (and the ofmap): the fold takes 20, 5 of them stalls. A 2-byte port needs 10.
    ArrayParams p = small(4, 4, Dataflow::WeightStationary);
    const Layer l = Layer::gemm("g", 5, 4, 4);
    p.sram_port_bytes_per_cycle = 1;
    const LayerTiming narrow = time_layer(p, l);
    EXPECT_EQ(narrow.compute_cycles, 15u);
    EXPECT_EQ(narrow.sram_stall_cycles, 5u);
    EXPECT_EQ(narrow.total_cycles, 20u);
    p.sram_port_bytes_per_cycle = 2;
    const LayerTiming wide = time_layer(p, l);
    EXPECT_EQ(wide.sram_stall_cycles, 0u);
    EXPECT_EQ(wide.total_cycles, 15u);
}

TEST(FoldTiming, EnergyIsChargedPerMacSramByteAndDramByte) {
    ArrayParams p = small(4, 4, Dataflow::WeightStationary);
    p.mac_energy_j = 1e-12;
    p.sram_energy_per_byte = 2e-12;
    p.dram_energy_per_byte = 100e-12;
    const LayerTiming t = time_layer(p, Layer::gemm("g", 5, 4, 4));
    EXPECT_DOUBLE_EQ(t.mac_energy, 80e-12);
    EXPECT_DOUBLE_EQ(t.dram_energy, double(t.dram_bytes) * 100e-12);
    EXPECT_GT(t.sram_energy, 0.0);
}

}  // namespace
}  // namespace sim::systolic
