// SPDX-License-Identifier: MIT
// The structure of a GPU as the cycle-level model sees it: SMs with sub-partitions, warp
// scheduler policy, pipelines (lanes and latency), occupancy limits, L1, the crossbar and the
// L2 slices. The HBM stacks behind the L2 are models/hbm's own configuration. Pure C++.
#pragma once

#include <cstdint>
#include <string>

namespace sim::gpu {

enum class SchedulerPolicy {
    Gto,  ///< greedy-then-oldest: keep issuing the last warp while it can, else the oldest
    Lrr,  ///< loose round-robin: the next eligible warp after the last one issued
};
SchedulerPolicy parse_scheduler(const std::string& s);  ///< throws std::invalid_argument
std::string to_string(SchedulerPolicy p);

/// One execution pipeline of a sub-partition. A warp-instruction of 32 threads occupies it for
/// 32 / lanes cycles (its initiation interval); its result is ready latency cycles after issue.
struct Pipeline {
    uint32_t lanes = 32;
    uint32_t latency = 4;
    uint32_t interval() const { return lanes >= 32 ? 1 : 32 / lanes; }
};

struct SmConfig {
    uint32_t sub_partitions = 4;  ///< warp schedulers per SM, one issue per cycle each
    uint32_t max_warps = 64;
    uint32_t max_threads = 2048;
    uint32_t max_ctas = 32;
    uint32_t registers = 65536;           ///< 32-bit registers per SM
    uint32_t register_granule = 256;      ///< registers allocated per warp in multiples of this
    uint32_t shared_memory = 228 * 1024;  ///< bytes per SM usable by CTAs
    SchedulerPolicy scheduler = SchedulerPolicy::Gto;
    Pipeline fp32{32, 4};  ///< FFMA/FADD/FMUL lanes per sub-partition
    Pipeline integer{16, 4};
    Pipeline sfu{4, 18};
    Pipeline lsu{8, 0};       ///< address generation; latency comes from the memory system
    Pipeline shuffle{8, 24};  ///< SHFL and shared memory (MIO)
    uint32_t barrier_latency = 20;
    /// SM cycles for an access to the shared memory of another CTA of the cluster, over the
    /// SM-to-SM network of GPUs with thread-block clusters (Hopper's distributed shared
    /// memory); luo2024 measured 180 on an H800 (docs/references.md).
    uint32_t dsmem_latency = 180;
    /// SM cycles a TMA load adds to the round trip of its lines (Hopper): the TMA unit turning
    /// the tensor map into addresses and the mbarrier counting the bytes in. 0 where copies are
    /// cp.async, which take the loads' path.
    uint32_t tma_latency = 0;
    /// Bytes of a TMA load the TMA unit turns into L2 requests per SM cycle: a copy's lines
    /// leave one after another at this rate (several copies walk at once). 0: all at once.
    uint32_t tma_bytes_per_clock = 0;
};

struct L1Config {
    uint32_t bytes = 256 * 1024;  ///< data cache capacity for global loads
    uint32_t ways = 4;
    uint32_t bytes_per_clock = 128;  ///< data port
    uint32_t hit_latency = 33;
    uint32_t max_pending_lines = 256;  ///< miss status holding registers (lines in flight)
};

struct L2Config {
    uint64_t bytes = 0;  ///< l2.size of the hardware file (hw::HardwareParams); 0: unset
    uint32_t ways = 16;
    uint32_t slices = 80;
    uint32_t bytes_per_clock_per_slice = 64;
    uint32_t hit_latency = 120;      ///< tag + data after the slice accepts the request
    uint32_t crossbar_latency = 60;  ///< each way between an SM and a slice
    /// SM cycles each way between an L2 slice and the DRAM controller of its partition: the
    /// path of a miss (the memory-partition fabric and the controller's front end going in,
    /// its read-return path coming back). A pure latency: it does not limit bandwidth.
    uint32_t controller_latency = 0;
    /// Partitions the slices and SMs are split into, each SM wired to one (A100 and H100: two,
    /// each slice's lines homed in its partition's memory). >= 1, dividing slices.
    uint32_t partitions = 1;
    /// SM cycles each way between two partitions: what a miss on a line homed in the other
    /// partition pays to reach that partition's memory and to come back. Hits take none: an
    /// SM's own partition keeps a copy of the lines its SMs read (the copies' capacity is not
    /// modelled).
    uint32_t partition_latency = 0;
};

struct GpuCoreConfig {
    uint32_t sm_count = 0;  ///< sm.count of the hardware file (hw::HardwareParams); 0: unset
    uint64_t clock_hz = 0;  ///< SM, crossbar and L2 clock: clocks.boost; 0: unset
    SmConfig sm;
    L1Config l1;
    L2Config l2;
    static constexpr uint32_t kLineBytes = 128;
    static constexpr uint32_t kSectorBytes = 32;
    static constexpr uint32_t kWarpSize = 32;
    /// Bytes of one pass over the shared memory's 32 four-byte banks (Instr::shared_wavefronts).
    static constexpr uint32_t kSharedWavefrontBytes = 128;

    /// Throws std::invalid_argument naming the first impossible value.
    void validate() const;
};

}  // namespace sim::gpu
