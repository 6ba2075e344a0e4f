// SPDX-License-Identifier: MIT
#include "models/hbm/core/dram_trace.h"

#include <array>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "sim/core/error.h"

namespace sim::hbm {

namespace {

constexpr size_t kMaxFields = 4;  // one more than any format has, to report extra fields

// The words DRAMSim3 reads as a write; any other word is a read there. Here only the read
// words its traces use are accepted, so that a typo is an error and not a silent read.
constexpr std::array<std::string_view, 4> kDramSim3Writes{"WRITE", "write", "P_MEM_WR", "BOFF"};
constexpr std::array<std::string_view, 5> kDramSim3Reads{"READ", "read", "P_MEM_RD", "P_FETCH",
                                                         "P_LOCK_RD"};

bool is_space(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Splits line on blanks into at most kMaxFields fields; returns how many there are (up to
// kMaxFields, which means "too many").
size_t split(std::string_view line, std::array<std::string_view, kMaxFields>& fields) {
    size_t n = 0, i = 0;
    while (i < line.size()) {
        while (i < line.size() && is_space(line[i]))
            ++i;
        if (i == line.size()) break;
        const size_t start = i;
        while (i < line.size() && !is_space(line[i]))
            ++i;
        if (n == kMaxFields) return n;
        fields[n++] = line.substr(start, i - start);
    }
    return n;
}

bool parse_number(std::string_view text, int base, uint64_t& out) {
    if (text.empty()) return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
    return ec == std::errc() && end == text.data() + text.size();
}

bool has_hex_prefix(std::string_view t) {
    return t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
}

std::string quoted(std::string_view s) {
    return "'" + std::string(s.substr(0, 40)) + (s.size() > 40 ? "...'" : "'");
}

std::string joined(const std::string_view* words, size_t n) {
    std::string out;
    for (size_t i = 0; i < n; ++i)
        out += (i ? ", " : "") + std::string(words[i]);
    return out;
}

}  // namespace

TraceFormat parse_trace_format(const std::string& name) {
    if (name == "auto") return TraceFormat::Auto;
    if (name == "ramulator") return TraceFormat::LoadStore;
    if (name == "dramsim3") return TraceFormat::DramSim3;
    throw std::invalid_argument("'" + name +
                                "' is not a trace format; expected auto, ramulator or dramsim3");
}

std::string to_string(TraceFormat f) {
    switch (f) {
        case TraceFormat::Auto: return "auto";
        case TraceFormat::LoadStore: return "ramulator";
        case TraceFormat::DramSim3: return "dramsim3";
    }
    return "?";
}

DramTrace parse_dram_trace(const std::string& text, const std::string& path, TraceFormat format) {
    DramTrace trace;
    std::array<std::string_view, kMaxFields> f;
    int line_no = 0;
    const auto fail = [&](const std::string& message) {
        throw ConfigError({path, line_no, 0}, "", message);
    };
    const std::string_view all(text);
    size_t pos = 0;
    while (pos < all.size()) {
        size_t eol = all.find('\n', pos);
        if (eol == std::string_view::npos) eol = all.size();
        const std::string_view line = all.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        const size_t n = split(line, f);
        if (n == 0) continue;
        if (format == TraceFormat::Auto)
            format =
                (f[0] == "LD" || f[0] == "ST") ? TraceFormat::LoadStore : TraceFormat::DramSim3;
        TraceAccess a;
        bool write = false;
        uint64_t cycle = 0;
        if (format == TraceFormat::LoadStore) {
            if (n != 2) {
                fail("expected 2 fields '<LD|ST> <address>' (Ramulator 2 LoadStoreTrace), got " +
                     std::to_string(n < kMaxFields ? n : kMaxFields) +
                     (n < kMaxFields ? "" : " or more"));
            }
            if (f[0] == "ST")
                write = true;
            else if (f[0] != "LD")
                fail("access type " + quoted(f[0]) + " is not LD or ST");
            const bool hex = has_hex_prefix(f[1]);
            if (!parse_number(hex ? f[1].substr(2) : f[1], hex ? 16 : 10, a.addr))
                fail("address " + quoted(f[1]) + " is not a decimal or 0x-hex 64-bit number");
        } else {
            if (n != 3) {
                fail("expected 3 fields '<hex address> <READ|WRITE> <cycle>' (DRAMSim3), got " +
                     std::to_string(n < kMaxFields ? n : kMaxFields) +
                     (n < kMaxFields ? "" : " or more"));
            }
            const std::string_view addr = has_hex_prefix(f[0]) ? f[0].substr(2) : f[0];
            if (!parse_number(addr, 16, a.addr))
                fail("address " + quoted(f[0]) + " is not a hex 64-bit number");
            bool known = false;
            for (std::string_view w : kDramSim3Writes) {
                if (f[1] == w) known = write = true;
            }
            for (std::string_view r : kDramSim3Reads) {
                if (f[1] == r) known = true;
            }
            if (!known) {
                fail("access type " + quoted(f[1]) + " is not one of " +
                     joined(kDramSim3Reads.data(), kDramSim3Reads.size()) + " (reads) or " +
                     joined(kDramSim3Writes.data(), kDramSim3Writes.size()) + " (writes)");
            }
            if (!parse_number(f[2], 10, cycle) || cycle >= (uint64_t{1} << 62))
                fail("cycle " + quoted(f[2]) + " is not a whole number below 2^62");
        }
        a.cycle_and_write = cycle << 1 | (write ? 1 : 0);
        trace.accesses.push_back(a);
        ++(write ? trace.writes : trace.reads);
    }
    if (trace.accesses.empty()) {
        line_no = 0;
        fail("the trace holds no accesses");
    }
    trace.format = format;
    return trace;
}

DramTrace read_dram_trace(const std::string& path, TraceFormat format) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError({path, 0, 0}, "", "cannot open the trace file");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw ConfigError({path, 0, 0}, "", "cannot read the trace file");
    return parse_dram_trace(text.str(), path, format);
}

}  // namespace sim::hbm
