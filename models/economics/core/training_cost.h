// SPDX-License-Identifier: MIT
// The economics of a training run (the textbook's  arithmetic): training FLOPs ≈ 6·N·D
// (forward 2, backward 4 per parameter per token), GPU-hours = 6ND / (peak × MFU) / 3600, the
// bill to rent them or to own the GPUs (purchase depreciated over its life), electricity at the
// facility's PUE, carbon from the grid's intensity, and the utilisation at which buying beats
// renting. Pure C++; inputs are validated where they are read.
#pragma once

#include <cstdint>
#include <string>

namespace sim::economics {

/// One accelerator's figures for the bill.
struct GpuEconomics {
    std::string name;
    double peak_flops = 0;            ///< dense FLOP/s in the training precision, > 0
    double power = 0;                 ///< W per GPU while training (TDP, or a simulated average)
    double node_power = 0;            ///< W of a whole node at load (GPUs, CPUs, NICs, fans)
    uint32_t gpus_per_node = 8;       ///< GPUs in one node, >= 1
    double cloud_price_per_hour = 0;  ///< $ per GPU-hour, rented
    double purchase_price = 0;        ///< $ per GPU, bought (its share of the node)
    double life_years = 3;            ///< depreciation period, > 0
};

/// Where it runs: the data centre and its grid.
struct Site {
    double pue = 1.4;                 ///< facility power / IT power, >= 1
    double electricity_price = 0.12;  ///< $ per kWh
    double grid_intensity = 0.4;      ///< kg CO2e per kWh
    bool node_power_basis = false;    ///< bill the whole node's power, not only the GPUs'
};

struct TrainingJob {
    double parameters = 0;  ///< N
    double tokens = 0;      ///< D
    double mfu = 0.4;       ///< model FLOPs utilisation, (0, 1]
    uint64_t gpus = 0;      ///< cluster size for wall-clock time and power; 0: not given
};

struct TrainingCost {
    double flops = 0;                      ///< 6·N·D
    double ideal_gpu_hours = 0;            ///< at MFU 1: the lower bound
    double gpu_hours = 0;                  ///< at the job's MFU
    double wall_days = 0;                  ///< on job.gpus GPUs (0 when not given)
    double rent_cost = 0;                  ///< gpu_hours × cloud price
    double it_energy_kwh = 0;              ///< energy the GPUs (or their nodes) draw
    double facility_energy_kwh = 0;        ///< × PUE
    double electricity_cost = 0;           ///< IT energy × price (the textbook's "power" line)
    double facility_electricity_cost = 0;  ///< facility energy × price (with cooling, PUE)
    double carbon_tonnes = 0;              ///< facility energy × grid intensity
    double depreciation_cost = 0;          ///< gpu_hours × purchase / life hours
    double own_cost = 0;       ///< depreciation + facility electricity (fully used cluster)
    double rent_total = 0;     ///< rent (the cloud price includes power and cooling)
    double cluster_power = 0;  ///< W at the facility for job.gpus (nodes × node power × PUE)
    /// Share of its life an owned GPU must be busy for owning to cost no more than renting
    /// (> 1: renting always wins at these prices).
    double break_even_utilisation = 0;
};

/// Throws std::invalid_argument naming the field of an impossible input (MFU over 1,
/// negative tokens, ...).
TrainingCost training_cost(const TrainingJob& job, const GpuEconomics& gpu, const Site& site);

/// "70B", "10T", "1.5M", "7e9", "350000": a count with an optional K, M, B (or G) or T
/// suffix (powers of 1000). Throws std::invalid_argument on anything else.
double parse_count(const std::string& text);

}  // namespace sim::economics
