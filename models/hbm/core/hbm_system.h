// SPDX-License-Identifier: MIT
// All pseudo-channels of all HBM stacks behind one address mapping, advanced from one event
// calendar: only pseudo-channels with work are touched, each at its own next cycle (one process
// ticking many C++ cores, DESIGN.md). When the pseudo-channels of a channel share its command
// buses, a channel is advanced as a whole: all its pseudo-channels at every cycle one of them
// is due, in an order that rotates with the cycle, so that which one wins the bus does not
// depend on the calendar's order. Pure C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/hbm/core/address_mapping.h"
#include "models/hbm/core/pseudo_channel.h"
#include "sim/core/error.h"
#include "sim/core/index_calendar.h"

namespace sim::hbm {

/// The command buses (command_bus.h). The defaults are no bus model at all: one row and one
/// column command per pseudo-channel per clock.
struct CommandBusConfig {
    bool shared = false;      ///< one pair of buses per channel, for all its pseudo-channels
    uint32_t act_halves = 2;  ///< half clocks an ACT holds the row bus
    uint32_t pre_halves = 2;  ///< half clocks a PRE or REF holds it
    bool modelled() const { return shared || act_halves != 2 || pre_halves != 2; }
};

struct HbmCoreConfig {
    DramTiming timing;
    PseudoChannelShape shape;
    ControllerParams controller;
    uint32_t stacks = 1;
    uint32_t channels_per_stack = 16;
    uint32_t pseudo_channels_per_channel = 2;
    std::vector<std::string> layout;
    bool xor_bank_with_row = true;
    bool skew_partitions = false;  ///< rotate the partition index by the upper address
    bool column_xor = false;       ///< XOR column bits into pc, sid, bank group, bank, row
    CommandBusConfig command_bus;
    uint64_t clock_hz = 1'000'000'000;  ///< memory command clock
};

/// The address-mapping field counts of an organisation.
MappingShape mapping_shape_of(const HbmCoreConfig& config);

class HbmSystem {
  public:
    /// Throws std::invalid_argument for a mapping that does not fit the organisation.
    explicit HbmSystem(const HbmCoreConfig& config);
    // The pseudo-channels point into buses_: a copy would share the original's buses.
    HbmSystem(const HbmSystem&) = delete;
    HbmSystem& operator=(const HbmSystem&) = delete;
    HbmSystem(HbmSystem&&) = default;

