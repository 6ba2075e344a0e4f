// SPDX-License-Identifier: MIT
// Every key of every shipped preset is described (`wallsim list --params`): a consistency
// check that a key added to a preset and read by hand, outside a ParamTable, fails here.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "sim/registry/registry.h"

namespace sim {
namespace {

std::vector<std::string> split(const std::string& dotted) {
    std::vector<std::string> parts;
    size_t from = 0;
    for (size_t dot; (dot = dotted.find('.', from)) != std::string::npos; from = dot + 1)
        parts.push_back(dotted.substr(from, dot - from));
    parts.push_back(dotted.substr(from));
    return parts;
}

// A described key as a path from the file's root; "<name>" matches any one part.
struct KeyPattern {
    std::string file;
    std::vector<std::string> parts;

    // A key with a structured value (a map of per-block rates, {value, clock}) covers what is
    // under it, so the pattern need only be a prefix of the path.
    bool covers(const std::vector<std::string>& path) const {
        if (path.size() < parts.size()) return false;
        for (size_t i = 0; i < parts.size(); ++i) {
            if (parts[i].front() != '<' && parts[i] != path[i]) return false;
        }
        return true;
    }
};

std::vector<KeyPattern> described_keys() {
    Registry registry;
    register_all(registry);
    std::vector<KeyPattern> keys;
    for (const ParamsEntry& section : registry.params()) {
        for (const ParamDoc& doc : section.describe()) {
            const std::string path =
                section.section == "(top level)" ? doc.key : section.section + "." + doc.key;
            keys.push_back({section.file, split(path)});
        }
    }
    return keys;
}

void collect_leaves(const YAML::Node& node,
                    std::vector<std::string>& path,
                    std::vector<std::vector<std::string>>& out) {
    if (!node.IsMap()) {
        out.push_back(path);
        return;
    }
    for (const auto& entry : node) {
        path.push_back(entry.first.as<std::string>());
        collect_leaves(entry.second, path, out);
        path.pop_back();
    }
}

// Each folder of configs/ with the kinds of file its presets are.
struct PresetFolder {
    const char* folder;
    std::set<std::string> files;
};

void PrintTo(const PresetFolder& folder, std::ostream* os) {
    *os << "configs/" << folder.folder;
}

class EveryPresetKeyIsDescribed : public testing::TestWithParam<PresetFolder> {};

TEST_P(EveryPresetKeyIsDescribed, InEveryPresetOfTheFolder) {
    const std::vector<KeyPattern> keys = described_keys();
    const std::filesystem::path dir =
        std::filesystem::path(WALLSIM_SOURCE_DIR) / "configs" / GetParam().folder;
    size_t presets = 0;
    for (const auto& file : std::filesystem::directory_iterator(dir)) {
        if (file.path().extension() != ".yaml") continue;
        ++presets;
        std::vector<std::vector<std::string>> leaves;
        std::vector<std::string> path;
        collect_leaves(YAML::LoadFile(file.path().string()), path, leaves);
        for (const auto& leaf : leaves) {
            if (leaf.front() == "extends") continue;  // the loader's, before any section
            bool described = false;
            for (const KeyPattern& key : keys)
                described = described || (GetParam().files.count(key.file) && key.covers(leaf));
            std::string dotted;
            for (const std::string& part : leaf)
                dotted += (dotted.empty() ? "" : ".") + part;
            EXPECT_TRUE(described) << file.path().filename().string() << ": " << dotted
                                   << " is not described (wallsim list --params)";
        }
    }
    EXPECT_GT(presets, 0u);
}

INSTANTIATE_TEST_SUITE_P(Configs,
                         EveryPresetKeyIsDescribed,
                         testing::Values(PresetFolder{"hw", {"device", "gpu", "systolic"}},
                                         PresetFolder{"hbm", {"device", "gpu"}},
                                         PresetFolder{"net", {"network"}},
                                         PresetFolder{"technology", {"technology"}},
                                         PresetFolder{"cim", {"device", "cim"}},
                                         PresetFolder{"models", {"model"}}),
                         [](const testing::TestParamInfo<PresetFolder>& info) {
                             return std::string(info.param.folder);
                         });

}  // namespace
}  // namespace sim
