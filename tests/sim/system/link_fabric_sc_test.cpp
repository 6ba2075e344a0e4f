// SPDX-License-Identifier: MIT
// Traffic between devices over link modules: devices send the chunks of their jobs' LinkSends
// through their link ports (TLM-2.0), switches forward them cut-through to the least busy port
// toward the destination, and the router finds those ports. A job alone takes exactly its
// duration; jobs whose chunks meet on a link slow each other by exactly the link's bandwidth.
// Each TEST elaborates its own modules and calls sc_start once (gtest_discover_tests).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "sim/exec/device_module.h"
#include "sim/system/fabric.h"
#include "sim/tlm/chunk_memory.h"
#include "sim/tlm/link_port.h"
#include "sim/tlm/link_switch.h"

namespace sim {
namespace {

constexpr uint64_t kUs = 1'000'000;  // ps
constexpr double kGBs = 1e9;

// A device with `links` NVLink ports of `bandwidth` each, optionally a PCIe port after them,
// and an ideal memory, so that only its links can hold its jobs back.
class LinkedDevice final : public exec::DeviceModule {
  public:
    LinkedDevice(sc_core::sc_module_name name,
                 uint32_t links,
                 double bandwidth,
                 double pcie_bandwidth = 0)
        : exec::DeviceModule(name, "gpu"), memory_("memory", {}) {
        mem_socket.bind(memory_.tgt_socket);
        for (uint32_t i = 0; i < links; ++i) {
            ports_.push_back(std::make_unique<tlm_util::LinkPort>(
                ("nvlink_" + std::to_string(i)).c_str(), "nvlink_port", "", *this, bandwidth));
            add_link_port(*ports_.back());
        }
        if (pcie_bandwidth > 0) {
            ports_.push_back(std::make_unique<tlm_util::LinkPort>("pcie", "pcie_port", "", *this,
                                                                  pcie_bandwidth));
            add_link_port(*ports_.back());
        }
    }
    tlm_util::LinkPort& port(size_t i) { return *ports_.at(i); }

