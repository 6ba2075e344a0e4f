// SPDX-License-Identifier: MIT
// The energy wall on the shipped presets, produced by the analytic timing and the energy
// tables calibrated to TDP: a large GEMM runs near the chapter's peak efficiency (A100 ≈ 0.78,
// H100 ≈ 1.41 TFLOP/s per W, FP16/BF16 dense, chapter K16-12), while an element-wise op spends
// most of its energy moving data and achieves a tiny fraction of that efficiency.
#include <gtest/gtest.h>

#include "models/analytic/core/roofline.h"
#include "models/energy/energy_params.h"
#include "sim/config/loader.h"
#include "sim/trace/op_cost.h"
#include "tests/testing/temp_dir.h"

namespace sim::energy {
namespace {

struct Device {
    hw::HardwareParams hw;
    EnergyParams energy;
};

Device preset(const std::string& name, const std::vector<std::string>& overrides = {}) {
    const ConfigNode root = ConfigNode::root_of(
        load_config(testing::source_path("configs/hw/" + name + ".yaml"), overrides));
    Device d{hw::HardwareParams::from_config(root), {}};
    d.energy = EnergyParams::from_config(root, d.hw);
    return d;
}

struct Measured {
    double seconds, joules, flops, data_movement_share;
    double power() const { return joules / seconds; }
    double tflops_per_watt() const { return flops / joules / 1e12; }
};

// What the analytic model charges an op: Roofline time, dynamic energy, static power × time.
Measured run(const Device& d, const Op& op) {
    const OpCost cost = cost_of(op);
    const auto timing = analytic::RooflineCore(d.hw).time(cost);
    const double seconds = to_seconds(timing.duration);
    const EnergyBreakdown e = charge(d.energy.table, cost);
    return {seconds, e.dynamic() + d.energy.table.static_power * seconds, cost.flops,
            e.data_movement() / e.dynamic()};
}

Op gemm(uint64_t m, uint64_t n, uint64_t k, DType dtype) {
    Op op;
    op.kind = OpKind::Gemm;
    op.dtype = dtype;
    GemmParams p;
    p.m = m;
    p.n = n;
    p.k = k;
    p.out_dtype = dtype;
    op.params = p;
    return op;
}

Op vector_add(uint64_t elements, DType dtype) {
    Op op;
    op.kind = OpKind::Elementwise;
    op.dtype = dtype;
    ElementwiseParams p;
    p.elements = elements;
    op.params = p;
    return op;
}

TEST(EnergyWall, LargeGemmsRunNearThePeakEfficiencyOfTheChapter) {
    // A different shape from the calibration's 8192³ and in FP16 rather than BF16: within 5%.
    const struct {
        const char* name;
        double tflops_per_watt;
    } expected[] = {{"a100", 0.78}, {"h100", 1.41}, {"h200", 1.41}};
    for (const auto& x : expected) {
        const Measured m = run(preset(x.name), gemm(16384, 16384, 4096, DType::FP16));
        EXPECT_NEAR(m.tflops_per_watt(), x.tflops_per_watt, 0.05 * x.tflops_per_watt) << x.name;
        EXPECT_LT(m.data_movement_share, 0.05) << x.name;
    }
}

TEST(EnergyWall, ElementwiseOpsPayForDataMovementNotArithmetic) {
    for (const char* name : {"a100", "h100", "h200"}) {
        const Device d = preset(name);
        const Measured add = run(d, vector_add(1 << 28, DType::FP32));
        const Measured big = run(d, gemm(8192, 8192, 8192, DType::BF16));
        EXPECT_GT(add.data_movement_share, 0.8) << name;
        // Far below TDP: the arithmetic units idle while HBM streams.
        EXPECT_LT(add.power(), 0.5 * d.hw.tdp_watts) << name;
        // Over a hundred times less useful work per joule than a GEMM.
        EXPECT_LT(add.tflops_per_watt() * 100, big.tflops_per_watt()) << name;
        EXPECT_NEAR(big.power(), d.hw.tdp_watts, 0.01 * d.hw.tdp_watts) << name;
    }
}

TEST(EnergyWall, CalibrationFollowsAWhatIf) {
    // Twice the SMs at the same TDP: twice the FMA rate in the same power, half the energy
    // per FMA (the scale halves, up to the unscaled HBM and static shares).
    const Device base = preset("h100");
    const Device wide = preset("h100", {"sm.count=264"});
    const double ratio = wide.energy.table.scale / base.energy.table.scale;
    EXPECT_GT(ratio, 0.45);
    EXPECT_LT(ratio, 0.51);
}

TEST(EnergyParams, StaticPowerIsChargedPerBlock) {
    const Device h100 = preset("h100");
    const StaticPower& b = h100.energy.static_by_block;
    EXPECT_DOUBLE_EQ(h100.energy.table.static_power, b.total());
    EXPECT_NEAR(b.total(), 70, 1);  // the preset's assumed idle power
    // A what-if with more SMs and stacks idles at more watts; a single figure is all "other".
    const Device big = preset("h100", {"sm.count=144", "hbm.stacks=6"});
    EXPECT_DOUBLE_EQ(big.energy.static_by_block.sms, b.sms * 144 / 132);
    EXPECT_DOUBLE_EQ(big.energy.static_by_block.hbm, b.hbm * 6 / 5);
    const Device flat = preset("h100", {"energy.static_power=55W"});
    EXPECT_DOUBLE_EQ(flat.energy.table.static_power, 55);
    EXPECT_DOUBLE_EQ(flat.energy.static_by_block.other, 55);
}

TEST(EnergyParams, BadValuesNameTheirKey) {
    const auto message = [](const std::vector<std::string>& o) {
        try {
            preset("h100", o);
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message({"energy.scale=fast"}).find("energy.scale"), std::string::npos);
    EXPECT_NE(message({"energy.scale=-1"}).find("greater than 0"), std::string::npos);
    EXPECT_NE(message({"energy.static_power=-5W"}).find("energy.static_power"), std::string::npos);
    EXPECT_NE(message({"energy.static_power.per_sm=-1W"}).find("energy.static_power.per_sm"),
              std::string::npos);
    EXPECT_NE(message({"energy.static_power=800W"}).find("no positive scale"), std::string::npos);
    EXPECT_NE(message({"energy.fma={fp99: 1pJ}"}).find("not a dtype"), std::string::npos);
    // A fixed scale is taken as given.
    EXPECT_DOUBLE_EQ(preset("h100", {"energy.scale=0.25"}).energy.table.scale, 0.25);
}

}  // namespace
}  // namespace sim::energy
