// SPDX-License-Identifier: MIT
// One end of a link (an NVLink, a PCIe link, a network port) as a TLM-2.0 module: `tx`, an
// initiator socket, sends into the peer's `rx`, a target socket, and the peer's `tx` into this
// `rx`, so a wired link is two bindings, one per direction. A port has no process (DESIGN.md):
// the block that owns it (a device, a switch) calls send() from its own process and hears of
// what arrives on rx and of answers to what it sent through the LinkOwner interface.
//
// Timing, base protocol, approximately timed: a transaction is a chunk of bytes written to the
// peer. Its port serialises the chunks it sends in order at the link's bandwidth (the lower of
// the two ends'); BEGIN_REQ carries, as its annotated delay, the time until the chunk's last
// byte reaches the peer (queueing behind earlier chunks, its own serialisation, the link's
// latency). The peer accepts at once (END_REQ) and answers with BEGIN_RESP once the chunk has
// reached its destination; each link the answer crosses back adds its latency.
#pragma once

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include <string>

#include "sim/core/types.h"
#include "sim/system/structure.h"

namespace sim::tlm_util {

class LinkPort;

/// The block whose process runs a set of link ports.
class LinkOwner {
  public:
    virtual ~LinkOwner() = default;
    /// A chunk came in on port.rx; its last byte arrives at `at` (>= now). Return
    /// TLM_COMPLETED when this block is its destination (it has arrived), or take it over and
    /// return TLM_ACCEPTED to answer later through port.answer().
    virtual tlm::tlm_sync_enum arrived(LinkPort& port,
                                       tlm::tlm_generic_payload& trans,
                                       TimePs at) = 0;
    /// The answer to a chunk this block sent on port.tx: it reached its destination, and the
    /// answer is back here at `at`.
    virtual void answered(LinkPort& port, tlm::tlm_generic_payload& trans, TimePs at) = 0;
};

struct LinkPortCounters {
    uint64_t chunks = 0;  ///< chunks sent
    double bytes = 0;     ///< bytes sent
    TimePs busy{0};       ///< time spent serialising them
};

class LinkPort final : public system::StructureModule {
  public:
    // A port may be left unwired (a NIC's network port in a one-node system).
    tlm_utils::simple_initiator_socket_optional<LinkPort> tx{"tx"};
    tlm_utils::simple_target_socket_optional<LinkPort> rx{"rx"};

    /// bandwidth: B/s this end sends per direction (> 0).
    LinkPort(sc_core::sc_module_name name,
             const std::string& kind,
             const std::string& summary,
             LinkOwner& owner,
             double bandwidth);

    /// Wires this port and peer both ways with the link's one-way latency.
    void connect(LinkPort& peer, TimePs latency);
    LinkPort* peer() const { return peer_; }
    LinkOwner& owner() const { return owner_; }
    /// B/s a chunk is sent at: the lower of the two ends' bandwidth once connected.
    double bandwidth() const { return bandwidth_; }
    TimePs latency() const { return latency_; }
    /// When the port has sent everything queued so far.
    TimePs free_at() const { return free_at_; }

    /// Sends trans (its data length is its size) to the peer at now, behind what this port is
    /// already sending. A switch forwards cut-through: a chunk whose first byte came in at
    /// head (<= now, its last byte at now) may leave from head on, but not end before now.
    /// Returns when its last byte reaches the peer.
    TimePs send(tlm::tlm_generic_payload& trans, TimePs now);
    TimePs send(tlm::tlm_generic_payload& trans, TimePs now, TimePs head);
    /// Time the port takes to send bytes.
    TimePs serialisation(double bytes) const;
    /// Answers a chunk that came in on rx (after arrived() returned TLM_ACCEPTED): its answer
    /// leaves here at `at` (>= now).
    void answer(tlm::tlm_generic_payload& trans, TimePs at);

    const LinkPortCounters& counters() const { return counters_; }

  private:
    tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);
    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& trans,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time& delay);

    LinkOwner& owner_;
    double bandwidth_;
    LinkPort* peer_ = nullptr;
    TimePs latency_{0};
    TimePs free_at_{0};
    LinkPortCounters counters_;
};

}  // namespace sim::tlm_util
