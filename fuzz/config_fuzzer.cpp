// SPDX-License-Identifier: MIT
// libFuzzer target: a hardware config as `wallsim run --hw FILE --set ...` reads it
// (sim/config/loader.h): the YAML text, its `extends:` chain (relative paths and shipped
// presets, looked up from a file in configs/hw/, so `extends: h100` and
// `extends: ../hw/a100.yaml` reach real files), the --set overrides, the machine description
// read from the result (models/hw/hw_params.h) and resolved_config.yaml's text.
// Input: the config text; every line after a line "#--set" is one override. The marker is a
// YAML comment, so a seed stays a readable config.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz/documented_errors.h"
#include "models/hw/hw_params.h"
#include "sim/config/loader.h"
#include "sim/config/presets.h"

namespace {

struct ConfigInput {
    std::string text;
    std::vector<std::string> overrides;
};

ConfigInput split_overrides(const std::string& data) {
    const std::string marker = "#--set\n";
    const size_t at = data.rfind(marker);
    if (at == std::string::npos || (at > 0 && data[at - 1] != '\n')) return {data, {}};
    ConfigInput input{data.substr(0, at), {}};
    std::istringstream lines(data.substr(at + marker.size()));
    for (std::string line; std::getline(lines, line);)
        input.overrides.push_back(line);
    return input;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const ConfigInput input =
        split_overrides(std::string(reinterpret_cast<const char*>(data), size));
    const std::string file = sim::configs_dir() + "/hw/fuzz_input.yaml";
    sim::fuzz::expect_documented_errors([&] {
        const auto text_doc = sim::parse_config_text(input.text, file);
        const auto doc = sim::load_inline_config(text_doc->root(), file, {}, input.overrides, "hw");
        sim::dump_config(*doc);
        sim::hw::HardwareParams::from_config(sim::ConfigNode::root_of(doc));
    });
    return 0;
}
