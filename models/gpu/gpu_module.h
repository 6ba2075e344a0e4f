// SPDX-License-Identifier: MIT
// A GPU as a SystemC module (DESIGN.md, the module tree): its SMs, each with its sub-partitions
// (a warp scheduler and a Tensor Core unit each), its L2 and crossbar, its NVLink ports and its
// PCIe port, as child modules; the GPU's one process (sim/exec/device_module.h) runs the
// kernels and collectives of its operators, several at once. Kernels share the SMs' CTA slots
// (fair shares of the slots among kernels with CTAs waiting, as the CTA dispatcher fills slots
// as they free) and the memory port, whose traffic goes through the L2's port to the HBM the
// system binds it to. Inside one kernel the SMs, caches and HBM channels are simulated by the
// plain-C++ cycle-level core (models/gpu/core), which the operator models run.
#pragma once

#include <memory>
#include <vector>

#include "models/hw/hw_params.h"
#include "sim/exec/device_module.h"
#include "sim/system/structure.h"
#include "sim/tlm/link_port.h"

namespace sim::gpu {

class GpuModule final : public exec::DeviceModule {
  public:
    GpuModule(sc_core::sc_module_name name,
              const hw::HardwareParams& hw,
              uint32_t sub_partitions,
              const exec::JobTableParams& jobs = {});

    uint32_t sm_count() const { return static_cast<uint32_t>(sms_.size()); }
    /// The link port called nvlink_<i> (i < links).
    tlm_util::LinkPort& nvlink(uint32_t i) { return *nvlinks_.at(i); }
    tlm_util::LinkPort& pcie() { return *pcie_; }

  private:
    std::vector<std::unique_ptr<system::StructureModule>> sms_;
    std::unique_ptr<system::StructureModule> l2_;
    std::vector<std::unique_ptr<tlm_util::LinkPort>> nvlinks_;
    std::unique_ptr<tlm_util::LinkPort> pcie_;
};

}  // namespace sim::gpu
