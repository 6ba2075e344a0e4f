// SPDX-License-Identifier: MIT
#include "models/systolic/core/reports.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace sim::systolic {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string g(double v) {
    return fmt("%.9g", v);
}

}  // namespace

std::string python_float(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
    // Shortest round-trip digits, as Python's repr() picks them, in d.ddde+XX form.
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    const bool negative = sci[0] == '-';
    if (negative) sci.erase(0, 1);
    const size_t e = sci.find('e');
    const int exp = std::stoi(sci.substr(e + 1));
    std::string digits;
    for (size_t i = 0; i < e; ++i)
        if (sci[i] != '.') digits += sci[i];
    std::string out;
    if (exp >= -4 && exp < 16) {
        if (exp < 0) {
            out = "0." + std::string(size_t(-exp - 1), '0') + digits;
        } else if (digits.size() <= size_t(exp) + 1) {
            out = digits + std::string(size_t(exp) + 1 - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, size_t(exp) + 1) + "." + digits.substr(size_t(exp) + 1);
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        const int mag = exp < 0 ? -exp : exp;
        out +=
            std::string("e") + (exp < 0 ? "-" : "+") + (mag < 10 ? "0" : "") + std::to_string(mag);
    }
    return negative ? "-" + out : out;
}

namespace {

// One report row as simulator.py writes it: "id, a, b, ...,".
std::string row(size_t id, const std::vector<std::string>& cells) {
    std::string s = std::to_string(id);
    for (const std::string& c : cells)
        s += ", " + c;
    return s + ",\n";
}

// Cycles are numpy floats in SCALE-Sim's traces: "12.0".
std::string cycle(int64_t c) {
    return python_float(double(c));
}

}  // namespace

std::string compute_report_csv(const std::vector<ScaleSimLayerReport>& layers) {
    std::string s =
        "LayerID, Total Cycles, Stall Cycles, Overall Util %, Mapping Efficiency %, Compute Util "
        "%,\n";
    for (size_t i = 0; i < layers.size(); ++i) {
        const ScaleSimLayerReport& l = layers[i];
        s += row(i, {std::to_string(l.total_cycles), std::to_string(l.stall_cycles),
                     python_float(l.overall_util), python_float(l.mapping_efficiency),
                     python_float(l.compute_util)});
    }
    return s;
}

std::string bandwidth_report_csv(const std::vector<ScaleSimLayerReport>& layers) {
    std::string s =
        "LayerID, Avg IFMAP SRAM BW, Avg FILTER SRAM BW, Avg OFMAP SRAM BW, Avg IFMAP DRAM BW, "
        "Avg FILTER DRAM BW, Avg OFMAP DRAM BW,\n";
    const auto dram_bw = [](const DramActivity& d) {
        // words / (stop - start + 1) in numpy float64: a zero span gives inf, as numpy does.
        return python_float(double(d.words) / (double(d.last) - double(d.first) + 1.0));
    };
    for (size_t i = 0; i < layers.size(); ++i) {
        const ScaleSimLayerReport& l = layers[i];
        const double c = double(l.total_cycles);
        s += row(i, {python_float(double(l.ifmap_sram_reads) / c),
                     python_float(double(l.filter_sram_reads) / c),
                     python_float(double(l.ofmap_sram_writes) / c), dram_bw(l.ifmap_dram),
                     dram_bw(l.filter_dram), dram_bw(l.ofmap_dram)});
    }
    return s;
}

std::string detailed_access_report_csv(const std::vector<ScaleSimLayerReport>& layers) {
    std::string s = "LayerID, ";
    for (const char* sram : {"IFMAP", "Filter", "OFMAP"}) {
        const std::string what = std::string(sram) == "OFMAP" ? "Writes" : "Reads";
        s += std::string("SRAM ") + sram + " Start Cycle, SRAM " + sram + " Stop Cycle, SRAM " +
             sram + " " + what + ", ";
    }
    for (const char* dram : {"IFMAP", "Filter", "OFMAP"}) {
        const std::string what = std::string(dram) == "OFMAP" ? "Writes" : "Reads";
        s += std::string("DRAM ") + dram + " Start Cycle, DRAM " + dram + " Stop Cycle, DRAM " +
             dram + " " + what + (std::string(dram) == "OFMAP" ? ",\n" : ", ");
    }
    for (size_t i = 0; i < layers.size(); ++i) {
        const ScaleSimLayerReport& l = layers[i];
        std::vector<std::string> cells;
        const std::pair<const SramActivity*, uint64_t> srams[] = {
            {&l.ifmap_sram, l.ifmap_sram_reads},
            {&l.filter_sram, l.filter_sram_reads},
            {&l.ofmap_sram, l.ofmap_sram_writes}};
        for (const auto& [a, words] : srams) {
            // SCALE-Sim reports 0 for a trace without any access.
            cells.push_back(a->any ? cycle(a->first) : "0");
            cells.push_back(a->any ? cycle(a->last) : "0");
            cells.push_back(std::to_string(words));
        }
        for (const DramActivity* d : {&l.ifmap_dram, &l.filter_dram, &l.ofmap_dram}) {
            cells.push_back(cycle(d->first));
            cells.push_back(cycle(d->last));
            cells.push_back(std::to_string(d->words));
        }
        s += row(i, cells);
    }
    return s;
}

std::string layers_csv(const std::vector<LayerRun>& runs, const ArrayParams& p) {
    std::string s =
        "index,name,m,n,k,sr,sc,t,row_folds,col_folds,macs,compute_cycles,stall_cycles,"
        "sram_stall_cycles,total_cycles,time_s,achieved_ops,overall_util,mapping_efficiency,"
        "compute_util,"
        "dram_bytes,ops_per_dram_byte,bound,mac_j,sram_j,dram_j,static_j,energy_j\n";
    for (size_t i = 0; i < runs.size(); ++i) {
        const Layer& l = runs[i].layer;
        const LayerTiming& t = runs[i].timing;
        const double secs = t.seconds(p.clock_hz);
        const double ops = 2.0 * double(t.macs);
        const double static_j = p.static_power_w * secs;
        s += std::to_string(i) + "," + l.name + "," + std::to_string(l.m()) + "," +
             std::to_string(l.n()) + "," + std::to_string(l.k()) + "," + std::to_string(t.map.sr) +
             "," + std::to_string(t.map.sc) + "," + std::to_string(t.map.t) + "," +
             std::to_string(t.row_folds) + "," + std::to_string(t.col_folds) + "," +
             std::to_string(t.macs) + "," + std::to_string(t.compute_cycles) + "," +
             std::to_string(t.stall_cycles) + "," + std::to_string(t.sram_stall_cycles) + "," +
             std::to_string(t.total_cycles) + "," + g(secs) + "," + g(ops / secs) + "," +
             g(t.overall_utilisation) + "," + g(t.mapping_efficiency) + "," +
             g(t.compute_utilisation) + "," + std::to_string(t.dram_bytes) + "," +
             g(t.dram_bytes > 0 ? ops / double(t.dram_bytes) : 0.0) + "," +
             (t.memory_bound ? "memory" : "compute") + "," + g(t.mac_energy) + "," +
             g(t.sram_energy) + "," + g(t.dram_energy) + "," + g(static_j) + "," +
             g(t.mac_energy + t.sram_energy + t.dram_energy + static_j) + "\n";
    }
    return s;
}

}  // namespace sim::systolic
