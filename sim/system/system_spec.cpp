// SPDX-License-Identifier: MIT
#include "sim/system/system_spec.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>

#include "sim/config/device_identity.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"
#include "sim/config/resolved.h"

namespace sim::system {

namespace fs = std::filesystem;

namespace {

bool is_name(const std::string& s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

uint32_t parse_index(const std::string& s, const std::string& text, const SourceLocation& where) {
    if (s.empty() || s.size() > 6 ||
        !std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(c) != 0; }))
        throw ConfigError(where, "connections",
                          "'" + text + "': expected an index or a range a..b in brackets");
    return static_cast<uint32_t>(std::stoul(s));
}

SourceLocation location_of(const std::string& file, const YAML::Node& n) {
    const YAML::Mark m = n.Mark();
    if (m.is_null()) return {file, 0, 0};
    return {file, m.line + 1, m.column + 1};
}

// "instance.key.path=value" -> (instance, "key.path=value")
std::map<std::string, std::vector<std::string>> split_overrides(
    const std::vector<std::string>& overrides) {
    std::map<std::string, std::vector<std::string>> by_instance;
    for (const std::string& o : overrides) {
        const size_t dot = o.find('.');
        const size_t eq = o.find('=');
        if (dot == std::string::npos || eq == std::string::npos || dot > eq) {
            throw ConfigError({"--set " + o, 0, 0}, "",
                              "expected instance.key.path=value (a system run's --set names the "
                              "instance first, e.g. gpu0.sm.count=144)");
        }
        by_instance[o.substr(0, dot)].push_back(o.substr(dot + 1));
    }
    return by_instance;
}

}  // namespace

Endpoint parse_endpoint(const std::string& raw, const SourceLocation& where) {
    Endpoint e;
    e.text = raw;
    std::string text = raw;
    text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return std::isspace(c); }),
               text.end());
    const size_t bracket = text.find('[');
    std::string head = text;
    if (bracket != std::string::npos) {
        if (text.back() != ']')
            throw ConfigError(where, "connections", "'" + raw + "': expected ']' at the end");
        head = text.substr(0, bracket);
        const std::string inside = text.substr(bracket + 1, text.size() - bracket - 2);
        const size_t dots = inside.find("..");
        e.indexed = true;
        if (dots == std::string::npos) {
            e.first = e.last = parse_index(inside, raw, where);
        } else {
            e.first = parse_index(inside.substr(0, dots), raw, where);
            e.last = parse_index(inside.substr(dots + 2), raw, where);
            if (e.last < e.first)
                throw ConfigError(where, "connections",
                                  "'" + raw + "': the range ends before it starts");
        }
    }
    const size_t dot = head.find('.');
    e.instance = head.substr(0, dot);
    if (dot != std::string::npos) e.port = head.substr(dot + 1);
    if (!is_name(e.instance) || (dot != std::string::npos && !is_name(e.port)) ||
        (e.indexed && e.port.empty())) {
        throw ConfigError(where, "connections",
                          "'" + raw +
                              "': expected instance, instance.port or instance.port[i] / "
                              "instance.port[a..b]");
    }
    return e;
}

const InstanceSpec* SystemSpec::find(const std::string& name) const {
    for (const InstanceSpec& i : instances) {
        if (i.name == name) return &i;
    }
    return nullptr;
}

