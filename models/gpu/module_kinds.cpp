// SPDX-License-Identifier: MIT
// The `gpu` module kind of a system file: a GpuModule built from a GPU hardware file.
#include "models/gpu/gpu_module.h"
#include "models/gpu/gpu_params.h"
#include "models/gpu/register.h"
#include "sim/config/resolved.h"
#include "sim/system/kind_registry.h"

namespace sim::gpu {

void register_gpu_kinds(system::KindRegistry& kinds) {
    kinds.add({"gpu",
               "a GPU (a hardware file with device: gpu): SMs with 4 sub-partitions (warp "
               "scheduler, Tensor Core), L2, NVLink and PCIe ports; ports mem, nvlink[i], pcie",
               true, [](const std::string& name, const ConfigNode& root) {
                   const hw::HardwareParams& hw = resolved<hw::HardwareParams>(root);
                   const GpuParams& gpu = resolved<GpuParams>(root);
                   auto m =
                       std::make_unique<GpuModule>(name.c_str(), hw, gpu.core.sm.sub_partitions);
                   system::BuiltModule b;
                   b.device = m.get();
                   b.link_node = m.get();
                   b.mem_initiator = &m->mem_socket;
                   system::PortSpec mem{"mem", system::PortRole::MemoryInitiator};
                   mem.required = true;
                   system::PortSpec nvlink{"nvlink", system::PortRole::Link, hw.nvlink.links};
                   nvlink.indexed = true;
                   b.ports = {mem, nvlink, {"pcie", system::PortRole::Link}};
                   b.summary = hw.name + ", " + std::to_string(hw.sm_count) + " SMs";
                   b.module = std::move(m);
                   return b;
               }});
}

}  // namespace sim::gpu
