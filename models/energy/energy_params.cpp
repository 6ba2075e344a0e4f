// SPDX-License-Identifier: MIT
#include "models/energy/energy_params.h"

#include <stdexcept>

#include "sim/stats/group.h"

namespace sim::energy {

namespace {

void read_non_negative(const ConfigNode& n, const std::string& key, Dimension dim, double& out) {
    if (n.get_quantity(key, dim, out) && out < 0) n.fail(key, "must not be negative");
}

// The reference load of `scale: tdp` in dtype: FLOP/s and compulsory HBM bytes/s.
OpCost reference_load(const hw::HardwareParams& hw, DType dtype) {
    const double n = kReferenceGemmSize;
    const double flops = hw.peak_flops(ComputeUnit::Tensor, dtype);
    const double seconds = 2 * n * n * n / flops;
    OpCost c;
    c.unit = ComputeUnit::Tensor;
    c.dtype = dtype;
    c.flops = flops;
    c.dram_bytes = 3 * n * n * static_cast<double>(dtype_bytes(dtype)) / seconds;
    return c;
}

}  // namespace

HbmEnergy read_hbm_energy(const ConfigNode& en) {
    HbmEnergy e;
    read_non_negative(en, "activate", Dimension::Energy, e.activate);
    read_non_negative(en, "read_per_bit", Dimension::Energy, e.read_per_bit);
    read_non_negative(en, "write_per_bit", Dimension::Energy, e.write_per_bit);
    read_non_negative(en, "refresh", Dimension::Energy, e.refresh);
    return e;
}

EnergyParams EnergyParams::from_config(const ConfigNode& root, const hw::HardwareParams& hw) {
    EnergyParams p;
    EnergyTable& t = p.table;
    t = EnergyTable::horowitz_45nm();
    if (auto hbm = root.optional_child("hbm")) {
        if (auto en = hbm->optional_child("energy")) t.hbm = read_hbm_energy(*en);
        if (auto org = hbm->optional_child("organisation")) {
            uint64_t row = 0;
            if (org->get_size("row_bytes", row) && row > 0) t.dram_row_bytes = double(row);
        }
    }
    const auto en = root.optional_child("energy");
    if (!en) return p;
    if (auto fma = en->optional_child("fma")) {
        for (const std::string& key : fma->keys()) {
            const auto dtype = parse_dtype(key);
            if (!dtype)
                fma->fail(key, "not a dtype; expected fp64, fp32, tf32, fp16, bf16, fp8 or int8");
            read_non_negative(*fma, key, Dimension::Energy, t.fma[*dtype]);
        }
    }
    read_non_negative(*en, "register_per_byte", Dimension::Energy, t.register_per_byte);
    read_non_negative(*en, "sram_per_byte", Dimension::Energy, t.sram_per_byte);
    read_non_negative(*en, "l2_per_byte", Dimension::Energy, t.l2_per_byte);
    read_non_negative(*en, "link_per_bit", Dimension::Energy, t.link_per_bit);
    read_non_negative(*en, "host_per_bit", Dimension::Energy, t.host_per_bit);
    if (auto blocks = en->optional_child_if_map("static_power")) {
        // Per block, so that a what-if with more SMs or stacks draws more static power.
        double per_sm = 0, per_stack = 0;
        read_non_negative(*blocks, "per_sm", Dimension::Power, per_sm);
        read_non_negative(*blocks, "per_hbm_stack", Dimension::Power, per_stack);
        read_non_negative(*blocks, "other", Dimension::Power, p.static_by_block.other);
        p.static_by_block.sms = per_sm * hw.sm_count;
        p.static_by_block.hbm = per_stack * hw.hbm.stacks;
    } else {
        read_non_negative(*en, "static_power", Dimension::Power, p.static_by_block.other);
    }
    t.static_power = p.static_by_block.total();

    std::string scale;
    if (en->get("scale", scale)) {
        if (scale == "tdp") {
            if (!(hw.tdp_watts > 0)) en->fail("scale", "'tdp' needs power.tdp");
            DType dtype = DType::BF16;
            if (hw.peak_flops(ComputeUnit::Tensor, dtype) <= 0) dtype = DType::FP16;
            if (hw.peak_flops(ComputeUnit::Tensor, dtype) <= 0)
                en->fail("scale", "'tdp' needs a BF16 or FP16 tensor rate to calibrate against");
            const OpCost load = reference_load(hw, dtype);
            try {
                t.scale = calibrate_to_power(t, load.unit, load.dtype, load.flops, load.dram_bytes,
                                             hw.tdp_watts);
            } catch (const std::invalid_argument& e) {
                en->fail("scale", e.what());
            }
            p.calibrated = true;
            p.reference_dtype = dtype;
        } else {
            double v = 0;
            try {
                size_t used = 0;
                v = std::stod(scale, &used);
                if (used != scale.size()) throw std::invalid_argument(scale);
            } catch (const std::exception&) {
                en->fail("scale", "'" + scale + "' is not a number or 'tdp'");
            }
            if (!(v > 0)) en->fail("scale", "must be greater than 0");
            t.scale = v;
        }
    }
    return p;
}

void EnergyParams::publish(StatGroup& g, const hw::HardwareParams& hw) const {
    const EnergyTable& t = table;
    g.add_scalar("scale", "ratio",
                 calibrated ? "on-chip energy scale vs 45 nm, calibrated to TDP"
                            : "on-chip energy scale vs 45 nm, as configured")
        .set(t.scale);
    g.add_scalar("static_power", "W", "power drawn whatever the device does").set(t.static_power);
    const StaticPower& b = static_by_block;
    StatGroup& sg = g.add_group("static_by_block");
    sg.add_scalar("sms", "W", "static power of the SMs").set(b.sms);
    sg.add_scalar("hbm", "W", "static power of the HBM stacks").set(b.hbm);
    sg.add_scalar("other", "W", "static power of the rest (PHYs, board)").set(b.other);
    StatGroup& fma = g.add_group("fma");
    for (const ComputeUnit unit : {ComputeUnit::Vector, ComputeUnit::Tensor}) {
        StatGroup* ug = nullptr;
        for (const auto& [dtype, joules] : t.fma) {
            if (hw.peak_flops(unit, dtype) <= 0) continue;
            if (!ug) ug = &fma.add_group(to_string(unit));
            ug->add_scalar(to_string(dtype), "J",
                           "one " + to_string(dtype) + " FMA with its register traffic")
                .set(t.fma_energy(unit, dtype));
        }
    }
    g.add_scalar("sram_per_byte", "J/B", "L1 / shared memory, scaled")
        .set(t.sram_per_byte * t.scale);
    g.add_scalar("l2_per_byte", "J/B", "L2, scaled").set(t.l2_per_byte * t.scale);
    g.add_scalar("hbm_read_per_bit", "J/bit", "HBM read, per data bit").set(t.hbm.read_per_bit);
    g.add_scalar("hbm_write_per_bit", "J/bit", "HBM write, per data bit").set(t.hbm.write_per_bit);
    g.add_scalar("link_per_bit", "J/bit", "NVLink-class link, per bit").set(t.link_per_bit);
    g.add_scalar("host_per_bit", "J/bit", "host link, per bit").set(t.host_per_bit);
    if (hw.peak_flops(ComputeUnit::Tensor, reference_dtype) > 0) {
        const OpCost load = reference_load(hw, reference_dtype);
        const EnergyBreakdown e = charge(t, load);
        g.add_scalar("reference_power", "W",
                     "power of a dense " + to_string(reference_dtype) +
                         " tensor GEMM of 8192 at peak: static + dynamic")
            .set(t.static_power + e.dynamic());
    }
}

}  // namespace sim::energy
