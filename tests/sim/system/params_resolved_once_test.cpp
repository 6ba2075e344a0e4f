// SPDX-License-Identifier: MIT
// Params are resolved once (DESIGN.md): setting up a device reads each key of its hardware file
// exactly once, into the one params struct that owns it, however many models, components and
// module kinds use the value. A key read twice has two readers, and so possibly two defaults
// (a consistency check over every shipped hardware preset and system).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "models/hbm/hbm_params.h"
#include "models/hw/hw_params.h"
#include "sim/config/resolved.h"
#include "sim/engine/run.h"
#include "sim/registry/registry.h"
#include "sim/stats/group.h"
#include "sim/system/kind_registry.h"
#include "sim/system/system.h"

namespace sim {
namespace {

// "key (N reads)" for every key read more than once, one per line; empty when none.
std::string keys_read_more_than_once(const ConfigDocument& doc, const std::string& prefix = "") {
    std::string twice;
    for (const auto& [key, reads] : doc.value_reads())
        if (reads > 1) twice += prefix + key + " (" + std::to_string(reads) + " reads)\n";
    return twice;
}

std::string keys_read_more_than_once(const std::string& preset) {
    Registry registry;
    register_all(registry);
    StatGroup stats(nullptr, "");
    Logging logging(spdlog::level::off, [] { return TimePs{0}; });
    const HardwareSetup setup(registry, std::string(WALLSIM_SOURCE_DIR) + "/configs/" + preset, {},
                              stats, logging, 1);
    return keys_read_more_than_once(setup.document());
}

// A system: every instance's module built, every device's models set up, as `wallsim run
// --system` does.
// Every module kind and device wallsim ships, registered once.
struct Registries {
    Registry registry;
    system::KindRegistry kinds;
    std::vector<std::string> device_kinds;
    Registries() {
        register_all(registry);
        register_all_kinds(kinds);
        for (const DeviceEntry& d : registry.devices())
            device_kinds.push_back(d.kind);
    }
    /// configs/<file> elaborated as a system.
    system::System system(const std::string& file) const {
        return system::System(
            kinds, system::SystemSpec::from_file(
                       std::string(WALLSIM_SOURCE_DIR) + "/configs/" + file, {}, device_kinds));
    }
};

std::string keys_read_more_than_once_in_system(const std::string& file) {
    const Registries r;
    const Registry& registry = r.registry;
    const system::System machine = r.system(file);
    StatGroup stats(nullptr, "");
    Logging logging(spdlog::level::off, [] { return TimePs{0}; });
    std::vector<std::unique_ptr<HardwareSetup>> setups;
    for (const system::System::Instance* d : machine.devices())
        setups.push_back(std::make_unique<HardwareSetup>(registry, d->spec->config,
                                                         stats.add_group(d->spec->name), logging, 1,
                                                         *d->built.device));
    std::string twice;
    for (const system::System::Instance& i : machine.instances())
        twice += keys_read_more_than_once(*i.spec->config, i.spec->name + ".");
    return twice;
}

// "hw/h100.yaml" -> "h100", "hw/tpu_v1.yaml" -> "tpuxv1": gtest names take letters and digits.
std::string test_name_of_file(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param.substr(0, info.param.find('.'));
    name = name.substr(name.find('/') + 1);
    for (char& c : name)
        if (c == '_') c = 'x';
    return name;
}

class ParamsResolvedOnce : public ::testing::TestWithParam<std::string> {};

TEST_P(ParamsResolvedOnce, EveryKeyIsReadByOneParamsStruct) {
    EXPECT_EQ(keys_read_more_than_once(GetParam()), "");
}

INSTANTIATE_TEST_SUITE_P(HardwarePresets,
                         ParamsResolvedOnce,
                         ::testing::Values("hw/a100.yaml",
                                           "hw/h100.yaml",
                                           "hw/h200.yaml",
                                           "hw/tpu_v1.yaml",
                                           "hw/tpu_v1_hbm.yaml",
                                           "hw/systolic_32x32.yaml",
                                           "hbm/ramulator_hbm2.yaml",
                                           "hbm/ramulator_hbm3.yaml",
                                           "cim/isaac.yaml",
                                           "cim/teaching.yaml"),
                         test_name_of_file);

// A GPU wired to another memory (gpu_cim: one HBM stack through an interconnect) is resolved
// against that memory's hbm: section, even when its module read its own file's first.
TEST(ParamsResolvedOnce, AGpuResolvesTheHbmItsMemoryPortReaches) {
    const Registries r;
    const system::System machine = r.system("systems/gpu_cim.yaml");
    const ConfigNode gpu = ConfigNode::root_of(machine.find("gpu0")->spec->config);
    EXPECT_EQ(resolved<hw::HardwareParams>(gpu).hbm.stacks, 1u);
    EXPECT_EQ(resolved<hbm::HbmParams>(gpu).core.stacks, 1u);
}

// One system per test: each test runs in its own process, and SystemC elaborates once.
class SystemParamsResolvedOnce : public ::testing::TestWithParam<std::string> {};

TEST_P(SystemParamsResolvedOnce, EveryKeyOfEveryInstanceIsReadOnce) {
    EXPECT_EQ(keys_read_more_than_once_in_system(GetParam()), "");
}

INSTANTIATE_TEST_SUITE_P(ShippedSystems,
                         SystemParamsResolvedOnce,
                         ::testing::Values("systems/dgx_h100.yaml",
                                           "systems/gpu_cim.yaml",
                                           "systems/tpu_v1.yaml"),
                         test_name_of_file);

}  // namespace
}  // namespace sim
