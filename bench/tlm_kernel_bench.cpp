// SPDX-License-Identifier: MIT
// What crossing TLM-2.0 sockets costs a kernel's DRAM traffic: FP32 c = a + b over 2^22
// elements on the cycle-level H100 (the memory-bound kernel of BM_GpuKernel/0), every CTA,
// run one of three ways, one per process (SystemC elaborates once per process):
//   core    GpuCore alone, its own HBM model (what wallsim's GPU operator model runs)
//   direct  TlmKernel bound to HbmControllerTarget, driving the target's HBM model through
//           the direct interface obtained on the binding
//   tlm     the same, every DRAM request a transaction (BEGIN_REQ/END_REQ/BEGIN_RESP)
// Prints the wall time, the kernel's cycles and the transactions; all three give the same
// cycles. Usage: build/bench/tlm_kernel_bench core|direct|tlm
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "models/gpu/gpu_params.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/tlm_kernel.h"
#include "models/hbm/hbm_controller_target.h"
#include "sim/config/loader.h"

namespace {

int bench(const std::string& how) {
    const auto doc = sim::load_config(std::string(WALLSIM_SOURCE_DIR) + "/configs/hw/h100.yaml");
    const auto p = sim::gpu::GpuParams::from_config(sim::ConfigNode::root_of(doc));
    sim::Op op;
    op.dtype = sim::DType::FP32;
    op.kind = sim::OpKind::Elementwise;
    op.params = sim::ElementwiseParams{uint64_t{1} << 22, 2, 1, 1};
    const sim::gpu::KernelLaunch kernel = sim::gpu::lower(op, {p.core, p.tensor}).front();
    sim::gpu::SamplingOptions every_cta;
    every_cta.enabled = false;

    const auto start = std::chrono::steady_clock::now();
    uint64_t cycles = 0, transactions = 0;
    if (how == "core") {
        sim::gpu::GpuCore core(p.core, p.hbm.core, kernel);
        cycles = core.run(every_cta).cycles;
    } else if (how == "direct" || how == "tlm") {
        sim::hbm::HbmControllerTarget memory("hbm", p.hbm.core);
        sim::gpu::TlmKernel k(
            "kernel", p.core, p.hbm.core, kernel, every_cta,
            how == "tlm" ? sim::gpu::TlmKernel::Path::Tlm : sim::gpu::TlmKernel::Path::Direct);
        for (size_t i = 0; i < memory.ports(); ++i)
            k.dram.bind(memory.in);
        sc_core::sc_start();
        cycles = k.result().cycles;
        transactions = k.transactions();
    } else {
        std::fprintf(stderr, "usage: tlm_kernel_bench core|direct|tlm\n");
        return 2;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("%-6s %8.3f s  %llu cycles  %llu transactions\n", how.c_str(), seconds,
                static_cast<unsigned long long>(cycles),
                static_cast<unsigned long long>(transactions));
    return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
    // The kernel stops the simulation when it is done; that is not news here.
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    return bench(argc > 1 ? argv[1] : "");
}

int main(int argc, char** argv) {
    ::setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
    return sc_core::sc_elab_and_sim(argc, argv);
}
