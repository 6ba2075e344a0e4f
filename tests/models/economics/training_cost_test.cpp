// SPDX-License-Identifier: MIT
// Training-cost arithmetic against the textbook's worked example: 70B parameters,
// 10T tokens on H100 (989 TFLOP/s dense BF16) at MFU 40% is 4.2e24 FLOPs, ≈ 2.95 M GPU-hours,
// ≈ $5.9 M at $2 per GPU-hour, power ≈ $0.25 M (0.7 kW at $0.12/kWh), ≈ $0.35 M with PUE 1.4;
// the MFU-free bound is ≈ 1.18 M GPU-hours.
#include "models/economics/core/training_cost.h"

#include <gtest/gtest.h>

#include <cmath>

namespace sim::economics {
namespace {

GpuEconomics h100() {
    GpuEconomics g;
    g.name = "H100";
    g.peak_flops = 989.4e12;
    g.power = 700;
    g.node_power = 10200;
    g.gpus_per_node = 8;
    g.cloud_price_per_hour = 2;
    g.purchase_price = 30000;
    g.life_years = 3;
    return g;
}

TrainingJob llama70b() {
    TrainingJob j;
    j.parameters = 70e9;
    j.tokens = 10e12;
    j.mfu = 0.4;
    return j;
}

void expect_within(double actual, double expected, double tolerance) {
    EXPECT_LE(std::abs(actual - expected), tolerance * expected)
        << actual << " vs " << expected << " ± " << 100 * tolerance << "%";
}

TEST(TrainingCost, TheChaptersWorkedExample) {
    const TrainingCost c = training_cost(llama70b(), h100(), Site{});
    EXPECT_DOUBLE_EQ(c.flops, 4.2e24);
    expect_within(c.ideal_gpu_hours, 1.18e6, 0.01);
    expect_within(c.gpu_hours, 2.95e6, 0.01);
    expect_within(c.rent_cost, 5.9e6, 0.01);
    expect_within(c.electricity_cost, 0.25e6, 0.02);
    expect_within(c.facility_electricity_cost, 0.35e6, 0.02);
    // Total TCO "in the 6-7 M$ range": rent plus the facility's power overhead.
    EXPECT_GT(c.rent_cost + c.facility_electricity_cost, 6e6);
    EXPECT_LT(c.rent_cost + c.facility_electricity_cost, 7e6);
    // Carbon at the US-average 0.4 kg CO2e/kWh: facility energy × intensity.
    EXPECT_DOUBLE_EQ(c.carbon_tonnes, c.facility_energy_kwh * 0.4 / 1000);
}

TEST(TrainingCost, HigherMfuMeansProportionallyFewerGpuHours) {
    TrainingJob j = llama70b();
    const double at40 = training_cost(j, h100(), Site{}).gpu_hours;
    j.mfu = 0.8;
    EXPECT_DOUBLE_EQ(training_cost(j, h100(), Site{}).gpu_hours, at40 / 2);
}

TEST(TrainingCost, BuyingBeatsRentingAboveTheBreakEvenUtilisation) {
    const GpuEconomics g = h100();
    const Site site;
    const TrainingCost c = training_cost(llama70b(), g, site);
    // At utilisation u, owning costs depreciation/u + power per used hour; renting costs the
    // price. Check both sides of the break-even point.
    const double depreciation = g.purchase_price / (3 * 365.25 * 24);
    const double power = 0.7 * site.pue * site.electricity_price;
    const auto own_per_used_hour = [&](double u) { return depreciation / u + power; };
    const double u = c.break_even_utilisation;
    EXPECT_NEAR(own_per_used_hour(u), g.cloud_price_per_hour, 1e-9);
    EXPECT_GT(own_per_used_hour(0.9 * u), g.cloud_price_per_hour);
    EXPECT_LT(own_per_used_hour(std::min(1.0, 1.1 * u)), g.cloud_price_per_hour);
    // Renting below the cost of power never breaks even.
    GpuEconomics cheap = g;
    cheap.cloud_price_per_hour = 0.05;
    EXPECT_TRUE(std::isinf(training_cost(llama70b(), cheap, site).break_even_utilisation));
}

TEST(TrainingCost, ClusterPowerCountsWholeNodesAndPue) {
    TrainingJob j = llama70b();
    j.gpus = 2048;  // the textbook's 70B cluster
    const TrainingCost c = training_cost(j, h100(), Site{});
    EXPECT_DOUBLE_EQ(c.cluster_power, 256 * 10200 * 1.4);
    expect_within(c.wall_days, 60, 0.01);
    j.gpus = 9;  // a partial node still needs the whole node
    EXPECT_DOUBLE_EQ(training_cost(j, h100(), Site{}).cluster_power, 2 * 10200 * 1.4);
    // Billing the node's power instead of the GPUs' raises the electricity bill.
    Site node;
    node.node_power_basis = true;
    EXPECT_GT(training_cost(j, h100(), node).electricity_cost,
              training_cost(j, h100(), Site{}).electricity_cost);
}

TEST(TrainingCost, ImpossibleInputsAreRejected) {
    const auto rejects = [](TrainingJob j, GpuEconomics g, Site s) {
        EXPECT_THROW(training_cost(j, g, s), std::invalid_argument);
    };
    TrainingJob j = llama70b();
    j.tokens = -1;
    rejects(j, h100(), Site{});
    j = llama70b();
    j.mfu = 1.2;
    rejects(j, h100(), Site{});
    j.mfu = 0;
    rejects(j, h100(), Site{});
    Site s;
    s.pue = 0.9;
    rejects(llama70b(), h100(), s);
    GpuEconomics g = h100();
    g.life_years = 0;
    rejects(llama70b(), g, Site{});
}

TEST(ParseCount, SuffixesArePowersOfAThousand) {
    EXPECT_DOUBLE_EQ(parse_count("70B"), 70e9);
    EXPECT_DOUBLE_EQ(parse_count("10T"), 10e12);
    EXPECT_DOUBLE_EQ(parse_count("1.5M"), 1.5e6);
    EXPECT_DOUBLE_EQ(parse_count("7e9"), 7e9);
    EXPECT_DOUBLE_EQ(parse_count("350K"), 350e3);
    EXPECT_DOUBLE_EQ(parse_count("0.4"), 0.4);
    EXPECT_THROW(parse_count("70X"), std::invalid_argument);
    EXPECT_THROW(parse_count("lots"), std::invalid_argument);
    EXPECT_THROW(parse_count(""), std::invalid_argument);
}

}  // namespace
}  // namespace sim::economics
