// SPDX-License-Identifier: MIT
// The kinds of module a system file may instantiate (STYLE.md 8.4: registered explicitly, listed
// by `wallsim list`). A kind says which ports its modules have and builds one from the
// instance's configuration. Ports come in three roles: a memory initiator (a device's `mem`, an
// interconnect's `out`), a memory target (a memory's or an interconnect's `in`) and a link port
// (NVLink, PCIe, network), which binds to another link port or to a switch.
#pragma once

#include <tlm>

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/exec/device_module.h"
#include "sim/tlm/link_node.h"

namespace sim::system {

enum class PortRole { MemoryInitiator, MemoryTarget, Link };

struct PortSpec {
    std::string name;
    PortRole role = PortRole::Link;
    uint32_t count = 1;     ///< > 1: an indexed port, name[0..count-1]
    bool indexed = false;   ///< written name[i] even when count is 1
    bool required = false;  ///< must be connected (a device's memory port)
    bool many = false;      ///< a target that several initiators may bind (an interconnect)
};

/// A module a kind built, with what the builder needs to wire it.
struct BuiltModule {
    std::unique_ptr<sc_core::sc_module> module;
    exec::DeviceModule* device = nullptr;  ///< set when the module runs operators
    tlm::tlm_initiator_socket<>* mem_initiator = nullptr;
    tlm::tlm_base_target_socket_b<>* mem_target = nullptr;
    tlm_util::LinkNode* link_node = nullptr;  ///< set when the module has link ports
    std::vector<PortSpec> ports;
    std::string summary;  ///< one line of its main figures, for `wallsim elaborate`
};

struct ModuleKind {
    std::string kind;  ///< the `kind:` of an instance (devices: a hardware file's `device:`)
    std::string description;
    bool device = false;  ///< runs the operators of a trace
    /// Builds the module called name from its configuration (reads and checks its keys;
    /// throws ConfigError).
    std::function<BuiltModule(const std::string& name, const ConfigNode& config)> build;
};

}  // namespace sim::system
