// SPDX-License-Identifier: MIT
#include "models/hw/hw_params.h"

#include <limits>

#include <algorithm>

#include <cmath>

#include "sim/config/device_identity.h"
#include "sim/config/resolved.h"
#include "sim/core/types.h"
#include "sim/stats/group.h"

namespace sim::hw {

namespace {

// PCIe 3.0 and later encode 128 payload bits in 130 line bits (PCI Express Base Spec 3.0+).
constexpr double kPcieEncodingEfficiency = 128.0 / 130.0;

void read_clocks(const ConfigNode& clocks, HardwareParams& p) {
    for (const std::string& name : clocks.keys()) {
        double hz = 0;
        clocks.get_quantity(name, Dimension::Frequency, hz);
        if (hz < 1.0 || hz != std::floor(hz) || hz > 1e13) {
            clocks.fail(name, "must be a positive whole number of hertz, at most 10 THz");
        }
        p.clocks_hz[name] = static_cast<uint64_t>(hz);
    }
    if (p.clocks_hz.empty()) clocks.fail("", "at least one clock is required");
}

std::string required_clock(const ConfigNode& unit, const HardwareParams& p) {
    std::string clock;
    unit.require("clock", clock);
    if (!p.clocks_hz.count(clock))
        unit.fail("clock", "'" + clock + "' is not a clock defined under clocks:");
    return clock;
}

// A unit's flops_per_clock: {dtype: rate} or {dtype: {value, clock}}; a rate without its own
// clock is left without one, for the unit's clock to fill.
void read_rates(const ConfigNode& unit, const HardwareParams& p, std::map<DType, UnitRate>& rates) {
    const ConfigNode table = unit.child("flops_per_clock");
    for (const std::string& key : table.keys()) {
        const auto dtype = parse_dtype(key);
        if (!dtype) {
            table.fail(key, "'" + key +
                                "' is not a dtype; expected fp64, fp32, tf32, fp16, bf16, "
                                "fp8 or int8");
        }
        UnitRate rate;
        if (auto entry = table.optional_child_if_map(key)) {
            entry->require("value", rate.flops_per_clock);
            if (entry->get("clock", rate.clock) && !p.clocks_hz.count(rate.clock)) {
                entry->fail("clock", "'" + rate.clock + "' is not a clock defined under clocks:");
            }
            entry->reject_unknown_keys();
        } else {
            table.require(key, rate.flops_per_clock);
        }
        if (!(rate.flops_per_clock > 0)) table.fail(key, "must be greater than 0");
        rates[*dtype] = rate;
    }
    if (rates.empty()) table.fail("", "at least one dtype rate is required");
}

}  // namespace

ParamTable<HbmParams> hbm_param_table() {
    using P = HbmParams;
    ParamTable<P> t;
    t.options("generation", &P::generation,
              {{"HBM2", "HBM2"}, {"HBM2e", "HBM2e"}, {"HBM3", "HBM3"}, {"HBM3e", "HBM3e"}},
              "the JEDEC generation (its energies and reports)");
    t.integer("stacks", &P::stacks, 1, UINT32_MAX, "stacks", "active HBM stacks").required();
    t.integer("bus_width_bits", &P::bus_width_bits, 1, UINT32_MAX, "bits", "data bus per stack");
    t.quantity("pin_rate", &P::pin_rate_bps, Dimension::PinRate, 1,
               std::numeric_limits<double>::infinity(), "data rate per pin, e.g. 5.23Gbps")
        .required();
    t.bytes("capacity", &P::capacity_bytes, uint64_t{0}, UINT64_MAX,
            "total capacity; 0: not checked");
    return t;
}

ParamTable<HbmParams> hbm_row_param_table() {
    using P = HbmParams;
    ParamTable<P> t;
    t.bytes("row_bytes", &P::row_bytes, uint64_t{0}, uint64_t{1} << 30,
            "a DRAM row (page) of one bank; the cycle-level model requires it, a multiple of "
            "its burst");
    return t;
}

ParamTable<HardwareParams> sm_count_param_table() {
    using P = HardwareParams;
    ParamTable<P> t;
    t.integer("count", &P::sm_count, 1, UINT32_MAX, "SMs", "streaming multiprocessors").required();
    return t;
}

ParamTable<HardwareParams> clocks_param_table() {
    ParamTable<HardwareParams> t;
    t.custom({"<name>", "quantity", "required", "1 .. 1e+13, whole", "Hz",
              "one clock domain per key, e.g. sm: 1980MHz (at least one); compute rates name "
              "them"},
             read_clocks);
    return t;
}

ParamTable<HardwareParams> compute_param_table(ComputeUnit unit) {
    using P = HardwareParams;
    const bool tensor = unit == ComputeUnit::Tensor;
    ParamTable<P> t;
    t.custom(
        {"flops_per_clock.<dtype>", "number", "required", "above 0", "FLOP/clock/SM",
         "dense rate per SM of fp64, fp32, tf32, fp16, bf16, fp8 or int8 (an FMA counts "
         "2); {value, clock} runs it on another clock"},
        [tensor](const ConfigNode& n, P& p) { read_rates(n, p, tensor ? p.tensor : p.vector); });
    t.custom({"clock", "text", "required", "a key of clocks:", "",
              "the clock the unit's rates run at unless a rate names its own"},
             [tensor](const ConfigNode& n, P& p) {
                 const std::string clock = required_clock(n, p);
                 if (tensor) p.tensor_clock = clock;
                 for (auto& [dtype, rate] : tensor ? p.tensor : p.vector) {
                     if (rate.clock.empty()) rate.clock = clock;
                 }
             });
    if (tensor) {
        t.number("sparsity_speedup", &P::sparsity_speedup, 1,
                 std::numeric_limits<double>::infinity(), false, "ratio",
                 "2:4 structured-sparsity speed-up");
    }
    return t;
}

ParamTable<HardwareParams> l2_size_param_table() {
    using P = HardwareParams;
    ParamTable<P> t;
    t.bytes("size", &P::l2_bytes, uint64_t{0}, UINT64_MAX,
            "L2 capacity every model sees (the cycle-level slices divide it); 0: none");
    return t;
}

ParamTable<HardwareParams> gpu_network_param_table() {
    using P = HardwareParams;
    ParamTable<P> t;
    t.integer("channels", &P::collective_channels, 1, 64, "channels",
              "NCCL channels of a collective in `wallsim run`, one CTA on one SM each: the SMs "
              "it holds while it runs");
    return t;
}

ParamTable<NvlinkParams> nvlink_param_table() {
    using P = NvlinkParams;
    ParamTable<P> t;
    t.integer("generation", &P::generation, 0, UINT32_MAX, "", "NVLink generation (reports)");
    t.integer("links", &P::links, 0, UINT32_MAX, "links", "NVLink links; 0: none").required();
    t.quantity("link_bandwidth", &P::link_bandwidth, Dimension::Bandwidth, 0,
               std::numeric_limits<double>::infinity(),
               "per link, both directions together (> 0 when links > 0)");
    t.number("efficiency", &P::efficiency, 0, 1, true, "ratio",
             "share of the raw rate data reaches after packet headers");
    return t;
}

ParamTable<PcieParams> pcie_param_table() {
    using P = PcieParams;
    ParamTable<P> t;
    t.integer("generation", &P::generation, 0, UINT32_MAX, "", "PCIe generation (reports)");
    t.integer("lanes", &P::lanes, 0, UINT32_MAX, "lanes", "host-link lanes; 0: none").required();
    t.quantity("lane_rate", &P::lane_rate_bps, Dimension::PinRate, 0,
               std::numeric_limits<double>::infinity(),
               "raw rate per lane and direction; 128b/130b is applied (> 0 when lanes > 0)");
    return t;
}

ParamTable<HardwareParams> power_param_table() {
    using P = HardwareParams;
    ParamTable<P> t;
    t.quantity("tdp", &P::tdp_watts, Dimension::Power, 0, std::numeric_limits<double>::infinity(),
               "the board's power limit, which the clock governor enforces; 0: unknown, no "
               "limit");
    return t;
}

ParamTable<LaunchParams> runtime_param_table() {
    using P = LaunchParams;
    ParamTable<P> t;
    t.picoseconds("stream_launch", &P::stream_launch_ps, "host time of one launch on a stream");
    t.picoseconds("stream_gap", &P::stream_gap_ps, "device time a stream-launched operator adds");
    t.picoseconds("graph_launch", &P::graph_launch_ps,
                  "host time of one CUDA graph launch, all its nodes");
    t.picoseconds("graph_node_gap", &P::graph_node_gap_ps, "device time a graph node adds");
    return t;
}

HbmParams HbmParams::from_config(const ConfigNode& root) {
    HbmParams p;
    const ConfigNode hbm = root.child("hbm");
    hbm_param_table().read(hbm, p);
    if (const auto org = hbm.optional_child("organisation")) hbm_row_param_table().read(*org, p);
    return p;
}

HardwareParams HardwareParams::from_config(const ConfigNode& root) {
    HardwareParams p;
    const DeviceIdentity& identity = resolved<DeviceIdentity>(root);
    p.name = identity.required_name(root);
    p.device = identity.required_device(root);

    sm_count_param_table().read(root.child("sm"), p);
    clocks_param_table().read(root.child("clocks"), p);
    const ConfigNode compute = root.child("compute");
    compute_param_table(ComputeUnit::Vector).read(compute.child("vector"), p);
    if (auto tensor = compute.optional_child("tensor"))
        compute_param_table(ComputeUnit::Tensor).read(*tensor, p);

    p.hbm = resolved<HbmParams>(root);

    if (auto l2 = root.optional_child("l2")) l2_size_param_table().read(*l2, p);

    if (auto nv = root.optional_child("nvlink")) {
        nvlink_param_table().read(*nv, p.nvlink);
        if (p.nvlink.links > 0 && !(p.nvlink.link_bandwidth > 0)) {
            nv->fail("link_bandwidth", "must be greater than 0 when links > 0");
        }
    }
    if (auto pcie = root.optional_child("pcie")) {
        pcie_param_table().read(*pcie, p.pcie);
        if (p.pcie.lanes > 0 && !(p.pcie.lane_rate_bps > 0)) {
            pcie->fail("lane_rate", "must be greater than 0 when lanes > 0");
        }
    }
    if (auto power = root.optional_child("power")) power_param_table().read(*power, p);
    if (auto runtime = root.optional_child("runtime")) {
        if (runtime->has("launch_overhead")) {
            runtime->fail("launch_overhead",
                          "replaced by stream_launch, stream_gap, graph_launch and graph_node_gap "
                          "(configs/hw/README.md, runtime:)");
        }
        runtime_param_table().read(*runtime, p.launch);
    }
    if (auto network = root.optional_child_if_map("network"))
        gpu_network_param_table().read(*network, p);
    return p;
}

double HardwareParams::peak_flops(ComputeUnit unit, DType dtype) const {
    const std::map<DType, UnitRate>* rates = nullptr;
    if (unit == ComputeUnit::Vector) rates = &vector;
    if (unit == ComputeUnit::Tensor) rates = &tensor;
    if (!rates) return 0.0;
    const auto it = rates->find(dtype);
    if (it == rates->end()) return 0.0;
    return static_cast<double>(sm_count) * it->second.flops_per_clock *
           static_cast<double>(clocks_hz.at(it->second.clock));
}

double HardwareParams::collective_sm_share() const {
    return std::min(1.0, double(collective_channels) / double(sm_count));
}

double HardwareParams::hbm_bandwidth() const {
    return static_cast<double>(hbm.stacks) * hbm.bus_width_bits * hbm.pin_rate_bps / 8.0;
}

double HardwareParams::nvlink_bandwidth_per_direction() const {
    return static_cast<double>(nvlink.links) * nvlink.link_bandwidth / 2.0;
}

double HardwareParams::nvlink_data_bandwidth_per_direction() const {
    return nvlink_bandwidth_per_direction() * nvlink.efficiency;
}

double HardwareParams::pcie_bandwidth_per_direction() const {
    return static_cast<double>(pcie.lanes) * pcie.lane_rate_bps * kPcieEncodingEfficiency / 8.0;
}

double HardwareParams::ridge_point(ComputeUnit unit, DType dtype) const {
    const double bw = hbm_bandwidth();
    return bw > 0 ? peak_flops(unit, dtype) / bw : 0.0;
}

void HardwareParams::publish(StatGroup& hw) const {
    hw.add_scalar("sm_count", "count", "streaming multiprocessors").set(sm_count);
    StatGroup& peaks = hw.add_group("peak_flops");
    StatGroup& ridges = hw.add_group("ridge_point");
    StatGroup& efficiency = hw.add_group("peak_efficiency");
    const std::pair<ComputeUnit, const std::map<DType, UnitRate>*> units[] = {
        {ComputeUnit::Tensor, &tensor}, {ComputeUnit::Vector, &vector}};
    for (const auto& [unit, rates] : units) {
        if (rates->empty()) continue;
        const std::string u = to_string(unit);
        StatGroup& pg = peaks.add_group(u);
        StatGroup& rg = ridges.add_group(u);
        StatGroup* eg = tdp_watts > 0 ? &efficiency.add_group(u) : nullptr;
        for (const auto& [dtype, rate] : *rates) {
            const std::string d = to_string(dtype);
            const double peak = peak_flops(unit, dtype);
            pg.add_scalar(d, "FLOP/s", "dense peak of the " + u + " unit in " + d).set(peak);
            rg.add_scalar(d, "FLOP/B", "ridge point: " + u + " " + d + " peak / HBM bandwidth")
                .set(ridge_point(unit, dtype));
            if (eg) {
                eg->add_scalar(d, "FLOP/s/W", "peak " + u + " " + d + " FLOP/s per watt of TDP")
                    .set(peak / tdp_watts);
            }
        }
    }
    hw.add_scalar("sparsity_speedup", "ratio",
                  "2:4 structured-sparsity speed-up of the tensor unit")
        .set(sparsity_speedup);
    hw.add_scalar("hbm_bandwidth", "B/s", "peak HBM bandwidth: stacks x bus width x pin rate / 8")
        .set(hbm_bandwidth());
    hw.add_scalar("hbm_capacity", "B", "HBM capacity").set(static_cast<double>(hbm.capacity_bytes));
    hw.add_scalar("hbm_stacks", "count", "active HBM stacks").set(hbm.stacks);
    hw.add_scalar("l2_size", "B", "L2 cache size").set(static_cast<double>(l2_bytes));
    hw.add_scalar("nvlink_bandwidth", "B/s", "NVLink bandwidth per direction")
        .set(nvlink_bandwidth_per_direction());
    hw.add_scalar("pcie_bandwidth", "B/s", "host-link (PCIe) bandwidth per direction")
        .set(pcie_bandwidth_per_direction());
    hw.add_scalar("tdp", "W", "thermal design power").set(tdp_watts);
    StatGroup& launches = hw.add_group("launch");
    const std::pair<const char*, std::pair<uint64_t, const char*>> costs[] = {
        {"stream_launch", {launch.stream_launch_ps, "host time of one launch on a stream"}},
        {"stream_gap", {launch.stream_gap_ps, "device time a stream-launched operator adds"}},
        {"graph_launch", {launch.graph_launch_ps, "host time of one CUDA graph launch"}},
        {"graph_node_gap", {launch.graph_node_gap_ps, "device time a graph node adds"}}};
    for (const auto& [key, cost] : costs)
        launches.add_scalar(key, "s", cost.second)
            .set(static_cast<double>(cost.first) / sim::kPsPerSecond);
}

}  // namespace sim::hw
