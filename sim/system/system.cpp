// SPDX-License-Identifier: MIT
#include "sim/system/system.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>

#include "sim/config/device_identity.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"
#include "sim/config/resolved.h"
#include "sim/stats/group.h"
#include "sim/system/fabric.h"
#include "sim/system/structure.h"
#include "sim/tlm/chunk_memory.h"
#include "sim/tlm/interconnect.h"
#include "sim/tlm/link_port.h"
#include "sim/tlm/link_switch.h"

namespace sim::system {

namespace {

const PortSpec* find_port(const System::Instance& inst, const std::string& name) {
    for (const PortSpec& p : inst.built.ports) {
        if (p.name == name) return &p;
    }
    return nullptr;
}

std::string port_list(const System::Instance& inst) {
    std::string out;
    for (const PortSpec& p : inst.built.ports) {
        out += out.empty() ? "" : ", ";
        out += p.name;
        if (p.indexed) out += "[0.." + std::to_string(p.count - 1) + "]";
    }
    return out.empty() ? "(none)" : out;
}

// The port an endpoint without a port name means: the instance's only port of the role.
const PortSpec* default_port(const System::Instance& inst, PortRole role) {
    const PortSpec* found = nullptr;
    for (const PortSpec& p : inst.built.ports) {
        if (p.role != role) continue;
        if (found) return nullptr;
        found = &p;
    }
    return found;
}

std::string role_name(PortRole r) {
    switch (r) {
        case PortRole::MemoryInitiator: return "a memory initiator port";
        case PortRole::MemoryTarget: return "a memory target";
        case PortRole::Link: return "a link port";
    }
    return "?";
}

// Scalars of a YAML tree by dotted path (for the parameters that differ from a preset).
void flatten(const YAML::Node& n,
             const std::string& path,
             std::map<std::string, std::string>& out) {
    if (n.IsMap()) {
        for (const auto& kv : n)
            flatten(kv.second, path.empty() ? kv.first.Scalar() : path + "." + kv.first.Scalar(),
                    out);
    } else if (n.IsSequence()) {
        std::string s;
        for (const auto& item : n)
            s += (s.empty() ? "" : ", ") + (item.IsScalar() ? item.Scalar() : std::string("…"));
        out[path] = "[" + s + "]";
    } else if (n.IsScalar()) {
        out[path] = n.Scalar();
    }
}

std::string format_ns(TimePs t) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g ns", double(t.value()) / 1000.0);
    return buf;
}

}  // namespace

System::System(const KindRegistry& kinds, SystemSpec spec) : spec_(std::move(spec)) {
    instances_.reserve(spec_.instances.size());
    for (const InstanceSpec& s : spec_.instances) {
        Instance inst;
        inst.spec = &s;
        inst.kind = kinds.find(s.kind);
        if (!inst.kind) {
            throw ConfigError(
                s.where, "instances." + s.name + ".kind",
                "'" + s.kind + "' is not a module kind; expected one of: " + kinds.names());
        }
        inst.built = inst.kind->build(s.name, ConfigNode::root_of(s.config));
        instances_.push_back(std::move(inst));
    }
    for (const ConnectionSpec& c : spec_.connections)
        bind(c);
    check_required();
    attach_memories();
    std::vector<FabricNode> fabric;
    for (const Instance& inst : instances_) {
        if (inst.built.link_node) fabric.push_back({inst.spec->name, inst.built.link_node});
    }
    route_fabric(fabric);
}

const System::Instance* System::find(const std::string& name) const {
    for (const Instance& i : instances_) {
        if (i.spec->name == name) return &i;
    }
    return nullptr;
}

std::vector<const System::Instance*> System::devices() const {
    std::vector<const Instance*> out;
    for (const Instance& i : instances_) {
        if (i.built.device) out.push_back(&i);
    }
    return out;
}

