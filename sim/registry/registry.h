// SPDX-License-Identifier: MIT
// The component registry (STYLE.md 8.4): device kinds (what a hardware file's `device:` may
// say) and timing models (which op kinds they run, on which devices, at which fidelity).
// Registration is explicit (register_all.cpp); names are exact-match keys and duplicates are
// rejected. `wallsim list` prints it.
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "sim/config/param_table.h"
#include "sim/registry/op_model.h"

namespace sim {

/// Reads and validates a device's description (name, peaks, memory) and publishes its
/// derived figures (peaks, bandwidth, ridge points) into stats.
using DeviceDescriber = std::function<void(const ConfigNode& hw, StatGroup& stats)>;

struct DeviceEntry {
    std::string kind;  ///< the value of `device:` in a hardware file
    std::string description;
    DeviceDescriber describe;
};

struct ModelEntry {
    std::string name;  ///< unique registry key, e.g. "gpu.analytic"
    std::string description;
    std::string device;  ///< the device kind it models
    Fidelity fidelity = Fidelity::Analytic;
    std::vector<OpKind> kinds;  ///< op kinds it can run
    ModelFactory factory;
};

/// A hardware component that owns a section of the hardware file but runs no operators by
/// itself (a memory system that GPU models will drive). configure() reads and validates its
/// params and publishes its derived figures.
struct ComponentEntry {
    std::string name;  ///< e.g. "hbm"
    std::string description;
    std::string device;
    std::function<void(const ConfigNode& hw, StatGroup& stats)> configure;
};

/// A section of a config file whose keys are described by a ParamTable
/// (sim/config/param_table.h): what `wallsim list --params` prints.
struct ParamsEntry {
    std::string section;  ///< dotted path in its file, e.g. "hbm.controller"
    std::string description;
    std::function<std::vector<ParamDoc>()> describe;
    /// The kind of file the section belongs to: gpu (configs/hw/), systolic, cim, network
    /// (configs/net/), technology or model. Two files may have a section of the same name.
    std::string file = "gpu";
};

class Registry;

/// A `wallsim <name>` sub-command contributed by a model (e.g. `wallsim hbm`).
struct CommandEntry {
    std::string name;
    std::string description;
    /// Runs the command (args after its name) and returns the exit code; throws ConfigError on
    /// bad input like everything else.
    std::function<int(const Registry& registry, const std::vector<std::string>& args)> run;
};

class Registry {
  public:
    /// Throws SimBug on a duplicate kind.
    void add_device(DeviceEntry entry);
    /// Throws SimBug on a duplicate name or an unregistered device.
    void add_model(ModelEntry entry);

    /// Throws SimBug on a duplicate name or an unregistered device.
    void add_component(ComponentEntry entry);
    /// Throws SimBug on a duplicate name.
    void add_command(CommandEntry entry);
    /// Throws SimBug on a section registered twice for one kind of file.
    void add_params(ParamsEntry entry);

    const std::vector<DeviceEntry>& devices() const { return devices_; }
    const std::vector<ComponentEntry>& components() const { return components_; }
    const CommandEntry* find_command(const std::string& name) const;
    std::vector<std::string> command_names() const;
    const std::vector<ModelEntry>& models() const { return models_; }
    const std::vector<ParamsEntry>& params() const { return params_; }
    const DeviceEntry* find_device(const std::string& kind) const;
    /// Models of a device, in registration order.
    std::vector<const ModelEntry*> models_for(const std::string& device) const;

    /// Human-readable listing for `wallsim list`.
    void print(std::ostream& os) const;

  private:
    std::vector<DeviceEntry> devices_;
    std::vector<ModelEntry> models_;
    std::vector<ComponentEntry> components_;
    std::vector<CommandEntry> commands_;
    std::vector<ParamsEntry> params_;
};

/// Registers every device and model wallsim ships (sim/registry/register_all.cpp).
void register_all(Registry& r);

}  // namespace sim

namespace sim::system {
class KindRegistry;
}

namespace sim {

/// Registers every module kind a system file may instantiate (sim/registry/register_all.cpp).
void register_all_kinds(system::KindRegistry& kinds);

}  // namespace sim
