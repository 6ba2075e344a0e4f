// SPDX-License-Identifier: MIT
// All pseudo-channels of all HBM stacks behind one address mapping, advanced from one event
// calendar: only pseudo-channels with work are touched, each at its own next cycle (one process
// ticking many C++ cores, DESIGN.md). Pure C++.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/hbm/core/address_mapping.h"
#include "models/hbm/core/pseudo_channel.h"
#include "sim/core/calendar_queue.h"
#include "sim/core/error.h"

namespace sim::hbm {

struct HbmCoreConfig {
    DramTiming timing;
    PseudoChannelShape shape;
    ControllerParams controller;
    uint32_t stacks = 1;
    uint32_t channels_per_stack = 16;
    uint32_t pseudo_channels_per_channel = 2;
    std::vector<std::string> layout;
    bool xor_bank_with_row = true;
    bool skew_partitions = false;       ///< rotate the partition index by the upper address
    uint64_t clock_hz = 1'000'000'000;  ///< memory command clock
};

/// The address-mapping field counts of an organisation.
MappingShape mapping_shape_of(const HbmCoreConfig& config);

class HbmSystem {
  public:
    /// Throws std::invalid_argument for a mapping that does not fit the organisation.
    explicit HbmSystem(const HbmCoreConfig& config);

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
    /// touched when given if they completed requests (their queues have room again).
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

    HbmCoreConfig config_;
    AddressMapping mapping_;
    std::vector<PseudoChannel> channels_;
    std::vector<uint64_t> scheduled_;
    CalendarQueue calendar_;
    std::vector<uint32_t> due_;  ///< pseudo-channels popped from the calendar, reused
    uint32_t granule_bytes_ = 0;
    uint64_t queued_ = 0;
    uint64_t advanced_to_ = 0;  ///< the latest cycle advance() was called for
};

}  // namespace sim::hbm
