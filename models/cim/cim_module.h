// SPDX-License-Identifier: MIT
// A ReRAM compute-in-memory chip as a SystemC module: its tiles, each with its IMAs (the
// in-situ multiply-accumulate units holding the crossbars), as child modules, and a memory
// port through which it streams the weights it programs into its crossbars. Its process runs
// the chip's layers; weight streaming through a memory it shares with a GPU takes bandwidth
// from the GPU. The crossbar, DAC/ADC and tile timing is the plain-C++ core (models/cim/core).
#pragma once

#include <memory>
#include <vector>

#include "models/cim/core/cim_config.h"
#include "sim/exec/device_module.h"
#include "sim/system/structure.h"

namespace sim::cim {

class CimModule final : public exec::DeviceModule {
  public:
    CimModule(sc_core::sc_module_name name, const CimConfig& config);

  private:
    std::vector<std::unique_ptr<system::StructureModule>> tiles_;
};

}  // namespace sim::cim
