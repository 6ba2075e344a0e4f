// SPDX-License-Identifier: MIT
// The cycle-level GPU running kernels on a small H100 (8 SMs, one HBM3 stack): work is
// conserved, latency hiding comes from warps, strided access multiplies sectors, divergence
// multiplies issue slots, a compute-bound kernel meets the FP32 pipeline's rate, barriers hold
// warps, sampling agrees with the full run, and runs are deterministic.
#include "models/gpu/core/gpu_core.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/testing/config_error.h"
#include "tests/testing/gpu_presets.h"
#include "tests/testing/ops.h"

namespace sim::gpu {
namespace {

using testing::elementwise_op;
using testing::small_h100;

KernelResult run(const GpuParams& p, const Op& op, bool sampled = false) {
    GpuCore core(p.core, p.hbm.core, testing::lower_one(op));
    SamplingOptions s;
    s.enabled = sampled;
    return core.run(s);
}

double dram_bandwidth(const GpuParams& p, const KernelResult& r) {
    const double bytes = double(r.memory.dram_read_bytes + r.memory.dram_write_bytes);
    return bytes / (double(r.simulated_cycles) / double(p.core.clock_hz));
}

TEST(GpuCore, EveryCtaRunsAndEveryInputByteIsReadFromDram) {
    const GpuParams p = small_h100();
    const uint64_t n = 1 << 20;  // 4 MiB per array
    const KernelResult r = run(p, elementwise_op(n));
    EXPECT_EQ(r.simulated_ctas, r.ctas);
    EXPECT_FALSE(r.extrapolated);
    // Two inputs read once; the output is written into L2 (write-back), so at most 4 MiB of
    // it reaches DRAM.
    EXPECT_EQ(r.memory.dram_read_bytes, 2 * n * 4);
    EXPECT_LE(r.memory.dram_write_bytes, n * 4);
    EXPECT_EQ(r.memory.l2_write_sectors * 32, n * 4);
    // Per warp: 4 index instructions, 2 loads, 4 adds, 1 store, EXIT.
    EXPECT_EQ(r.sm.warp_instructions, r.ctas * 8 * 12);
    EXPECT_DOUBLE_EQ(r.sm.thread_flops, double(n));
}

// A kernel that only stores (a memset) fills L2 faster than its slices can write the lines: it
// is done when the last line has been written, at the slices' rate, not when its warps have
// issued their stores.
TEST(GpuCore, AStoreOnlyKernelEndsWhenItsSlicesHaveWrittenEveryLine) {
    const GpuParams p = small_h100();
    const uint64_t n = 1 << 19;  // 2 MiB of FP32 output: it stays in the 4 MB L2
    const KernelResult r = run(p, elementwise_op(n, 0, {}, /*inputs=*/0));
    EXPECT_EQ(r.memory.l2_write_sectors * 32, n * 4);
    EXPECT_EQ(r.memory.dram_read_bytes, 0u);
    const double slices_per_clock =
        double(p.core.l2.slices) * double(p.core.l2.bytes_per_clock_per_slice);
    const double written_in = double(n * 4) / slices_per_clock;
    EXPECT_GE(double(r.cycles), written_in);
    EXPECT_LT(double(r.cycles), 1.5 * written_in);  // the slices, not anything else, set it
}

// A store holds one of its SM's L1 entries until its slice has written it, so warps that only
// store wait for entries and CTAs retire at the slices' rate: sampled from its CTAs' times, a
// memset larger than L2 takes what its full run takes (2.4 times less before stores held
// entries, their CTAs retiring as fast as their warps issued).
TEST(GpuCore, ASampledMemsetLargerThanL2AgreesWithItsFullRun) {
    const GpuParams p = small_h100();
    const uint64_t n = 1 << 22;  // 16 MiB of FP32 output: four times the 4 MB L2
    const KernelResult full = run(p, elementwise_op(n, 0, {}, /*inputs=*/0));
    const KernelResult sampled = run(p, elementwise_op(n, 0, {}, /*inputs=*/0), true);
    ASSERT_TRUE(sampled.extrapolated);
    EXPECT_NEAR(double(sampled.cycles) / double(full.cycles), 1.0, SamplingOptions{}.tolerance);
    EXPECT_GT(full.sm.stall_pipeline + full.sm.stall_memory, 0u);
}

TEST(GpuCore, AStoreOnlyKernelLargerThanL2IsPacedByTheDramWrites) {
    // 16 MiB of stores through a 4 MB L2 to one HBM3 stack: once the L2 is full of dirty lines
    // every store evicts one, and a slice takes a store only while the victim's controller has
    // room in its write queue. The kernel then runs at the DRAM's write rate: never faster than
    // the pins (until 2026-12-07 the write-backs queued without bound, and the kernel ended
    // with them still queued: 770 GB/s against the stack's 669 here), and not far below them.
    const GpuParams p = small_h100();
    const uint64_t n = 1 << 22;
    const KernelResult r = run(p, elementwise_op(n, 0, {}, /*inputs=*/0));
    EXPECT_GE(r.memory.dram_write_bytes, 4 * n - p.core.l2.bytes);
    const double pins = p.hbm.peak_bandwidth();
    EXPECT_LE(dram_bandwidth(p, r), pins);
    EXPECT_GT(dram_bandwidth(p, r), 0.8 * pins);
}

TEST(GpuCore, FewerResidentWarpsHideLessLatency) {
    const GpuParams p = small_h100();
    const uint64_t n = 1 << 21;
    KernelHints few;
    few.shared_memory = 200 * 1024;  // one 256-thread CTA per SM: 8 warps
    const KernelResult full = run(p, elementwise_op(n));
    const KernelResult starved = run(p, elementwise_op(n, 1, few));
    EXPECT_EQ(full.occupancy.warps_per_sm, 64u);
    EXPECT_EQ(starved.occupancy.warps_per_sm, 8u);
    EXPECT_EQ(starved.occupancy.limiter, "shared_memory");
    EXPECT_LT(dram_bandwidth(p, starved), 0.6 * dram_bandwidth(p, full));
    EXPECT_GT(starved.sm.stall_memory, 0u);
}

TEST(GpuCore, StridedAccessMovesMoreSectorsThanCoalesced) {
    const GpuParams p = small_h100();
    const uint64_t n = 1 << 20;
    KernelHints coalesced;
    coalesced.vector = 1;
    KernelHints strided = coalesced;
    strided.stride = 32;
    const KernelResult a = run(p, elementwise_op(n, 1, coalesced, 1, 1));
    const KernelResult b = run(p, elementwise_op(n, 1, strided, 1, 1));
    // Coalesced: one sector per 8 FP32 lanes; strided: one per lane.
    EXPECT_EQ(a.memory.l1_sectors, n / 8);
    EXPECT_EQ(b.memory.l1_sectors, n);
    EXPECT_GT(b.cycles, 2 * a.cycles);
}

TEST(GpuCore, DivergentPathsSerialise) {
    const GpuParams p = small_h100(4);
    const uint64_t n = 1 << 18;
    KernelHints split;
    split.divergence = 4;
    const KernelResult uniform = run(p, elementwise_op(n, 256));
    const KernelResult divergent = run(p, elementwise_op(n, 256, split));
    // The same useful FLOPs, four times the arithmetic issue slots.
    EXPECT_DOUBLE_EQ(divergent.sm.thread_flops, uniform.sm.thread_flops);
    EXPECT_GT(divergent.sm.warp_instructions, 3.5 * uniform.sm.warp_instructions);
    EXPECT_GT(divergent.cycles, 3 * uniform.cycles);
}

TEST(GpuCore, ComputeBoundKernelRunsAtTheFp32PipelineRate) {
    const GpuParams p = small_h100(4);
    const uint64_t n = 1 << 18;
    const uint64_t flops = 2048;  // per element: 170 FLOP/B, far above the FP32 ridge
    const KernelResult r = run(p, elementwise_op(n, flops));
    // 4 SMs x 4 sub-partitions x 32 lanes x 2 FLOP per cycle.
    const double peak_per_cycle = 4.0 * 4 * p.core.sm.fp32.lanes * 2;
    const double ideal = double(n) * flops / peak_per_cycle;
    EXPECT_GT(ideal / double(r.cycles), 0.85);
    EXPECT_LE(ideal / double(r.cycles), 1.0);
}

TEST(GpuCore, RowKernelsMeetAtBarriers) {
    const GpuParams p = small_h100(4);
    Op op;
    op.kind = OpKind::Softmax;
    op.dtype = DType::FP32;
    op.params = RowParams{512, 4096};
    const KernelResult r = run(p, op);
    EXPECT_EQ(r.simulated_ctas, 512u);
    EXPECT_GT(r.sm.stall_barrier, 0u);
    EXPECT_EQ(r.memory.dram_read_bytes, 512u * 4096 * 4);
}

TEST(GpuCore, BothSchedulerPoliciesFinishTheSameWork) {
    const GpuParams gto = small_h100(4);
    const GpuParams lrr = small_h100(4, {"sm.scheduler=lrr"});
    Op op;
    op.kind = OpKind::Layernorm;
    op.dtype = DType::FP16;
    op.params = RowParams{256, 2048};
    const KernelResult a = run(gto, op);
    const KernelResult b = run(lrr, op);
    EXPECT_EQ(a.sm.warp_instructions, b.sm.warp_instructions);
    EXPECT_EQ(a.memory.dram_read_bytes, b.memory.dram_read_bytes);
    EXPECT_NEAR(double(b.cycles) / double(a.cycles), 1.0, 0.25);
}

TEST(GpuCore, SampledRunAgreesWithTheFullRunWithinItsBound) {
    const GpuParams p = small_h100(8);
    const Op op = elementwise_op(uint64_t{1} << 23);  // 32 MiB arrays, 8x the L2
    const KernelResult full = run(p, op, false);
    const KernelResult sampled = run(p, op, true);
    ASSERT_TRUE(sampled.extrapolated);
    EXPECT_LT(sampled.simulated_ctas, sampled.ctas);
    const double error = std::abs(double(sampled.cycles) / double(full.cycles) - 1.0);
    EXPECT_LT(error, sampled.bound + 0.05);
}

TEST(GpuCore, SampledDramReadsCountTheRunningCtasLoadsOnce) {
    // A register-resident softmax loads its whole row first. The sampler extrapolates the
    // window's reads per CTA over every CTA not finished, running ones included, whose loads
    // are already counted: without taking those out the sampled run read 4-5% more than the
    // full one (a wave's loads); with them, within 1%.
    // The full H100: 132 SMs hold a wave large against the kernel, as on real GPUs.
    const GpuParams p = testing::gpu_preset("h100");
    Op op;
    op.kind = OpKind::Softmax;
    op.dtype = DType::FP32;
    op.params = RowParams{8192, 4096};  // 128 MiB, 2.6 times the L2
    const KernelResult full = run(p, op, false);
    const KernelResult sampled = run(p, op, true);
    ASSERT_TRUE(sampled.extrapolated);
    EXPECT_EQ(full.memory.dram_read_bytes, 8192u * 4096 * 4);
    EXPECT_NEAR(sampled.totals.dram_read_bytes / double(full.memory.dram_read_bytes), 1.0, 0.01);
}

TEST(GpuCore, SampledClusterSoftmaxTimeAndReadsAgreeWithItsFullRun) {
    // Llama-3's softmax rows split over clusters of 8 on H100 finish in bursts that hold more
    // than a wave (264 CTAs): six waves in seven take about 14,000 cycles, the seventh 6,000 to
    // 10,000. The sampler stopped on three long ones and read the kernel 8% slow from the
    // window's ends; averaged over a wave's phases it lands within 2% of the full run.
    // Its reads per CTA, taken over the window's CTAs done without the running ones', were
    // 4% high with as many CTAs running at the window's ends as the bursts left; now within
    // 1%. With the preset's two L2 partitions (misses crossing between them) the bursts fall
    // otherwise: warm-up ends at wave 10 and waves 11-13, three long ones of a pattern about
    // seven waves long (7,200 to 15,800 cycles a wave), agree well enough to be taken as
    // steady; averaged over their phases they read 48.4 cycles a CTA where the kernel's rest
    // takes 44.7, 4.7% slow in all. That is within the 5% the sampler trusts its waves to, not
    // the 2% asserted here, so the phase averaging is checked on one partition and the preset
    // held to the sampler's own tolerance. Since stores hold L1 entries until L2 has written
    // them, the one-partition run reads 2.1% slow, and 1.1% since a slice holds a store whose
    // dirty victim finds its controller's write queue full: held to 2.5%.
    const GpuParams preset = testing::gpu_preset("h100");
    const GpuParams p = testing::gpu_preset("h100", {"l2.partitions=1"});
    Op op;
    op.kind = OpKind::Softmax;
    op.dtype = DType::BF16;
    op.params = RowParams{1024, 128256};
    const auto run_on = [&](const GpuParams& g, bool sampled) {
        GpuCore core(g.core, g.hbm.core, testing::lower_one(op, g));  // clusters: Hopper's
        SamplingOptions s;
        s.enabled = sampled;
        return core.run(s);
    };
    const KernelResult full = run_on(p, false);
    const KernelResult sampled = run_on(p, true);
    ASSERT_TRUE(sampled.extrapolated);
    ASSERT_EQ(full.ctas, 1024u * 8);  // a cluster of 8 per row
    EXPECT_NEAR(double(sampled.cycles) / double(full.cycles), 1.0, 0.025);
    // The row, read once (a cluster's last CTA reads a few vectors past the row's end).
    EXPECT_NEAR(double(full.memory.dram_read_bytes) / (1024.0 * 128256 * 2), 1.0, 0.001);
    EXPECT_NEAR(sampled.totals.dram_read_bytes / double(full.memory.dram_read_bytes), 1.0, 0.01);
    const double preset_ratio =
        double(run_on(preset, true).cycles) / double(run_on(preset, false).cycles);
    EXPECT_NEAR(preset_ratio, 1.0, SamplingOptions{}.tolerance);
}

TEST(GpuCore, SampledGemmBeforeAPartialWaveAgreesWithItsFullRun) {
    // An A100 FP16 2048^3 GEMM: 512 CTAs in 324 slots, so 188 wait for the first wave's
    // slots. The k-loop jump in the first wave once moved every CTA on by the same trips,
    // which kept their spread from drifting as it does: they freed their slots in bursts, the
    // dispatcher stacked the partial wave two and three CTAs to an SM, and the sampled run
    // came out 19% longer than the full one. Each CTA moving on at its own rate, 3.4%: within
    // the 5% the sampler trusts its rates to.
    const GpuParams p = testing::gpu_preset("a100");
    const KernelLaunch k = testing::lower_one(testing::gemm(2048, 2048, 2048, DType::FP16), p);
    const auto run = [&](bool sampled) {
        GpuCore core(p.core, p.hbm.core, k);
        SamplingOptions s;
        s.enabled = sampled;
        return core.run(s);
    };
    const KernelResult full = run(false);
    const KernelResult sampled = run(true);
    ASSERT_GT(sampled.skipped_trips, 0u);  // the loop jumped
    ASSERT_GT(k.ctas, uint64_t{p.core.sm_count} * full.occupancy.ctas_per_sm);
    EXPECT_NEAR(double(sampled.cycles) / double(full.cycles), 1.0, SamplingOptions{}.tolerance);
}

// Every resident warp-cycle is issuing or waiting for one reason, so the shares add up to the
// residency. A warp books a wait only when it next issues, and an SM its residency only at a
// launch or retire: extrapolating from wave totals that lacked the waits then in progress and
// other SMs' residency since their last event put this kernel's shares at 1.05 (and others
// 1-4% short on the full H100).
double warp_time_shares(const KernelTotals& t) {
    return (t.warp_instructions + t.stall_memory + t.stall_dependency + t.stall_pipeline +
            t.stall_barrier + t.not_selected) /
           t.warp_residency;
}

TEST(GpuCore, SampledWarpTimeSharesAddUpToTheResidency) {
    const GpuParams p = small_h100(8);
    const Op op = elementwise_op(uint64_t{1} << 23);
    const KernelResult full = run(p, op, false);
    const KernelResult sampled = run(p, op, true);
    ASSERT_TRUE(sampled.extrapolated);
    EXPECT_NEAR(warp_time_shares(full.totals), 1.0, 0.002);
    EXPECT_NEAR(warp_time_shares(sampled.totals), 1.0, 0.002);
    EXPECT_NEAR(sampled.totals.stall_memory / sampled.totals.warp_residency,
                full.totals.stall_memory / full.totals.warp_residency, 0.02);
}

TEST(GpuCore, CountedLoopsWalkTheirIterations) {
    // A hand-written program: 4 iterations of a 16-byte load per thread, one add each. The
    // library's kernels unroll instead, so this is the loop path's own check.
    const GpuParams p = small_h100(2);
    KernelLaunch k;
    k.name = "loop";
    k.ctas = 16;
    k.threads_per_cta = 128;
    AddressStream in;
    in.name = "in";
    in.access_bytes = 16;
    in.vectors = 16 * 128 * 4;
    in.cta_step = 128 * 4;
    in.iteration_step = 128;
    k.streams.push_back(in);
    Instr loop{Opcode::LoopBegin};
    loop.count = 4;
    Instr load{Opcode::Ldg, 1};
    Instr add{Opcode::Falu, 2, {2, 1}};
    k.program = {loop, load, add, Instr{Opcode::LoopEnd}, Instr{Opcode::Exit}};
    GpuCore core(p.core, p.hbm.core, k);
    SamplingOptions once;
    once.enabled = false;
    const KernelResult r = core.run(once);
    // Every vector read exactly once: 16 CTAs x 128 threads x 4 iterations x 16 B.
    EXPECT_EQ(r.memory.dram_read_bytes, 16u * 128 * 4 * 16);
    EXPECT_EQ(r.memory.l1_sectors, 16u * 128 * 4 * 16 / 32);
    EXPECT_DOUBLE_EQ(r.sm.thread_flops, 16.0 * 128 * 4);
}

/// Two clusters of two CTAs whose leader warps exchange a value over the SM-to-SM network
/// and then use what arrived.
KernelLaunch exchange_kernel() {
    KernelLaunch k;
    k.name = "exchange";
    k.ctas = 4;
    k.cluster = 2;
    k.threads_per_cta = 64;
    Instr exchange{Opcode::ClusterExchange, 1};
    exchange.leader = true;
    Instr use{Opcode::Ialu, 2, {1, kNoReg}};
    use.leader = true;
    k.program = {exchange, use, Instr{Opcode::Exit}};
    return k;
}

TEST(GpuCore, AClusterExchangeTakesTheSmToSmLatencyAndNoMemoryTraffic) {
    const auto cycles_with = [](uint32_t latency) {
        GpuParams p = small_h100(4);
        p.core.sm.dsmem_latency = latency;
        GpuCore core(p.core, p.hbm.core, exchange_kernel());
        SamplingOptions once;
        once.enabled = false;
        const KernelResult r = core.run(once);
        EXPECT_EQ(r.memory.l1_sectors + r.memory.l2_read_sectors + r.memory.l2_write_sectors, 0u);
        return r.cycles;
    };
    EXPECT_EQ(cycles_with(500) - cycles_with(100), 400u);
}

TEST(GpuCore, AClusterExchangeIsTheLeadersAndNeedsACluster) {
    KernelLaunch k = exchange_kernel();
    EXPECT_NO_THROW(k.validate());
    k.cluster = 1;
    EXPECT_THROW(k.validate(), std::invalid_argument);
    k = exchange_kernel();
    k.program[0].leader = false;
    EXPECT_THROW(k.validate(), std::invalid_argument);
    k = exchange_kernel();
    Instr branch{Opcode::Diverge};
    branch.count = 2;
    k.program.insert(k.program.begin(), branch);
    k.program.insert(k.program.begin() + 2, Instr{Opcode::Reconverge});
    EXPECT_THROW(k.validate(), std::invalid_argument);
}

/// One CTA of four warps, one per sub-partition, each loading `loads` 16-byte vectors per
/// thread from shared memory (four wavefronts of the 32 four-byte banks each) or, with
/// wavefronts = 1, 4 bytes per thread.
KernelResult shared_loads(uint32_t loads, uint8_t wavefronts) {
    const GpuParams p = small_h100(1);
    KernelLaunch k;
    k.name = "lds";
    k.ctas = 1;
    k.threads_per_cta = 128;
    Instr lds{Opcode::Lds, 1};
    lds.count = lds.chains = loads;
    lds.shared_wavefronts = wavefronts;
    const Instr use{Opcode::Ialu, 2, {1, kNoReg}};  // waits for the last load
    k.program = {lds, use, Instr{Opcode::Exit}};
    GpuCore core(p.core, p.hbm.core, k);
    SamplingOptions once;
    once.enabled = false;
    return core.run(once);
}

TEST(GpuCore, SharedMemoryServes128BytesAClockPerSm) {
    // 32 banks of 4 bytes per clock (CUDA C++ Programming Guide), shared by the SM's four
    // sub-partitions: 4 warps x 1024 x 512 bytes take about 16,384 cycles.
    const KernelResult wide = shared_loads(1024, 4);
    EXPECT_EQ(wide.sm.shared_wavefronts, 4u * 1024 * 4);
    EXPECT_NEAR(4.0 * 1024 * 512 / double(wide.cycles), 128.0, 128.0 * 0.02);
    // 4 bytes per thread: one wavefront, at the shuffle pipe's own pace (8 lanes).
    const KernelResult narrow = shared_loads(1024, 1);
    EXPECT_NEAR(double(wide.cycles) / double(narrow.cycles), 4.0, 0.1);
}

TEST(GpuCore, SameKernelSameCycles) {
    const GpuParams p = small_h100(4);
    const Op op = elementwise_op(1 << 19, 8);
    const KernelResult a = run(p, op);
    const KernelResult b = run(p, op);
    EXPECT_EQ(a.cycles, b.cycles);
    EXPECT_EQ(a.sm.stall_memory, b.sm.stall_memory);
    EXPECT_EQ(a.memory.dram_write_bytes, b.memory.dram_write_bytes);
}

// The DRAM controllers wake only when they have work; evaluated every DRAM cycle instead, the
// kernel must run exactly the same. A streaming kernel that fills the controllers' queues (its
// refused requests retried as entries free) on a full A100: when the controllers due at one
// cycle were advanced in the order they were scheduled, that order, and with it the order the
// L2 saw completions and retried requests, depended on when each had last woken, and the
// cycles moved by 0.5%.
TEST(GpuCore, CyclesDoNotDependOnHowOftenTheDramControllersWake) {
    const GpuParams p = testing::gpu_preset("a100");
    const Op op = elementwise_op(1 << 20);
    const KernelResult event_driven = run(p, op);
    GpuParams ticked = p;
    ticked.hbm.core.controller.tick_every_cycle = true;
    const KernelResult every_cycle = run(ticked, op);
    EXPECT_EQ(event_driven.cycles, every_cycle.cycles);
    EXPECT_EQ(event_driven.sm.stall_memory, every_cycle.sm.stall_memory);
    EXPECT_EQ(event_driven.memory.dram_read_bytes, every_cycle.memory.dram_read_bytes);
    EXPECT_EQ(event_driven.memory.dram_write_bytes, every_cycle.memory.dram_write_bytes);
}

TEST(GpuCore, AKernelThatCannotFitIsRefused) {
    const GpuParams p = small_h100(1);
    KernelHints huge;
    huge.shared_memory = 1 << 20;
    EXPECT_THROW(GpuCore(p.core, p.hbm.core, testing::lower_one(elementwise_op(1024, 1, huge))),
                 std::invalid_argument);
}

// The keys of sm, sm.l1 and l2 are read through their ParamTables (sim/config/param_table.h):
// a value lands in its member, and one out of range names the key and the range.
TEST(GpuParams, DescribedKeysAreReadAndChecked) {
    const GpuParams p =
        testing::gpu_preset("h100", {"sm.scheduler=lrr", "sm.shared_memory=100KiB", "sm.l1.ways=8",
                                     "l2.controller_latency=7", "sm.tma_bytes_per_clock=16"});
    EXPECT_EQ(p.core.sm.scheduler, SchedulerPolicy::Lrr);
    EXPECT_EQ(p.core.sm.tma_bytes_per_clock, 16u);
    EXPECT_EQ(testing::gpu_preset("h100").core.sm.tma_bytes_per_clock, 32u);
    EXPECT_EQ(testing::gpu_preset("a100").core.sm.tma_bytes_per_clock, 0u) << "no TMA";
    EXPECT_EQ(p.core.sm.shared_memory, 100u * 1024);
    EXPECT_EQ(p.core.l1.ways, 8u);
    EXPECT_EQ(p.core.l2.controller_latency, 7u);
    using ::testing::HasSubstr;
    EXPECT_THAT(testing::config_error([] { testing::gpu_preset("h100", {"l2.ways=65"}); }),
                HasSubstr("l2.ways: = 65 is out of range: must be between 1 and 64"));
    EXPECT_THAT(testing::config_error([] { testing::gpu_preset("h100", {"sm.scheduler=fifo"}); }),
                HasSubstr("sm.scheduler: 'fifo' is not one of: gto, lrr"));
    EXPECT_THAT(testing::config_error([] { testing::gpu_preset("h100", {"l2.partitions=3"}); }),
                HasSubstr("l2.partitions: must divide l2.slices (80)"));
    EXPECT_THAT(
        testing::config_error([] { testing::gpu_preset("h100", {"sm.tma_bytes_per_clock=5000"}); }),
        HasSubstr("sm.tma_bytes_per_clock: = 5000 is out of range: must be between 0 and 4096"));
}

}  // namespace
}  // namespace sim::gpu
