// SPDX-License-Identifier: MIT
// A memory as a TLM-2.0 target of chunk-sized transactions (base protocol, approximately
// timed), the memory port every device of a system talks to. It keeps one queue per source
// (the initiator named by each request's OriginExtension, as memory controllers keep per-source
// queues) and serves the oldest request of every source at once, each at an equal share of its
// bandwidth: a source alone gets all of it; two devices streaming at once get half each, and
// each one's requests take longer. The queue is bounded: when it is full END_REQ waits, so a
// busy memory slows its initiators down (back-pressure). Timing only; data is not touched.
//   BEGIN_REQ -> END_REQ (at once when the queue has room, later otherwise)
//   BEGIN_RESP when the chunk's last byte has moved; TLM_COMPLETED or END_RESP ends it.
// Annotated delays on BEGIN_REQ (an interconnect's latency) count as later arrival.
// A bandwidth of 0 is an ideal memory: every chunk completes at once (TLM_COMPLETED).
#pragma once

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include <deque>
#include <optional>
#include <string>

#include "sim/core/types.h"

namespace sim::tlm_util {

struct ChunkMemoryParams {
    double bandwidth = 0;        ///< B/s the memory moves, read and write alike; 0: ideal
    uint32_t queue_chunks = 16;  ///< requests it holds before END_REQ waits, >= 1

    void validate() const;  ///< throws SimBug (params are validated where they are read)
};

class ChunkMemory : public sc_core::sc_module {
  public:
    tlm_utils::simple_target_socket<ChunkMemory> tgt_socket{"tgt_socket"};

    SC_HAS_PROCESS(ChunkMemory);
    ChunkMemory(sc_core::sc_module_name name, const ChunkMemoryParams& params);

    const ChunkMemoryParams& params() const { return params_; }
    uint64_t chunks_served() const { return served_; }
    double bytes_served() const { return bytes_; }
    /// Time the memory spent moving data.
    TimePs busy() const { return busy_; }
    /// Summed time chunks waited in the queue before their transfer began.
    TimePs queueing() const { return queueing_; }

  private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    void on_wakeup();
    void advance(TimePs now);
    void admit(TimePs now);
    void accept_blocked(TimePs now);
    std::optional<TimePs> next_event(TimePs now) const;

    struct Entry {
        tlm::tlm_generic_payload* trans;
        TimePs arrival;
        uintptr_t origin;
        double left = 0;  ///< bytes still to move, once in service
        bool serving = false;
    };
    ChunkMemoryParams params_;
    std::deque<Entry> queue_;  // every accepted request, oldest first
    uint32_t serving_ = 0;     // requests in service (the oldest of each source)
    tlm::tlm_generic_payload* blocked_ = nullptr;  // arrived while the queue was full
    TimePs blocked_arrival_{0};
    TimePs last_{0};
    bool response_open_ = false;                      // BEGIN_RESP sent, END_RESP not yet received
    std::deque<tlm::tlm_generic_payload*> finished_;  // waiting for the response channel
    sc_core::sc_event wake_;
    uint64_t served_ = 0;
    double bytes_ = 0;
    TimePs busy_{0};
    TimePs queueing_{0};
};

}  // namespace sim::tlm_util
