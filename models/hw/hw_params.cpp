// SPDX-License-Identifier: MIT
#include "models/hw/hw_params.h"

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

// Reads a unit's rates; returns the unit's clock (the rates' default).
std::string read_unit(const ConfigNode& unit,
                      const HardwareParams& p,
                      std::map<DType, UnitRate>& rates) {
    std::string default_clock;
    unit.require("clock", default_clock);
    if (!p.clocks_hz.count(default_clock)) {
        unit.fail("clock", "'" + default_clock + "' is not a clock defined under clocks:");
    }
    const ConfigNode table = unit.child("flops_per_clock");
    for (const std::string& key : table.keys()) {
        const auto dtype = parse_dtype(key);
        if (!dtype) {
            table.fail(key, "'" + key +
                                "' is not a dtype; expected fp64, fp32, tf32, fp16, bf16, "
                                "fp8 or int8");
        }
        UnitRate rate;
        rate.clock = default_clock;
        if (auto entry = table.optional_child_if_map(key)) {
            entry->require("value", rate.flops_per_clock);
            entry->get("clock", rate.clock);
            if (!p.clocks_hz.count(rate.clock)) {
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
    return default_clock;
}

}  // namespace

HbmParams HbmParams::from_config(const ConfigNode& root) {
    HbmParams p;
    const ConfigNode hbm = root.child("hbm");
    hbm.get_choice("generation", p.generation, {"HBM2", "HBM2e", "HBM3", "HBM3e"});
    hbm.require("stacks", p.stacks);
    if (p.stacks == 0) hbm.fail("stacks", "must be at least 1");
    hbm.get("bus_width_bits", p.bus_width_bits);
    if (p.bus_width_bits == 0) hbm.fail("bus_width_bits", "must be at least 1");
    if (!hbm.get_quantity("pin_rate", Dimension::PinRate, p.pin_rate_bps)) {
        hbm.fail("pin_rate", "required key is missing; expected e.g. 5.23Gbps");
    }
    if (!(p.pin_rate_bps > 0)) hbm.fail("pin_rate", "must be greater than 0");
    hbm.get_size("capacity", p.capacity_bytes);
    if (const auto org = hbm.optional_child("organisation"))
        org->get_size("row_bytes", p.row_bytes);
    return p;
}

HardwareParams HardwareParams::from_config(const ConfigNode& root) {
    HardwareParams p;
    const DeviceIdentity& identity = resolved<DeviceIdentity>(root);
    p.name = identity.required_name(root);
    p.device = identity.required_device(root);

    const ConfigNode sm = root.child("sm");
    sm.require("count", p.sm_count);
    if (p.sm_count == 0) sm.fail("count", "must be at least 1");

    read_clocks(root.child("clocks"), p);

    const ConfigNode compute = root.child("compute");
    read_unit(compute.child("vector"), p, p.vector);
    if (auto tensor = compute.optional_child("tensor")) {
        p.tensor_clock = read_unit(*tensor, p, p.tensor);
        tensor->get("sparsity_speedup", p.sparsity_speedup);
        if (!(p.sparsity_speedup >= 1.0)) tensor->fail("sparsity_speedup", "must be at least 1");
    }

    p.hbm = resolved<HbmParams>(root);

    if (auto l2 = root.optional_child("l2")) l2->get_size("size", p.l2_bytes);

    if (auto nv = root.optional_child("nvlink")) {
        nv->get("generation", p.nvlink.generation);
        nv->require("links", p.nvlink.links);
        nv->get_quantity("link_bandwidth", Dimension::Bandwidth, p.nvlink.link_bandwidth);
        if (p.nvlink.links > 0 && !(p.nvlink.link_bandwidth > 0)) {
            nv->fail("link_bandwidth", "must be greater than 0 when links > 0");
        }
        nv->get("efficiency", p.nvlink.efficiency);
        if (!(p.nvlink.efficiency > 0 && p.nvlink.efficiency <= 1))
            nv->fail("efficiency", "must be in (0, 1]");
    }
    if (auto pcie = root.optional_child("pcie")) {
        pcie->get("generation", p.pcie.generation);
        pcie->require("lanes", p.pcie.lanes);
        pcie->get_quantity("lane_rate", Dimension::PinRate, p.pcie.lane_rate_bps);
        if (p.pcie.lanes > 0 && !(p.pcie.lane_rate_bps > 0)) {
            pcie->fail("lane_rate", "must be greater than 0 when lanes > 0");
        }
    }
    if (auto power = root.optional_child("power")) {
        power->get_quantity("tdp", Dimension::Power, p.tdp_watts);
    }
    if (auto runtime = root.optional_child("runtime")) {
        if (runtime->has("launch_overhead")) {
            runtime->fail("launch_overhead",
                          "replaced by stream_launch, stream_gap, graph_launch and graph_node_gap "
                          "(configs/hw/README.md, runtime:)");
        }
        runtime->get_time_ps("stream_launch", p.launch.stream_launch_ps);
        runtime->get_time_ps("stream_gap", p.launch.stream_gap_ps);
        runtime->get_time_ps("graph_launch", p.launch.graph_launch_ps);
        runtime->get_time_ps("graph_node_gap", p.launch.graph_node_gap_ps);
    }
    if (auto network = root.optional_child_if_map("network")) {
        uint64_t channels = p.collective_channels;
        network->get("channels", channels);
        if (channels < 1 || channels > 64) network->fail("channels", "must be in 1..64");
        p.collective_channels = static_cast<uint32_t>(channels);
    }
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
