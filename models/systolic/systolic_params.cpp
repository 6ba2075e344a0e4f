// SPDX-License-Identifier: MIT
#include "models/systolic/systolic_params.h"

#include <limits>
#include <tuple>

#include "models/hbm/hbm_params.h"
#include "sim/config/resolved.h"
#include "sim/stats/group.h"

namespace sim::systolic {

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

ParamTable<ArrayParams> energy_param_table() {
    using P = ArrayParams;
    constexpr double kNoLimit = std::numeric_limits<double>::infinity();
    ParamTable<P> t;
    t.quantity("mac", &P::mac_energy_j, Dimension::Energy, 0, kNoLimit, "per multiply-accumulate");
    t.quantity("sram_per_byte", &P::sram_energy_per_byte, Dimension::Energy, 0, kNoLimit,
               "per SRAM byte read or written");
    t.quantity("dram_per_byte", &P::dram_energy_per_byte, Dimension::Energy, 0, kNoLimit,
               "per DRAM byte (absent with dram.model: hbm, whose model counts its own)");
    t.quantity("static_power", &P::static_power_w, Dimension::Power, 0, kNoLimit,
               "drawn whatever the array does");
    return t;
}

ParamTable<TpuParams> tpu_param_table() {
    using P = TpuParams;
    ParamTable<P> t;
    t.integer("weight_fifo_tiles", &P::weight_fifo_tiles, 1, 1u << 20, "tiles",
              "weight tiles the Weight FIFO holds ahead of the matrix unit");
    t.integer("accumulator_rows", &P::accumulator_rows, uint64_t{2}, uint64_t{1} << 32, "rows",
              "256-wide accumulator rows, used as two halves");
    t.integer("vector_width", &P::vector_width, 1, 1u << 20, "results per cycle",
              "what the activation unit produces each cycle");
    t.quantity("host_bandwidth", &P::host_bandwidth, Dimension::Bandwidth, 1,
               std::numeric_limits<double>::infinity(),
               "the host link (PCIe) per direction; host-transfer operators move at it")
        .required();
    return t;
}

ParamTable<ArrayParams> sram_param_table() {
    using P = ArrayParams;
    ParamTable<P> t;
    t.flag("double_buffered", &P::double_buffered,
           "each buffer holds two tiles, so the next loads while the current is used");
    t.integer("port_bytes_per_cycle", &P::sram_port_bytes_per_cycle, uint64_t{0}, uint64_t{1} << 32,
              "B per array cycle", "each SRAM's port; 0: unlimited");
    const std::tuple<const char*, uint64_t P::*, const char*> buffers[] = {
        {"ifmap", &P::ifmap_sram_bytes, "the input feature maps' buffer"},
        {"filter", &P::filter_sram_bytes, "the weights' buffer"},
        {"ofmap", &P::ofmap_sram_bytes, "the outputs' buffer"}};
    for (const auto& [key, member, description] : buffers) {
        // Read after double_buffered, which sets the least size.
        t.custom(
            {key, "size", "required", "at least 2 (double-buffered), else 1", "B", description},
            [key = key, member = member](const ConfigNode& n, P& p) {
                uint64_t v = 0;
                if (!n.get_size(key, v)) n.fail(key, "required key is missing");
                const uint64_t least = p.double_buffered ? 2 : 1;
                if (v < least)
                    n.fail(key, "= " + std::to_string(v) +
                                    " B is out of range: must be at "
                                    "least " +
                                    std::to_string(least) + " B");
                p.*member = v;
            });
    }
    return t;
}

ParamTable<SystolicParams> dram_param_table() {
    using P = SystolicParams;
    ParamTable<P> t;
    t.custom({"activations_in_dram", "bool", P{}.array.activations_in_dram ? "true" : "false",
              "true, false", "",
              "activations live in DRAM and cross it every layer (SCALE-Sim's view); false: "
              "they stay on chip"},
             [](const ConfigNode& n, P& p) {
                 n.get("activations_in_dram", p.array.activations_in_dram);
             });
    t.bytes("capacity", &P::dram_capacity, uint64_t{0}, UINT64_MAX, "reported, not checked");
    t.options("model", &P::dram_model,
              {{"bandwidth", DramModel::Bandwidth}, {"hbm", DramModel::Hbm}},
              "a fixed bandwidth, or the cycle-level HBM model of the hbm: section");
    t.custom({"bandwidth", "quantity", "required with model: bandwidth", "at least 1", "B/s",
              "DRAM to the buffers; absent with model: hbm"},
             [](const ConfigNode& n, P& p) {
                 if (p.dram_model == DramModel::Hbm) {
                     if (n.has("bandwidth"))
                         n.fail("bandwidth",
                                "must be absent with model: hbm (the HBM model of "
                                "the hbm: section sets it)");
                     return;
                 }
                 if (!n.get_quantity("bandwidth", Dimension::Bandwidth, p.dram_bandwidth))
                     n.fail("bandwidth", "required key is missing");
                 if (!(p.dram_bandwidth >= 1))
                     n.fail("bandwidth", "= " + format_number(p.dram_bandwidth) +
                                             " B/s is out of range: must be at least 1");
             });
    return t;
}

SystolicParams SystolicParams::from_config(const ConfigNode& root) {
    SystolicParams p;
    ArrayParams& a = p.array;
    const ConfigNode s = root.child("systolic");
    array_param_table().read(s, a);

    const ConfigNode sram = s.child("sram");
    sram_param_table().read(sram, a);
    sram.reject_unknown_keys();

    const ConfigNode dram = s.child("dram");
    dram_param_table().read(dram, p);
    if (p.dram_model == DramModel::Hbm) {
        p.hbm_backing = calibrate_hbm(resolved<hbm::HbmParams>(root), !a.activations_in_dram);
        p.dram_bandwidth = p.hbm_backing->sustained_bandwidth;
    }
    a.dram_bytes_per_cycle = p.dram_bandwidth / a.clock_hz;
    dram.reject_unknown_keys();

    if (const auto e = s.optional_child("energy")) {
        if (p.hbm_backing && e->has("dram_per_byte")) {
            e->fail("dram_per_byte",
                    "must be absent with dram.model: hbm (the HBM model counts its own energy)");
        }
        energy_param_table().read(*e, a);
        e->reject_unknown_keys();
    }
    if (p.hbm_backing) a.dram_energy_per_byte = p.hbm_backing->energy_per_byte;
    if (const auto t = s.optional_child("tpu")) {
        TpuParams& tp = p.tpu;
        tp.enabled = true;
        tpu_param_table().read(*t, tp);
        tp.host_bytes_per_cycle = tp.host_bandwidth / a.clock_hz;
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
