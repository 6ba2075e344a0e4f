// SPDX-License-Identifier: MIT
// A kernel on the cycle-level GPU core with its L2's DRAM requests crossing TLM-2.0 sockets
// (TlmKernel bound to HbmControllerTarget) gives exactly what the direct path gives: the GPU
// core driving its own HBM model, as the GPU operator model runs it, and the core driving the
// target's model through the direct interface it offers on the binding. Each TEST elaborates
// its own top (ctest runs each in its own process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/gpu/tlm_kernel.h"
#include "models/hbm/hbm_controller_target.h"
#include "tests/testing/gpu_presets.h"
#include "tests/testing/ops.h"

namespace sim::gpu {
namespace {

using testing::elementwise_op;
using testing::small_h100;

struct Top {
    Top(const GpuParams& p, const KernelLaunch& k, bool sampled, TlmKernel::Path path)
        : memory("hbm", p.hbm.core),
          kernel("kernel", p.core, p.hbm.core, k, sampling_of(sampled), path) {
        for (size_t i = 0; i < memory.ports(); ++i)
            kernel.dram.bind(memory.in);
    }
    static SamplingOptions sampling_of(bool sampled) {
        SamplingOptions s;
        s.enabled = sampled;
        return s;
    }
    hbm::HbmControllerTarget memory;
    TlmKernel kernel;
};

/// What the direct path gives, and the DRAM model's own counts behind it.
struct Outcome {
    KernelResult result;
    std::vector<uint64_t> dram;  // per pseudo-channel: reads, writes, row hits, activates
};

std::vector<uint64_t> dram_counts(const hbm::HbmSystem& dram) {
    std::vector<uint64_t> out;
    for (size_t i = 0; i < dram.pseudo_channel_count(); ++i) {
        const hbm::ChannelCounters& s = dram.pseudo_channel(i).counters();
        out.insert(out.end(), {s.reads, s.writes, s.row_hits, s.activates, s.refreshes});
    }
    return out;
}

Outcome direct(const GpuParams& p, const KernelLaunch& k, bool sampled) {
    GpuCore core(p.core, p.hbm.core, k);
    Outcome o;
    o.result = core.run(Top::sampling_of(sampled));
    o.dram = dram_counts(core.memory().dram());
    return o;
}

void expect_same(const KernelResult& a, const KernelResult& b) {
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.simulated_cycles, b.simulated_cycles);
    EXPECT_EQ(a.simulated_ctas, b.simulated_ctas);
    EXPECT_EQ(a.skipped_trips, b.skipped_trips);
    EXPECT_EQ(a.memory.dram_read_bytes, b.memory.dram_read_bytes);
    EXPECT_EQ(a.memory.dram_write_bytes, b.memory.dram_write_bytes);
    EXPECT_EQ(a.memory.l2_hit_sectors, b.memory.l2_hit_sectors);
    EXPECT_EQ(a.memory.l1_throttled, b.memory.l1_throttled);
    EXPECT_EQ(a.sm.stall_memory, b.sm.stall_memory);
    EXPECT_EQ(a.sm.warp_instructions, b.sm.warp_instructions);
    EXPECT_EQ(a.sm.scheduler_decisions, b.sm.scheduler_decisions);
    EXPECT_DOUBLE_EQ(a.totals.dram_read_bytes, b.totals.dram_read_bytes);
    EXPECT_DOUBLE_EQ(a.bound, b.bound);
}

/// Runs k through a TlmKernel on `path` and checks it against the core alone; returns the
/// requests the memory held back.
uint64_t expect_equal_to_the_core_alone(const GpuParams& p,
                                        const KernelLaunch& k,
                                        bool sampled,
                                        TlmKernel::Path path) {
    const Outcome want = direct(p, k, sampled);
    Top top(p, k, sampled, path);
    sc_core::sc_start();
    EXPECT_TRUE(top.kernel.finished());
    expect_same(top.kernel.result(), want.result);
    EXPECT_EQ(dram_counts(top.memory.system()), want.dram);
    if (path == TlmKernel::Path::Direct) {
        EXPECT_EQ(top.kernel.transactions(), 0u);  // no transaction crossed the sockets
    } else {
        // The DRAM accesses crossed the sockets; all are answered but the write-backs still
        // in flight when the kernel's last store reached L2.
        EXPECT_GT(top.kernel.transactions(), 0u);
        EXPECT_LE(top.memory.completed(), top.kernel.transactions());
    }
    // The kernel ends at its last cycle in SystemC time.
    EXPECT_EQ(sc_core::sc_time_stamp().value(),
              ClockDomain("sm", p.core.clock_hz)
                  .to_ps(Cycle{top.kernel.result().simulated_cycles})
                  .value());
    return top.kernel.held_back();
}

TEST(TlmKernel, AStreamingKernelThroughTheSocketsEqualsTheDirectPath) {
    const GpuParams p = small_h100(8);
    expect_equal_to_the_core_alone(p, testing::lower_one(elementwise_op(1 << 20), p), false,
                                   TlmKernel::Path::Tlm);
}

TEST(TlmKernel, BackPressureFromFullControllerQueuesGivesTheSameResult) {
    // Queues of two entries: the L2 runs into full queues all the time, so requests are held
    // back (END_REQ later) and later ones of their port wait behind them.
    const GpuParams p = small_h100(
        8, {"hbm.controller.read_queue=2", "hbm.controller.write_queue=2",
            "hbm.controller.write_high_watermark=2", "hbm.controller.write_low_watermark=1"});
    const KernelLaunch k = testing::lower_one(elementwise_op(1 << 19), p);
    EXPECT_GT(expect_equal_to_the_core_alone(p, k, false, TlmKernel::Path::Tlm), 0u);
}

TEST(TlmKernel, StoresHeldByFullWriteQueuesGiveTheSameResult) {
    // 16 MiB of stores through the 4 MB L2: the slices hold stores whose dirty victims find
    // their controller's write queue full, and take them as the DRAM's writes complete, which
    // come back through the socket.
    const GpuParams p = small_h100(8);
    const KernelLaunch k = testing::lower_one(elementwise_op(1 << 22, 0, {}, /*inputs=*/0), p);
    expect_equal_to_the_core_alone(p, k, false, TlmKernel::Path::Tlm);
}

TEST(TlmKernel, ASampledTensorCoreGemmThroughTheSocketsEqualsTheDirectPath) {
    // Bulk copies (TMA) into shared memory, write-backs from L2, wave sampling and main-loop
    // fast-forward: everything the direct path does between the SMs and the DRAM.
    const GpuParams p = small_h100(8);
    expect_equal_to_the_core_alone(
        p, testing::lower_one(testing::gemm(1024, 1024, 2048, DType::BF16), p), true,
        TlmKernel::Path::Tlm);
}

TEST(TlmKernel, SharedChannelQueuesGiveTheSameResult) {
    const GpuParams p = small_h100(8, {"hbm.controller.queues=per_channel"});
    expect_equal_to_the_core_alone(p, testing::lower_one(elementwise_op(1 << 19), p), false,
                                   TlmKernel::Path::Tlm);
}

TEST(TlmKernel, TheDirectInterfaceObtainedThroughTheBindingEqualsTheCoreAlone) {
    const GpuParams p = small_h100(8);
    expect_equal_to_the_core_alone(p, testing::lower_one(elementwise_op(1 << 19), p), false,
                                   TlmKernel::Path::Direct);
}

TEST(TlmKernel, AMemoryWithAPortMissingIsAWiringError) {
    const GpuParams p = small_h100(8);
    hbm::HbmControllerTarget memory("hbm", p.hbm.core);
    TlmKernel kernel("kernel", p.core, p.hbm.core, testing::lower_one(elementwise_op(1 << 10), p),
                     SamplingOptions{}, TlmKernel::Path::Tlm);
    for (size_t i = 0; i + 1 < memory.ports(); ++i)
        kernel.dram.bind(memory.in);
    try {
        sc_core::sc_start();
        FAIL() << "elaboration accepted a missing port";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("hbm.in has 63 bindings; expected 64"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace sim::gpu
