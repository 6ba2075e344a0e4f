// SPDX-License-Identifier: MIT
// A system elaborated from its spec (system_spec.h): one SystemC module per instance, built by
// its registered kind, and every connection bound (memory ports through TLM-2.0 sockets, link
// ports recorded on the port modules). Wiring mistakes are ConfigErrors at the system file's
// line: an unknown instance or port, a port bound twice, two initiators on one memory without
// an interconnect, a memory port wired to a link port, a device whose memory port is left
// unbound. A hardware file (--hw) becomes a one-device system: the device and its memory.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "sim/system/kind_registry.h"
#include "sim/system/system_spec.h"

namespace sim {
class StatGroup;
}

namespace sim::system {

class System {
  public:
    struct Instance {
        const InstanceSpec* spec = nullptr;
        const ModuleKind* kind = nullptr;
        BuiltModule built;
        std::vector<std::string> bindings;  ///< "port -> peer" lines, for elaborate
    };

    /// Builds and wires every module (during SystemC elaboration); throws ConfigError.
    System(const KindRegistry& kinds, SystemSpec spec);

    const SystemSpec& spec() const { return spec_; }
    const std::vector<Instance>& instances() const { return instances_; }
    /// The instances that run operators, in file order.
    std::vector<const Instance*> devices() const;
    const Instance* find(const std::string& name) const;

    /// The module tree as `wallsim elaborate` prints it: every module with its kind; each
    /// instance with its preset, the parameters that differ from it, and its bindings.
    void print_tree(std::ostream& os) const;
    /// system.<instance>.*: what each device ran and waited for, what each memory served.
    void publish(StatGroup& g) const;

  private:
    void bind(const ConnectionSpec& c);
    void check_required() const;
    void attach_memories();

    SystemSpec spec_;
    std::vector<Instance> instances_;
    struct PortUse {
        std::string instance, port;
        uint32_t index;
        SourceLocation where;
    };
    std::vector<PortUse> used_;
};

/// A hardware file as a one-device system: the device (named <kind>0: gpu0, systolic0, cim0)
/// and its memory (hbm0 from the file's hbm: section for a GPU; an ideal memory otherwise,
/// since those models time their own DRAM).
SystemSpec single_device_spec(const std::string& hw_file,
                              const std::vector<std::string>& overrides,
                              const std::vector<std::string>& device_kinds);

}  // namespace sim::system
