// SPDX-License-Identifier: MIT
#include "models/gpu/tlm_kernel.h"

#include <stdexcept>
#include <string>

#include "models/hbm/direct_dram_extension.h"
#include "sim/core/error.h"
#include "sim/tlm/sc_time_ps.h"

namespace sim::gpu {

using tlm_util::now_ps;

TlmKernel::TlmKernel(sc_core::sc_module_name name,
                     const GpuCoreConfig& gpu,
                     const hbm::HbmCoreConfig& hbm,
                     const KernelLaunch& kernel,
                     const SamplingOptions& sampling,
                     Path path,
                     bool stop_when_done)
    : sc_core::sc_module(name),
      gpu_(gpu),
      hbm_(hbm),
      kernel_(kernel),
      sampling_(sampling),
      path_(path),
      stop_when_done_(stop_when_done),
      sm_clock_("sm", gpu.clock_hz),
      dram_clock_("hbm", hbm.clock_hz) {
    dram.register_nb_transport_bw(this, &TlmKernel::nb_transport_bw);
    SC_THREAD(run);
}

void TlmKernel::run() {
    if (path_ == Path::Direct) {
        // The memory's own model, obtained through the binding.
        hbm::DirectDramExtension direct;
        tlm::tlm_generic_payload query;
        query.set_extension(&direct);
        dram[0]->transport_dbg(query);
        query.clear_extension(&direct);
        if (!direct.system) {
            throw std::invalid_argument(std::string(name()) +
                                        ": the memory bound to dram offers no direct "
                                        "interface; use the TLM path");
        }
        GpuCore core(gpu_, hbm_, kernel_, DramAccess{direct.system, nullptr});
        result_ = core.run(sampling_);
        sc_core::wait(tlm_util::span(now_ps(), sm_clock_.to_ps(Cycle{result_.cycles})));
    } else {
        ports_.assign(static_cast<size_t>(dram.size()), Port{});
        GpuCore core(gpu_, hbm_, kernel_, DramAccess{nullptr, this});
        result_ = core.run(sampling_);
    }
    finished_ = true;
    done_.notify();
    if (stop_when_done_) sc_core::sc_stop();
}

void TlmKernel::send(const Request& r) {
    if (r.id >= payloads_.size()) payloads_.resize(r.id + 1);
    if (!payloads_[r.id]) {
        payloads_[r.id] = std::make_unique<DramPayload>();
        payloads_[r.id]->id = r.id;
    }
    DramPayload& trans = *payloads_[r.id];
    trans.set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    trans.set_address(r.addr);
    trans.set_data_length(r.bytes);
    trans.set_streaming_width(r.bytes);
    trans.set_data_ptr(nullptr);  // timing only
    trans.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    SIM_ASSERT(dram_clock_.to_ps(Cycle{r.arrival}) >= now_ps(),
               name() << ": a DRAM request arriving in the past");
    trans.arrival = r.arrival;
    const int port = static_cast<int>(2 * r.pseudo_channel + (r.write ? 1 : 0));
    SIM_ASSERT(port < static_cast<int>(dram.size()), name() << ".dram has no port " << port);
    Port& p = ports_[port];
    if (!p.busy && p.queued.empty()) {
        p.busy = !begin_request(port, trans);
    } else {
        p.queued.push_back(&trans);
    }
}

bool TlmKernel::begin_request(int port, DramPayload& trans) {
    ++transactions_;
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    // A request queued behind a held-back one is sent later than it was stamped to arrive:
    // it arrives now (as the memory counts a past arrival).
    const TimePs at = dram_clock_.to_ps(Cycle{trans.arrival});
    const TimePs now = now_ps();
    sc_core::sc_time delay = tlm_util::span(now, at > now ? at : now);
    const tlm::tlm_sync_enum status = dram[port]->nb_transport_fw(trans, phase, delay);
    if (status == tlm::TLM_COMPLETED) {
        throw SimBug(std::string(name()) + ": the memory refused DRAM request " +
                     std::to_string(trans.id) + ": " + trans.get_response_string());
    }
    if (status == tlm::TLM_UPDATED && phase == tlm::END_REQ) return true;
    ++held_back_;
    return false;
}

tlm::tlm_sync_enum TlmKernel::nb_transport_bw(int port,
                                              tlm::tlm_generic_payload& trans,
                                              tlm::tlm_phase& phase,
                                              sc_core::sc_time& delay) {
    if (phase == tlm::END_REQ) {
        // The held request went in: the port's next ones follow until one is held back.
        Port& p = ports_[port];
        p.busy = false;
        while (!p.busy && !p.queued.empty()) {
            DramPayload* next = p.queued.front();
            p.queued.pop_front();
            p.busy = !begin_request(port, *next);
        }
        return tlm::TLM_ACCEPTED;
    }
    SIM_ASSERT(phase == tlm::BEGIN_RESP, name() << ": unexpected phase from the memory");
    // Our own payloads: the memory answers with the object it was sent.
    const auto& done = static_cast<const DramPayload&>(trans);
    hbm::Completion c;
    c.id = done.id;
    c.write = trans.is_write();
    c.bytes = trans.get_data_length();
    c.arrival = done.arrival;
    c.done = dram_clock_.cycle_at(now_ps() + TimePs{delay.value()}).value();
    listener_->dram_completed(c, dram_clock_.cycle_at(now_ps()).value());
    completed_.notify(sc_core::SC_ZERO_TIME);
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
}

bool TlmKernel::wait_until(uint64_t sm_cycle) {
    if (sm_cycle == kNeverCycle) {
        sc_core::wait(completed_);
        return false;
    }
    const TimePs at = sm_clock_.to_ps(Cycle{sm_cycle});
    if (now_ps() < at) {
        sc_core::wait(tlm_util::span(now_ps(), at), completed_);
        if (now_ps() < at) return false;
    }
    // At the cycle: the memory's work due at this instant (completions, END_REQs) runs first,
    // as the direct path advances the DRAM up to a cycle before the SMs' events at it.
    sc_core::wait(sc_core::SC_ZERO_TIME);
    return true;
}

}  // namespace sim::gpu
