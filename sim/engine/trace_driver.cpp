// SPDX-License-Identifier: MIT
#include "sim/engine/trace_driver.h"

#include "sim/core/error.h"

#include <map>

namespace sim {

TraceDriver::TraceDriver(sc_core::sc_module_name name,
                         const Trace& trace,
                         std::vector<OpModel*> models,
                         std::vector<TimePs> issued,
                         std::function<void(uint64_t)> on_done)
    : sc_core::sc_module(name),
      trace_(trace),
      models_(std::move(models)),
      issued_(std::move(issued)),
      on_done_(std::move(on_done)),
      results_(trace.ops.size()),
      done_(trace.ops.size(), false),
      event_of_(trace.ops.size(), -1) {
    SIM_ASSERT(models_.size() == trace_.ops.size(), "one model per op");
    SIM_ASSERT(issued_.empty() || issued_.size() == trace_.ops.size(), "one issue time per op");
    // Lanes in (device, stream) order, so threads start in the same order on every run.
    std::map<std::pair<std::string, uint32_t>, std::vector<size_t>> lanes;
    for (const Op& op : trace_.ops)
        lanes[{op.device, op.stream}].push_back(op.index);
    for (auto& [key, ops] : lanes)
        stream_ops_.push_back(std::move(ops));
    for (const Op& op : trace_.ops) {
        for (size_t dep : op.after) {
            if (event_of_[dep] < 0) {
                event_of_[dep] = static_cast<int64_t>(events_.size());
                events_.push_back(std::make_unique<sc_core::sc_event>());
            }
        }
    }
    for (const Op& op : trace_.ops) {
        if (op.rendezvous && !rendezvous_.count(*op.rendezvous))
            rendezvous_.emplace(*op.rendezvous, std::make_unique<Rendezvous>());
    }
    for (uint32_t s = 0; s < stream_ops_.size(); ++s) {
        if (stream_ops_[s].empty()) continue;
        sc_core::sc_spawn_options opts;
        sc_core::sc_spawn([this, s] { run_stream(s); }, ("stream" + std::to_string(s)).c_str(),
                          &opts);
    }
}

void TraceDriver::run_stream(uint32_t stream) {
    try {
        play(stream);
    } catch (...) {
        if (!error_) error_ = std::current_exception();
        sc_core::sc_stop();
    }
}

void TraceDriver::play(uint32_t stream) {
    for (size_t index : stream_ops_[stream]) {
        const Op& op = trace_.ops[index];
        for (size_t dep : op.after) {
            while (!done_[dep])
                sc_core::wait(*events_[static_cast<size_t>(event_of_[dep])]);
        }
        // The host may not have enqueued it yet (a chain of short kernels outruns the host).
        if (!issued_.empty()) {
            const uint64_t now = sc_core::sc_time_stamp().value();
            const uint64_t at = issued_[index].value();
            if (at > now) sc_core::wait(sc_core::sc_time::from_value(at - now));
        }
        Rendezvous* group = op.rendezvous ? rendezvous_.at(*op.rendezvous).get() : nullptr;
        if (group) meet(group->arrived, op.rendezvous_size, group->all_arrived);
        results_[index] = models_[index]->execute(op);
        SIM_ASSERT(results_[index].end >= results_[index].start, "op ends before it starts");
        if (group) meet(group->finished, op.rendezvous_size, group->all_finished);
        done_[index] = true;
        if (event_of_[index] >= 0)
            events_[static_cast<size_t>(event_of_[index])]->notify(sc_core::SC_ZERO_TIME);
        ++completed_;
        if (on_done_) on_done_(completed_);
    }
}

void TraceDriver::meet(uint32_t& count, uint32_t size, sc_core::sc_event& all) {
    if (++count == size) {
        all.notify(sc_core::SC_ZERO_TIME);
        sc_core::wait(sc_core::SC_ZERO_TIME);  // the others wake in this same delta cycle
        return;
    }
    sc_core::wait(all);
}

}  // namespace sim
