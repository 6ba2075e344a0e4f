// SPDX-License-Identifier: MIT
// Static description of one R x C systolic array and the memory around it: the dataflow, the
// three SRAM buffers (ifmap, filter, ofmap) with double buffering, and the DRAM behind them as
// a plain bandwidth. Follows SCALE-Sim v2's hardware model (configs .cfg) and TPU v1 (Jouppi
// et al., ISCA 2017). Pure C++: no SystemC, no YAML; validated at construction by validate().
#pragma once

#include <cstdint>
#include <string>

namespace sim::systolic {

/// Which operand stays in the PEs while the others stream (SCALE-Sim's ws/os/is).
enum class Dataflow {
    WeightStationary,  ///< ws: filter tile preloaded, ifmap streamed, psums flow down (TPU v1)
    OutputStationary,  ///< os: each PE accumulates one output, ifmap and filter both streamed
    InputStationary,   ///< is: ifmap tile preloaded, filters streamed
};
std::string to_string(Dataflow d);
/// "ws", "os" or "is"; throws std::invalid_argument otherwise.
Dataflow parse_dataflow(const std::string& s);

struct ArrayParams {
    uint32_t rows = 32;  ///< R: PE rows, >= 1
    uint32_t cols = 32;  ///< C: PE columns, >= 1
    Dataflow dataflow = Dataflow::WeightStationary;
    double clock_hz = 1e9;                   ///< array clock, Hz, > 0
    uint32_t word_bytes = 1;                 ///< bytes per operand word (1 for 8-bit MACs), >= 1
    uint64_t ifmap_sram_bytes = 64 * 1024;   ///< ifmap buffer, bytes, >= 1
    uint64_t filter_sram_bytes = 64 * 1024;  ///< filter buffer, bytes, >= 1
    uint64_t ofmap_sram_bytes = 64 * 1024;   ///< ofmap buffer, bytes, >= 1
    /// Each buffer is split in halves: the array works on one while DRAM fills the other.
    /// Then only half of each buffer holds the working set (SCALE-Sim's active_buf_frac 0.5).
    bool double_buffered = true;
    /// ws/is only: the next fold's stationary tile shifts in while the current fold computes
    /// (TPU v1's double-buffered weight registers), so only the first fold pays R cycles.
    /// SCALE-Sim does not overlap it (false).
    bool preload_overlap = false;
    /// Width of each SRAM buffer's port to the array, bytes per cycle; 0 means unlimited (as
    /// in SCALE-Sim). A fold that needs more words from a buffer than its port delivers in the
    /// fold's cycles is stretched, and the extra cycles are stalls.
    uint64_t sram_port_bytes_per_cycle = 0;
    /// DRAM bandwidth, bytes per array cycle; 0 means unlimited (SCALE-Sim's CALC mode).
    double dram_bytes_per_cycle = 0;
    /// false: ifmap and ofmap stay on chip when they fit their buffer and only weights cross
    /// DRAM (TPU v1's Unified Buffer, filled by the host); true: every operand crosses DRAM.
    bool activations_in_dram = true;
    double mac_energy_j = 0;          ///< per MAC, J
    double sram_energy_per_byte = 0;  ///< per SRAM byte read or written, J
    double dram_energy_per_byte = 0;  ///< per DRAM byte, J
    double static_power_w = 0;        ///< drawn whatever the array does, W

    /// Throws ConfigError (key = the field's name) when a field is out of range.
    void validate() const;
    /// Peak rate, ops/s: R x C MACs per cycle, a MAC is 2 ops.
    double peak_ops() const { return 2.0 * rows * cols * clock_hz; }
    /// Bytes of a buffer that hold the working set (half when double-buffered).
    uint64_t working_bytes(uint64_t sram_bytes) const {
        return double_buffered ? sram_bytes / 2 : sram_bytes;
    }
};

}  // namespace sim::systolic
