// SPDX-License-Identifier: MIT
// The SystemC shell every device of a system shares (a GPU, a systolic array, a CIM chip): it
// runs the jobs its operators turn into (sim/exec/core/job_table.h), several at once, and sends
// their memory traffic as chunk transactions through its memory port (TLM-2.0 base protocol,
// approximately timed: BEGIN_REQ waits for END_REQ, answers come as BEGIN_RESP) and what they
// send to other devices through its link ports (sim/tlm/link_port.h), each chunk split over the
// ports the system's router found toward its destination in proportion to their bandwidth.
// One SC_METHOD does all of it: it wakes when a job reaches its next chunk or its end, when an
// answer comes back, or when a job starts, and sleeps until then (no clock, no per-cycle
// wake-up). Subclasses add the device's structure (SMs, tiles, buffers, link ports) as child
// modules.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <systemc>
#include <tlm>

#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/exec/core/job_table.h"
#include "sim/tlm/link_node.h"
#include "sim/tlm/origin_extension.h"
#include "sim/tlm/payload_pool.h"

namespace sim::exec {

class DeviceModule : public sc_core::sc_module,
                     public DeviceExecutor,
                     public tlm_util::LinkOwner,
                     public tlm_util::LinkNode {
  public:
    /// The device's port to its memory (bound by the system builder to a memory, directly or
    /// through an interconnect).
    tlm_utils::simple_initiator_socket<DeviceModule> mem_socket{"mem_socket"};

    SC_HAS_PROCESS(DeviceModule);
    /// kind: the device kind of the hardware file ("gpu", "systolic", "cim").
    DeviceModule(sc_core::sc_module_name name, std::string kind, const JobTableParams& params = {});

    /// Blocks the calling SystemC thread until the job has finished.
    JobTimes run(const Job& job) override;

    /// The device kind ("gpu", "systolic", "cim"), as sc_object::kind() reports it.
    const char* kind() const override { return kind_.c_str(); }

    std::optional<uint32_t> link_id_of(const std::string& device) const override;
    const std::vector<tlm_util::LinkPort*>& link_ports() const override { return link_ports_; }
    bool forwards() const override { return false; }
    void set_routes(tlm_util::LinkRoutes routes) override { routes_ = std::move(routes); }

    /// Counters for stats: jobs run, chunks sent, time jobs spent beyond their duration.
    struct Counters {
        uint64_t jobs = 0;
        uint64_t chunks = 0;
        double memory_bytes = 0;
        TimePs alone{0};    ///< summed durations of the jobs alone
        TimePs elapsed{0};  ///< summed time they took here
        uint32_t most_at_once = 0;
        uint64_t link_chunks = 0;  ///< chunk transactions sent through the link ports
        double link_bytes = 0;     ///< bytes sent through them
        double link_bytes_in = 0;  ///< bytes other devices sent here
    };
    const Counters& counters() const { return counters_; }

  protected:
    /// A child link port this device sends through (subclasses create them).
    void add_link_port(tlm_util::LinkPort& port) { link_ports_.push_back(&port); }

  private:
    tlm::tlm_sync_enum arrived(tlm_util::LinkPort& port,
                               tlm::tlm_generic_payload& trans,
                               TimePs at) override;
    void answered(tlm_util::LinkPort& port, tlm::tlm_generic_payload& trans, TimePs at) override;
    void send_link_chunk(const ChunkRequest& c);
    /// A pooled payload of bytes (timing only: its data pointer is a dummy no target reads).
    tlm::tlm_generic_payload* chunk_payload(tlm::tlm_command command, unsigned bytes);
    void on_wakeup();
    void step(TimePs now);
    void send_queued();
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    void answered(tlm::tlm_generic_payload& trans, TimePs at);

    std::string kind_;
    JobTable table_;
    tlm_util::PayloadPool pool_;
    std::vector<unsigned char> dummy_data_;  // chunk payloads point here; memories do not touch it
    std::map<uint64_t, sc_core::sc_event*> waiting_;
    std::deque<ChunkRequest> to_send_;
    tlm::tlm_generic_payload* open_ = nullptr;  // BEGIN_REQ sent, END_REQ not yet received
    std::unordered_map<tlm::tlm_generic_payload*, uint64_t> in_flight_;
    struct Answer {
        uint64_t job;
        Port port;
    };
    std::multimap<TimePs, Answer> answers_;  // answers to apply, by the time they count
    // Link traffic: each job's sends, and each link chunk's parts still on the way.
    struct LinkChunk {
        uint64_t job;
        uint32_t parts_left;
        TimePs last{0};  ///< when the latest answer so far came back
    };
    std::vector<tlm_util::LinkPort*> link_ports_;
    tlm_util::LinkRoutes routes_;
    std::unordered_map<uint64_t, std::vector<LinkSend>> link_sends_;
    std::vector<LinkChunk> link_chunks_;  // slots, reused
    std::vector<uint32_t> free_link_chunks_;
    std::unordered_map<tlm::tlm_generic_payload*, uint32_t> link_in_flight_;  // part -> slot
    std::vector<ChunkRequest> issue_;
    std::vector<uint64_t> finished_;
    uint64_t next_address_ = 0;
    sc_core::sc_event wake_;
    Counters counters_;
};

}  // namespace sim::exec
