// SPDX-License-Identifier: MIT
#include "sim/system/kind_registry.h"

#include <cstdio>

#include "sim/core/error.h"
#include "sim/tlm/chunk_memory.h"
#include "sim/tlm/interconnect.h"

namespace sim::system {

void KindRegistry::add(ModuleKind kind) {
    SIM_ASSERT(find(kind.kind) == nullptr, "module kind '" << kind.kind << "' registered twice");
    kinds_.push_back(std::move(kind));
}

const ModuleKind* KindRegistry::find(const std::string& kind) const {
    for (const ModuleKind& k : kinds_) {
        if (k.kind == kind) return &k;
    }
    return nullptr;
}

std::string KindRegistry::names() const {
    std::string out;
    for (const ModuleKind& k : kinds_)
        out += (out.empty() ? "" : ", ") + k.kind;
    return out;
}

void KindRegistry::print(std::ostream& os) const {
    os << "\nModule kinds (instances of a system file, configs/systems/):\n";
    for (const ModuleKind& k : kinds_)
        os << "  " << k.kind << (k.device ? "  [device]" : "") << "  " << k.description << "\n";
}

namespace {

class MemoryModule final : public tlm_util::ChunkMemory {
  public:
    using tlm_util::ChunkMemory::ChunkMemory;
    const char* kind() const override { return "memory"; }
};

BuiltModule build_memory(const std::string& name, const ConfigNode& c) {
    tlm_util::ChunkMemoryParams p;
    bool ideal = false;
    c.get("ideal", ideal);
    c.get_quantity("bandwidth", Dimension::Bandwidth, p.bandwidth);
    if (ideal && p.bandwidth > 0) c.fail("bandwidth", "an ideal memory has no bandwidth");
    if (!ideal && !(p.bandwidth > 0))
        c.fail("bandwidth", "required, a bandwidth > 0 (e.g. 34GB/s), or ideal: true");
    uint64_t queue = p.queue_chunks;
    c.get("queue", queue);
    if (queue < 1 || queue > 1u << 20) c.fail("queue", "must be in 1..1048576 chunks");
    p.queue_chunks = static_cast<uint32_t>(queue);
    c.reject_unknown_keys_recursive();
    BuiltModule b;
    auto m = std::make_unique<MemoryModule>(name.c_str(), p);
    b.mem_target = &m->tgt_socket;
    char summary[64];
    std::snprintf(summary, sizeof summary, "%g GB/s", p.bandwidth / 1e9);
    b.summary = ideal ? std::string("ideal (no bandwidth limit)") : std::string(summary);
    b.module = std::move(m);
    b.ports = {{"in", PortRole::MemoryTarget}};
    return b;
}

BuiltModule build_interconnect(const std::string& name, const ConfigNode& c) {
    tlm_util::InterconnectParams p;
    uint64_t latency = 0;
    c.get_time_ps("latency", latency);
    p.latency = TimePs{latency};
    uint64_t queue = p.queue_chunks;
    c.get("queue", queue);
    if (queue < 1 || queue > 1u << 20) c.fail("queue", "must be in 1..1048576 chunks");
    p.queue_chunks = static_cast<uint32_t>(queue);
    c.reject_unknown_keys_recursive();
    BuiltModule b;
    auto m = std::make_unique<tlm_util::Interconnect>(name.c_str(), p);
    b.mem_target = &m->tgt_socket;
    b.mem_initiator = &m->init_socket;
    char summary[64];
    std::snprintf(summary, sizeof summary, "latency %g ns each way", double(latency) / 1000.0);
    b.summary = summary;
    b.module = std::move(m);
    PortSpec in{"in", PortRole::MemoryTarget};
    in.many = true;
    PortSpec out{"out", PortRole::MemoryInitiator};
    out.required = true;
    b.ports = {in, out};
    return b;
}

}  // namespace

void register_generic_kinds(KindRegistry& kinds) {
    kinds.add({"memory",
               "a memory of a given bandwidth (bandwidth:, queue:; or ideal: true), serving chunk "
               "requests in "
               "arrival order; port in",
               false, build_memory});
    kinds.add({"interconnect",
               "crossbar / NoC joining several memory initiators to one target (latency:, "
               "queue:); ports in (many), out",
               false, build_interconnect});
}

}  // namespace sim::system
