// SPDX-License-Identifier: MIT
#include "sim/system/kind_registry.h"

#include <cstdio>
#include <limits>

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

// What a memory instance's keys say; ChunkMemoryParams' initialisers are the defaults.
struct MemoryKeys {
    bool ideal = false;
    double bandwidth = tlm_util::ChunkMemoryParams{}.bandwidth;
    uint32_t queue = tlm_util::ChunkMemoryParams{}.queue_chunks;
};

ParamTable<MemoryKeys> memory_param_table() {
    using P = MemoryKeys;
    ParamTable<P> t;
    t.flag("ideal", &P::ideal, "no bandwidth limit: a request is served when it arrives");
    t.quantity("bandwidth", &P::bandwidth, Dimension::Bandwidth, 0,
               std::numeric_limits<double>::infinity(),
               "what it moves, reads and writes alike; required (above 0) unless ideal");
    t.integer("queue", &P::queue, 1, 1u << 20, "chunks",
              "requests it holds before the next must wait");
    return t;
}

struct InterconnectKeys {
    uint64_t latency_ps = tlm_util::InterconnectParams{}.latency.value();
    uint32_t queue = tlm_util::InterconnectParams{}.queue_chunks;
};

ParamTable<InterconnectKeys> interconnect_param_table() {
    using P = InterconnectKeys;
    ParamTable<P> t;
    t.picoseconds("latency", &P::latency_ps, "added to a request each way");
    t.integer("queue", &P::queue, 1, 1u << 20, "chunks",
              "requests it holds before the next must wait");
    return t;
}

BuiltModule build_memory(const std::string& name, const ConfigNode& c) {
    MemoryKeys keys;
    memory_param_table().read(c, keys);
    const bool ideal = keys.ideal;
    if (ideal && keys.bandwidth > 0) c.fail("bandwidth", "an ideal memory has no bandwidth");
    if (!ideal && !(keys.bandwidth > 0))
        c.fail("bandwidth", "required, a bandwidth > 0 (e.g. 34GB/s), or ideal: true");
    tlm_util::ChunkMemoryParams p;
    p.bandwidth = keys.bandwidth;
    p.queue_chunks = keys.queue;
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
    InterconnectKeys keys;
    interconnect_param_table().read(c, keys);
    const uint64_t latency = keys.latency_ps;
    tlm_util::InterconnectParams p;
    p.latency = TimePs{latency};
    p.queue_chunks = keys.queue;
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

std::vector<ParamDoc> memory_param_docs() {
    return memory_param_table().describe();
}

std::vector<ParamDoc> interconnect_param_docs() {
    return interconnect_param_table().describe();
}

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
