// SPDX-License-Identifier: MIT
// The SystemC skeleton of a system: devices running jobs, their chunk traffic through TLM-2.0
// sockets into memories and interconnects, and the builder that wires modules from a system
// file. Each TEST elaborates its own top and calls sc_start once, so ctest runs every TEST in
// its own process (gtest_discover_tests); SystemC cannot restart.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "sim/config/loader.h"
#include "sim/exec/device_module.h"
#include "sim/registry/registry.h"
#include "sim/system/structure.h"
#include "sim/system/system.h"
#include "sim/tlm/chunk_memory.h"
#include "sim/tlm/interconnect.h"
#include "tests/testing/config_error.h"
#include "tests/testing/temp_dir.h"

namespace sim {
namespace {

constexpr uint64_t kUs = 1'000'000;  // ps

// Runs one job on a device from a thread of its own and records when it ran.
struct JobRunner : sc_core::sc_module {
    SC_HAS_PROCESS(JobRunner);
    JobRunner(sc_core::sc_module_name n, exec::DeviceExecutor& d, exec::Job j, uint64_t at_ps)
        : sc_core::sc_module(n), device(d), job(j), start_at(at_ps) {
        SC_THREAD(go);
    }
    void go() {
        sc_core::wait(sc_core::sc_time::from_value(start_at));
        times = device.run(job);
    }
    exec::DeviceExecutor& device;
    exec::Job job;
    uint64_t start_at;
    exec::JobTimes times;
};

exec::Job streaming_job(uint64_t duration_ps, double bytes) {
    exec::Job j{TimePs{duration_ps}};
    j.compute = 0.5;
    j.memory_bytes = bytes;
    return j;
}

TEST(DeviceModule, AJobAloneTakesExactlyItsDurationThroughARealMemory) {
    tlm_util::ChunkMemoryParams mp;
    mp.bandwidth = 1e12;  // 1 TB/s
    tlm_util::ChunkMemory memory("memory", mp);
    exec::DeviceModule gpu("gpu", "gpu");
    gpu.mem_socket.bind(memory.tgt_socket);
    // 900 MB in 1 ms: 90% of the memory's bandwidth.
    JobRunner r("r", gpu, streaming_job(1000 * kUs, 900e6), 0);
    sc_core::sc_start();
    EXPECT_EQ(r.times.start.value(), 0u);
    EXPECT_EQ(r.times.end.value(), 1000 * kUs);
    EXPECT_DOUBLE_EQ(memory.bytes_served(), 900e6);
}

TEST(DeviceModule, TwoDevicesStreamingThroughOneMemoryShareItsBandwidth) {
    tlm_util::ChunkMemoryParams mp;
    mp.bandwidth = 1e12;
    tlm_util::ChunkMemory memory("memory", mp);
    tlm_util::Interconnect noc("noc", {});
    exec::DeviceModule a("a", "gpu"), b("b", "cim");
    a.mem_socket.bind(noc.tgt_socket);
    b.mem_socket.bind(noc.tgt_socket);
    noc.init_socket.bind(memory.tgt_socket);
    // Each alone would take 1 ms at 80% of the bandwidth; together they ask for 160%.
    JobRunner ra("ra", a, streaming_job(1000 * kUs, 800e6), 0);
    JobRunner rb("rb", b, streaming_job(1000 * kUs, 800e6), 0);
    sc_core::sc_start();
    const double ta = to_seconds(ra.times.end - ra.times.start);
    const double tb = to_seconds(rb.times.end - rb.times.start);
    // 1.6 GB through 1 TB/s takes at least 1.6 ms: the memory, not the jobs, sets the pace.
    EXPECT_GE(std::max(ta, tb), 1.6e-3 * 0.999);
    EXPECT_LE(std::max(ta, tb), 1.6e-3 * 1.05);
    EXPECT_GT(to_seconds(memory.queueing()), 0.0);
    EXPECT_EQ(noc.forwarded(), a.counters().chunks + b.counters().chunks);
}

TEST(DeviceModule, AFullQueueHoldsBackEndReq) {
    tlm_util::ChunkMemoryParams mp;
    mp.bandwidth = 1e9;  // slow: 1 GB/s
    mp.queue_chunks = 1;
    tlm_util::ChunkMemory memory("memory", mp);
    exec::DeviceModule gpu("gpu", "gpu");
    gpu.mem_socket.bind(memory.tgt_socket);
    // 10 MB in 1 us asks for 10 TB/s: the memory takes 10 ms, however short the job.
    JobRunner r("r", gpu, streaming_job(1 * kUs, 10e6), 0);
    sc_core::sc_start();
    EXPECT_NEAR(to_seconds(r.times.end - r.times.start), 10e-3, 10e-3 * 0.01);
    EXPECT_DOUBLE_EQ(memory.bytes_served(), 10e6);
}

TEST(DeviceModule, KernelsOnOneDeviceShareItsSms) {
    tlm_util::ChunkMemoryParams mp;  // ideal memory
    tlm_util::ChunkMemory memory("memory", mp);
    exec::DeviceModule gpu("gpu", "gpu");
    gpu.mem_socket.bind(memory.tgt_socket);
    exec::Job full{TimePs{100 * kUs}};
    full.compute = 1;
    JobRunner r1("r1", gpu, full, 0);
    JobRunner r2("r2", gpu, full, 50 * kUs);
    sc_core::sc_start();
    // The first runs alone for 50 us, then both at half speed until it ends at 150 us; the
    // second has done 50 us of its work by then and finishes alone at 200 us.
    EXPECT_EQ(r1.times.end.value(), 150 * kUs);
    EXPECT_EQ(r2.times.end.value(), 200 * kUs);
    EXPECT_EQ(gpu.counters().most_at_once, 2u);
}

// ---- systems from files -------------------------------------------------------------------

struct Fixture {
    Registry registry;
    system::KindRegistry kinds;
    Fixture() {
        register_all(registry);
        register_all_kinds(kinds);
    }
    std::vector<std::string> devices() const {
        std::vector<std::string> out;
        for (const auto& d : registry.devices())
            out.push_back(d.kind);
        return out;
    }
    // A system file in a temporary folder; "HW/" stands for the shipped configs/hw folder.
    system::System build_text(std::string yaml) {
        const std::string hw = std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/";
        for (size_t at; (at = yaml.find("HW/")) != std::string::npos;)
            yaml.replace(at, 3, hw);
        const std::string path = (dir.path() / "test_system.yaml").string();
        FILE* f = std::fopen(path.c_str(), "w");
        std::fputs(yaml.c_str(), f);
        std::fclose(f);
        return system::System(kinds, system::SystemSpec::from_file(path, {}, devices()));
    }
    testing::TempDir dir;
};

TEST(SystemBuilder, GpuCimBuildsTheModuleTree) {
    Fixture fx;
    system::System sys(fx.kinds, system::SystemSpec::from_file(std::string(WALLSIM_SOURCE_DIR) +
                                                                   "/configs/systems/gpu_cim.yaml",
                                                               {}, fx.devices()));
    EXPECT_EQ(sys.devices().size(), 2u);
    EXPECT_NE(sc_core::sc_find_object("gpu0.sm_131.sub_partition_3.tensor_core"), nullptr);
    EXPECT_NE(sc_core::sc_find_object("gpu0.sm_0.sub_partition_0.warp_scheduler"), nullptr);
    EXPECT_NE(sc_core::sc_find_object("gpu0.l2"), nullptr);
    EXPECT_NE(sc_core::sc_find_object("hbm0.stack_0.channel_15"), nullptr);
    EXPECT_EQ(sc_core::sc_find_object("hbm0.stack_1"), nullptr);  // one stack in this system
    EXPECT_NE(sc_core::sc_find_object("cim0.tile_0.ima_0"), nullptr);
    std::ostringstream tree;
    sys.print_tree(tree);
    EXPECT_THAT(tree.str(), ::testing::HasSubstr("set hbm.stacks = 1 (preset 5)"));
    EXPECT_THAT(tree.str(), ::testing::HasSubstr("mem -> noc0"));
    // The GPU's kernels see the memory its port reaches: one stack.
    const ConfigNode gpu = ConfigNode::root_of(sys.find("gpu0")->spec->config);
    uint32_t stacks = 0;
    gpu.child("hbm").get("stacks", stacks);
    EXPECT_EQ(stacks, 1u);
}

TEST(SystemBuilder, DgxH100WiresEveryNvlinkToASwitchPort) {
    Fixture fx;
    system::System sys(fx.kinds, system::SystemSpec::from_file(std::string(WALLSIM_SOURCE_DIR) +
                                                                   "/configs/systems/dgx_h100.yaml",
                                                               {}, fx.devices()));
    EXPECT_EQ(sys.devices().size(), 8u);
    const auto* port =
        dynamic_cast<system::StructureModule*>(sc_core::sc_find_object("gpu7.nvlink_17"));
    ASSERT_NE(port, nullptr);
    EXPECT_EQ(port->peer(), "nvswitch3.port_39");  // 8 GPUs × 5 links: ports 0..39
}

void expect_error(Fixture& fx,
                  const std::string& yaml,
                  const std::string& where,
                  const std::string& what) {
    const std::string message = testing::config_error([&] { fx.build_text(yaml); });
    EXPECT_THAT(message, ::testing::HasSubstr(where));
    EXPECT_THAT(message, ::testing::HasSubstr(what));
}

TEST(SystemBuilder, AnUnboundMemoryPortIsAConfigError) {
    Fixture fx;
    expect_error(fx, ("instances:\n  gpu0: {extends: HW/h100.yaml}\n"), "test_system.yaml:2",
                 "gpu0.mem is not connected");
}

TEST(SystemBuilder, AMemoryQueueIsCheckedAgainstItsDescription) {
    Fixture fx;
    expect_error(fx,
                 ("instances:\n"
                  "  gpu0: {extends: HW/h100.yaml}\n"
                  "  mem0: {kind: memory, bandwidth: 10GB/s, queue: 0}\n"
                  "connections:\n"
                  "  - gpu0.mem -> mem0\n"),
                 "test_system.yaml:3:50",
                 "queue: = 0 is out of range: must be between 1 and 1048576");
}

TEST(SystemBuilder, AnInterconnectLatencyNeedsAUnit) {
    Fixture fx;
    expect_error(fx,
                 ("instances:\n"
                  "  gpu0: {extends: HW/h100.yaml}\n"
                  "  mem0: {kind: memory, ideal: true}\n"
                  "  noc0: {kind: interconnect, latency: fast}\n"
                  "connections:\n"
                  "  - gpu0.mem -> noc0\n"
                  "  - noc0 -> mem0\n"),
                 "test_system.yaml:4:39", "latency: 'fast': expected a number with a unit");
}

TEST(SystemBuilder, TwoInitiatorsOnOneMemoryNeedAnInterconnect) {
    Fixture fx;
    expect_error(fx,
                 ("instances:\n"
                  "  gpu0: {extends: HW/h100.yaml}\n"
                  "  gpu1: {extends: HW/h100.yaml}\n"
                  "  hbm0: {kind: hbm, extends: HW/h100.yaml}\n"
                  "connections:\n"
                  "  - gpu0.mem -> hbm0\n"
                  "  - gpu1.mem -> hbm0\n"),
                 "test_system.yaml:7", "need an interconnect");
}

TEST(SystemBuilder, AConnectionToAnUnknownInstanceNamesTheInstances) {
    Fixture fx;
    expect_error(fx,
                 ("instances:\n"
                  "  gpu0: {extends: HW/h100.yaml}\n"
                  "connections:\n"
                  "  - gpu0.mem -> hbm9\n"),
                 "test_system.yaml:4", "no instance 'hbm9'; instances: gpu0");
}

TEST(SystemBuilder, AMemoryPortCannotGoToASwitch) {
    Fixture fx;
    expect_error(fx,
                 ("instances:\n"
                  "  gpu0: {extends: HW/h100.yaml}\n"
                  "  sw: {kind: nvswitch}\n"
                  "connections:\n"
                  "  - gpu0.mem -> sw\n"),
                 "test_system.yaml:5", "sw (nvswitch) has no single a memory target");
}

TEST(SystemBuilder, AnUnknownKindListsTheKinds) {
    Fixture fx;
    expect_error(fx, ("instances:\n  x: {kind: tpu}\n"), "test_system.yaml:2",
                 "'tpu' is not a module kind; expected one of: memory, interconnect");
}

}  // namespace
}  // namespace sim