void System::bind(const ConnectionSpec& c) {
    const auto instance_of = [&](const Endpoint& e) -> Instance& {
        for (Instance& i : instances_) {
            if (i.spec->name == e.instance) return i;
        }
        std::string names;
        for (const Instance& i : instances_)
            names += (names.empty() ? "" : ", ") + i.spec->name;
        throw ConfigError(
            c.where, "connections",
            "'" + e.text + "': no instance '" + e.instance + "'; instances: " + names);
    };
    Instance& from = instance_of(c.from);
    Instance& to = instance_of(c.to);
    const auto port_of = [&](Instance& inst, const Endpoint& e, PortRole wanted) {
        const PortSpec* p = e.port.empty() ? default_port(inst, wanted) : find_port(inst, e.port);
        if (!p) {
            throw ConfigError(c.where, "connections",
                              "'" + e.text + "': " + inst.spec->name + " (" + inst.spec->kind +
                                  ") has " +
                                  (e.port.empty() ? "no single " + role_name(wanted)
                                                  : "no port '" + e.port + "'") +
                                  "; its ports: " + port_list(inst));
        }
        if (e.indexed && (!p->indexed || e.last >= p->count)) {
            throw ConfigError(c.where, "connections",
                              "'" + e.text + "': " + inst.spec->name + "." + p->name +
                                  (p->indexed ? " has ports 0.." + std::to_string(p->count - 1)
                                              : " is not indexed"));
        }
        return p;
    };
    const PortSpec* fp = port_of(from, c.from, PortRole::MemoryInitiator);
    if (fp->role == PortRole::MemoryTarget) {
        throw ConfigError(c.where, "connections",
                          "'" + c.from.text +
                              "' is a memory target; a connection goes from an "
                              "initiator (a device's mem, an interconnect) to it");
    }
    const PortRole wanted = fp->role == PortRole::Link ? PortRole::Link : PortRole::MemoryTarget;
    const PortSpec* tp = port_of(to, c.to, wanted);
    if (tp->role != wanted) {
        throw ConfigError(c.where, "connections",
                          "'" + c.from.text + "' is " + role_name(fp->role) + " but '" + c.to.text +
                              "' is " + role_name(tp->role));
    }
    // Which port indices each side uses; an unindexed switch side takes its next free ports.
    const auto indices = [&](const Instance& inst, const PortSpec& p, const Endpoint& e,
                             uint32_t n) {
        std::vector<uint32_t> out;
        if (e.indexed) {
            for (uint32_t i = e.first; i <= e.last; ++i)
                out.push_back(i);
        } else if (!p.indexed) {
            out.assign(n, 0);
        } else {
            for (uint32_t i = 0; i < p.count && out.size() < n; ++i) {
                const bool taken = std::any_of(used_.begin(), used_.end(), [&](const PortUse& u) {
                    return u.instance == inst.spec->name && u.port == p.name && u.index == i;
                });
                if (!taken) out.push_back(i);
            }
            if (out.size() < n) {
                throw ConfigError(c.where, "connections",
                                  "'" + e.text + "': " + inst.spec->name + "." + p.name +
                                      " has no " + std::to_string(n) + " free ports left");
            }
        }
        return out;
    };
    const uint32_t n = c.from.count();
    const std::vector<uint32_t> fi = indices(from, *fp, c.from, n);
    const std::vector<uint32_t> ti = indices(to, *tp, c.to, n);
    if (c.to.indexed && c.to.count() != n) {
        throw ConfigError(c.where, "connections",
                          "'" + c.from.text + "' names " + std::to_string(n) + " ports but '" +
                              c.to.text + "' names " + std::to_string(c.to.count()));
    }
    const auto use = [&](const Instance& inst, const PortSpec& p, uint32_t index) {
        if (p.many) return;
        for (const PortUse& u : used_) {
            if (u.instance != inst.spec->name || u.port != p.name || u.index != index) continue;
            const std::string name = inst.spec->name + "." + p.name +
                                     (p.indexed ? "[" + std::to_string(index) + "]" : "");
            std::string hint;
            if (p.role == PortRole::MemoryTarget)
                hint = "; two initiators on one memory need an interconnect between them";
            throw ConfigError(
                c.where, "connections",
                name + " is already connected (at " + u.where.to_string() + ")" + hint);
        }
        used_.push_back({inst.spec->name, p.name, index, c.where});
    };
    for (uint32_t k = 0; k < n; ++k) {
        use(from, *fp, fi[k]);
        use(to, *tp, ti[k]);
    }
    if (fp->role == PortRole::MemoryInitiator) {
        if (c.latency.value() != 0) {
            throw ConfigError(c.where, "connections",
                              "a memory connection has no latency of its own; put an "
                              "interconnect with latency: between '" +
                                  c.from.text + "' and '" + c.to.text + "'");
        }
        from.built.mem_initiator->bind(*to.built.mem_target);
        from.bindings.push_back(fp->name + " -> " + to.spec->name);
        to.bindings.push_back(tp->name + " <- " + from.spec->name);
        return;
    }
    // Link ports: bind the two ports both ways (TLM-2.0) and record each one's peer.
    if (&from == &to) {
        throw ConfigError(c.where, "connections",
                          "'" + c.from.text + "' and '" + c.to.text +
                              "' are ports of one instance; a link joins two instances");
    }
    for (uint32_t k = 0; k < n; ++k) {
        const std::string fname = fp->indexed ? fp->name + "_" + std::to_string(fi[k]) : fp->name;
        const std::string tname = tp->indexed ? tp->name + "_" + std::to_string(ti[k]) : tp->name;
        const std::string lat = c.latency.value() ? " (" + format_ns(c.latency) + ")" : "";
        const auto port_module = [](const Instance& side, const std::string& port) {
            const std::string full = side.spec->name + "." + port;
            auto* m = dynamic_cast<tlm_util::LinkPort*>(sc_core::sc_find_object(full.c_str()));
            SIM_ASSERT(m, "link port " + full + " is not a LinkPort module");
            return m;
        };
        tlm_util::LinkPort* a = port_module(from, fname);
        tlm_util::LinkPort* b = port_module(to, tname);
        a->connect(*b, c.latency);
        a->set_peer(to.spec->name + "." + tname + lat);
        b->set_peer(from.spec->name + "." + fname + lat);
    }
    from.bindings.push_back(c.from.text + " -> " + c.to.text +
                            (c.latency.value() ? " (" + format_ns(c.latency) + ")" : ""));
}

