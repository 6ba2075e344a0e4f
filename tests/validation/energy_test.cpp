// SPDX-License-Identifier: MIT
// The energy wall on the shipped presets, produced by the analytic timing, the technology's
// energy tables and the power limit: a large GEMM runs at the limit, below the datasheet's
// peak-per-TDP efficiency ([hw-chapter] A100 312/400 ≈ 0.78, H100 989/700 ≈ 1.41
// TFLOP/s per W), while an element-wise op spends most of its energy moving data and achieves a
// tiny fraction of that efficiency.
#include <gtest/gtest.h>

#include "models/analytic/core/roofline.h"
#include "models/energy/energy_params.h"
#include "sim/config/loader.h"
#include "sim/trace/op_cost.h"
#include "tests/testing/ops.h"
#include "tests/testing/temp_dir.h"

namespace sim::energy {
namespace {

struct Device {
    hw::HardwareParams hw;
    EnergyParams energy;
};

Device preset(const std::string& name, const std::vector<std::string>& overrides = {}) {
    const ConfigNode root = ConfigNode::root_of(
        load_config(testing::source_path("configs/hw/" + name + ".yaml"), overrides, "hw"));
    Device d{hw::HardwareParams::from_config(root), {}};
    d.energy = EnergyParams::from_config(root);
    return d;
}

struct Measured {
    double seconds, joules, flops, data_movement_share;
    double power() const { return joules / seconds; }
    double tflops_per_watt() const { return flops / joules / 1e12; }
};

// What the analytic model charges an op: Roofline time at the clock the power limit allows,
// dynamic energy at that clock's voltage, static power x time.
Measured run(const Device& d, const Op& op) {
    const OpCost cost = cost_of(op);
    const GovernedLoad g = govern(d.energy.governor, analytic_load(d.energy, d.hw, cost));
    EnergyBreakdown e = charge(d.energy.table, cost);
    e.compute *= g.voltage_factor;
    e.sram *= g.voltage_factor;
    e.l2 *= g.voltage_factor;
    return {g.seconds, e.dynamic() + d.energy.table.static_power * g.seconds, cost.flops,
            e.data_movement() / e.dynamic()};
}

using testing::gemm;
using testing::vector_add;

TEST(EnergyWall, LargeGemmsRunAtThePowerLimitBelowThePeakPerTdpEfficiency) {
    // The datasheet ratio peak / TDP is a bound: a GEMM at the peak would draw more than TDP,
    // so it runs at a lower clock, at the limit, with compute most of its energy.
    for (const char* name : {"a100", "h100", "h200"}) {
        const Device d = preset(name);
        const Measured m = run(d, gemm(16384, 16384, 4096, DType::FP16));
        const double bound = d.hw.peak_flops(ComputeUnit::Tensor, DType::FP16) / d.hw.tdp_watts;
        EXPECT_LT(m.tflops_per_watt() * 1e12, bound) << name;
        EXPECT_GT(m.tflops_per_watt() * 1e12, 0.5 * bound) << name;
        EXPECT_NEAR(m.power(), d.hw.tdp_watts, 0.02 * d.hw.tdp_watts) << name;
        EXPECT_LT(m.data_movement_share, 0.05) << name;
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
        EXPECT_NEAR(big.power(), d.hw.tdp_watts, 0.02 * d.hw.tdp_watts) << name;
    }
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
    EXPECT_NE(message({"energy.scale=0.5"}).find("energy.scale"), std::string::npos);
    EXPECT_NE(message({"energy.static_power=-5W"}).find("energy.static_power"), std::string::npos);
    EXPECT_NE(message({"energy.static_power.per_sm=-1W"}).find("energy.static_power.per_sm"),
              std::string::npos);
    EXPECT_NE(message({"energy.static_power=800W"}).find("reaches power.tdp"), std::string::npos);
}

}  // namespace
}  // namespace sim::energy
