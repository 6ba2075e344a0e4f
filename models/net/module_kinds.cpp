// SPDX-License-Identifier: MIT
// The network module kinds of a system file: NVSwitch, InfiniBand switch, NIC and host (PCIe
// root), each a LinkSwitch (sim/tlm/link_switch.h) that forwards the chunks devices send each
// other over their links. A collective's time alone comes from the network model (models/net);
// its chunks crossing these modules are what makes concurrent traffic on shared links slow.
#include <cstdio>

#include "models/net/register.h"
#include "sim/system/kind_registry.h"
#include "sim/system/structure.h"
#include "sim/tlm/link_switch.h"

namespace sim::net {

namespace {

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
            std::vector<tlm_util::LinkSwitchPort> ports_of;
            for (const system::PortSpec& p : specs) {
                for (uint32_t i = 0; i < p.count; ++i)
                    ports_of.push_back(
                        {p.indexed ? p.name + "_" + std::to_string(i) : p.name, bandwidth});
            }
            auto m = std::make_unique<tlm_util::LinkSwitch>(name.c_str(), kind, summary, ports_of,
                                                            std::string(kind) + "_port");
            system::BuiltModule b;
            b.link_node = m.get();
            b.module = std::move(m);
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