void System::check_required() const {
    for (const Instance& inst : instances_) {
        for (const PortSpec& p : inst.built.ports) {
            if (!p.required) continue;
            const bool bound = std::any_of(used_.begin(), used_.end(), [&](const PortUse& u) {
                return u.instance == inst.spec->name && u.port == p.name;
            });
            if (!bound) {
                throw ConfigError(inst.spec->where, "instances." + inst.spec->name,
                                  inst.spec->name + "." + p.name +
                                      " is not connected; add a connection '" + inst.spec->name +
                                      "." + p.name + " -> <a memory or an interconnect>'");
            }
        }
    }
}

void System::attach_memories() {
    // A GPU's kernels are characterised against the HBM its memory port reaches: that
    // instance's hbm: section replaces the GPU file's own.
    for (Instance& inst : instances_) {
        if (inst.spec->kind != "gpu") continue;
        const Instance* at = &inst;
        for (int hops = 0; hops < 16; ++hops) {
            const std::string* next = nullptr;
            for (const std::string& b : at->bindings) {
                const size_t arrow = b.find(" -> ");
                if (arrow != std::string::npos &&
                    (b.compare(0, arrow, "mem") == 0 || b.compare(0, arrow, "out") == 0))
                    next = &b;
            }
            if (!next) break;
            at = find(next->substr(next->find(" -> ") + 4));
            if (!at || at->spec->kind != "interconnect") break;
        }
        if (!at || at->spec->kind != "hbm" || at->spec->config == inst.spec->config) continue;
        const YAML::Node hbm = at->spec->config->root()["hbm"];
        if (!hbm.IsDefined()) continue;
        inst.spec->config->replace_section("hbm", YAML::Clone(hbm),
                                           at->spec->config->source_of("hbm"));
    }
}