  private:
    tlm_util::ChunkMemory memory_;
    std::vector<std::unique_ptr<tlm_util::LinkPort>> ports_;
};

std::vector<tlm_util::LinkSwitchPort> switch_ports(uint32_t n, double bandwidth) {
    std::vector<tlm_util::LinkSwitchPort> out;
    for (uint32_t i = 0; i < n; ++i)
        out.push_back({"port_" + std::to_string(i), bandwidth});
    return out;
}

// Runs one job on a device from a thread of its own and records when it ran.
struct JobRunner : sc_core::sc_module {
    SC_HAS_PROCESS(JobRunner);
    JobRunner(sc_core::sc_module_name n, exec::DeviceModule& d, exec::Job j)
        : sc_core::sc_module(n), device(d), job(std::move(j)) {
        SC_THREAD(go);
    }
    void go() { times = device.run(job); }
    exec::DeviceModule& device;
    exec::Job job;
    exec::JobTimes times;
};

// A 1 ms job sending `bytes` to device `to`.
exec::Job sending(const exec::DeviceModule& from, const std::string& to, double bytes) {
    exec::Job j{TimePs{1000 * kUs}};
    j.link_sends = {{*from.link_id_of(to), bytes}};
    return j;
}

double ms(const exec::JobTimes& t) {
    return to_seconds(t.end - t.start) * 1e3;
}

// Four devices with two 10 GB/s links each to one switch.
struct Star {
    LinkedDevice a{"a", 2, 10 * kGBs}, b{"b", 2, 10 * kGBs}, c{"c", 2, 10 * kGBs},
        d{"d", 2, 10 * kGBs};
    tlm_util::LinkSwitch sw{"sw", "nvswitch", "", switch_ports(8, 10 * kGBs), "nvswitch_port"};
    Star() {
        uint32_t next = 0;
        for (LinkedDevice* dev : {&a, &b, &c, &d}) {
            for (size_t i = 0; i < 2; ++i)
                dev->port(i).connect(*sw.link_ports()[next++], TimePs{0});
        }
        system::route_fabric({{"a", &a}, {"b", &b}, {"c", &c}, {"d", &d}, {"sw", &sw}});
    }
};

TEST(LinkFabric, AJobAloneTakesExactlyItsDurationThroughASwitch) {
    Star s;
    // 16 MB in 1 ms over two 10 GB/s links: 80% of them.
    JobRunner r("r", s.a, sending(s.a, "b", 16e6));
    sc_core::sc_start();
    EXPECT_EQ(r.times.end.value(), 1000 * kUs);
    EXPECT_DOUBLE_EQ(s.a.counters().link_bytes, 16e6);
    EXPECT_DOUBLE_EQ(s.b.counters().link_bytes_in, 16e6);
    EXPECT_DOUBLE_EQ(s.sw.bytes_forwarded(), 16e6);
    // Split over both of a's links (whole bytes per chunk: within a byte a chunk), and over both
    // of the switch's links to b.
    EXPECT_NEAR(s.a.port(0).counters().bytes, 8e6, 64);
    EXPECT_NEAR(s.a.port(1).counters().bytes, 8e6, 64);
    EXPECT_NEAR(s.sw.link_ports()[2]->counters().bytes, 8e6, 0.6e6);
}

TEST(LinkFabric, TwoSendersIntoOneDeviceShareItsLinks) {
    Star s;
    // a and c each send b 16 MB, 80% of b's incoming links each: 32 MB through 20 GB/s.
    JobRunner ra("ra", s.a, sending(s.a, "b", 16e6));
    JobRunner rc("rc", s.c, sending(s.c, "b", 16e6));
    sc_core::sc_start();
    EXPECT_GE(ms(ra.times), 1.6 * 0.98);
    EXPECT_GE(ms(rc.times), 1.6 * 0.98);
    EXPECT_LE(std::max(ms(ra.times), ms(rc.times)), 1.6 * 1.05);
}

TEST(LinkFabric, SendersToDifferentDevicesDoNotSlowEachOther) {
    Star s;
    JobRunner ra("ra", s.a, sending(s.a, "b", 16e6));
    JobRunner rc("rc", s.c, sending(s.c, "d", 16e6));
    sc_core::sc_start();
    EXPECT_EQ(ra.times.end.value(), 1000 * kUs);
    EXPECT_EQ(rc.times.end.value(), 1000 * kUs);
}

TEST(LinkFabric, TrafficAboveTheLinksBandwidthTakesTheLinksTime) {
    Star s;
    // 30 MB in "1 ms" would need 30 GB/s of two 10 GB/s links: it takes 1.5 ms.
    JobRunner r("r", s.a, sending(s.a, "b", 30e6));
    sc_core::sc_start();
    EXPECT_NEAR(ms(r.times), 1.5, 0.03);
}

TEST(LinkFabric, DevicesWiredToEachOtherNeedNoSwitch) {
    LinkedDevice a("a", 1, 10 * kGBs), b("b", 1, 10 * kGBs);
    a.port(0).connect(b.port(0), TimePs{500'000});  // 0.5 us each way
    system::route_fabric({{"a", &a}, {"b", &b}});
    ASSERT_TRUE(a.link_id_of("b"));
    EXPECT_FALSE(a.link_id_of("a")) << "no switch brings a's traffic back to a";
    JobRunner r("r", a, sending(a, "b", 8e6));
    sc_core::sc_start();
    EXPECT_EQ(r.times.end.value(), 1000 * kUs);
    EXPECT_DOUBLE_EQ(b.counters().link_bytes_in, 8e6);
}

TEST(LinkFabric, ADeviceSendsOverItsFirstKindOfPortWhenSeveralReach) {
    // Both devices reach each other through a switch (NVLink) and through a host (PCIe), in
    // two hops either way: traffic keeps to NVLink, as NCCL does.
    LinkedDevice a("a", 1, 10 * kGBs, 30 * kGBs), b("b", 1, 10 * kGBs, 30 * kGBs);
    tlm_util::LinkSwitch sw("sw", "nvswitch", "", switch_ports(2, 10 * kGBs), "nvswitch_port");
    tlm_util::LinkSwitch host("host", "host", "", switch_ports(2, 30 * kGBs), "host_port");
    a.port(0).connect(*sw.link_ports()[0], TimePs{0});
    b.port(0).connect(*sw.link_ports()[1], TimePs{0});
    a.port(1).connect(*host.link_ports()[0], TimePs{0});
    b.port(1).connect(*host.link_ports()[1], TimePs{0});
    system::route_fabric({{"a", &a}, {"b", &b}, {"sw", &sw}, {"host", &host}});
    JobRunner r("r", a, sending(a, "b", 8e6));
    sc_core::sc_start();
    EXPECT_DOUBLE_EQ(a.port(0).counters().bytes, 8e6);
    EXPECT_EQ(a.port(1).counters().chunks, 0u);
    EXPECT_EQ(host.forwarded(), 0u);
}

}  // namespace
}  // namespace sim
