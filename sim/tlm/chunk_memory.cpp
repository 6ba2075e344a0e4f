// SPDX-License-Identifier: MIT
#include "sim/tlm/chunk_memory.h"

#include <algorithm>
#include <cmath>

#include "sim/core/error.h"
#include "sim/tlm/origin_extension.h"
#include "sim/tlm/sc_time_ps.h"

namespace sim::tlm_util {

void ChunkMemoryParams::validate() const {
    SIM_ASSERT(bandwidth >= 0, "memory bandwidth must be >= 0");
    SIM_ASSERT(queue_chunks >= 1, "memory queue must hold at least one chunk");
}

ChunkMemory::ChunkMemory(sc_core::sc_module_name name, const ChunkMemoryParams& params)
    : sc_core::sc_module(name), params_(params) {
    params_.validate();
    tgt_socket.register_nb_transport_fw(this, &ChunkMemory::nb_transport_fw);
    SC_METHOD(on_wakeup);
    sensitive << wake_;
    dont_initialize();
}

tlm::tlm_sync_enum ChunkMemory::nb_transport_fw(tlm::tlm_generic_payload& trans,
                                                tlm::tlm_phase& phase,
                                                sc_core::sc_time& delay) {
    if (phase == tlm::END_RESP) {
        response_open_ = false;
        wake_.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_COMPLETED;
    }
    SIM_ASSERT(phase == tlm::BEGIN_REQ, "unexpected phase on a memory target");
    const TimePs arrival = now_ps() + TimePs{delay.value()};
    if (params_.bandwidth == 0) {
        ++served_;
        bytes_ += double(trans.get_data_length());
        trans.set_response_status(tlm::TLM_OK_RESPONSE);
        return tlm::TLM_COMPLETED;
    }
    SIM_ASSERT(blocked_ == nullptr, "BEGIN_REQ before the previous END_REQ");
    if (queue_.size() >= params_.queue_chunks) {
        blocked_ = &trans;
        blocked_arrival_ = arrival;
        return tlm::TLM_ACCEPTED;
    }
    queue_.push_back({&trans, arrival, origin_of(trans)});
    wake_.notify(sc_core::SC_ZERO_TIME);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

void ChunkMemory::advance(TimePs now) {
    // Every request in service moved an equal share of the bandwidth since the last step.
    if (serving_ > 0 && now > last_) {
        const double moved = double((now - last_).value()) * params_.bandwidth /
                             double(kPsPerSecond) / double(serving_);
        busy_ += now - last_;
        for (Entry& e : queue_) {
            if (e.serving) e.left -= moved;
        }
    }
    last_ = now;
    for (auto it = queue_.begin(); it != queue_.end();) {
        // Within a picosecond's worth of bytes of the end counts as done (rounding).
        if (it->serving && it->left <= params_.bandwidth / double(kPsPerSecond) * serving_) {
            ++served_;
            bytes_ += double(it->trans->get_data_length());
            it->trans->set_response_status(tlm::TLM_OK_RESPONSE);
            finished_.push_back(it->trans);
            --serving_;
            it = queue_.erase(it);
        } else {
            ++it;
        }
    }
}

void ChunkMemory::admit(TimePs now) {
    // The oldest request of each source that has none in service starts.
    std::vector<uintptr_t> busy;
    for (const Entry& e : queue_) {
        if (e.serving) busy.push_back(e.origin);
    }
    for (Entry& e : queue_) {
        if (e.serving || e.arrival > now ||
            std::find(busy.begin(), busy.end(), e.origin) != busy.end())
            continue;
        e.serving = true;
        e.left = double(e.trans->get_data_length());
        queueing_ += now - e.arrival;
        busy.push_back(e.origin);
        ++serving_;
    }
}

void ChunkMemory::accept_blocked(TimePs now) {
    if (!blocked_ || queue_.size() >= params_.queue_chunks) return;
    // A slot freed: the request that found the queue full is accepted now.
    tlm::tlm_generic_payload* accepted = blocked_;
    blocked_ = nullptr;
    queue_.push_back({accepted, std::max(blocked_arrival_, now), origin_of(*accepted)});
    tlm::tlm_phase phase = tlm::END_REQ;
    sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
    tgt_socket->nb_transport_bw(*accepted, phase, zero);
}

std::optional<TimePs> ChunkMemory::next_event(TimePs now) const {
    std::optional<TimePs> next;
    const auto sooner = [&next](TimePs t) {
        if (!next || t < *next) next = t;
    };
    for (const Entry& e : queue_) {
        if (e.serving) {
            // Rounded down, so that a job moving its bytes at exactly the bandwidth never
            // finds its chunks late by a rounding picosecond.
            const double ps = e.left * double(serving_) * double(kPsPerSecond) / params_.bandwidth;
            sooner(now + TimePs{static_cast<uint64_t>(std::max(0.0, ps))});
        } else if (e.arrival > now) {
            sooner(e.arrival);
        }
    }
    return next;
}

void ChunkMemory::on_wakeup() {
    const TimePs now = now_ps();
    advance(now);
    while (!finished_.empty() && !response_open_) {
        tlm::tlm_generic_payload* done = finished_.front();
        finished_.pop_front();
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        const tlm::tlm_sync_enum s = tgt_socket->nb_transport_bw(*done, phase, zero);
        response_open_ = s == tlm::TLM_ACCEPTED;
    }
    accept_blocked(now);
    admit(now);
    if (const std::optional<TimePs> next = next_event(now)) {
        next_trigger(span(now, std::max(now, *next)), wake_);
    }
}

}  // namespace sim::tlm_util
