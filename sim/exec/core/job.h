// SPDX-License-Identifier: MIT
// What a device runs when it runs one operator: the operator's time alone on the device (as its
// timing model found it), the shares of the device's resources it fills while it runs, and the
// bytes it moves through the device's memory port. A device module runs several jobs at once
// (operators on different streams); they share compute slots, links and copy engines, and
// their memory traffic queues at whatever memory target the device's port is bound to, so a
// job alone takes exactly its duration and concurrent jobs slow each other by mechanism.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/types.h"

namespace sim::exec {

/// Bytes a job sends over the device's links to another device (or, for traffic a switch
/// reduces and sends back, to itself), named by its link id (DeviceExecutor::link_id_of).
struct LinkSend {
    uint32_t to = 0;
    double bytes = 0;  ///< > 0
};

/// One operator's demand on its device.
struct Job {
    TimePs duration;  ///< time alone on the device (the timing model's answer), > 0
    double compute =
        0;  ///< share of the compute slots (SMs' CTA slots, the array) it fills alone, [0, 1]
    /// share of the device's link bandwidth it uses alone, [0, 1]; ignored when link_sends
    /// carry its traffic over the link modules
    double link = 0;
    double copy = 0;          ///< share of the copy (DMA) engines it uses alone, [0, 1]
    double memory_bytes = 0;  ///< bytes it moves through the device's memory port, >= 0
    /// What it sends through the device's link ports, by destination; empty: its link share
    /// alone stands for its traffic (a collective whose peers are not modules of the system).
    std::vector<LinkSend> link_sends{};
    /// A kernel's grid: its CTAs and the CTA slots the device has for them (CTAs per SM × SMs).
    /// With a grid, a smaller share of the slots costs whole waves: a grid of one full wave
    /// that finds a sixth of the SMs taken runs in two (wave quantisation); 0: no grid.
    uint64_t ctas = 0;
    double cta_slots = 0;
};

/// When a job ran.
struct JobTimes {
    TimePs start;
    TimePs end;
};

/// Runs jobs on one device. Implemented by the device's SystemC module; run() is called from a
/// SystemC thread and returns when the job has finished.
class DeviceExecutor {
  public:
    virtual ~DeviceExecutor() = default;
    virtual JobTimes run(const Job& job) = 0;
    /// The link id of a device this one reaches over its link ports (NVLink, PCIe, through
    /// switches), for Job::link_sends; nullopt when there is no such path.
    virtual std::optional<uint32_t> link_id_of(const std::string& device) const {
        (void)device;
        return std::nullopt;
    }
};

}  // namespace sim::exec
