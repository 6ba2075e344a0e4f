// SPDX-License-Identifier: MIT
// The datasheet-level description of an accelerator (configs/hw/README.md): SM count, clocks,
// per-SM FLOP per clock per unit and dtype, HBM stacks, caches, links, power. Peaks are derived
// from this structure rather than typed in, so a what-if (--set sm.count=144) moves them all.
// Every model of a GPU-like device reads its machine description through this struct.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "sim/config/config_node.h"
#include "sim/config/param_table.h"
#include "sim/trace/op.h"

namespace sim {
class StatGroup;
}

namespace sim::hw {

/// One unit's rate for one dtype: FLOP per SM per clock of a named clock.
struct UnitRate {
    double flops_per_clock = 0;  ///< per SM, dense; an FMA counts 2
    std::string clock;           ///< a key of HardwareParams::clocks_hz
};

/// The hbm: section's figures every model of a device shares (the analytic roof, the energy
/// tables, the cycle-level HBM model, which adds its organisation and timing).
struct HbmParams {
    std::string generation = "HBM3";  ///< HBM2, HBM2e, HBM3 or HBM3e
    uint32_t stacks = 1;              ///< active stacks, >= 1
    uint32_t bus_width_bits = 1024;   ///< data bus per stack, bits
    double pin_rate_bps = 0;          ///< data rate per pin, bit/s, > 0
    uint64_t capacity_bytes = 0;      ///< total capacity, bytes
    uint64_t row_bytes = 0;           ///< organisation.row_bytes: a DRAM row; 0 when not given

    /// Reads root.hbm; throws ConfigError naming the key of a missing or impossible value.
    static HbmParams from_config(const ConfigNode& root);
};

struct NvlinkParams {
    uint32_t generation = 0;
    uint32_t links = 0;         ///< 0: no NVLink
    double link_bandwidth = 0;  ///< per link, both directions together, B/s
    /// Share of link_bandwidth that carries data (packet headers, CRC and flow control take
    /// the rest), (0, 1]; the link modules of a system send at link_bandwidth × efficiency.
    double efficiency = 1;
};

struct PcieParams {
    uint32_t generation = 0;
    uint32_t lanes = 0;        ///< 0: no host link
    double lane_rate_bps = 0;  ///< raw per lane per direction, bit/s (128b/130b applied)
};

/// What launching an operator costs (the runtime: section, configs/hw/README.md). The host
/// enqueues work one call after another; the device starts an operator a gap after the one
/// before it on its stream has ended. A stream-launched trace makes one host call per operator;
/// a CUDA graph (a trace with `launch: graph`) makes one host call for the whole trace, and its
/// nodes follow one another with a smaller device-side gap.
struct LaunchParams {
    uint64_t stream_launch_ps = 0;   ///< host time of one launch on a stream, ps
    uint64_t stream_gap_ps = 0;      ///< device time a stream-launched operator adds, ps
    uint64_t graph_launch_ps = 0;    ///< host time of one graph launch (all its nodes), ps
    uint64_t graph_node_gap_ps = 0;  ///< device time a graph node adds, ps

    /// Host time per operator launched this way (its own call), ps.
    uint64_t host_per_op_ps(LaunchMode mode) const {
        return mode == LaunchMode::Graph ? 0 : stream_launch_ps;
    }
    /// Host time of the one call that launches the whole trace this way, ps.
    uint64_t host_once_ps(LaunchMode mode) const {
        return mode == LaunchMode::Graph ? graph_launch_ps : 0;
    }
    /// The device-side gap an operator launched this way adds to its duration, ps.
    uint64_t gap_ps(LaunchMode mode) const {
        return mode == LaunchMode::Graph ? graph_node_gap_ps : stream_gap_ps;
    }
};

struct HardwareParams {
    std::string name;                           ///< free text, e.g. "NVIDIA H100 SXM5 80GB"
    std::string device = "gpu";                 ///< device kind (registry key)
    uint32_t sm_count = 1;                      ///< streaming multiprocessors, >= 1
    std::map<std::string, uint64_t> clocks_hz;  ///< named clock domains, Hz
    std::map<DType, UnitRate> vector;           ///< CUDA-core rates per dtype
    std::map<DType, UnitRate> tensor;           ///< Tensor Core rates per dtype (dense)
    std::string tensor_clock;       ///< compute.tensor.clock: the Tensor Cores' clock; empty: none
    double sparsity_speedup = 1.0;  ///< 2:4 structured-sparsity factor, >= 1
    HbmParams hbm;
    uint64_t l2_bytes = 0;  ///< L2 cache size, bytes
    NvlinkParams nvlink;
    PcieParams pcie;
    double tdp_watts = 0;  ///< thermal design power, W; 0 if unknown
    LaunchParams launch;   ///< runtime: host launch costs and device-side gaps
    /// CTAs a collective's kernel runs at the analytic fidelity (NCCL: one per channel), each
    /// holding an SM while the collective runs: network.channels, 1..64. ASSUMPTION: 16, the
    /// order NCCL picks on NVLink systems (nccl-tests prints it as nChannels [nccl-tests]); the
    /// network model (gpu.net) uses the channels of the algorithm it runs instead.
    uint32_t collective_channels = 16;

    /// The share of the SMs a collective holds: collective_channels / sm_count, at most 1.
    double collective_sm_share() const;

    /// Reads the whole description from a hardware file's root; throws ConfigError naming the
    /// file, line and key of any missing, malformed or inconsistent value.
    static HardwareParams from_config(const ConfigNode& root);

    /// Peak FLOP/s of a unit in a dtype (dense); 0 when the unit has no such rate.
    double peak_flops(ComputeUnit unit, DType dtype) const;
    /// Peak device-memory bandwidth, B/s: stacks × bus width × pin rate / 8.
    double hbm_bandwidth() const;
    /// NVLink bandwidth per direction, B/s: links × link bandwidth / 2.
    double nvlink_bandwidth_per_direction() const;
    /// The data it carries per direction, B/s: nvlink_bandwidth_per_direction × efficiency.
    double nvlink_data_bandwidth_per_direction() const;
    /// Host-link bandwidth per direction, B/s: lanes × lane rate × 128/130 / 8.
    double pcie_bandwidth_per_direction() const;
    /// Ridge point (peak FLOP/s ÷ peak bandwidth), FLOP/B; 0 when the rate is absent.
    double ridge_point(ComputeUnit unit, DType dtype) const;

    /// Publishes the derived figures (peaks, bandwidths, ridge points) under hw.
    void publish(StatGroup& hw) const;
};

/// The described keys of a GPU file's hbm: (its figures every model shares), nvlink:, pcie:,
/// runtime: and power: sections, and of its datasheet keys elsewhere (sm.count, clocks:,
/// compute.vector and compute.tensor, l2.size, network.channels); the structs' initialisers
/// are the defaults.
ParamTable<HbmParams> hbm_param_table();
/// hbm.organisation.row_bytes, the one organisation key every model reads.
ParamTable<HbmParams> hbm_row_param_table();
ParamTable<HardwareParams> sm_count_param_table();
ParamTable<HardwareParams> clocks_param_table();
ParamTable<HardwareParams> compute_param_table(ComputeUnit unit);
ParamTable<HardwareParams> l2_size_param_table();
ParamTable<HardwareParams> gpu_network_param_table();
ParamTable<NvlinkParams> nvlink_param_table();
ParamTable<PcieParams> pcie_param_table();
ParamTable<LaunchParams> runtime_param_table();
ParamTable<HardwareParams> power_param_table();

}  // namespace sim::hw
