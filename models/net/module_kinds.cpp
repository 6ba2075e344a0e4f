// SPDX-License-Identifier: MIT
// The network module kinds of a system file: NVSwitch, InfiniBand switch, NIC and host (PCIe
// root). They give a system its wiring (which GPU link reaches which switch port); collectives
// are timed by the network model (models/net) over the topology the device's network:
// section names.
#include <cstdio>

#include "models/net/register.h"
#include "sim/system/kind_registry.h"
#include "sim/system/structure.h"

namespace sim::net {

namespace {

/// A switch, NIC or host: its ports as child modules (each remembers its peer once wired).
class PortedModule final : public system::StructureModule {
  public:
    PortedModule(sc_core::sc_module_name name,
                 const std::string& kind,
                 const std::string& summary,
                 const std::vector<system::PortSpec>& ports,
                 const std::string& port_kind)
        : system::StructureModule(name, kind, summary) {
        for (const system::PortSpec& p : ports) {
            for (uint32_t i = 0; i < p.count; ++i) {
                const std::string n = p.indexed ? p.name + "_" + std::to_string(i) : p.name;
                ports_.push_back(std::make_unique<system::StructureModule>(n.c_str(), port_kind));
            }
        }
    }

  private:
    std::vector<std::unique_ptr<system::StructureModule>> ports_;
};

system::ModuleKind ported_kind(const char* kind,
                               const char* description,
                               uint64_t default_ports,
                               double default_bandwidth,
                               std::vector<system::PortSpec> fixed) {
    return {
        kind, description, false, [=](const std::string& name, const ConfigNode& c) {
            uint64_t ports = default_ports;
            double bandwidth = default_bandwidth;
            if (default_ports > 0) {
                c.get("ports", ports);
                if (ports < 1 || ports > 4096) c.fail("ports", "must be in 1..4096");
            }
            c.get_quantity("bandwidth", Dimension::Bandwidth, bandwidth);
            if (!(bandwidth > 0)) c.fail("bandwidth", "must be > 0");
            c.reject_unknown_keys_recursive();
            std::vector<system::PortSpec> specs = fixed;
            if (default_ports > 0) {
                system::PortSpec p{"port", system::PortRole::Link, static_cast<uint32_t>(ports)};
                p.indexed = true;
                specs.push_back(p);
            }
            char summary[96];
            std::snprintf(summary, sizeof summary, "%s%.0f GB/s per port each way",
                          default_ports > 0 ? (std::to_string(ports) + " ports, ").c_str() : "",
                          bandwidth / 1e9);
            system::BuiltModule b;
            b.module = std::make_unique<PortedModule>(name.c_str(), kind, summary, specs,
                                                      std::string(kind) + "_port");
            b.ports = specs;
            return b;
        }};
}

}  // namespace

void register_net_kinds(system::KindRegistry& kinds) {
    // NVSwitch 3 (DGX H100): 64 NVLink 4 ports of 25 GB/s each way [nvidia-h100-wp].
    kinds.add(ported_kind("nvswitch",
                          "an NVSwitch (ports:, bandwidth: per port each way; defaults: NVSwitch "
                          "3, 64 ports, 25 GB/s); ports port[i]",
                          64, 25e9, {}));
    // Quantum-2 NDR InfiniBand switch: 64 ports of 400 Gb/s [dgx-h100].
    kinds.add(ported_kind("ib_switch",
                          "an InfiniBand switch (ports:, bandwidth:; defaults: 64 NDR ports, "
                          "50 GB/s); ports port[i]",
                          64, 50e9, {}));
    // ConnectX-7: one 400 Gb/s network port, PCIe Gen5 x16 to the host [dgx-h100].
    kinds.add(ported_kind("nic",
                          "a network adapter (bandwidth:; default ConnectX-7, 50 GB/s); ports "
                          "pcie, net",
                          0, 50e9,
                          {{"pcie", system::PortRole::Link}, {"net", system::PortRole::Link}}));
    kinds.add(ported_kind("host",
                          "a host CPU and its PCIe root complex (ports:, bandwidth: per port; "
                          "defaults 16 ports, 64 GB/s, PCIe Gen5 x16); ports port[i]",
                          16, 64e9, {}));
}

}  // namespace sim::net
