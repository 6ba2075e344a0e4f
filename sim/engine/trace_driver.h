// SPDX-License-Identifier: MIT
// Plays an operator trace on the models: one SystemC thread per stream of each device issues
// that stream's operators in program order, waits for their `after:` dependencies, and hands each
// to the model chosen for it, no earlier than the host has enqueued it (host_launch.h). Models
// advance simulated time; the driver only records results.
#pragma once

#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "sim/registry/op_model.h"
#include "sim/trace/op.h"

namespace sim {

class TraceDriver : public sc_core::sc_module {
  public:
    /// models[i] executes trace.ops[i], not before issued[i] (empty: as soon as its stream and
    /// dependencies allow); on_done(count) is called after each completion.
    TraceDriver(sc_core::sc_module_name name,
                const Trace& trace,
                std::vector<OpModel*> models,
                std::vector<TimePs> issued,
                std::function<void(uint64_t)> on_done);

    /// Results in trace order; valid after sc_start() returns.
    const std::vector<OpResult>& results() const { return results_; }
    std::vector<OpResult>& results() { return results_; }
    /// Whether every operator ran.
    bool finished() const { return completed_ == trace_.ops.size(); }
    /// Rethrows the first exception a model threw inside a stream thread (SystemC would
    /// otherwise wrap it in an sc_report and lose its type).
    void rethrow_if_failed() const {
        if (error_) std::rethrow_exception(error_);
    }

  private:
    // The copies of one collective over named devices (Op::rendezvous): they start when the
    // last has reached its turn and their streams go on when the last has finished.
    struct Rendezvous {
        uint32_t arrived = 0, finished = 0;
        sc_core::sc_event all_arrived, all_finished;
    };
    void run_stream(uint32_t stream);
    void play(uint32_t stream);
    void meet(uint32_t& count, uint32_t size, sc_core::sc_event& all);

    const Trace& trace_;
    std::vector<OpModel*> models_;
    std::vector<TimePs> issued_;  // when the host has enqueued each op; empty: at time 0
    std::function<void(uint64_t)> on_done_;
    std::vector<std::vector<size_t>> stream_ops_;  // per (device, stream) lane
    std::vector<OpResult> results_;
    std::vector<bool> done_;
    // Only ops that something waits on get an event (a large trace has few such ops).
    std::vector<int64_t> event_of_;
    std::vector<std::unique_ptr<sc_core::sc_event>> events_;
    std::map<size_t, std::unique_ptr<Rendezvous>> rendezvous_;  // by the group's first copy
    uint64_t completed_ = 0;
    std::exception_ptr error_;
};

}  // namespace sim