void System::print_tree(std::ostream& os) const {
    os << "system " << spec_.name << " (" << spec_.file << ")\n";
    std::function<void(const sc_core::sc_object&, int)> walk = [&](const sc_core::sc_object& o,
                                                                   int depth) {
        const auto* m = dynamic_cast<const sc_core::sc_module*>(&o);
        if (!m) return;
        const std::string indent(size_t(depth) * 2, ' ');
        os << indent << m->basename() << "  [" << m->kind() << "]";
        if (const auto* s = dynamic_cast<const StructureModule*>(m)) {
            if (!s->summary().empty()) os << "  " << s->summary();
            if (!s->peer().empty()) os << "  -> " << s->peer();
        }
        os << "\n";
        if (depth == 0) {
            if (const Instance* inst = find(m->basename())) {
                if (!inst->built.summary.empty())
                    os << indent << "  | " << inst->built.summary << "\n";
                if (!inst->spec->preset.empty()) {
                    os << indent << "  | preset: " << inst->spec->preset << "\n";
                    std::map<std::string, std::string> mine, base;
                    flatten(inst->spec->config->root(), "", mine);
                    flatten(load_config(inst->spec->preset)->root(), "", base);
                    for (const auto& [key, value] : mine) {
                        auto it = base.find(key);
                        // A file name the loader resolved to a full path is the same file.
                        if (it != base.end() && !it->second.empty() &&
                            std::filesystem::path(value).filename() ==
                                std::filesystem::path(it->second).filename() &&
                            value.find('/') != std::string::npos)
                            continue;
                        if (it == base.end())
                            os << indent << "  | set " << key << " = " << value << "\n";
                        else if (it->second != value)
                            os << indent << "  | set " << key << " = " << value << " (preset "
                               << it->second << ")\n";
                    }
                }
                for (const std::string& b : inst->bindings)
                    os << indent << "  | " << b << "\n";
            }
        }
        // Runs of alike children (132 SMs, 16 channels) print the first and a count.
        const std::vector<sc_core::sc_object*>& kids = m->get_child_objects();
        for (size_t i = 0; i < kids.size();) {
            const auto* first = dynamic_cast<const sc_core::sc_module*>(kids[i]);
            size_t j = i + 1;
            while (first && j < kids.size()) {
                const auto* k = dynamic_cast<const sc_core::sc_module*>(kids[j]);
                const auto* ks = dynamic_cast<const StructureModule*>(k);
                if (!k || std::string(k->kind()) != first->kind() ||
                    k->get_child_objects().size() != first->get_child_objects().size() ||
                    (ks && !ks->peer().empty()))
                    break;
                ++j;
            }
            walk(*kids[i], depth + 1);
            if (j - i > 1) {
                os << indent << "  … " << kids[i + 1]->basename() << " to "
                   << kids[j - 1]->basename() << ": " << (j - i - 1) << " more like "
                   << kids[i]->basename() << "\n";
            }
            i = j;
        }
    };
    for (const sc_core::sc_object* top : sc_core::sc_get_top_level_objects())
        walk(*top, 0);
}

