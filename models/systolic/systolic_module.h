// SPDX-License-Identifier: MIT
// A systolic-array accelerator (TPU-like) as a SystemC module: the MAC array, its SRAM buffers
// (unified buffer for activations, weight FIFO, accumulators) as child modules, and a memory
// port to the DRAM that holds its weights. Its process runs the array's layers; their DRAM
// traffic goes through the memory port, so an array that shares a memory with other devices
// waits behind their traffic. The fold-by-fold timing is the plain-C++ core
// (models/systolic/core) the operator model runs.
#pragma once

#include <memory>
#include <vector>

#include "models/systolic/systolic_params.h"
#include "sim/exec/device_module.h"
#include "sim/system/structure.h"
#include "sim/tlm/link_port.h"

namespace sim::systolic {

class SystolicModule final : public exec::DeviceModule {
  public:
    SystolicModule(sc_core::sc_module_name name, const SystolicParams& params);

  private:
    std::vector<std::unique_ptr<system::StructureModule>> parts_;
    std::unique_ptr<tlm_util::LinkPort> pcie_;
};

}  // namespace sim::systolic
