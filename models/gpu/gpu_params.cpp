// SPDX-License-Identifier: MIT
#include "models/gpu/gpu_params.h"
#include "sim/config/resolved.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "models/hw/hw_params.h"

namespace sim::gpu {

namespace {

// Tensor Core rates per sub-partition from the per-SM datasheet rates, at the Tensor Core
// clock (a rate on another clock, such as H100's FP64 on the boost clock, is rescaled).
void read_tensor_cores(const ConfigNode& root, const ConfigNode& sm, GpuParams& p) {
    const hw::HardwareParams& hw = resolved<hw::HardwareParams>(root);
    tensor_core::TensorCoreConfig& t = p.tensor;
    t.sub_partitions = p.core.sm.sub_partitions;
    t.sparsity_speedup = hw.sparsity_speedup;
    const auto hz = hw.clocks_hz.find(hw.tensor_clock.empty() ? "boost" : hw.tensor_clock);
    p.tensor_clock_hz = hz != hw.clocks_hz.end() ? hz->second : p.core.clock_hz;
    for (const auto& [dtype, rate] : hw.tensor) {
        const double rate_hz = double(hw.clocks_hz.at(rate.clock));
        t.macs_per_clock[dtype] =
            rate.flops_per_clock / 2 / t.sub_partitions * rate_hz / double(p.tensor_clock_hz);
    }
    if (auto tc = sm.optional_child("tensor_core")) {
        tensor_core_param_table().read(*tc, t);
        tc->reject_unknown_keys();
    }
    try {
        t.validate();
    } catch (const std::invalid_argument& e) {
        sm.fail("tensor_core", e.what());
    }
}

}  // namespace

ParamTable<tensor_core::TensorCoreConfig> tensor_core_param_table() {
    using P = tensor_core::TensorCoreConfig;
    using tensor_core::MmaFamily;
    ParamTable<P> t;
    t.options("instruction", &P::family,
              {{"wgmma", MmaFamily::Wgmma}, {"mma_sync", MmaFamily::MmaSync}},
              "the MMA the kernels use: Hopper's warpgroup wgmma (shared-memory operands) or "
              "Ampere's per-warp mma.sync (register operands)");
    t.integer("shared_bytes_per_clock", &P::shared_bytes_per_clock, 1, 1 << 16, "B per SM cycle",
              "shared memory the Tensor Cores of an SM read together");
    t.integer("latency", &P::latency, 0, 10000, "SM cycles",
              "from an MMA's last operand to its accumulator");
    t.number("mma_sync_rate", &P::mma_sync_rate, 0, 1, true, "of the dense rate",
             "with instruction wgmma: the share of each precision's rate that kernels issuing "
             "Ampere's mma.sync reach (a trace's kernel: {mma: mma_sync})");
    return t;
}

ParamTable<SmConfig> pipeline_param_table(Pipeline SmConfig::*which) {
    using P = SmConfig;
    ParamTable<P> t;
    const auto field = [which](uint32_t Pipeline::*member) {
        return [which, member](P& p) -> uint32_t& { return (p.*which).*member; };
    };
    // FP32 lanes follow from the datasheet's FP32 rate; the other pipelines take theirs here.
    if (which != &SmConfig::fp32) {
        t.integer_at<uint32_t>("lanes", field(&Pipeline::lanes), 1, 32, "lanes per sub-partition",
                               "a warp instruction takes 32 / lanes cycles to issue; must divide "
                               "32");
    }
    t.integer_at<uint32_t>("latency", field(&Pipeline::latency), 0, 10000, "SM cycles",
                           "issue to result");
    return t;
}

ParamTable<SmConfig> sm_param_table() {
    using P = SmConfig;
    ParamTable<P> t;
    t.integer("sub_partitions", &P::sub_partitions, 1, 8, "warp schedulers",
              "sub-partitions per SM, each with its warp scheduler issuing one instruction a "
              "cycle");
    t.integer("max_warps", &P::max_warps, 1, 1024, "warps", "resident warps per SM at most");
    t.integer("max_threads", &P::max_threads, 32, 32768, "threads",
              "resident threads per SM at most");
    t.integer("max_ctas", &P::max_ctas, 1, 1024, "CTAs", "resident CTAs per SM at most");
    t.integer("registers", &P::registers, 256, 1 << 24, "32-bit registers", "register file per SM");
    t.bytes("shared_memory", &P::shared_memory, 0, UINT32_MAX,
            "shared memory per SM that CTAs may use");
    t.integer("barrier_latency", &P::barrier_latency, 0, 10000, "SM cycles",
              "from the last warp reaching a CTA barrier to the CTA going on");
    t.integer("dsmem_latency", &P::dsmem_latency, 1, 10000, "SM cycles",
              "an access to another CTA's shared memory in its thread-block cluster (the "
              "SM-to-SM network; GPUs with clusters only)");
    t.integer("tma_latency", &P::tma_latency, 0, 10000, "SM cycles",
              "what a TMA load adds to its lines' round trip (tensor-map addresses, the "
              "mbarrier's byte count); 0 where tile copies are cp.async");
    t.integer("tma_bytes_per_clock", &P::tma_bytes_per_clock, 0, 4096, "bytes per SM cycle",
              "how fast the TMA unit walks one load copy into L2 requests (a copy's lines leave "
              "one after another; copies walk side by side); 0: every line at once");
    t.options("scheduler", &P::scheduler,
              {{"gto", SchedulerPolicy::Gto}, {"lrr", SchedulerPolicy::Lrr}},
              "warp scheduling: greedy-then-oldest or loose round robin");
    return t;
}

ParamTable<L1Config> l1_param_table() {
    using P = L1Config;
    ParamTable<P> t;
    t.bytes("size", &P::bytes, 0, UINT32_MAX, "L1 data cache for global loads, per SM");
    t.integer("ways", &P::ways, 1, 64, "ways", "associativity");
    t.integer("bytes_per_clock", &P::bytes_per_clock, 1, 4096, "B per SM cycle", "data port");
    t.integer("hit_latency", &P::hit_latency, 1, 10000, "SM cycles", "load-to-use on a hit");
    t.integer("miss_entries", &P::max_pending_lines, 1, 1 << 16, "lines",
              "lines in flight at once: load misses (MSHRs) and stores until L2 has written them");
    return t;
}

ParamTable<L2Config> l2_param_table() {
    using P = L2Config;
    ParamTable<P> t;
    t.integer("slices", &P::slices, 1, 4096, "slices",
              "L2 slices the addresses are spread over, each with its own port");
    t.integer("ways", &P::ways, 1, 64, "ways", "associativity");
    t.integer("bytes_per_clock_per_slice", &P::bytes_per_clock_per_slice, 1, 4096, "B per SM cycle",
              "each slice's data port");
    t.integer("hit_latency", &P::hit_latency, 1, 10000, "SM cycles",
              "tag and data after the slice accepts a request");
    t.integer("crossbar_latency", &P::crossbar_latency, 0, 10000, "SM cycles",
              "each way between an SM and a slice");
    t.integer("controller_latency", &P::controller_latency, 0, 10000, "SM cycles",
              "each way between a slice and its memory controller (partition crossbar, "
              "controller front end)");
    t.integer("partitions", &P::partitions, 1, 64, "partitions",
              "groups the slices and SMs are split into; a line's memory hangs off its slice's");
    t.integer("partition_latency", &P::partition_latency, 0, 10000, "SM cycles",
              "each way between partitions, paid by a miss on a line homed in another partition");
    return t;
}

GpuParams GpuParams::from_config(const ConfigNode& root) {
    GpuParams p;
    p.hbm = resolved<hbm::HbmParams>(root);
    // The datasheet figures (SM count, clocks, rates, L2 size) are the device's HardwareParams;
    // this struct reads only the structure the cycle-level model adds to them.
    const hw::HardwareParams& hw = resolved<hw::HardwareParams>(root);
    GpuCoreConfig& c = p.core;
    const ConfigNode sm = root.child("sm");
    if (hw.sm_count > (1u << 20)) sm.fail("count", "must be at most 1048576");
    c.sm_count = hw.sm_count;
    const ConfigNode clocks = root.child("clocks");
    const auto boost = hw.clocks_hz.find("boost");
    if (boost == hw.clocks_hz.end())
        clocks.fail("boost", "the cycle-level GPU runs its SMs at clocks.boost; it is missing");
    c.clock_hz = boost->second;
    if (hw.l2_bytes == 0)
        root.fail("l2",
                  "the cycle-level GPU needs the L2 cache's size; expected l2.size, e.g. 50MB");
    c.l2.bytes = hw.l2_bytes;

    sm_param_table().read(sm, c.sm);
    // FP32 lanes per sub-partition from the datasheet rate: FLOP/clock/SM = 2 x lanes x SPs.
    const ConfigNode rates = root.child("compute").child("vector").child("flops_per_clock");
    if (const auto fp32_rate = hw.vector.find(DType::FP32); fp32_rate != hw.vector.end()) {
        const double fp32 = fp32_rate->second.flops_per_clock;
        const double lanes = fp32 / 2 / c.sm.sub_partitions;
        if (lanes < 1 || lanes > 32 || std::fmod(32, lanes) != 0)
            rates.fail("fp32",
                       "the cycle-level GPU needs 2 x lanes x sm.sub_partitions FLOP per clock "
                       "with lanes dividing 32");
        c.sm.fp32.lanes = static_cast<uint32_t>(lanes);
    }
    if (auto pipes = sm.optional_child("pipelines")) {
        for (const auto& [key, which] : kPipelines) {
            const auto n = pipes->optional_child(key);
            if (!n) continue;
            pipeline_param_table(which).read(*n, c.sm);
            if (32 % (c.sm.*which).lanes != 0)
                n->fail("lanes", "must divide 32 (1, 2, 4, 8, 16 or 32)");
            n->reject_unknown_keys();
        }
    }
    if (auto l1 = sm.optional_child("l1")) l1_param_table().read(*l1, c.l1);
    if (auto l2 = root.optional_child("l2")) {
        l2_param_table().read(*l2, c.l2);
        if (c.l2.slices % c.l2.partitions != 0)
            l2->fail("partitions", "must divide l2.slices (" + std::to_string(c.l2.slices) + ")");
    }
    read_tensor_cores(root, sm, p);
    try {
        c.validate();
    } catch (const std::invalid_argument& e) {
        sm.fail("", e.what());
    }
    return p;
}

}  // namespace sim::gpu
