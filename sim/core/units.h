// SPDX-License-Identifier: MIT
// Physical quantities written with units in configs ("1830MHz", "80GB", "3.35TB/s", "2us").
// Decimal prefixes are powers of 1000, binary prefixes (KiB, MiB, GiB, TiB) powers of 1024.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace sim {

/// What a quantity measures; selects the accepted unit suffixes.
enum class Dimension {
    Size,       ///< bytes: B, KB, MB, GB, TB, KiB, MiB, GiB, TiB
    Frequency,  ///< hertz: Hz, kHz, MHz, GHz
    PinRate,    ///< bits per second per pin or lane: bps, Kbps, Mbps, Gbps
    Bandwidth,  ///< bytes per second: B/s, KB/s, MB/s, GB/s, TB/s
    Time,       ///< seconds: ps, ns, us, ms, s
    Power,      ///< watts: mW, W, kW
    Energy,     ///< joules: fJ, pJ, nJ, uJ, mJ, J
};

/// Accepted unit suffixes of a dimension, for error messages ("Hz, kHz, MHz, GHz").
std::string units_of(Dimension dim);

/// Parses "<number><unit>" (spaces allowed between) into the dimension's base unit (B, Hz,
/// bit/s, B/s, s, W). Throws std::invalid_argument with a message naming the accepted units
/// when the text has no unit, an unknown unit, is not a finite number or is negative.
double parse_quantity(std::string_view text, Dimension dim);

/// parse_quantity for sizes, which must come out as a whole number of bytes.
uint64_t parse_size_bytes(std::string_view text);

/// Parses a time into whole picoseconds (the engine's resolution); rejects sub-ps remainders.
uint64_t parse_time_ps(std::string_view text);

}  // namespace sim
