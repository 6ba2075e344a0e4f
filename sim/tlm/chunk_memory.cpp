// SPDX-License-Identifier: MIT
#include "sim/tlm/chunk_memory.h"

#include <algorithm>

#include "sim/core/error.h"

namespace sim::tlm_util {

namespace {
TimePs now_ps() {
    return TimePs{sc_core::sc_time_stamp().value()};
}
sc_core::sc_time span(TimePs from, TimePs to) {
    return sc_core::sc_time::from_value(to.value() - from.value());
}
}  // namespace

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

TimePs ChunkMemory::transfer_time(const tlm::tlm_generic_payload& trans) const {
    // Rounded down: a job that moves its bytes at exactly the memory's bandwidth must never
    // find its chunks late by a rounding picosecond.
    return TimePs{static_cast<uint64_t>(double(trans.get_data_length()) * double(kPsPerSecond) /
                                        params_.bandwidth)};
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
    queue_.push_back({&trans, arrival});
    wake_.notify(sc_core::SC_ZERO_TIME);
    phase = tlm::END_REQ;
    return tlm::TLM_UPDATED;
}

void ChunkMemory::start_next(TimePs now) {
    const Entry e = queue_.front();
    queue_.pop_front();
    serving_ = e.trans;
    serving_done_ = now + transfer_time(*e.trans);
    busy_ += serving_done_ - now;
    queueing_ += now - e.arrival;
    if (blocked_) {
        // A slot freed: the request that found the queue full is accepted now.
        queue_.push_back({blocked_, std::max(blocked_arrival_, now)});
        tlm::tlm_generic_payload* accepted = blocked_;
        blocked_ = nullptr;
        tlm::tlm_phase phase = tlm::END_REQ;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        tgt_socket->nb_transport_bw(*accepted, phase, zero);
    }
}

void ChunkMemory::on_wakeup() {
    const TimePs now = now_ps();
    if (serving_ && now >= serving_done_) {
        ++served_;
        bytes_ += double(serving_->get_data_length());
        serving_->set_response_status(tlm::TLM_OK_RESPONSE);
        SIM_ASSERT(finished_ == nullptr, "two finished chunks waiting for the response channel");
        finished_ = serving_;
        serving_ = nullptr;
    }
    if (finished_ && !response_open_) {
        tlm::tlm_generic_payload* done = finished_;
        finished_ = nullptr;
        tlm::tlm_phase phase = tlm::BEGIN_RESP;
        sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
        const tlm::tlm_sync_enum s = tgt_socket->nb_transport_bw(*done, phase, zero);
        response_open_ = s == tlm::TLM_ACCEPTED;
    }
    // The next transfer waits until the previous one's response has left, so finished_ holds
    // at most one chunk.
    if (!serving_ && !finished_ && !queue_.empty() && queue_.front().arrival <= now)
        start_next(now);
    if (serving_) {
        next_trigger(span(now, serving_done_), wake_);
    } else if (!finished_ && !queue_.empty()) {
        next_trigger(span(now, std::max(now, queue_.front().arrival)), wake_);
    }
}

}  // namespace sim::tlm_util
