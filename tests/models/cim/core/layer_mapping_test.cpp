// SPDX-License-Identifier: MIT
// Mapping, timing, programming and energy of a layer, worked by hand on a small chip.
#include "models/cim/core/layer_mapping.h"

#include <gtest/gtest.h>

#include "models/cim/core/energy_area.h"
#include "models/cim/core/op_shape.h"
#include "tests/models/cim/cim_test_config.h"

namespace sim::cim {
namespace {

using testing::small_config;

// 32 x 32 crossbars, 8-bit weights in a differential pair of 2-bit cells: 7 magnitude bits
// -> 4 slices -> 8 columns per weight -> 4 weights per crossbar.
TEST(LayerMapping, UtilisationWorkedByHand) {
    const CimConfig c = small_config();
    const LayerMapping m = map_gemm(c, {10, 40, 6});
    EXPECT_EQ(m.layout.slices, 4u);
    EXPECT_EQ(m.layout.columns_per_weight, 8u);
    EXPECT_EQ(m.layout.weights_per_crossbar, 4u);
    EXPECT_EQ(m.row_chunks, 2u);     // ceil(40 / 32)
    EXPECT_EQ(m.column_chunks, 2u);  // ceil(6 / 4)
    EXPECT_EQ(m.crossbars, 4u);
    EXPECT_EQ(m.used_cells, 40u * 6 * 8);
    EXPECT_EQ(m.allocated_cells, 4u * 32 * 32);
    EXPECT_DOUBLE_EQ(m.utilisation, 1920.0 / 4096.0);
    EXPECT_EQ(m.passes, 1u);  // the chip has exactly 4 crossbars
    EXPECT_EQ(m.replicas, 1u);
    EXPECT_EQ(m.tiles_used, 1u);

    // Offset encoding needs no second column: 4 slices of 8 bits, 8 weights per crossbar.
    CimConfig offset = c;
    offset.crossbar.sign = SignEncoding::Offset;
    const LayerMapping o = map_gemm(offset, {10, 40, 6});
    EXPECT_EQ(o.column_chunks, 1u);
    EXPECT_DOUBLE_EQ(o.utilisation, 40.0 * 6 * 4 / (2 * 1024));
}

TEST(LayerMapping, TimingWorkedByHand) {
    CimConfig c = small_config();
    c.crossbar.read_time_s = 1e-9;  // make the ADCs the bottleneck
    const GemmShape g{10, 40, 6};
    const LayerMapping m = map_gemm(c, g);
    const LayerTiming t = time_gemm(c, g, m);
    // 8 input bits through 1-bit DACs: 8 read cycles per vector. The fullest crossbar uses
    // 4 weights x 8 columns = 32 columns on 4 ADCs: 8 conversions of 1/1.28 GHz = 6.25 ns.
    EXPECT_EQ(t.cycles_per_vector, 8u);
    EXPECT_DOUBLE_EQ(t.adc_time_per_cycle_s, 8 / 1.28e9);
    EXPECT_DOUBLE_EQ(t.cycle_time_s, 6.25e-9);
    EXPECT_EQ(t.vector_rounds, 10u);
    EXPECT_DOUBLE_EQ(t.compute_time_s, 10 * 8 * 6.25e-9);
    EXPECT_STREQ(t.bound, "adc");
    // Conversions: vectors x cycles x row chunks x (N x columns per weight).
    EXPECT_DOUBLE_EQ(t.adc_conversions, 10.0 * 8 * 2 * 48);
    EXPECT_DOUBLE_EQ(t.dac_conversions, 10.0 * 8 * 40 * 2);
    EXPECT_DOUBLE_EQ(t.cell_reads, 10.0 * 8 * 1920);
    EXPECT_DOUBLE_EQ(t.ops, 2.0 * 10 * 40 * 6);

    // With a 100 ns read the crossbar sets the pace instead.
    const LayerTiming slow = time_gemm(small_config(), g, m);
    EXPECT_DOUBLE_EQ(slow.compute_time_s, 10 * 8 * 100e-9);
    EXPECT_STREQ(slow.bound, "crossbar_read");
}

TEST(LayerMapping, SmallLayersReplicateAndLargeOnesNeedPasses) {
    const CimConfig c = small_config();                  // 4 crossbars on the chip
    const LayerMapping small = map_gemm(c, {8, 32, 4});  // one crossbar
    EXPECT_EQ(small.replicas, 4u);
    EXPECT_EQ(time_gemm(c, {8, 32, 4}, small).vector_rounds, 2u);
    const LayerMapping big = map_gemm(c, {8, 64, 16});  // 2 x 4 = 8 crossbars
    EXPECT_EQ(big.passes, 2u);
    const LayerTiming t = time_gemm(c, {8, 64, 16}, big);
    EXPECT_GT(t.reprogram_time_s, 0);
    EXPECT_DOUBLE_EQ(t.reprogram_time_s, program_gemm(c, big).time_s);
    // Its energy includes the weight writes; a layer that fits pays none.
    EXPECT_DOUBLE_EQ(layer_energy(c, big, t)[Component::Programming],
                     program_gemm(c, big).energy_j);
    EXPECT_DOUBLE_EQ(
        layer_energy(c, small, time_gemm(c, {8, 32, 4}, small))[Component::Programming], 0.0);
}

TEST(LayerMapping, ConvolutionLowersToGemmByIm2col) {
    // 3x3 conv, 64 -> 128 channels, 56x56, stride 1, pad 1, batch 2.
    const GemmShape g = conv_as_gemm(2, 64, 56, 56, 128, 3, 1, 1);
    EXPECT_EQ(g.m, 2u * 56 * 56);
    EXPECT_EQ(g.k, 9u * 64);
    EXPECT_EQ(g.n, 128u);
    EXPECT_EQ(conv_as_gemm(1, 3, 224, 224, 64, 7, 2, 3).m, 112u * 112);
    EXPECT_THROW(conv_as_gemm(1, 3, 2, 2, 4, 5, 1, 0), std::invalid_argument);
}

TEST(LayerMapping, TraceGemmsAndConvsMapWhileBatchedAndGroupedOpsDoNot) {
    Op gemm;
    gemm.kind = OpKind::Gemm;
    gemm.params = GemmParams{64, 32, 128};  // m, n, k
    const GemmShape g = gemm_shape_of(gemm);
    EXPECT_EQ(g.m, 64u);
    EXPECT_EQ(g.k, 128u);
    EXPECT_EQ(g.n, 32u);
    Conv2dParams c;
    c.batch = 2;
    c.in_channels = 16;
    c.out_channels = 8;
    c.height = c.width = 10;
    c.kernel_h = 3;
    c.kernel_w = 5;
    c.padding = 1;
    Op conv;
    conv.kind = OpKind::Conv2d;
    conv.params = c;
    const GemmShape cg = gemm_shape_of(conv);
    EXPECT_EQ(cg.m, 2u * 10 * 8);  // output 10 x 8
    EXPECT_EQ(cg.k, 3u * 5 * 16);
    EXPECT_EQ(cg.n, 8u);
    Op batched = gemm;
    batched.params = GemmParams{64, 32, 128, 4};
    EXPECT_THROW(gemm_shape_of(batched), std::invalid_argument);
    c.groups = 2;
    conv.params = c;
    EXPECT_THROW(gemm_shape_of(conv), std::invalid_argument);
    Op softmax;
    softmax.kind = OpKind::Softmax;
    softmax.params = RowParams{4, 4};
    EXPECT_THROW(gemm_shape_of(softmax), std::invalid_argument);
    EXPECT_THROW(map_gemm(small_config(), {1, uint64_t{1} << 30, uint64_t{1} << 30}),
                 std::invalid_argument);
}

TEST(LayerMapping, ProgrammingCostWorkedByHand) {
    CimConfig c = small_config();
    c.programming.pulses_per_write = 10;
    c.programming.cells_per_write = 32;
    c.programming.pulse_time_s = 50e-9;
    c.programming.verify_time_s = 10e-9;
    c.programming.pulse_energy_j = 1e-12;
    c.programming.verify_energy_j = 0.5e-12;
    c.programming.endurance_cycles = 1e6;
    const LayerMapping m = map_gemm(c, {1, 40, 6});
    const ProgrammingCost p = program_gemm(c, m);
    EXPECT_DOUBLE_EQ(p.cells, 1920);
    EXPECT_DOUBLE_EQ(p.pulses, 19200);
    // The fullest crossbar has 32 rows x 32 columns = 1024 cells: 32 writes of 32 cells, each
    // 10 x (50 + 10) ns.
    EXPECT_DOUBLE_EQ(p.time_s, 32 * 10 * 60e-9);
    EXPECT_DOUBLE_EQ(p.energy_j, 19200 * 1.5e-12);
    EXPECT_DOUBLE_EQ(p.reprograms_to_wearout, 1e5);
}

TEST(LayerEnergy, ComponentsAreEventsTimesEnergyAndAddUpToTheTotal) {
    CimConfig c = small_config();
    c.energy.adc_conversion_j = 2e-12;
    c.energy.adc_reference_bits = 8;
    c.energy.dac_conversion_j = 0.3e-12;
    c.energy.sample_hold_j = 1e-15;
    c.energy.cell_read_j = 2e-15;
    c.energy.shift_add_j = 20e-15;
    c.energy.ima_buffers_w = 1e-3;
    c.energy.tile_buffer_w = 20e-3;
    c.energy.network_w = 10e-3;
    c.energy.tile_digital_w = 2e-3;
    c.energy.chip_io_w = 0.5;
    const GemmShape g{10, 40, 6};
    const LayerMapping m = map_gemm(c, g);
    const LayerTiming t = time_gemm(c, g, m);
    const Breakdown e = layer_energy(c, m, t);
    // The 7-bit ADC costs half the 8-bit reference per conversion.
    EXPECT_DOUBLE_EQ(e[Component::Adc], t.adc_conversions * 1e-12);
    EXPECT_DOUBLE_EQ(e[Component::Dac], t.dac_conversions * 0.3e-12);
    EXPECT_DOUBLE_EQ(e[Component::Cells], t.cell_reads * 2e-15);
    EXPECT_DOUBLE_EQ(e[Component::ShiftAdd], t.shift_adds * 20e-15);
    EXPECT_DOUBLE_EQ(e[Component::TileBuffer], 20e-3 * t.time_s);
    EXPECT_DOUBLE_EQ(e[Component::ChipIo], 0.5 * t.time_s);
    double sum = 0;
    for (double v : e.values)
        sum += v;
    EXPECT_DOUBLE_EQ(e.total(), sum);
    // Event energy is additive over input vectors: twice the vectors, twice the event energy.
    const GemmShape twice{20, 40, 6};
    const Breakdown e2 =
        layer_energy(c, map_gemm(c, twice), time_gemm(c, twice, map_gemm(c, twice)));
    for (Component k : {Component::Adc, Component::Dac, Component::Cells, Component::SampleHold,
                        Component::ShiftAdd}) {
        EXPECT_DOUBLE_EQ(e2[k], 2 * e[k]) << component_name(k);
    }
}

TEST(PeakFigures, AdcEnergyAndAreaDoublePerBit) {
    CimConfig c = small_config();
    c.energy.adc_conversion_j = 1e-12;
    c.area.adc_mm2 = 1e-3;
    const PeakFigures p7 = peak_figures(c);
    c.crossbar.adc_bits = 8;
    const PeakFigures p8 = peak_figures(c);
    EXPECT_DOUBLE_EQ(p8.power_w[Component::Adc], 2 * p7.power_w[Component::Adc]);
    EXPECT_DOUBLE_EQ(p8.area_mm2[Component::Adc], 2 * p7.area_mm2[Component::Adc]);
    // 4 crossbars x 32 rows x 4 weights x 2 ops per 8 cycles of 100 ns.
    EXPECT_DOUBLE_EQ(p7.ops_per_s, 4.0 * 32 * 4 * 2 / (8 * 100e-9));
}

}  // namespace
}  // namespace sim::cim
