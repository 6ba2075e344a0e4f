// SPDX-License-Identifier: MIT
#include "models/hbm/register.h"

#include "models/energy/energy_params.h"
#include "models/hbm/hbm_op_model.h"
#include "models/hbm/hbm_params.h"
#include "sim/config/resolved.h"
#include "sim/registry/registry.h"
#include "sim/stats/group.h"

namespace sim::hbm {

namespace {

void describe_hbm(const ConfigNode& hw, StatGroup& stats) {
    const HbmParams& p = resolved<HbmParams>(hw);
    stats
        .add_scalar("peak_bandwidth", "B/s",
                    "cycle-level model: pseudo-channels x burst bytes / burst time")
        .set(p.peak_bandwidth());
    stats.add_scalar("clock", "Hz", "memory command clock: pin rate / beats per clock")
        .set(static_cast<double>(p.core.clock_hz));
    stats.add_counter("pseudo_channels", "count", "independent pseudo-channels") +=
        uint64_t{p.core.stacks} * p.core.channels_per_stack * p.core.pseudo_channels_per_channel;
}

}  // namespace

void register_hbm(Registry& r) {
    r.add_component({"hbm",
                     "cycle-level HBM stacks: pseudo-channels, bank groups, banks, JEDEC timing, "
                     "FR-FCFS controllers, address mapping, refresh, energy",
                     "gpu", describe_hbm});
    // A memory on its own (configs/hbm/): what `wallsim hbm` drives, with no processor around.
    r.add_device(
        {"hbm",
         "an HBM memory system alone, for `wallsim hbm` (patterns, DRAM traces; "
         "configs/hbm/)",
         [](const ConfigNode& hw, StatGroup& stats) { describe_hbm(hw, stats.add_group("hbm")); }});
    r.add_model({"gpu.hbm",
                 "cycle-level HBM stacks: dram_traffic and d2d memcpy operators run through every "
                 "pseudo-channel controller (JEDEC timing, FR-FCFS, refresh)",
                 "gpu",
                 Fidelity::Cycle,
                 {OpKind::DramTraffic, OpKind::Memcpy},
                 [](const ModelContext& ctx) -> std::unique_ptr<OpModel> {
                     const auto& energy = resolved<energy::EnergyParams>(ctx.hw);
                     return std::make_unique<HbmOpModel>(resolved<HbmParams>(ctx.hw),
                                                         energy.table.static_power, ctx.stats,
                                                         ctx.executor, ctx.seed);
                 }});
    r.add_command({"hbm", "drive the cycle-level HBM model with a traffic pattern (--help)",
                   run_hbm_command});
    r.add_params({"hbm.controller",
                  "The memory controller of each pseudo-channel (models/hbm/core/"
                  "pseudo_channel.h): queues, write drain, row policy, refresh.",
                  [] { return controller_param_table().describe(); }});
    r.add_params({"hbm.organisation",
                  "The shape of each stack (models/hbm/core/dram_timing.h); row_bytes is read "
                  "with the device's figures (models/hw/hw_params.h).",
                  [] {
                      return joined_docs(organisation_param_table(), burst_param_table(),
                                         hw::hbm_row_param_table());
                  }});
    r.add_params({"hbm.timing",
                  "JEDEC timing of the cycle-level HBM (models/hbm/core/dram_timing.h), per "
                  "pseudo-channel.",
                  [] { return timing_param_table().describe(); }});
    r.add_params({"hbm.command_bus",
                  "The row and column command buses (models/hbm/core/command_bus.h); without "
                  "the section they are not modelled.",
                  [] { return command_bus_param_table().describe(); }});
    r.add_params({"hbm.mapping",
                  "How an address splits into stack, channel, pseudo-channel, bank and row "
                  "(models/hbm/core/address_mapping.h): the layout of its fields, and the "
                  "hashes over them.",
                  [] { return mapping_param_table().describe(); }});
}

}  // namespace sim::hbm