    /// Queues a request of bytes (a multiple of the access size, within one interleave
    /// granule) at cycle now. Returns false (nothing queued) when its queue is full.
    bool try_enqueue(uint64_t id, uint64_t addr, bool write, uint32_t bytes, uint64_t now) {
        return try_enqueue(id, mapping_.decode(addr), write, bytes, now);
    }
    /// The same for an address already decoded (callers that also need its pseudo-channel).
    bool try_enqueue(
        uint64_t id, const AddressParts& at, bool write, uint32_t bytes, uint64_t now) {
        return try_enqueue(pseudo_channel_of(at), request_for(id, at, write, bytes), now);
    }
    /// The same for a request already built for pseudo-channel pc (a caller holding refused
    /// requests to retry them).
    bool try_enqueue(size_t pc, const MemRequest& r, uint64_t now);
    /// Sends r to pseudo-channel pc to arrive at cycle arrival, which may lie ahead
    /// (PseudoChannel::send); an arrival before the latest advance() counts as then. Returns
    /// false (nothing sent) when its queue is full.
    bool try_send(size_t pc, const MemRequest& r, uint64_t arrival);
    /// The pseudo-channel request for a decoded address. Inline: built in the caller's
    /// registers, not returned through memory (see AddressMapping::decode_into).
    MemRequest request_for(uint64_t id, const AddressParts& at, bool write, uint32_t bytes) const {
        SIM_ASSERT(bytes % config_.shape.access_bytes == 0 && bytes <= granule_bytes_,
                   "request of " << bytes << " B does not fit one interleave granule");
        MemRequest r;
        r.id = id;
        r.write = write;
        r.bursts = bytes / config_.shape.access_bytes;
        r.row = static_cast<uint32_t>(at.row);
        r.bank_group = static_cast<uint16_t>(at.bank_group);
        r.bank = static_cast<uint16_t>(at.bank);
        return r;
    }
    /// The pseudo-channel an address maps to.
    size_t pseudo_channel_of(uint64_t addr) const {
        return pseudo_channel_of(mapping_.decode(addr));
    }
    size_t pseudo_channel_of(const AddressParts& at) const {
        return (size_t{at.stack} * config_.channels_per_stack + at.channel) *
                   config_.pseudo_channels_per_channel +
               at.pseudo_channel;
    }
    /// The earliest cycle any pseudo-channel may have work; kNever when all are idle for good.
    /// A lower bound: a pseudo-channel rescheduled earlier by a new request leaves its old
    /// event behind, and advance() at that cycle may then find nothing to do.
    uint64_t next_event() const;
    /// Advances every pseudo-channel whose event is due at now; their indices are appended to
    /// touched when given if they completed requests (their queues have room again; with
    /// queues shared per channel, every pseudo-channel of the channel is appended).
    void advance(uint64_t now,
                 std::vector<Completion>& done,
                 std::vector<size_t>* touched = nullptr);
    /// Requests queued in controllers (accepted, not yet fully issued).
    uint64_t queued() const { return queued_; }
    /// After idle time: books refreshes that fell due before now on every idle pseudo-channel
    /// (see PseudoChannel::skip_idle_refreshes).
    void skip_idle_refreshes(uint64_t now);
    /// Closes time-weighted stats at the end of a run.
    void finish(uint64_t now);

    size_t pseudo_channel_count() const { return channels_.size(); }
    const PseudoChannel& pseudo_channel(size_t i) const { return channels_[i]; }
    const AddressMapping& mapping() const { return mapping_; }
    const HbmCoreConfig& config() const { return config_; }
    /// Peak data bytes per memory clock over all pseudo-channels.
    double peak_bytes_per_cycle() const;
    /// Largest request that stays in one row of one pseudo-channel.
    uint32_t max_request_bytes() const { return granule_bytes_; }

  private:
    void schedule(size_t pc);
    /// Advances pc at now (once per cycle at most) and reschedules it.
    void advance_one(size_t pc,
                     uint64_t now,
                     std::vector<Completion>& done,
                     std::vector<size_t>* touched);
    /// After pc's shared queue state changed the channel's write drain at now: its siblings
    /// look again from the next cycle.
    void wake_siblings_if_drain_changed(size_t pc, uint64_t changes_before, uint64_t now);
    uint64_t drain_changes(size_t pc) const {
        return shared_.empty() ? 0 : shared_[pc / group_].drain_changes;
    }

    HbmCoreConfig config_;
    AddressMapping mapping_;
    std::vector<CommandBus> buses_;     ///< per channel when shared, else per pseudo-channel
    std::vector<SharedQueues> shared_;  ///< per channel, with queues_per_channel
    std::vector<PseudoChannel> channels_;
    uint32_t group_ = 1;                 ///< pseudo-channels advanced together (sharing a bus)
    std::vector<uint64_t> advanced_at_;  ///< per pseudo-channel, with group_ > 1
    std::vector<uint64_t> scheduled_;
    /// Pseudo-channels come out of it in index order: the order they were scheduled in
    /// depends on when each last woke, and the caller sees a cycle's completions, and retries
    /// refused requests on the pseudo-channels they free, in the order they are advanced. In
    /// scheduling order, a change that only woke the controllers less often moved a GPU
    /// kernel's cycles by up to 0.5%.
    IndexCalendar calendar_;
    std::vector<uint32_t> due_;  ///< pseudo-channels popped from the calendar, reused
    uint32_t granule_bytes_ = 0;
    uint64_t queued_ = 0;
    uint64_t advanced_to_ = 0;  ///< the latest cycle advance() was called for
};

}  // namespace sim::hbm
