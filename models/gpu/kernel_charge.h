// SPDX-License-Identifier: MIT
// What a kernel run on GpuCore costs in energy: every event it counted (FLOPs by pipe, bytes
// through the L1 / shared-memory SRAM, L2 sectors, the HBM's ACTs, bursts and refreshes) charged
// from a technology's energy table. The operator model charges its kernels with it, and the
// technology fit (tests/validation/technology_test.cpp) charges the calibration GEMM the same
// way, so the fitted scale is the one the cycle-level GPU reproduces its measurement with.
#pragma once

#include "models/energy/core/energy_table.h"
#include "models/gpu/core/gpu_core.h"
#include "models/gpu/gpu_params.h"
#include "sim/core/energy.h"

namespace sim::gpu {

/// The core a kernel runs on: kernels that issue MMAs run at the clock the Tensor Core peaks
/// are quoted at, the others at the SM clock.
GpuCoreConfig core_config_for(const GpuParams& params, const KernelLaunch& kernel);

/// The energy of the events `core` counted running `kernel` (`result`), at the table's nominal
/// voltage; `dtype` is the precision of the kernel's Tensor Core FLOPs. The multiplicands of
/// MMAs that read them from shared memory (wgmma) are charged as those reads, not as register
/// reads. The HBM events counted in simulation are scaled to the whole kernel's traffic
/// (sampled runs extrapolate).
EnergyBreakdown kernel_energy(const energy::EnergyTable& table,
                              const hbm::HbmParams& hbm,
                              const KernelLaunch& kernel,
                              const KernelResult& result,
                              const GpuCore& core,
                              DType dtype);

}  // namespace sim::gpu
