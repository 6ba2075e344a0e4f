// SPDX-License-Identifier: MIT
#include "models/systolic/systolic_params.h"

#include <limits>
#include "sim/config/resolved.h"

#include "models/hbm/hbm_params.h"
#include "sim/stats/group.h"

namespace sim::systolic {

namespace {

template <typename T>
void whole(const ConfigNode& n, const std::string& key, T& out, uint64_t least, uint64_t most) {
    uint64_t v = out;
    if (!n.get(key, v)) return;
    if (v < least || v > most) {
        n.fail(key, "must be from " + std::to_string(least) + " to " + std::to_string(most) +
                        ", got " + std::to_string(v));
    }
    out = static_cast<T>(v);
}

void energy(const ConfigNode& n, const std::string& key, double& out) {
    double v = 0;
    if (n.get_quantity(key, Dimension::Energy, v)) out = v;
}

}  // namespace

ParamTable<ArrayParams> array_param_table() {
    using P = ArrayParams;
    ParamTable<P> t;
    t.integer("rows", &P::rows, 1, 65536, "PEs", "R: rows of the MAC array");
    t.integer("cols", &P::cols, 1, 65536, "PEs", "C: columns of the MAC array");
    t.options("dataflow", &P::dataflow,
              {{"ws", Dataflow::WeightStationary},
               {"os", Dataflow::OutputStationary},
               {"is", Dataflow::InputStationary}},
              "what stays in the PEs: weights (TPU v1), outputs or inputs (SCALE-Sim's three)");
    t.quantity("clock", &P::clock_hz, Dimension::Frequency, 1,
               std::numeric_limits<double>::infinity(), "the array's clock")
        .required();
    t.integer("word_bytes", &P::word_bytes, 1, 16, "B", "bytes per operand word (1: 8-bit MACs)");
    t.flag("preload_overlap", &P::preload_overlap,
           "the next fold's weights load while the current one computes (TPU v1's double-"
           "buffered weight registers), so only the first fold pays R cycles");
    return t;
}

ParamTable<ArrayParams> sram_param_table() {
    using P = ArrayParams;
    ParamTable<P> t;
    t.flag("double_buffered", &P::double_buffered,
           "each buffer holds two tiles, so the next loads while the current is used");
    t.integer("port_bytes_per_cycle", &P::sram_port_bytes_per_cycle, uint64_t{0}, uint64_t{1} << 32,
              "B per array cycle", "each SRAM's port; 0: unlimited");
    return t;
}

SystolicParams SystolicParams::from_config(const ConfigNode& root) {
    SystolicParams p;
    ArrayParams& a = p.array;
    const ConfigNode s = root.child("systolic");
    array_param_table().read(s, a);

    const ConfigNode sram = s.child("sram");
    sram_param_table().read(sram, a);
    const uint64_t least = a.double_buffered ? 2 : 1;
    for (const auto& [key, field] : {std::pair{"ifmap", &a.ifmap_sram_bytes},
                                     {"filter", &a.filter_sram_bytes},
                                     {"ofmap", &a.ofmap_sram_bytes}}) {
        uint64_t v = 0;
        if (!sram.get_size(key, v)) sram.fail(key, "required key is missing");
        if (v < least) sram.fail(key, "must be at least " + std::to_string(least) + " B");
        *field = v;
    }
    sram.reject_unknown_keys();

    const ConfigNode dram = s.child("dram");
    dram.get("activations_in_dram", a.activations_in_dram);
    dram.get_size("capacity", p.dram_capacity);
    std::string model = "bandwidth";
    dram.get_choice("model", model, {"bandwidth", "hbm"});
    if (model == "bandwidth") {
        if (!dram.get_quantity("bandwidth", Dimension::Bandwidth, p.dram_bandwidth))
            dram.fail("bandwidth", "required key is missing");
        if (!(p.dram_bandwidth > 0)) dram.fail("bandwidth", "must be > 0");
    } else {
        if (dram.has("bandwidth")) {
            dram.fail("bandwidth",
                      "must be absent with model: hbm (the HBM model of the hbm: section sets it)");
        }
        p.hbm_backing = calibrate_hbm(resolved<hbm::HbmParams>(root), !a.activations_in_dram);
        p.dram_bandwidth = p.hbm_backing->sustained_bandwidth;
    }
    a.dram_bytes_per_cycle = p.dram_bandwidth / a.clock_hz;
    dram.reject_unknown_keys();

    if (const auto e = s.optional_child("energy")) {
        energy(*e, "mac", a.mac_energy_j);
        energy(*e, "sram_per_byte", a.sram_energy_per_byte);
        if (p.hbm_backing && e->has("dram_per_byte")) {
            e->fail("dram_per_byte",
                    "must be absent with dram.model: hbm (the HBM model counts its own energy)");
        }
        energy(*e, "dram_per_byte", a.dram_energy_per_byte);
        double w = 0;
        if (e->get_quantity("static_power", Dimension::Power, w)) a.static_power_w = w;
        e->reject_unknown_keys();
    }
    if (p.hbm_backing) a.dram_energy_per_byte = p.hbm_backing->energy_per_byte;
    if (const auto t = s.optional_child("tpu")) {
        TpuParams& tp = p.tpu;
        tp.enabled = true;
        whole(*t, "weight_fifo_tiles", tp.weight_fifo_tiles, 1, 1u << 20);
        whole(*t, "accumulator_rows", tp.accumulator_rows, 2, uint64_t{1} << 32);
        whole(*t, "vector_width", tp.vector_width, 1, 1u << 20);
        double host = 0;
        if (!t->get_quantity("host_bandwidth", Dimension::Bandwidth, host))
            t->fail("host_bandwidth", "required key is missing");
        if (!(host > 0)) t->fail("host_bandwidth", "must be > 0");
        tp.host_bytes_per_cycle = host / a.clock_hz;
        t->reject_unknown_keys();
        tp.validate();
    }
    s.reject_unknown_keys();
    a.validate();
    return p;
}

void SystolicParams::publish(StatGroup& hw) const {
    hw.add_scalar("peak_ops", "op/s", "rows x cols x 2 x clock (a MAC is 2 ops)")
        .set(array.peak_ops());
    hw.add_scalar("dram_bandwidth", "B/s", "DRAM behind the SRAM buffers").set(dram_bandwidth);
    hw.add_scalar("ridge_point", "op/B", "peak ops / DRAM bandwidth")
        .set(array.peak_ops() / dram_bandwidth);
    if (hbm_backing) {
        hw.add_scalar("hbm_peak_bandwidth", "B/s", "cycle-level HBM model: peak of its channels")
            .set(hbm_backing->peak_bandwidth);
        hw.add_scalar("hbm_sustained_share", "ratio",
                      "dram_bandwidth / hbm_peak_bandwidth, measured by streaming through it")
            .set(hbm_backing->sustained_bandwidth / hbm_backing->peak_bandwidth);
        hw.add_scalar("dram_energy_per_byte", "J/B", "counted HBM energy per byte streamed")
            .set(hbm_backing->energy_per_byte);
    }
    hw.add_counter("pes", "count", "processing elements (rows x cols)") +=
        uint64_t{array.rows} * array.cols;
    hw.add_scalar("clock", "Hz", "array clock").set(array.clock_hz);
}

}  // namespace sim::systolic
