// SPDX-License-Identifier: MIT
#include "models/hbm/core/trace_replay.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "models/hbm/core/in_flight.h"
#include "sim/core/error.h"

namespace sim::hbm {

TrafficResult replay_trace(HbmSystem& system, const DramTrace& trace, const TraceReplayParams& p) {
    const uint32_t access = system.config().shape.access_bytes;
    const uint32_t granule = system.max_request_bytes();
    if (p.request_bytes == 0 || p.request_bytes % access != 0 || granule % p.request_bytes != 0) {
        throw std::invalid_argument("request size " + std::to_string(p.request_bytes) +
                                    " B must be a multiple of the " + std::to_string(access) +
                                    " B burst that divides the " + std::to_string(granule) +
                                    " B the mapping keeps in one row");
    }
    const uint64_t capacity = system.mapping().capacity();
    const uint64_t total = trace.accesses.size();
    const TraceAccess* accesses = trace.accesses.data();
    TrafficResult result;
    InFlight in_flight;
    std::vector<Completion> done;
    uint64_t now = 0, next = 0, retired = 0;
    // The access at the head of the front end, decoded once however often it is refused.
    bool decoded = false, refused = false;
    size_t head_pc = 0;
    MemRequest head;
    while (retired < total) {
        done.clear();
        system.advance(now, done);
        for (const Completion& c : done)
            in_flight.push(c);
        while (!in_flight.empty() && in_flight.earliest_done() <= now) {
            const Completion c = in_flight.pop();
            (c.write ? result.write_latency : result.read_latency).add(c.done - c.arrival);
            (c.write ? result.bytes_written : result.bytes_read) += c.bytes;
            result.cycles = std::max(result.cycles, c.done);
            ++retired;
        }
        uint32_t sent = 0;
        bool blocked = false;
        while (next < total && (p.issue_per_cycle == 0 || sent < p.issue_per_cycle)) {
            const TraceAccess& a = accesses[next];
            if (p.honour_cycles && a.cycle() > now) break;
            if (!decoded) {
                const uint64_t addr = (a.addr - a.addr % p.request_bytes) % capacity;
                const AddressParts at = system.mapping().decode(addr);
                head_pc = system.pseudo_channel_of(at);
                head = system.request_for(next, at, a.write(), p.request_bytes);
                decoded = true;
            }
            if (!system.try_enqueue(head_pc, head, now)) {
                if (!refused) ++result.stalled_enqueues;
                refused = blocked = true;
                break;
            }
            decoded = refused = false;
            ++next;
            ++sent;
        }
        if (system.queued() == 0 && in_flight.empty() && next < total && p.honour_cycles &&
            accesses[next].cycle() > now + 1) {
            // Nothing in flight until the next access: skip the idle stretch, booking the
            // refreshes that fall due in it, instead of stepping through each one.
            now = accesses[next].cycle();
            system.skip_idle_refreshes(now);
            continue;
        }
        uint64_t wake = system.next_event();
        if (!in_flight.empty()) wake = std::min(wake, in_flight.earliest_done());
        // A refused head is retried when its controller frees an entry, which happens only at
        // one of the controller's own events; otherwise the front end goes on next cycle (its
        // per-cycle budget) or at the next access's cycle.
        if (next < total && !blocked) {
            const uint64_t at = p.honour_cycles ? accesses[next].cycle() : 0;
            wake = std::min(wake, std::max(at, now + 1));
        }
        SIM_ASSERT(wake != kNever,
                   "trace replay stalled with " << (total - retired) << " accesses outstanding");
        now = std::max(wake, now + 1);
    }
    result.requests = total;
    system.finish(result.cycles);
    return result;
}

}  // namespace sim::hbm
