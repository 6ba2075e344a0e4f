// SPDX-License-Identifier: MIT
// What a cycle-level GPU model measured while running one operator's kernel: occupancy, issue
// slots, traffic per memory level, warp stall reasons, and how much of it was simulated. The
// engine writes one kernels.csv row per operator that has them. Plain data.
#pragma once

#include <cstdint>
#include <string>

namespace sim {

struct KernelMetrics {
    std::string kernel;  ///< the kernel library's name for it (elementwise, softmax...)
    std::string tile;    ///< the tile the library chose (GEMMs: KernelLaunch::tile); may be empty
    uint64_t ctas = 0;
    uint32_t threads_per_cta = 0;
    uint32_t registers_per_thread = 0;
    uint32_t ctas_per_sm = 0;
    std::string occupancy_limiter;     ///< threads, warps, registers, shared_memory or ctas
    double theoretical_occupancy = 0;  ///< resident warps allowed / max warps per SM
    double achieved_occupancy = 0;     ///< time-averaged resident warps / max warps per SM
    uint64_t cycles = 0;               ///< SM cycles (extrapolated when sampled)
    double simulated_fraction = 1;     ///< CTAs simulated / CTAs in the grid
    double bound = 0;                  ///< extrapolation error bound, a fraction of the time
    double warp_instructions = 0;      ///< whole kernel (scaled when sampled)
    double issue_utilisation = 0;      ///< issue slots used / scheduler cycles
    double l1_bytes = 0, l2_bytes = 0, dram_read_bytes = 0, dram_write_bytes = 0;
    double shared_bytes = 0;  ///< LDS and STS: shared-memory bank passes x 128 bytes
    double l1_hit_rate = 0, l2_hit_rate = 0;  ///< of load sectors
    double dram_row_hit_rate = 0;
    // Shares of resident warp-cycles, Nsight-style warp states.
    double stall_memory = 0, stall_dependency = 0, stall_pipeline = 0, stall_barrier = 0;
    double not_selected = 0, issuing = 0;
    double no_eligible = 0;  ///< scheduler cycles with warps resident but none ready / all
    /// A pointer chase's mean load-to-use latency, SM cycles per timed load (0: not a chase).
    double load_to_use_cycles = 0;
    /// A cache read's bandwidth over the second half of its grid (the data set warm), bytes per
    /// second at the boost clock (0: not a cache read).
    double warm_read_bytes_per_s = 0;
};

}  // namespace sim
