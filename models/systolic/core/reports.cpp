// SPDX-License-Identifier: MIT
#include "models/systolic/core/reports.h"

#include <cstdio>

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

std::string compute_report_csv(const std::vector<LayerRun>& runs) {
    std::string s =
        "LayerID, Total Cycles, Stall Cycles, Overall Util %, Mapping Efficiency %, Compute Util "
        "%,\n";
    for (size_t i = 0; i < runs.size(); ++i) {
        const LayerTiming& t = runs[i].timing;
        s += std::to_string(i) + ", " + std::to_string(t.total_cycles) + ", " +
             std::to_string(t.stall_cycles) + ", " + g(100 * t.overall_utilisation) + ", " +
             g(100 * t.mapping_efficiency) + ", " + g(100 * t.compute_utilisation) + ",\n";
    }
    return s;
}

std::string bandwidth_report_csv(const std::vector<LayerRun>& runs) {
    std::string s =
        "LayerID, Avg IFMAP SRAM BW, Avg FILTER SRAM BW, Avg OFMAP SRAM BW, Avg IFMAP DRAM BW, "
        "Avg FILTER DRAM BW, Avg OFMAP DRAM BW,\n";
    for (size_t i = 0; i < runs.size(); ++i) {
        const LayerTiming& t = runs[i].timing;
        const double c = double(t.total_cycles);
        s += std::to_string(i);
        for (uint64_t words :
             {t.ifmap_sram_reads, t.filter_sram_reads, t.ofmap_sram_writes, t.ifmap_dram_reads,
              t.filter_dram_reads, t.ofmap_dram_writes + t.ofmap_dram_reads}) {
            s += ", " + g(double(words) / c);
        }
        s += ",\n";
    }
    return s;
}

std::string detailed_access_report_csv(const std::vector<LayerRun>& runs) {
    std::string s =
        "LayerID, SRAM IFMAP Reads, SRAM Filter Reads, SRAM OFMAP Writes, DRAM IFMAP Reads, "
        "DRAM Filter Reads, DRAM OFMAP Reads, DRAM OFMAP Writes,\n";
    for (size_t i = 0; i < runs.size(); ++i) {
        const LayerTiming& t = runs[i].timing;
        s += std::to_string(i);
        for (uint64_t words :
             {t.ifmap_sram_reads, t.filter_sram_reads, t.ofmap_sram_writes, t.ifmap_dram_reads,
              t.filter_dram_reads, t.ofmap_dram_reads, t.ofmap_dram_writes}) {
            s += ", " + std::to_string(words);
        }
        s += ",\n";
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
