// SPDX-License-Identifier: MIT
// The controller of one HBM pseudo-channel: read and write queues, an FR-FCFS scheduler
// (oldest ready row hit first, then the oldest request's ACT or PRE), write drain between
// watermarks, open- or closed-row policy and all-bank refresh every tREFI. Row commands and
// column commands use separate command buses (HBM has both), so one of each may issue per
// cycle. Event-driven: next_event() is the next cycle anything can happen; advance() is only
// called then, never on idle cycles.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "models/hbm/core/address_mapping.h"
#include "models/hbm/core/bank_timing.h"

namespace sim::hbm {

inline constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

struct ControllerParams {
    uint32_t read_queue = 32;            ///< read queue entries, >= 1
    uint32_t write_queue = 32;           ///< write queue entries, >= 1
    uint32_t write_high_watermark = 24;  ///< start draining writes at this many
    uint32_t write_low_watermark = 8;    ///< stop draining at this many
    bool open_row = true;                ///< false: close a row when no queued request hits it
    uint32_t frontend_cycles = 4;        ///< arrival -> schedulable (decode, queue insert)
};

struct MemRequest {
    uint64_t id = 0;
    bool write = false;
    uint32_t bursts = 1;  ///< bursts of access_bytes
    AddressParts at;
};

struct Completion {
    uint64_t id = 0;
    bool write = false;
    uint64_t arrival = 0;  ///< cycle it entered the controller
    uint64_t done = 0;     ///< cycle its last data beat moved
    uint32_t bytes = 0;
};

struct ChannelCounters {
    uint64_t reads = 0, writes = 0;  ///< requests completed
    uint64_t read_bursts = 0, write_bursts = 0;
    uint64_t activates = 0, precharges = 0, refreshes = 0;
    uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
    uint64_t refresh_cycles = 0;  ///< cycles banks were locked by refresh
    uint64_t queue_integral = 0;  ///< sum over cycles of queued requests
};

class PseudoChannel {
  public:
    /// refresh_phase staggers this channel's first REF (0 .. tREFI).
    PseudoChannel(const DramTiming& t,
                  const PseudoChannelShape& shape,
                  const ControllerParams& params,
                  uint64_t refresh_phase);

    bool can_accept(bool write) const;
    /// Queues r at cycle now; requires can_accept(r.write).
    void enqueue(const MemRequest& r, uint64_t now);
    /// The next cycle at which advance() has work (kNever if nothing will ever happen).
    uint64_t next_event() const { return next_event_; }
    /// Issues what is legal at cycle now and appends finished requests to done.
    void advance(uint64_t now, std::vector<Completion>& done);

    size_t queued() const { return reads_.size() + writes_.size(); }
    /// For an idle pseudo-channel whose refreshes fell due before now: books them as done on
    /// time (rows closed, the last one's tRFC lock kept) instead of issuing them late.
    void skip_idle_refreshes(uint64_t now);
    const ChannelCounters& counters() const { return counters_; }
    const BankTiming& timing() const { return timing_; }
    /// Closes the queue-occupancy integral at the end of a run.
    void finish(uint64_t now) { account_queue(now); }

  private:
    struct Entry {
        MemRequest req;
        uint32_t bank = 0;  // flat bank index
        uint64_t arrival = 0;
        uint64_t ready_at = 0;
        uint32_t bursts_left = 0;
        bool saw_closed = false, saw_conflict = false, started = false;
    };
    void account_queue(uint64_t now);
    /// Issues the oldest ready row hit of q; returns whether some ready entry needs a row
    /// command (ACT or PRE).
    bool issue_column(std::vector<Entry>& q,
                      uint64_t now,
                      std::vector<Completion>& done,
                      uint64_t& next);
    bool issue_row(std::vector<Entry>& q, uint64_t now, uint64_t& next);
    void close_idle_rows(uint64_t now, uint64_t& next);
    bool refresh_step(uint64_t now, uint64_t& next);
    /// Banks (bit per bank, at most 64) whose open row some entry of q hits.
    uint64_t hit_mask(const std::vector<Entry>& q) const;

    BankTiming timing_;
    PseudoChannelShape shape_;
    ControllerParams params_;
    std::vector<Entry> reads_, writes_;
    bool draining_ = false;
    uint64_t refresh_due_;
    uint64_t next_event_;
    uint64_t queue_since_ = 0;
    ChannelCounters counters_;
};

}  // namespace sim::hbm
