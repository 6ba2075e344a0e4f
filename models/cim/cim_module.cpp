// SPDX-License-Identifier: MIT
#include "models/cim/cim_module.h"

namespace sim::cim {

namespace {

class TileModule final : public system::StructureModule {
  public:
    TileModule(sc_core::sc_module_name name, const OrganisationConfig& o)
        : system::StructureModule(name,
                                  "cim_tile",
                                  std::to_string(o.imas_per_tile) + " IMAs, " +
                                      std::to_string(o.crossbars_per_ima) + " crossbars each") {
        for (uint32_t i = 0; i < o.imas_per_tile; ++i) {
            imas_.push_back(std::make_unique<system::StructureModule>(
                ("ima_" + std::to_string(i)).c_str(), "cim_ima",
                std::to_string(o.crossbars_per_ima) + " crossbars, DACs, ADCs"));
        }
    }

  private:
    std::vector<std::unique_ptr<system::StructureModule>> imas_;
};

}  // namespace

CimModule::CimModule(sc_core::sc_module_name name, const CimConfig& config)
    : exec::DeviceModule(name, "cim") {
    for (uint32_t t = 0; t < config.organisation.tiles; ++t) {
        tiles_.push_back(std::make_unique<TileModule>(("tile_" + std::to_string(t)).c_str(),
                                                      config.organisation));
    }
}

}  // namespace sim::cim
