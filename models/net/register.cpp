// SPDX-License-Identifier: MIT
#include "models/net/register.h"
#include "sim/config/resolved.h"

#include "models/energy/energy_params.h"
#include "models/hw/hw_params.h"
#include "models/net/net_op_model.h"
#include "models/net/net_params.h"
#include "sim/registry/registry.h"

namespace sim::net {

void register_net(Registry& r) {
    r.add_model(
        {"gpu.net",
         "collectives over the cluster network named by the hardware file's network: "
         "section (NCCL's channels, chunks and protocols over max-min fair links; ring, tree, "
         "nvls, hierarchical)",
         "gpu",
         Fidelity::Cycle,
         {OpKind::AllReduce, OpKind::AllGather, OpKind::ReduceScatter, OpKind::AllToAll},
         [](const ModelContext& ctx) -> std::unique_ptr<OpModel> {
             const auto& hw = resolved<hw::HardwareParams>(ctx.hw);
             const auto& energy = resolved<energy::EnergyParams>(ctx.hw);
             Algorithm algorithm = Algorithm::Auto;
             std::optional<Protocol> protocol;
             Choice choice = Choice::Nccl;
             auto network = network_of(ctx.hw, algorithm, protocol, choice);
             return std::make_unique<NetOpModel>(
                 std::move(network), algorithm, protocol, choice, energy.table,
                 hw.nvlink_data_bandwidth_per_direction(), hw.sm_count, ctx.executor);
         }});
    r.add_command({"net",
                   "collectives over a cluster network: time, algbw and busbw per message size "
                   "as nccl-tests reports them, link utilisation (--help)",
                   run_net_command});
    r.add_params({"(top level)",
                  "The top level of a cluster network file (configs/net/; models/net/"
                  "net_params.h): its shape.",
                  [] { return network_param_table().describe(); }, "network"});
    r.add_params({"links.<link>",
                  "Each link of a network file: links.nvlink, links.pcie and links.nic.",
                  [] { return link_param_table().describe(); }, "network"});
    r.add_params({"fabric", "A network file's leaf-spine fabric (nodes > 1).",
                  [] { return fabric_param_table().describe(); }, "network"});
    r.add_params({"collective", "A network file's collectives other than NCCL's own.",
                  [] { return collective_param_table().describe(); }, "network"});
    r.add_params({"nccl",
                  "NCCL's channels and NVLink SHARP in a cluster network file (configs/net/; "
                  "models/net/core/nccl.h). Each protocol's own keys are in nccl.simple, nccl.ll "
                  "and nccl.ll128.",
                  [] { return nccl_param_table().describe(); }, "network"});
    for (const auto& [key, protocol] :
         {std::pair<const char*, Protocol>{"simple", Protocol::Simple},
          {"ll", Protocol::LL},
          {"ll128", Protocol::LL128}}) {
        r.add_params({std::string("nccl.") + key,
                      std::string("NCCL's ") + to_string(protocol) +
                          " protocol; defaults are NCCL's own figures on NVLink (models/net/core/"
                          "nccl.h), which a network preset overrides.",
                      [protocol = protocol] { return protocol_param_table(protocol).describe(); },
                      "network"});
    }
    r.add_params({"nccl.p2p",
                  "NCCL's sends and receives, which run an AllToAll (models/net/core/p2p.h); "
                  "defaults are NCCL 2.18's on an NVLink path.",
                  [] { return p2p_param_table().describe(); }, "network"});
    r.add_params(
        {"network",
         "What a GPU file's network: section says: the cluster network its collectives "
         "run on (models/net/net_op_model.h), and what a collective holds of the GPU "
         "(models/hw/hw_params.h).",
         [] { return joined_docs(network_choice_param_table(), hw::gpu_network_param_table()); }});
}

}  // namespace sim::net