SystemSpec SystemSpec::from_file(const std::string& name_or_path,
                                 const std::vector<std::string>& overrides,
                                 const std::vector<std::string>& device_kinds) {
    const std::string path = resolve_preset("systems", name_or_path, "", {"--system", 0, 0}, "");
    const std::shared_ptr<ConfigDocument> doc = load_config(path, {}, "systems");
    const ConfigNode root = ConfigNode::root_of(doc);
    SystemSpec spec;
    spec.file = path;
    spec.name = fs::path(path).stem().string();
    root.get("system", spec.name);
    std::string description;
    root.get("description", description);
    auto by_instance = split_overrides(overrides);

    const ConfigNode instances = root.child("instances");
    if (instances.keys().empty()) instances.fail("", "a system needs at least one instance");
    for (const std::string& name : instances.keys()) {
        const YAML::Node node = instances.yaml()[name];
        InstanceSpec inst;
        inst.name = name;
        inst.where = location_of(path, node);
        if (!is_name(name))
            throw ConfigError(inst.where, "instances." + name,
                              "instance names are letters, digits and '_', starting with a letter");
        if (!node.IsMap())
            throw ConfigError(inst.where, "instances." + name,
                              "expected a map (kind:, extends:, parameters)");
        const YAML::Node kind = node["kind"];
        if (kind.IsDefined()) {
            if (!kind.IsScalar())
                throw ConfigError(location_of(path, kind), "instances." + name + ".kind",
                                  "expected a kind name");
            inst.kind = kind.Scalar();
        }
        const YAML::Node extends = node["extends"];
        if (extends.IsDefined() && extends.IsScalar()) {
            inst.preset = (fs::path(path).parent_path() / extends.Scalar()).lexically_normal();
        }
        std::vector<std::string> own_overrides;
        if (auto it = by_instance.find(name); it != by_instance.end()) {
            own_overrides = it->second;
            by_instance.erase(it);
        }
        inst.config = load_inline_config(node, path, {"kind"}, own_overrides);
        const ConfigNode config = ConfigNode::root_of(inst.config);
        const std::string& device = resolved<DeviceIdentity>(config).device;
        if (!device.empty()) {
            if (std::find(device_kinds.begin(), device_kinds.end(), device) != device_kinds.end() &&
                (inst.kind.empty() || inst.kind == device)) {
                inst.kind = device;
            } else if (inst.kind.empty()) {
                config.fail("device", "'" + device + "' is not a registered device kind");
            }
        }
        if (inst.kind.empty()) {
            throw ConfigError(inst.where, "instances." + name,
                              "no kind: give `kind:` or extend a hardware file (its `device:` "
                              "is the kind)");
        }
        spec.instances.push_back(std::move(inst));
    }
    if (!by_instance.empty()) {
        const std::string who = by_instance.begin()->first;
        throw ConfigError({"--set " + by_instance.begin()->second.front(), 0, 0}, who,
                          "'" + who + "' is not an instance of " + path);
    }

    if (root.has("connections")) {
        const YAML::Node list = root.yaml()["connections"];
        if (!list.IsSequence())
            throw ConfigError(root.location_of("connections"), "connections",
                              "expected a list of 'a.port -> b' or {from:, to:, latency:}");
        for (size_t i = 0; i < list.size(); ++i) {
            const YAML::Node c = list[i];
            ConnectionSpec conn;
            conn.where = location_of(path, c);
            std::string from, to;
            if (c.IsScalar()) {
                const std::string text = c.Scalar();
                const size_t arrow = text.find("->");
                if (arrow == std::string::npos)
                    throw ConfigError(conn.where, "connections[" + std::to_string(i) + "]",
                                      "'" + text + "': expected 'from -> to'");
                from = text.substr(0, arrow);
                to = text.substr(arrow + 2);
            } else if (c.IsMap()) {
                const ConfigNode m(doc, c, "connections[" + std::to_string(i) + "]");
                m.require("from", from);
                m.require("to", to);
                uint64_t latency = 0;
                m.get_time_ps("latency", latency);
                conn.latency = TimePs{latency};
                m.reject_unknown_keys();
            } else {
                throw ConfigError(conn.where, "connections[" + std::to_string(i) + "]",
                                  "expected 'from -> to' or {from:, to:, latency:}");
            }
            conn.from = parse_endpoint(from, conn.where);
            conn.to = parse_endpoint(to, conn.where);
            spec.connections.push_back(conn);
        }
    }
    root.accept("connections");
    root.accept("instances");
    root.reject_unknown_keys();
    return spec;
}

}  // namespace sim::system
