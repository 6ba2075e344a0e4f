// SPDX-License-Identifier: MIT
#include "models/gpu/kernel_charge.h"

#include <algorithm>

#include "models/hbm/hbm_stats.h"

namespace sim::gpu {

GpuCoreConfig core_config_for(const GpuParams& params, const KernelLaunch& kernel) {
    GpuCoreConfig config = params.core;
    for (const Instr& in : kernel.program) {
        if (in.op != Opcode::Mma) continue;
        config.clock_hz = params.tensor_clock_hz;
        break;
    }
    return config;
}

EnergyBreakdown kernel_energy(const energy::EnergyTable& table,
                              const hbm::HbmParams& hbm,
                              const KernelLaunch& kernel,
                              const KernelResult& result,
                              const GpuCore& core,
                              DType dtype) {
    const KernelTotals& k = result.totals;
    const double sector = GpuCoreConfig::kSectorBytes;
    EnergyBreakdown e;
    e.compute =
        (k.thread_flops - k.tensor_flops) / 2 * table.fma_energy(ComputeUnit::Vector, DType::FP32);
    if (k.tensor_flops > 0) {
        // wgmma reads its multiplicands from shared memory (counted in shared_async_bytes);
        // mma.sync from registers, after ldmatrix (LDS) put them there.
        const bool from_shared = std::any_of(kernel.mma.begin(), kernel.mma.end(),
                                             [](const MmaCost& m) { return m.shared_bytes > 0; });
        e.compute +=
            k.tensor_flops / 2 * table.fma_energy(ComputeUnit::Tensor, dtype, !from_shared);
    }
    // The L1 and shared memory are one SRAM: loads through L1, LDS and STS passes over the
    // banks, bulk copies landing or leaving, wgmma's operand reads.
    const double sram_bytes = k.l1_sectors * sector +
                              k.shared_wavefronts * GpuCoreConfig::kSharedWavefrontBytes +
                              k.shared_async_bytes;
    e.sram = sram_bytes * table.sram_per_byte * table.scale;
    e.l2 = (k.l2_read_sectors + k.l2_write_sectors) * sector * table.l2_per_byte * table.scale;
    // Every ACT, burst and REF the HBM model counted, scaled to the whole kernel's traffic.
    const double simulated = double(result.memory.dram_read_bytes + result.memory.dram_write_bytes);
    const double dram = hbm::hbm_energy(hbm, core.memory().dram());
    e.dram = simulated > 0 ? dram * (k.dram_read_bytes + k.dram_write_bytes) / simulated : dram;
    return e;
}

}  // namespace sim::gpu
