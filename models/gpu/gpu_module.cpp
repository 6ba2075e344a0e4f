// SPDX-License-Identifier: MIT
#include "models/gpu/gpu_module.h"

#include <cstdio>

namespace sim::gpu {

namespace {
std::string figure(double value, const char* unit) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.4g %s", value, unit);
    return buf;
}
std::string indexed(const char* base, uint32_t i) {
    return std::string(base) + "_" + std::to_string(i);
}
}  // namespace

/// One sub-partition (SM quadrant): a warp scheduler and a Tensor Core unit.
class SubPartitionModule final : public system::StructureModule {
  public:
    explicit SubPartitionModule(sc_core::sc_module_name name)
        : system::StructureModule(name, "sub_partition"),
          scheduler_("warp_scheduler", "warp_scheduler"),
          tensor_core_("tensor_core", "tensor_core") {}

  private:
    system::StructureModule scheduler_;
    system::StructureModule tensor_core_;
};

class SmModule final : public system::StructureModule {
  public:
    SmModule(sc_core::sc_module_name name, uint32_t sub_partitions)
        : system::StructureModule(name, "sm", std::to_string(sub_partitions) + " sub-partitions") {
        for (uint32_t p = 0; p < sub_partitions; ++p)
            parts_.push_back(
                std::make_unique<SubPartitionModule>(indexed("sub_partition", p).c_str()));
    }

  private:
    std::vector<std::unique_ptr<SubPartitionModule>> parts_;
};

GpuModule::GpuModule(sc_core::sc_module_name name,
                     const hw::HardwareParams& hw,
                     uint32_t sub_partitions,
                     const exec::JobTableParams& jobs)
    : exec::DeviceModule(name, "gpu", jobs) {
    sms_.reserve(hw.sm_count);
    for (uint32_t s = 0; s < hw.sm_count; ++s)
        sms_.push_back(std::make_unique<SmModule>(indexed("sm", s).c_str(), sub_partitions));
    l2_ = std::make_unique<system::StructureModule>(
        "l2", "l2", figure(double(hw.l2_bytes) / 1e6, "MB") + ", crossbar to the memory port");
    // NVLink: link_bandwidth counts both directions together; data moves at its efficiency.
    const double nvlink = hw.nvlink.link_bandwidth / 2 * hw.nvlink.efficiency;
    for (uint32_t l = 0; l < hw.nvlink.links; ++l) {
        nvlinks_.push_back(std::make_unique<tlm_util::LinkPort>(
            indexed("nvlink", l).c_str(), "nvlink_port",
            figure(hw.nvlink.link_bandwidth / 2 / 1e9, "GB/s each way") + ", " +
                figure(nvlink / 1e9, "GB/s of data"),
            *this, nvlink));
        add_link_port(*nvlinks_.back());
    }
    const double pcie = hw.pcie_bandwidth_per_direction();
    pcie_ = std::make_unique<tlm_util::LinkPort>(
        "pcie", "pcie_port", figure(pcie / 1e9, "GB/s each way"), *this,
        pcie > 0 ? pcie
                 : 1e15);  // without a PCIe section: the peer's speed (connect takes the lower)
    add_link_port(*pcie_);
}

}  // namespace sim::gpu
