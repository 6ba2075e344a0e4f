// SPDX-License-Identifier: MIT
// The contract between the engine and a timing model: an OpModel executes operators of the
// kinds it supports on one device, at one fidelity level. The engine calls execute() from a
// SystemC thread; the model advances simulated time (wait) until the operator completes.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/energy.h"
#include "sim/core/kernel_metrics.h"
#include "sim/core/types.h"
#include "sim/exec/core/job.h"
#include "sim/registry/shared_results.h"
#include "sim/trace/op.h"
#include "sim/trace/op_cost.h"

namespace sim {

class ConfigNode;
class StatGroup;
class Logging;

enum class Fidelity {
    Analytic,  ///< Roofline: max(FLOPs / peak, bytes / bandwidth) + launch gap
    Sampled,   ///< cycle-level until steady, then extrapolated
    Cycle,     ///< everything simulated
};
std::string to_string(Fidelity f);
std::optional<Fidelity> parse_fidelity(const std::string& s);

/// What executing one operator produced.
struct OpResult {
    TimePs start;  ///< when the operator began (after its dependencies)
    TimePs end;    ///< when it completed
    /// The device side of its launch (runtime.stream_gap or graph_node_gap) within
    /// [start, end): the front end starting it after the operator before it, not its own
    /// execution. A profiler's kernel duration leaves it out.
    TimePs launch_gap{0};
    OpCost cost;                ///< FLOPs and bytes the model counted
    double roof_flops = 0;      ///< peak FLOP/s of the unit and dtype it ran on; 0 if none
    double roof_bandwidth = 0;  ///< peak B/s of the memory or link its bytes crossed
    std::string bound;          ///< compute, memory, network, host or launch
    Fidelity fidelity = Fidelity::Analytic;
    std::string model;       ///< registry name of the model that ran it
    EnergyBreakdown energy;  ///< dynamic energy the operator caused
    /// Static power of the device it ran on, W. It is charged over time (the run's static
    /// energy is this × simulated time), not per operator, so overlapping ops are not
    /// charged twice.
    double static_power = 0;
    /// Set by cycle-level GPU models: what the kernel did (kernels.csv).
    std::optional<KernelMetrics> kernel;
    /// The SM clock the op ran at, Hz (0: it did not run on the SMs: a collective, a copy).
    double clock_hz = 0;
    /// The clock it would have run at without the power limit, Hz.
    double max_clock_hz = 0;
    /// Its power at max_clock_hz exceeded power_limit and the governor lowered the clock.
    bool power_limited = false;
    /// The device's power limit (TDP), W; 0 when it has none.
    double power_limit = 0;
    /// Why it ran at a lower fidelity than requested (empty: it did not fall back). Set by the
    /// engine, which chose its model.
    std::string fallback;
};

/// What the host (the CPU thread driving a device) spends launching an operator, by the way
/// it is launched: `per_op` for each operator it enqueues with a call of its own (a stream
/// launch), `once` for the one call that enqueues the whole trace (a CUDA graph launch).
struct HostLaunch {
    TimePs per_op{0};
    TimePs once{0};
};

class OpModel {
  public:
    virtual ~OpModel() = default;
    /// Whether this model can run op (its kind, dtype on this hardware).
    virtual bool supports(const Op& op) const = 0;
    /// Explains why op is unsupported (for the error message).
    virtual std::string why_unsupported(const Op& op) const = 0;
    /// Runs op from the current simulated time; must be called from a SystemC thread.
    virtual OpResult execute(const Op& op) = 0;
    /// Work for op that does not depend on simulated time or on other operators (a kernel's
    /// simulation from an idle device), as tasks the engine may run on other threads before
    /// the simulation starts (`wallsim run --threads N`), in any order and at the same time as
    /// the tasks of any model. Called once per operator in trace order, before any execute().
    /// A task keeps its answer where execute() finds it, and execute() gives exactly what it
    /// would without it. None by default.
    virtual std::vector<std::function<void()>> precompute(const Op& op) {
        (void)op;
        return {};
    }
    /// The host's side of launching op (the engine serialises it per device, host_launch.h);
    /// nothing by default: the model's own timing covers what its host does.
    virtual HostLaunch host_launch(const Op& op) const {
        (void)op;
        return {};
    }
};

/// Everything a model factory may use to build itself. Models read their params from hw
/// (every key they read becomes known; unread keys are reported as unknown).
struct ModelContext {
    const ConfigNode& hw;            ///< the root of the hardware config
    StatGroup& stats;                ///< the model's own stats group
    Logging& logging;                ///< named loggers with a simulated-time prefix
    uint64_t seed;                   ///< the run's random seed
    exec::DeviceExecutor& executor;  ///< runs the device's jobs, shared by all its models
    /// Tables the identical devices of the run share (sim/registry/shared_results.h), and the
    /// fingerprint of this device's configuration to key them by; null: nothing is shared.
    SharedResults* shared = nullptr;
    std::string config_fingerprint;
};

using ModelFactory = std::function<std::unique_ptr<OpModel>(const ModelContext&)>;

}  // namespace sim
