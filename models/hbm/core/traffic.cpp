// SPDX-License-Identifier: MIT
#include "models/hbm/core/traffic.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>

#include "models/hbm/core/in_flight.h"
#include "sim/core/error.h"

namespace sim::hbm {

void LatencyHistogram::add(uint64_t cycles) {
    ++bins_[std::min(cycles, kBins)];
    ++count_;
    sum_ += cycles;
    max_ = std::max(max_, cycles);
}

uint64_t LatencyHistogram::quantile(double q) const {
    if (count_ == 0) return 0;
    const auto rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
    uint64_t seen = 0;
    for (uint64_t c = 0; c <= kBins; ++c) {
        seen += bins_[c];
        if (seen >= std::max<uint64_t>(rank, 1)) return c == kBins ? max_ : c;
    }
    return max_;
}

Pattern parse_pattern(const std::string& name) {
    if (name == "stream") return Pattern::Stream;
    if (name == "write_stream") return Pattern::WriteStream;
    if (name == "read2_write1") return Pattern::Read2Write1;
    if (name == "copy") return Pattern::Copy;
    if (name == "random") return Pattern::Random;
    if (name == "strided") return Pattern::Strided;
    throw std::invalid_argument(
        "'" + name +
        "' is not a pattern; expected stream, write_stream, read2_write1, random or strided");
}

std::string to_string(Pattern p) {
    switch (p) {
        case Pattern::Stream: return "stream";
        case Pattern::WriteStream: return "write_stream";
        case Pattern::Read2Write1: return "read2_write1";
        case Pattern::Copy: return "copy";
        case Pattern::Random: return "random";
        case Pattern::Strided: return "strided";
    }
    return "?";
}

namespace {

// The i-th request of a pattern: its address and direction.
class AddressStream {
  public:
    AddressStream(const TrafficParams& p, uint64_t capacity, uint64_t count)
        : p_(p), capacity_(capacity), count_(count), rng_(p.seed) {}

    void next(uint64_t i, uint64_t& addr, bool& write) {
        const uint64_t r = p_.request_bytes;
        write = false;
        switch (p_.pattern) {
            case Pattern::Stream: addr = i * r; break;
            case Pattern::WriteStream:
                addr = i * r;
                write = true;
                break;
            case Pattern::Read2Write1: {
                // c[j] = a[j] + b[j]: three arrays, each a third of the requests.
                const uint64_t per_array = (count_ + 2) / 3;
                const uint64_t j = i / 3;
                addr = ((i % 3) * per_array + j) * r;
                write = i % 3 == 2;
                break;
            }
            case Pattern::Copy: {
                // dst[j] = src[j]: two arrays, alternating read and write.
                const uint64_t per_array = (count_ + 1) / 2;
                addr = ((i % 2) * per_array + i / 2) * r;
                write = i % 2 == 1;
                break;
            }
            case Pattern::Random: addr = (rng_() % (capacity_ / r)) * r; break;
            case Pattern::Strided: addr = (i * p_.stride) % (capacity_ / r * r); break;
        }
        addr %= capacity_;
    }

