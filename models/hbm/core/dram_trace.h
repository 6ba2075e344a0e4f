// SPDX-License-Identifier: MIT
// DRAM address traces as the DRAM simulators users already run read them:
// - Ramulator 2's LoadStoreTrace: one access a line, "LD <addr>" or "ST <addr>", the address in
//   decimal or 0x-hex (ramulator2 src/ramulator/frontend/impl/memory_trace/loadstore_trace.cpp);
// - DRAMSim3's trace: "<hex addr> <op> <cycle>", op READ/WRITE (or the gem5-style P_MEM_RD,
//   P_MEM_WR, P_FETCH, BOFF ... it accepts), the cycle in memory clocks before which the access
//   may not be sent (DRAMSim3 src/common.cc, operator>> of Transaction; src/cpu.cc).
// The whole file is read up front, so that a malformed line is reported (file:line, what was
// expected) before anything is simulated. Blank lines are skipped; nothing else is.
// Pure C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sim::hbm {

enum class TraceFormat { Auto, LoadStore, DramSim3 };

/// "auto", "ramulator" (LoadStoreTrace) or "dramsim3"; throws std::invalid_argument.
TraceFormat parse_trace_format(const std::string& name);
std::string to_string(TraceFormat f);

/// One access of a trace, 16 bytes.
struct TraceAccess {
    uint64_t addr = 0;
    uint64_t cycle_and_write = 0;  ///< cycle << 1 | write
    uint64_t cycle() const { return cycle_and_write >> 1; }
    bool write() const { return cycle_and_write & 1; }
};

struct DramTrace {
    TraceFormat format = TraceFormat::LoadStore;  ///< the format read (never Auto)
    std::vector<TraceAccess> accesses;            ///< in file order
    uint64_t reads = 0, writes = 0;
};

/// Reads path in format (Auto: the first non-blank line decides: LD/ST first is Ramulator's,
/// three fields is DRAMSim3's). Throws ConfigError at file:line for a malformed line, a
/// missing or unreadable file, or an empty trace.
DramTrace read_dram_trace(const std::string& path, TraceFormat format);

/// The same from text already in memory; path only names it in errors.
DramTrace parse_dram_trace(const std::string& text, const std::string& path, TraceFormat format);

}  // namespace sim::hbm
