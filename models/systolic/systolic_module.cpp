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
    // The host link of the tpu: section; without one, a port of the host's speed.
    const double host = p.tpu.host_bytes_per_cycle * a.clock_hz;
    pcie_ = std::make_unique<tlm_util::LinkPort>(
        "pcie", "pcie_port",
        host > 0 ? std::to_string(static_cast<int>(host / 1e9 + 0.5)) + " GB/s each way" : "",
        *this, host > 0 ? host : 1e15);
    add_link_port(*pcie_);
}

}  // namespace sim::systolic
