// SPDX-License-Identifier: MIT
#include "models/gpu/gpu_params.h"
#include "sim/config/resolved.h"

#include <cmath>
#include <stdexcept>

#include "models/hw/hw_params.h"

namespace sim::gpu {

namespace {

void get_u32(const ConfigNode& n, const std::string& key, uint32_t& out, uint32_t lo, uint32_t hi) {
    uint64_t v = out;
    if (!n.get(key, v)) return;
    if (v < lo || v > hi)
        n.fail(key, "expected " + std::to_string(lo) + ".." + std::to_string(hi) + ", got " +
                        std::to_string(v));
    out = static_cast<uint32_t>(v);
}

void get_bytes_u32(const ConfigNode& n, const std::string& key, uint32_t& out) {
    uint64_t v = out;
    if (!n.get_size(key, v)) return;
    if (v > UINT32_MAX) n.fail(key, "must be below 4 GiB");
    out = static_cast<uint32_t>(v);
}

void read_pipeline(const ConfigNode& pipes, const std::string& key, Pipeline& p) {
    auto n = pipes.optional_child(key);
    if (!n) return;
    get_u32(*n, "lanes", p.lanes, 1, 32);
    if (32 % p.lanes != 0) n->fail("lanes", "must divide 32 (1, 2, 4, 8, 16 or 32)");
    get_u32(*n, "latency", p.latency, 0, 10000);
    n->reject_unknown_keys();
}

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
        std::string family = to_string(t.family);
        if (tc->get_choice("instruction", family, {"mma_sync", "wgmma"}))
            t.family = tensor_core::parse_mma_family(family);
        get_u32(*tc, "shared_bytes_per_clock", t.shared_bytes_per_clock, 1, 1 << 16);
        get_u32(*tc, "latency", t.latency, 0, 10000);
        tc->reject_unknown_keys();
    }
    try {
        t.validate();
    } catch (const std::invalid_argument& e) {
        sm.fail("tensor_core", e.what());
    }
}

}  // namespace

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

    get_u32(sm, "sub_partitions", c.sm.sub_partitions, 1, 8);
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
    get_u32(sm, "max_warps", c.sm.max_warps, 1, 1024);
    get_u32(sm, "max_threads", c.sm.max_threads, 32, 32768);
    get_u32(sm, "max_ctas", c.sm.max_ctas, 1, 1024);
    get_u32(sm, "registers", c.sm.registers, 256, 1 << 24);
    get_bytes_u32(sm, "shared_memory", c.sm.shared_memory);
    get_u32(sm, "barrier_latency", c.sm.barrier_latency, 0, 10000);
    std::string policy = to_string(c.sm.scheduler);
    if (sm.get_choice("scheduler", policy, {"gto", "lrr"}))
        c.sm.scheduler = parse_scheduler(policy);
    if (auto pipes = sm.optional_child("pipelines")) {
        if (auto f = pipes->optional_child("fp32")) {
            get_u32(*f, "latency", c.sm.fp32.latency, 0, 10000);
            f->reject_unknown_keys();
        }
        read_pipeline(*pipes, "integer", c.sm.integer);
        read_pipeline(*pipes, "sfu", c.sm.sfu);
        read_pipeline(*pipes, "lsu", c.sm.lsu);
        read_pipeline(*pipes, "mio", c.sm.shuffle);
    }
    if (auto l1 = sm.optional_child("l1")) {
        get_bytes_u32(*l1, "size", c.l1.bytes);
        get_u32(*l1, "ways", c.l1.ways, 1, 64);
        get_u32(*l1, "bytes_per_clock", c.l1.bytes_per_clock, 1, 4096);
        get_u32(*l1, "hit_latency", c.l1.hit_latency, 1, 10000);
        get_u32(*l1, "miss_entries", c.l1.max_pending_lines, 1, 1 << 16);
    }
    if (auto l2 = root.optional_child("l2")) {
        get_u32(*l2, "slices", c.l2.slices, 1, 4096);
        get_u32(*l2, "ways", c.l2.ways, 1, 64);
        get_u32(*l2, "bytes_per_clock_per_slice", c.l2.bytes_per_clock_per_slice, 1, 4096);
        get_u32(*l2, "hit_latency", c.l2.hit_latency, 1, 10000);
        get_u32(*l2, "crossbar_latency", c.l2.crossbar_latency, 0, 10000);
        get_u32(*l2, "controller_latency", c.l2.controller_latency, 0, 10000);
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
