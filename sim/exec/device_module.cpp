// SPDX-License-Identifier: MIT
#include "sim/exec/device_module.h"

#include <algorithm>

#include "sim/core/error.h"
#include "sim/tlm/route_extension.h"
#include "sim/tlm/sc_time_ps.h"

namespace sim::exec {

using tlm_util::now_ps;

DeviceModule::DeviceModule(sc_core::sc_module_name name,
                           std::string kind,
                           const JobTableParams& params)
    : sc_core::sc_module(name), kind_(std::move(kind)), table_(params), dummy_data_(1) {
    mem_socket.register_nb_transport_bw(this, &DeviceModule::nb_transport_bw);
    SC_METHOD(on_wakeup);
    sensitive << wake_;
    dont_initialize();
}

void DeviceModule::step(TimePs now) {
    issue_.clear();
    finished_.clear();
    table_.advance(now, issue_, finished_);
    // Answers that count now (their annotated delay has passed), then whatever they unblock.
    bool any = false;
    while (!answers_.empty() && answers_.begin()->first <= now) {
        table_.chunk_done(answers_.begin()->second.job, answers_.begin()->second.port);
        answers_.erase(answers_.begin());
        any = true;
    }
    if (any) table_.advance(now, issue_, finished_);
    for (const ChunkRequest& c : issue_) {
        if (c.port == Port::Link)
            send_link_chunk(c);
        else
            to_send_.push_back(c);
    }
    send_queued();
    for (uint64_t id : finished_) {
        auto it = waiting_.find(id);
        SIM_ASSERT(it != waiting_.end(), "a job finished that nobody waits for");
        it->second->notify();
        waiting_.erase(it);
        link_sends_.erase(id);
    }
}

tlm::tlm_generic_payload* DeviceModule::chunk_payload(tlm::tlm_command command, unsigned bytes) {
    tlm::tlm_generic_payload* trans = pool_.acquire();
    trans->set_command(command);
    trans->set_address(0);
    trans->set_data_ptr(dummy_data_.data());
    trans->set_data_length(bytes);
    trans->set_streaming_width(bytes);
    trans->set_byte_enable_ptr(nullptr);
    trans->set_dmi_allowed(false);
    trans->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    return trans;
}

std::optional<uint32_t> DeviceModule::link_id_of(const std::string& device) const {
    auto it = routes_.ids.find(device);
    if (it == routes_.ids.end() || it->second >= routes_.to.size() ||
        routes_.to[it->second].empty())
        return std::nullopt;
    return it->second;
}

void DeviceModule::send_link_chunk(const ChunkRequest& c) {
    const auto sends = link_sends_.find(c.job);
    SIM_ASSERT(sends != link_sends_.end(), "a link chunk of a job without link sends");
    double total = 0;  // the job's link bytes, of which the chunk carries c.bytes
    for (const LinkSend& s : sends->second)
        total += s.bytes;
    uint32_t slot;
    if (free_link_chunks_.empty()) {
        slot = static_cast<uint32_t>(link_chunks_.size());
        link_chunks_.push_back({});
    } else {
        slot = free_link_chunks_.back();
        free_link_chunks_.pop_back();
    }
    link_chunks_[slot] = {c.job, 0, TimePs{0}};
    const TimePs now = now_ps();
    // The chunk carries its share of every destination's bytes, each split over the ports
    // toward that destination in proportion to their bandwidth (whole bytes, summing up).
    struct Part {
        tlm_util::LinkPort* port;
        double bytes;
        uint32_t to;
    };
    std::vector<Part> parts;
    for (const LinkSend& s : sends->second) {
        SIM_ASSERT(s.to < routes_.to.size() && !routes_.to[s.to].empty(),
                   "a link send to a device this one has no route to");
        const double bytes = s.bytes * c.bytes / total;
        const std::vector<tlm_util::LinkPort*>& ports = routes_.to[s.to];
        double bandwidth = 0;
        for (const tlm_util::LinkPort* p : ports)
            bandwidth += p->bandwidth();
        double share = 0, sent = 0;
        for (tlm_util::LinkPort* p : ports) {
            share += p->bandwidth();
            const double upto = std::floor(bytes * share / bandwidth + 0.5);
            if (upto > sent) parts.push_back({p, upto - sent, s.to});
            sent = std::max(sent, upto);
        }
    }
    if (parts.empty())
        parts.push_back(
            {routes_.to[sends->second.front().to].front(), 1, sends->second.front().to});
    link_chunks_[slot].parts_left = static_cast<uint32_t>(parts.size());
    for (const Part& part : parts) {
        const auto bytes = static_cast<unsigned int>(part.bytes);
        tlm::tlm_generic_payload* trans = chunk_payload(tlm::TLM_WRITE_COMMAND, bytes);
        tlm_util::set_destination(*trans, part.to);
        link_in_flight_[trans] = slot;
        ++counters_.link_chunks;
        counters_.link_bytes += bytes;
        part.port->send(*trans, now);
    }
}

tlm::tlm_sync_enum DeviceModule::arrived(tlm_util::LinkPort&,
                                         tlm::tlm_generic_payload& trans,
                                         TimePs) {
    SIM_ASSERT(tlm_util::destination_of(trans) == routes_.self,
               "a device got a chunk for another device (devices do not forward)");
    counters_.link_bytes_in += double(trans.get_data_length());
    return tlm::TLM_COMPLETED;
}

void DeviceModule::answered(tlm_util::LinkPort&, tlm::tlm_generic_payload& trans, TimePs at) {
    auto it = link_in_flight_.find(&trans);
    SIM_ASSERT(it != link_in_flight_.end(), "an answer to a link chunk never sent");
    const uint32_t slot = it->second;
    link_in_flight_.erase(it);
    trans.release();
    LinkChunk& c = link_chunks_[slot];
    c.last = std::max(c.last, at);
    if (--c.parts_left > 0) return;
    answers_.emplace(c.last, Answer{c.job, Port::Link});
    free_link_chunks_.push_back(slot);
    wake_.notify(sc_core::SC_ZERO_TIME);
}

void DeviceModule::on_wakeup() {
    const TimePs now = now_ps();
    step(now);
    std::optional<TimePs> next = table_.next_event();
    if (!answers_.empty() && (!next || answers_.begin()->first < *next))
        next = answers_.begin()->first;
    if (next) {
        next_trigger(sc_core::sc_time::from_value(std::max(*next, now).value() - now.value()),
                     wake_);
    }
}

JobTimes DeviceModule::run(const Job& job) {
    const TimePs start = now_ps();
    if (job.duration.value() == 0) return {start, start};
    step(start);
    issue_.clear();
    const uint64_t id = table_.add(job, start, issue_);
    if (!job.link_sends.empty()) link_sends_[id] = job.link_sends;
    for (const ChunkRequest& c : issue_) {
        if (c.port == Port::Link)
            send_link_chunk(c);
        else
            to_send_.push_back(c);
    }
    send_queued();
    ++counters_.jobs;
    counters_.memory_bytes += job.memory_bytes;
    counters_.alone += job.duration;
    counters_.most_at_once =
        std::max(counters_.most_at_once, static_cast<uint32_t>(table_.active()));
    sc_core::sc_event done;
    waiting_[id] = &done;
    wake_.notify(sc_core::SC_ZERO_TIME);  // the method recomputes its next wake-up
    sc_core::wait(done);
    const TimePs end = now_ps();
    counters_.elapsed += end - start;
    return {start, end};
}

void DeviceModule::send_queued() {
    while (!open_ && !to_send_.empty()) {
        const ChunkRequest c = to_send_.front();
        to_send_.pop_front();
        const auto bytes = static_cast<unsigned int>(std::max(1.0, c.bytes));
        tlm::tlm_generic_payload* trans = chunk_payload(tlm::TLM_READ_COMMAND, bytes);
        trans->set_address(next_address_);
        next_address_ += bytes;
        // This device as the request's source; the payload owns the extension and keeps it
        // across reuse (reset() frees only auto extensions).
        if (!trans->get_extension<tlm_util::OriginExtension>())
            trans->set_extension(new tlm_util::OriginExtension(reinterpret_cast<uintptr_t>(this)));
        in_flight_[trans] = c.job;
        ++counters_.chunks;
        tlm::tlm_phase phase = tlm::BEGIN_REQ;
        sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
        const tlm::tlm_sync_enum s = mem_socket->nb_transport_fw(*trans, phase, delay);
        if (s == tlm::TLM_COMPLETED) {
            answered(*trans, now_ps() + TimePs{delay.value()});
        } else if (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_RESP) {
            answered(*trans, now_ps() + TimePs{delay.value()});
        } else if (s == tlm::TLM_ACCEPTED || (s == tlm::TLM_UPDATED && phase == tlm::BEGIN_REQ)) {
            open_ = trans;  // END_REQ will come through nb_transport_bw
        }
        // TLM_UPDATED with END_REQ: the next request may go at once.
    }
}

void DeviceModule::answered(tlm::tlm_generic_payload& trans, TimePs at) {
    auto it = in_flight_.find(&trans);
    SIM_ASSERT(it != in_flight_.end(), "an answer to a chunk never sent");
    SIM_ASSERT(trans.get_response_status() == tlm::TLM_OK_RESPONSE,
               "the memory answered a chunk with an error");
    answers_.emplace(at, Answer{it->second, Port::Memory});
    in_flight_.erase(it);
    trans.release();
    wake_.notify(sc_core::SC_ZERO_TIME);
}

tlm::tlm_sync_enum DeviceModule::nb_transport_bw(tlm::tlm_generic_payload& trans,
                                                 tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
    if (phase == tlm::END_REQ) {
        open_ = nullptr;
        send_queued();
        return tlm::TLM_ACCEPTED;
    }
    SIM_ASSERT(phase == tlm::BEGIN_RESP, "unexpected phase from a memory");
    // BEGIN_RESP implies END_REQ for the request still open (IEEE 1666-2011, 15.2.5).
    if (open_ == &trans) open_ = nullptr;
    answered(trans, now_ps() + TimePs{delay.value()});
    send_queued();
    return tlm::TLM_COMPLETED;
}

}  // namespace sim::exec
