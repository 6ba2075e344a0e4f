// SPDX-License-Identifier: MIT
// A system file (configs/systems/*.yaml): the instances of a machine and how they are wired,
// in the style of SST's Python configs (instances with params, links with latencies). Each
// instance is a device (a hardware file through `extends:`, plus inline keys), a memory, an
// interconnect, a switch, a NIC or a host; each connection binds one port to another. This file
// only reads and checks the text: which kinds and ports exist is the registry's, and the
// system builder turns a spec into SystemC modules.
//
//   system: gpu_cim
//   instances:
//     gpu0: {extends: ../hw/h100.yaml}             # a device: kind from the file's `device:`
//     hbm0: {kind: hbm, extends: ../hw/h100.yaml}   # the hbm section of a hardware file
//     noc0: {kind: interconnect, latency: 20ns}
//   connections:
//     - gpu0.mem -> noc0                             # or {from: gpu0.mem, to: noc0, latency: 5ns}
//     - gpu0.nvlink[0..17] -> nvswitch0
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/core/types.h"

namespace sim::system {

/// One end of a connection: instance, optional port, optional index range.
struct Endpoint {
    std::string instance;
    std::string port;      ///< empty: the instance's default port for this direction
    bool indexed = false;  ///< port[i] or port[a..b]
    uint32_t first = 0, last = 0;
    std::string text;  ///< as written, for messages

    /// How many ports the endpoint names (1 when not indexed).
    uint32_t count() const { return indexed ? last - first + 1 : 1; }
};

struct ConnectionSpec {
    Endpoint from, to;
    TimePs latency{0};
    SourceLocation where;
};

struct InstanceSpec {
    std::string name;
    std::string kind;  ///< a registered module kind; devices: the hardware file's `device:`
    /// The instance's configuration: its map in the system file, resolved through `extends:`
    /// and --set (devices and memories); the map itself for the rest.
    std::shared_ptr<ConfigDocument> config;
    std::string preset;  ///< the file `extends:` named, resolved; empty when none
    SourceLocation where;
};

struct SystemSpec {
    std::string name;
    std::string file;  ///< the system file, or the hardware file of a one-device system
    std::vector<InstanceSpec> instances;
    std::vector<ConnectionSpec> connections;

    const InstanceSpec* find(const std::string& name) const;

    /// Reads a system file. overrides are "instance.key.path=value" (--set); device_kinds are
    /// the kinds a hardware file's `device:` may name. Throws ConfigError with file:line.
    static SystemSpec from_file(const std::string& path,
                                const std::vector<std::string>& overrides,
                                const std::vector<std::string>& device_kinds);
};

/// Parses "gpu0.nvlink[0..17]", "noc0", "gpu0.mem"; throws ConfigError at where.
Endpoint parse_endpoint(const std::string& text, const SourceLocation& where);

}  // namespace sim::system