void System::publish(StatGroup& g) const {
    for (const Instance& inst : instances_) {
        StatGroup& s = g.add_group(inst.spec->name);
        if (const exec::DeviceModule* d = inst.built.device) {
            const auto& c = d->counters();
            s.add_counter("jobs", "count", "operators the device ran") += c.jobs;
            s.add_counter("memory_chunks", "count",
                          "chunk requests sent through its memory port") += c.chunks;
            s.add_scalar("memory_bytes", "B", "bytes its operators moved through its memory port")
                .set(c.memory_bytes);
            s.add_scalar("time_alone", "s", "summed operator times alone on the device")
                .set(to_seconds(c.alone));
            s.add_scalar("time_taken", "s", "summed operator times as they ran here")
                .set(to_seconds(c.elapsed));
            s.add_scalar("slowdown", "ratio",
                         "time taken / time alone: what sharing SMs, links and memory cost")
                .set(c.alone.value() ? double(c.elapsed.value()) / double(c.alone.value()) : 1.0);
            s.add_counter("most_at_once", "count", "most operators running at once") +=
                c.most_at_once;
            if (c.link_chunks > 0 || c.link_bytes_in > 0) {
                s.add_counter("link_chunks", "count",
                              "chunk transactions sent through its link ports") += c.link_chunks;
                s.add_scalar("link_bytes", "B", "bytes it sent to other devices over its links")
                    .set(c.link_bytes);
                s.add_scalar("link_bytes_in", "B", "bytes other devices sent it over its links")
                    .set(c.link_bytes_in);
            }
        } else if (const auto* m =
                       dynamic_cast<const tlm_util::ChunkMemory*>(inst.built.module.get())) {
            s.add_counter("chunks", "count", "chunk requests served") += m->chunks_served();
            s.add_scalar("bytes", "B", "bytes served").set(m->bytes_served());
            s.add_scalar("busy", "s", "time spent moving data").set(to_seconds(m->busy()));
            s.add_scalar("queueing", "s", "summed time requests waited before their transfer")
                .set(to_seconds(m->queueing()));
        } else if (const auto* w =
                       dynamic_cast<const tlm_util::LinkSwitch*>(inst.built.module.get())) {
            s.add_counter("forwarded", "count", "link chunks it forwarded") += w->forwarded();
            s.add_scalar("bytes", "B", "bytes it forwarded").set(w->bytes_forwarded());
            TimePs busiest{0};
            for (const tlm_util::LinkPort* p : w->link_ports())
                busiest = std::max(busiest, p->counters().busy);
            s.add_scalar("busiest_port", "s", "the longest any of its ports spent sending")
                .set(to_seconds(busiest));
        } else if (const auto* x =
                       dynamic_cast<const tlm_util::Interconnect*>(inst.built.module.get())) {
            s.add_counter("forwarded", "count", "requests forwarded to the target") +=
                x->forwarded();
        }
    }
}

SystemSpec single_device_spec(const std::string& hw_file,
                              const std::vector<std::string>& overrides,
                              const std::vector<std::string>& device_kinds) {
    SystemSpec spec;
    const std::string path = resolve_preset("hw", hw_file, "", {"--hw", 0, 0}, "");
    spec.file = path;
    InstanceSpec device;
    device.config = load_config(path, overrides, "hw");
    const ConfigNode root = ConfigNode::root_of(device.config);
    device.kind = resolved<DeviceIdentity>(root).required_device(root);
    if (std::find(device_kinds.begin(), device_kinds.end(), device.kind) == device_kinds.end()) {
        std::string list;
        for (const std::string& k : device_kinds)
            list += (list.empty() ? "" : ", ") + k;
        root.fail("device",
                  "'" + device.kind + "' is not a registered device; expected one of: " + list);
    }
    device.name = device.kind + "0";
    device.preset = path;
    device.where = {path, 1, 1};
    spec.name = device.name;
    InstanceSpec memory;
    memory.where = device.where;
    ConnectionSpec wire;
    wire.where = device.where;
    wire.from = parse_endpoint(device.name + ".mem", wire.where);
    if (device.kind == "gpu") {
        memory.name = "hbm0";
        memory.kind = "hbm";
        memory.config = device.config;
        memory.preset = path;
    } else {
        memory.name = "mem0";
        memory.kind = "memory";
        memory.config = parse_config_text("ideal: true\n", path);
    }
    wire.to = parse_endpoint(memory.name, wire.where);
    spec.instances = {device, memory};
    spec.connections = {wire};
    return spec;
}

}  // namespace sim::system
