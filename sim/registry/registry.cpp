// SPDX-License-Identifier: MIT
#include "sim/registry/registry.h"

#include "sim/core/error.h"

namespace sim {

std::string to_string(Fidelity f) {
    switch (f) {
        case Fidelity::Analytic: return "analytic";
        case Fidelity::Sampled: return "sampled";
        case Fidelity::Cycle: return "cycle";
    }
    return "?";
}

std::optional<Fidelity> parse_fidelity(const std::string& s) {
    if (s == "analytic") return Fidelity::Analytic;
    if (s == "sampled") return Fidelity::Sampled;
    if (s == "cycle") return Fidelity::Cycle;
    return std::nullopt;
}

void Registry::add_device(DeviceEntry entry) {
    SIM_ASSERT(!entry.kind.empty(), "device kind must not be empty");
    SIM_ASSERT(find_device(entry.kind) == nullptr,
               "device '" << entry.kind << "' registered twice");
    devices_.push_back(std::move(entry));
}

void Registry::add_model(ModelEntry entry) {
    for (const auto& m : models_) {
        SIM_ASSERT(m.name != entry.name, "model '" << entry.name << "' registered twice");
    }
    SIM_ASSERT(find_device(entry.device) != nullptr,
               "model '" << entry.name << "' names unregistered device '" << entry.device << "'");
    models_.push_back(std::move(entry));
}

void Registry::add_component(ComponentEntry entry) {
    for (const auto& c : components_) {
        SIM_ASSERT(!(c.name == entry.name && c.device == entry.device),
                   "component '" << entry.name << "' registered twice");
    }
    SIM_ASSERT(
        find_device(entry.device) != nullptr,
        "component '" << entry.name << "' names unregistered device '" << entry.device << "'");
    components_.push_back(std::move(entry));
}

void Registry::add_command(CommandEntry entry) {
    SIM_ASSERT(find_command(entry.name) == nullptr,
               "command '" << entry.name << "' registered twice");
    commands_.push_back(std::move(entry));
}

void Registry::add_params(ParamsEntry entry) {
    for (const auto& p : params_) {
        SIM_ASSERT(
            p.section != entry.section || p.file != entry.file,
            "params of '" << entry.section << "' in a " << entry.file << " file registered twice");
    }
    params_.push_back(std::move(entry));
}

const CommandEntry* Registry::find_command(const std::string& name) const {
    for (const auto& c : commands_) {
        if (c.name == name) return &c;
    }
    return nullptr;
}

std::vector<std::string> Registry::command_names() const {
    std::vector<std::string> names;
    for (const auto& c : commands_)
        names.push_back(c.name);
    return names;
}

const DeviceEntry* Registry::find_device(const std::string& kind) const {
    for (const auto& d : devices_) {
        if (d.kind == kind) return &d;
    }
    return nullptr;
}

std::vector<const ModelEntry*> Registry::models_for(const std::string& device) const {
    std::vector<const ModelEntry*> out;
    for (const auto& m : models_) {
        if (m.device == device) out.push_back(&m);
    }
    return out;
}

void Registry::print(std::ostream& os) const {
    os << "Devices (the `device:` key of a hardware file):\n";
    for (const auto& d : devices_)
        os << "  " << d.kind << "  " << d.description << "\n";
    os << "\nTiming models:\n";
    for (const auto& m : models_) {
        os << "  " << m.name << "  [device " << m.device << ", fidelity " << to_string(m.fidelity)
           << "]\n      " << m.description << "\n      op kinds:";
        for (OpKind k : m.kinds)
            os << ' ' << to_string(k);
        os << "\n";
    }
    if (!components_.empty()) os << "\nComponents (sections of a hardware file):\n";
    for (const auto& c : components_)
        os << "  " << c.name << "  [device " << c.device << "]  " << c.description << "\n";
    if (!commands_.empty()) os << "\nCommands contributed by models:\n";
    for (const auto& c : commands_)
        os << "  wallsim " << c.name << "  " << c.description << "\n";
    os << "\nOperator kinds (traces/README.md):";
    for (OpKind k : all_op_kinds())
        os << ' ' << to_string(k);
    os << "\n";
}

}  // namespace sim
