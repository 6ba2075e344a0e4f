// SPDX-License-Identifier: MIT
#include "models/systolic/systolic_module.h"

namespace sim::systolic {

namespace {
std::string kib(uint64_t bytes) {
    return std::to_string(bytes / 1024) + " KiB";
}
}  // namespace

SystolicModule::SystolicModule(sc_core::sc_module_name name, const SystolicParams& p)
    : exec::DeviceModule(name, "systolic") {
    const ArrayParams& a = p.array;
    parts_.push_back(std::make_unique<system::StructureModule>(
        "matrix_unit", "systolic_array",
        std::to_string(a.rows) + "×" + std::to_string(a.cols) + " MACs, " + to_string(a.dataflow)));
    parts_.push_back(
        std::make_unique<system::StructureModule>("ifmap_buffer", "sram", kib(a.ifmap_sram_bytes)));
    parts_.push_back(
        std::make_unique<system::StructureModule>("weight_fifo", "sram", kib(a.filter_sram_bytes)));
    parts_.push_back(
        std::make_unique<system::StructureModule>("accumulators", "sram", kib(a.ofmap_sram_bytes)));
}

}  // namespace sim::systolic
