// SPDX-License-Identifier: MIT
#include "models/economics/core/training_cost.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace sim::economics {

namespace {

constexpr double kHoursPerYear = 365.25 * 24;

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument(what);
}

}  // namespace

TrainingCost training_cost(const TrainingJob& job, const GpuEconomics& gpu, const Site& site) {
    require(job.parameters > 0 && std::isfinite(job.parameters), "parameters must be positive");
    require(job.tokens > 0 && std::isfinite(job.tokens), "tokens must be positive");
    require(job.mfu > 0 && job.mfu <= 1, "MFU must be in (0, 1]");
    require(gpu.peak_flops > 0, gpu.name + ": peak FLOP/s must be positive");
    require(gpu.power >= 0 && gpu.node_power >= 0, gpu.name + ": power must not be negative");
    require(gpu.gpus_per_node >= 1, gpu.name + ": gpus_per_node must be at least 1");
    require(gpu.cloud_price_per_hour >= 0 && gpu.purchase_price >= 0,
            gpu.name + ": prices must not be negative");
    require(gpu.life_years > 0, gpu.name + ": depreciation life must be positive");
    require(site.pue >= 1, "PUE must be at least 1");
    require(site.electricity_price >= 0 && site.grid_intensity >= 0,
            "electricity price and grid intensity must not be negative");
    require(!site.node_power_basis || gpu.node_power > 0,
            gpu.name + ": node power basis needs a node power");

    TrainingCost c;
    c.flops = 6 * job.parameters * job.tokens;
    c.ideal_gpu_hours = c.flops / gpu.peak_flops / 3600;
    c.gpu_hours = c.ideal_gpu_hours / job.mfu;
    if (job.gpus > 0) c.wall_days = c.gpu_hours / static_cast<double>(job.gpus) / 24;
    c.rent_cost = c.gpu_hours * gpu.cloud_price_per_hour;
    c.rent_total = c.rent_cost;

    const double watts_per_gpu =
        site.node_power_basis ? gpu.node_power / gpu.gpus_per_node : gpu.power;
    c.it_energy_kwh = c.gpu_hours * watts_per_gpu / 1000;
    c.facility_energy_kwh = c.it_energy_kwh * site.pue;
    c.electricity_cost = c.it_energy_kwh * site.electricity_price;
    c.facility_electricity_cost = c.facility_energy_kwh * site.electricity_price;
    c.carbon_tonnes = c.facility_energy_kwh * site.grid_intensity / 1000;

    const double depreciation_per_hour = gpu.purchase_price / (gpu.life_years * kHoursPerYear);
    c.depreciation_cost = c.gpu_hours * depreciation_per_hour;
    c.own_cost = c.depreciation_cost + c.facility_electricity_cost;

    if (job.gpus > 0) {
        const double nodes = std::ceil(static_cast<double>(job.gpus) / gpu.gpus_per_node);
        const double it_watts = site.node_power_basis || gpu.node_power > 0
                                    ? nodes * gpu.node_power
                                    : static_cast<double>(job.gpus) * gpu.power;
        c.cluster_power = it_watts * site.pue;
    }
    // Owning costs depreciation every hour, used or not, plus power when used; renting costs
    // the price per used hour. Equal at u = depreciation / (price - power cost per hour).
    const double power_cost_per_hour = watts_per_gpu / 1000 * site.pue * site.electricity_price;
    const double margin = gpu.cloud_price_per_hour - power_cost_per_hour;
    c.break_even_utilisation =
        margin > 0 ? depreciation_per_hour / margin : std::numeric_limits<double>::infinity();
    return c;
}

double parse_count(const std::string& text) {
    size_t used = 0;
    double v = 0;
    try {
        v = std::stod(text, &used);
    } catch (const std::exception&) {
        throw std::invalid_argument("'" + text + "' is not a count (e.g. 70B, 10T, 7e9)");
    }
    const std::string suffix = text.substr(used);
    double scale = 1;
    if (suffix == "K" || suffix == "k")
        scale = 1e3;
    else if (suffix == "M")
        scale = 1e6;
    else if (suffix == "B" || suffix == "G")
        scale = 1e9;
    else if (suffix == "T")
        scale = 1e12;
    else if (!suffix.empty())
        throw std::invalid_argument("'" + text + "': unknown suffix '" + suffix +
                                    "'; expected K, M, B (or G) or T");
    if (!std::isfinite(v)) throw std::invalid_argument("'" + text + "' is not finite");
    return v * scale;
}

}  // namespace sim::economics
