// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_module.h"

namespace sim::hbm {

namespace {

class StackModule final : public system::StructureModule {
  public:
    StackModule(sc_core::sc_module_name name, const HbmCoreConfig& c)
        : system::StructureModule(name,
                                  "hbm_stack",
                                  std::to_string(c.channels_per_stack) + " channels × " +
                                      std::to_string(c.pseudo_channels_per_channel) +
                                      " pseudo-channels") {
        for (uint32_t ch = 0; ch < c.channels_per_stack; ++ch) {
            channels_.push_back(std::make_unique<system::StructureModule>(
                ("channel_" + std::to_string(ch)).c_str(), "hbm_channel",
                std::to_string(c.pseudo_channels_per_channel) + " pseudo-channels"));
        }
    }

  private:
    std::vector<std::unique_ptr<system::StructureModule>> channels_;
};

tlm_util::ChunkMemoryParams chunk_params(const HbmParams& p, uint32_t queue_chunks) {
    tlm_util::ChunkMemoryParams c;
    c.bandwidth = p.peak_bandwidth();
    c.queue_chunks = queue_chunks;
    return c;
}

}  // namespace

HbmModule::HbmModule(sc_core::sc_module_name name, const HbmParams& params, uint32_t queue_chunks)
    : tlm_util::ChunkMemory(name, chunk_params(params, queue_chunks)), hbm_(params) {
    for (uint32_t s = 0; s < params.core.stacks; ++s) {
        stacks_.push_back(
            std::make_unique<StackModule>(("stack_" + std::to_string(s)).c_str(), params.core));
    }
}

}  // namespace sim::hbm
