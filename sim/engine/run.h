// SPDX-License-Identifier: MIT
// The run driver: system (a system file, or a hardware file as a one-device system) -> SystemC
// modules -> each device's models -> trace -> sc_start -> stats.json, stats.txt, ops.csv and
// resolved_config.yaml written atomically into --out.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/engine/fallbacks.h"
#include "sim/log/log.h"
#include "sim/registry/registry.h"
#include "sim/stats/group.h"
#include "sim/system/kind_registry.h"

namespace sim {

struct RunOptions {
    std::string hw_file;                  ///< --hw (a one-device system)
    std::string system_file;              ///< --system (instead of --hw)
    std::vector<std::string> overrides;   ///< --set a.b=c, in order
    std::string trace_file;               ///< --trace
    std::string out_dir;                  ///< --out
    std::string fidelity = "auto";        ///< auto, analytic, sampled or cycle
    uint64_t seed = 1;                    ///< --seed
    std::string log_level = "warn";       ///< default level of every logger
    std::vector<std::string> log_levels;  ///< name=level per logger
    bool progress = true;                 ///< progress bar on a terminal
    bool strict = false;                  ///< --strict: a fidelity fallback is an error
    unsigned threads = 1;                 ///< --threads: timing-model work ahead of the run
};

/// One device's configuration turned into its models: publishes the device's derived figures
/// under "hw", builds every model registered for the device (each reads its params; each runs
/// its operators as jobs on executor, the device's module), then rejects any key no model
/// asked for.
class HardwareSetup {
  public:
    /// shared: the run's tables that devices with the same configuration share (null: none).
    HardwareSetup(const Registry& registry,
                  std::shared_ptr<ConfigDocument> doc,
                  StatGroup& stats_root,
                  Logging& logging,
                  uint64_t seed,
                  exec::DeviceExecutor& executor,
                  SharedResults* shared = nullptr);
    /// A hardware file read only for its configuration (validate-config, cost, hbm): its
    /// models are built and checked but belong to no module, so none may run an operator.
    HardwareSetup(const Registry& registry,
                  const std::string& hw_file,
                  const std::vector<std::string>& overrides,
                  StatGroup& stats_root,
                  Logging& logging,
                  uint64_t seed);

    const ConfigDocument& document() const { return *doc_; }
    ConfigNode root() const { return ConfigNode::root_of(doc_); }
    const std::string& device() const { return device_; }
    const std::string& name() const { return name_; }

    /// The model that runs op at the requested fidelity (nullopt: the most detailed one
    /// available), falling back to analytic; throws ConfigError at the op's trace line when no
    /// model can run it. A fallback is described in *fallback (left empty otherwise): the op
    /// ran at a lower fidelity than requested, or than the most detailed model registered for
    /// its kind, which declined it.
    OpModel& choose(const Op& op, std::optional<Fidelity> requested, Fallback* fallback = nullptr);

  private:
    /// The executor of a setup that belongs to no module: running a job on it is a bug.
    class NoDevice final : public exec::DeviceExecutor {
      public:
        exec::JobTimes run(const exec::Job&) override;
    };
    NoDevice no_device_;  // before the models that may hold a reference to it
    std::shared_ptr<ConfigDocument> doc_;
    std::string device_;
    std::string name_;
    Logging& logging_;
    std::vector<std::pair<const ModelEntry*, std::unique_ptr<OpModel>>> models_;
};

struct RunSummary {
    double sim_seconds = 0;
    uint64_t ops = 0;
    std::optional<double> step_seconds;           ///< pipeline traces: simulated time + bubble
    std::optional<double> pipeline_bubble;        ///< pipeline traces: bubble / makespan
    std::optional<double> time_to_first_token;    ///< inference traces, s
    std::optional<double> time_per_output_token;  ///< inference traces, s
    std::optional<double> tokens_per_second;      ///< inference traces
    uint64_t kv_cache_bytes = 0;                  ///< inference traces: as declared
    std::optional<double> mfu;  ///< model FLOPs utilization, when the run had a FLOP roof
    std::optional<double> hfu;  ///< hardware FLOPs utilization (recomputation included)
    std::string out_dir;
};

/// Runs one simulation; throws ConfigError on bad input (nothing is left in out_dir then).
RunSummary run_simulation(const Registry& registry,
                          const system::KindRegistry& kinds,
                          const RunOptions& options);

/// The kinds a hardware file's `device:` may name.
std::vector<std::string> device_kinds(const Registry& registry);

}  // namespace sim