  private:
    TrafficParams p_;
    uint64_t capacity_;
    uint64_t count_;
    std::mt19937_64 rng_;
};

}  // namespace

TrafficResult run_traffic(HbmSystem& system, const TrafficParams& params) {
    const uint32_t access = system.config().shape.access_bytes;
    if (params.request_bytes == 0 || params.request_bytes % access != 0) {
        throw std::invalid_argument("request size must be a multiple of the " +
                                    std::to_string(access) + " B access granularity");
    }
    if (params.request_bytes > system.max_request_bytes()) {
        throw std::invalid_argument("request size " + std::to_string(params.request_bytes) +
                                    " B is larger than the mapping keeps in one row (" +
                                    std::to_string(system.max_request_bytes()) + " B)");
    }
    if (params.bytes < params.request_bytes)
        throw std::invalid_argument("bytes must be at least one request");
    if (params.outstanding == 0) throw std::invalid_argument("outstanding must be at least 1");
    if (params.pattern == Pattern::Strided &&
        (params.stride == 0 || params.stride % params.request_bytes != 0 ||
         params.stride > system.mapping().capacity())) {
        throw std::invalid_argument(
            "stride must be a positive multiple of the request size, at most the capacity");
    }
    const uint64_t capacity = system.mapping().capacity();
    const uint64_t total = params.bytes / params.request_bytes;
    const double clock = static_cast<double>(system.config().clock_hz);
    // Injection time of request i, computed afresh each time (no accumulated rounding).
    const auto inject_at = [&](uint64_t i) -> uint64_t {
        if (params.offered_bandwidth <= 0) return 0;
        return static_cast<uint64_t>(static_cast<double>(i) * params.request_bytes * clock /
                                     params.offered_bandwidth);
    };

    AddressStream stream(params, capacity, total);
    TrafficResult result;
    InFlight in_flight;
    std::vector<Completion> done;
    std::vector<size_t> touched;
    // Requests a full controller queue refused wait in front of their own pseudo-channel (a
    // crossbar buffer per channel), so one busy or refreshing channel does not stall the rest.
    // The window counts those and the reads the controllers hold. Writes are posted, as L2
    // write-backs are: one leaves the window when its controller queue accepts it. Holding it
    // until its data reached the DRAM let writes waiting for a drain crowd the reads out of
    // the window, so that a deeper write queue made mixed traffic slower.
    struct Waiting {
        MemRequest request;
        uint64_t arrival;  ///< when it reaches the controller, were there room
    };
    std::vector<std::deque<Waiting>> waiting(system.pseudo_channel_count());
    std::mt19937_64 jitter(params.seed + 1);
    uint64_t now = 0, issued = 0, outstanding = 0, retired = 0;
    // A request refused earlier arrives when the queue takes it (try_send counts an arrival
    // before the latest advance as then), but no earlier than drawn.
    const auto offer = [&](size_t pc, const MemRequest& r, uint64_t arrival) {
        if (params.arrival_jitter == 0) return system.try_enqueue(pc, r, now);
        return system.try_send(pc, r, arrival);
    };

    const uint32_t block_shift = system.mapping().column_block_shift();
    uint64_t decoded_block = ~0ULL;
    AddressParts parts;
    size_t decoded_pc = 0;
    while (retired < total) {
        done.clear();
        touched.clear();
        system.advance(now, done, &touched);
        for (const Completion& c : done)
            in_flight.push(c);
        while (!in_flight.empty() && in_flight.earliest_done() <= now) {
            const Completion c = in_flight.pop();
            (c.write ? result.write_latency : result.read_latency).add(c.done - c.arrival);
            (c.write ? result.bytes_written : result.bytes_read) += c.bytes;
            result.cycles = std::max(result.cycles, c.done);
            if (!c.write) --outstanding;  // a write left the window when it was queued
            ++retired;
        }
        for (size_t pc : touched) {
            auto& w = waiting[pc];
            while (!w.empty() && offer(pc, w.front().request, w.front().arrival)) {
                if (w.front().request.write) --outstanding;
                w.pop_front();
            }
        }
        while (issued < total && outstanding < params.outstanding && inject_at(issued) <= now) {
            uint64_t addr = 0;
            bool write = false;
            stream.next(issued, addr, write);
            // Requests in one column block decode alike but for the column, which a request
            // does not carry: a stream decodes once per block (as the GPU's L2 does).
            if (addr >> block_shift != decoded_block) {
                decoded_block = addr >> block_shift;
                system.mapping().decode_into(addr, parts);
                decoded_pc = system.pseudo_channel_of(parts);
            }
            const size_t pc = decoded_pc;
            const MemRequest r = system.request_for(issued, parts, write, params.request_bytes);
            ++issued;
            const uint64_t arrival =
                params.arrival_jitter ? now + jitter() % (params.arrival_jitter + 1ULL) : now;
            const bool accepted = waiting[pc].empty() && offer(pc, r, arrival);
            if (!accepted) {
                ++result.stalled_enqueues;
                waiting[pc].push_back({r, arrival});
            }
            if (!accepted || !write) ++outstanding;  // an accepted write is posted
        }
        if (system.queued() == 0 && in_flight.empty() && issued < total &&
            inject_at(issued) > now + 1) {
            // Nothing in flight until the next injection: skip the idle stretch, booking the
            // refreshes that fall due in it, instead of stepping through each one.
            now = inject_at(issued);
            system.skip_idle_refreshes(now);
            continue;
        }
        uint64_t next = system.next_event();
        if (!in_flight.empty()) next = std::min(next, in_flight.earliest_done());
        if (issued < total && outstanding < params.outstanding)
            next = std::min(next, inject_at(issued));
        SIM_ASSERT(next != kNever,
                   "traffic run stalled with " << (total - retired) << " requests outstanding");
        now = std::max(next, now + 1);
    }
    result.requests = total;
    system.finish(result.cycles);
    return result;
}

}  // namespace sim::hbm
