// SPDX-License-Identifier: MIT
// The HBM stacks of a system as a SystemC module: a memory target (sim/tlm/chunk_memory.h)
// serving every device bound to it at the stacks' peak bandwidth, with its stacks and their
// channels as child modules. Devices that share it queue behind each other's traffic. The
// DRAM-command timing of each channel (banks, rows, refresh) is simulated by the plain-C++
// core (models/hbm/core) inside the GPU's kernels and by `wallsim hbm`; at the chunk level this
// module sees, a stack is its bandwidth.
#pragma once

#include <memory>
#include <vector>

#include "models/hbm/hbm_params.h"
#include "sim/system/structure.h"
#include "sim/tlm/chunk_memory.h"

namespace sim::hbm {

class HbmModule final : public tlm_util::ChunkMemory {
  public:
    HbmModule(sc_core::sc_module_name name, const HbmParams& params, uint32_t queue_chunks);
    const char* kind() const override { return "hbm"; }
    const HbmParams& hbm() const { return hbm_; }

  private:
    HbmParams hbm_;
    std::vector<std::unique_ptr<system::StructureModule>> stacks_;
};

}  // namespace sim::hbm
