// SPDX-License-Identifier: MIT
#include "models/energy/energy_params.h"

#include <filesystem>
#include <limits>
#include <stdexcept>

#include "sim/config/resolved.h"
#include "sim/stats/group.h"

namespace sim::energy {

namespace {

constexpr double kUnbounded = std::numeric_limits<double>::infinity();

// power.voltage_frequency: [{clock: 1410MHz, volts: 0.9}, ...].
void read_voltage_curve(const ConfigNode& power, GovernorParams& g) {
    if (!power.has("voltage_frequency")) return;
    std::vector<std::pair<double, double>> points;
    for (const ConfigNode& point : power.sequence("voltage_frequency")) {
        double hz = 0, volts = 0;
        if (!point.get_quantity("clock", Dimension::Frequency, hz))
            point.fail("clock", "required key is missing; expected e.g. 1410MHz");
        point.require("volts", volts);
        point.reject_unknown_keys();
        points.emplace_back(hz, volts);
    }
    try {
        g.curve = VoltageCurve(points);
    } catch (const std::invalid_argument& e) {
        power.fail("voltage_frequency", e.what());
    }
}

// energy.technology: a preset name of configs/technology or a file, relative to this file.
void read_technology(const ConfigNode& en, EnergyParams& p) {
    std::string technology;
    if (!en.get("technology", technology)) return;
    const SourceLocation at = en.location_of("technology");
    const std::string base =
        at.line > 0 ? std::filesystem::path(at.file).parent_path().string() : std::string();
    p.technology = TechnologyParams::load(technology, base, at, en.child_path("technology"));
    p.table.scale = p.technology->scale;
    p.governor.nominal_volts = p.technology->nominal_volts;
}

// energy.static_power: one figure for the board, or a map per block.
void read_static_power(const ConfigNode& en, EnergyParams& p) {
    if (auto blocks = en.optional_child_if_map("static_power")) {
        static_power_param_table().read(*blocks, p.static_rates);
        return;
    }
    // One figure: the whole board's, checked as the per-block rates are.
    ParamTable<StaticPowerRates> board;
    board.quantity("static_power", &StaticPowerRates::other, Dimension::Power, 0, kUnbounded,
                   "the whole board");
    board.read(en, p.static_rates);
}

}  // namespace

ParamTable<EnergyParams> energy_param_table() {
    using P = EnergyParams;
    ParamTable<P> t;
    t.custom({"technology", "text", "none: Horowitz 45 nm at scale 1, 0.9 V",
              "a preset of configs/technology/ or a file", "",
              "the process: its fitted on-chip energy scale and nominal voltage"},
             read_technology);
    t.quantity_at(
        "link_per_bit", [](P& p) -> double& { return p.table.link_per_bit; }, Dimension::Energy, 0,
        kUnbounded, "an NVLink-class link, per bit");
    t.quantity_at(
        "host_per_bit", [](P& p) -> double& { return p.table.host_per_bit; }, Dimension::Energy, 0,
        kUnbounded, "the host link (PCIe), per bit");
    t.custom({"static_power", "quantity or map", "0", "at least 0", "W",
              "power drawn whatever the device does: one figure, or per block "
              "(energy.static_power)"},
             read_static_power);
    return t;
}

ParamTable<StaticPowerRates> static_power_param_table() {
    using P = StaticPowerRates;
    ParamTable<P> t;
    t.quantity("per_sm", &P::per_sm, Dimension::Power, 0, kUnbounded,
               "per SM, so a what-if with more SMs draws more");
    t.quantity("per_hbm_stack", &P::per_hbm_stack, Dimension::Power, 0, kUnbounded,
               "per HBM stack");
    t.quantity("other", &P::other, Dimension::Power, 0, kUnbounded, "the rest: PHYs, board");
    return t;
}

ParamTable<HbmEnergy> hbm_energy_param_table() {
    using P = HbmEnergy;
    ParamTable<P> t;
    t.quantity("activate", &P::activate, Dimension::Energy, 0, kUnbounded, "one ACT with its PRE");
    t.quantity("read_per_bit", &P::read_per_bit, Dimension::Energy, 0, kUnbounded,
               "array read, TSV and PHY, per data bit");
    t.quantity("write_per_bit", &P::write_per_bit, Dimension::Energy, 0, kUnbounded,
               "per data bit written");
    t.quantity("refresh", &P::refresh, Dimension::Energy, 0, kUnbounded,
               "one all-bank REF of one pseudo-channel");
    return t;
}

ParamTable<GovernorParams> governor_param_table() {
    using P = GovernorParams;
    ParamTable<P> t;
    t.custom({"voltage_frequency", "list", "none: nominal voltage at every clock",
              "{clock, volts} points, clocks rising", "Hz, V",
              "the SM domain's V-f curve the governor moves along; dynamic power goes as f V^2"},
             read_voltage_curve);
    t.quantity("clock_step", &P::clock_step_hz, Dimension::Frequency, 0, kUnbounded,
               "governed clocks are the maximum minus whole steps; 0: continuous");
    return t;
}

ParamTable<TechnologyParams> technology_param_table() {
    using P = TechnologyParams;
    ParamTable<P> t;
    t.text("name", &P::name, "the process, e.g. TSMC N7").required();
    t.number("nominal_volts", &P::nominal_volts, 0, kUnbounded, true, "V",
             "the voltage the energies are quoted at")
        .required();
    t.number("scale", &P::scale, 0, kUnbounded, true, "ratio",
             "on-chip energies relative to Horowitz's 45 nm table, fitted to calibration: "
             "(give it or derived_from)");
    t.text("derived_from", &P::derived_from,
           "another technology whose scale times power_ratio.value is this one's");
    return t;
}

ParamTable<TechnologyParams> power_ratio_param_table() {
    using P = TechnologyParams;
    ParamTable<P> t;
    t.number("value", &P::power_ratio, 0, kUnbounded, true, "ratio",
             "published power of this process over derived_from's at the same speed")
        .required();
    t.text("source", &P::ratio_source, "a key of docs/references.md").required();
    return t;
}

ParamTable<Calibration> calibration_param_table() {
    using P = Calibration;
    ParamTable<P> t;
    t.text("hardware", &P::hardware, "the preset of configs/hw/ the GEMM ran on").required();
    t.number("unthrottled_tflops", &P::unthrottled_tflops, 0, kUnbounded, true, "TFLOP/s",
             "measured at the maximum clock (inputs that barely toggle)")
        .required();
    t.number("throttled_tflops", &P::throttled_tflops, 0, kUnbounded, true, "TFLOP/s",
             "measured at the power limit; at most unthrottled_tflops")
        .required();
    t.text("source", &P::source, "a key of docs/references.md").required();
    t.options("charge", &P::charge,
              {{"analytic", CalibrationCharge::Analytic}, {"sampled", CalibrationCharge::Sampled}},
              "whose count of the GEMM's events the fit charged: the Roofline's or the "
              "cycle-level GPU's")
        .required();
    return t;
}

ParamTable<Calibration> calibration_gemm_param_table() {
    using P = Calibration;
    ParamTable<P> t;
    for (const auto& [key, member] :
         {std::pair<const char*, uint64_t P::*>{"m", &P::m}, {"n", &P::n}, {"k", &P::k}}) {
        t.integer(key, member, 1, UINT64_MAX, "", "the GEMM's dimension").required();
    }
    t.options("dtype", &P::dtype,
              {{"fp64", DType::FP64},
               {"fp32", DType::FP32},
               {"tf32", DType::TF32},
               {"fp16", DType::FP16},
               {"bf16", DType::BF16},
               {"fp8", DType::FP8},
               {"int8", DType::INT8}},
              "its operands' type")
        .required();
    return t;
}

HbmEnergyParams HbmEnergyParams::from_config(const ConfigNode& root) {
    HbmEnergyParams p;
    const auto hbm = root.optional_child("hbm");
    const auto en = hbm ? hbm->optional_child("energy") : std::nullopt;
    if (!en) return p;
    hbm_energy_param_table().read(*en, p.per_event.emplace());
    return p;
}

EnergyParams EnergyParams::from_config(const ConfigNode& root) {
    const hw::HardwareParams& hw = resolved<hw::HardwareParams>(root);
    EnergyParams p;
    EnergyTable& t = p.table;
    t = EnergyTable::horowitz_45nm();
    p.governor.nominal_volts = 0.9;  // Horowitz's table is quoted at 0.9 V
    if (const auto& dram = resolved<HbmEnergyParams>(root).per_event) t.hbm = *dram;
    if (hw.hbm.row_bytes > 0) t.dram_row_bytes = double(hw.hbm.row_bytes);
    p.governor.power_limit_w = hw.tdp_watts;
    if (const auto power = root.optional_child("power"))
        governor_param_table().read(*power, p.governor);
    if (const auto en = root.optional_child("energy")) {
        if (en->has("scale")) {
            // Renamed, not aliased (STYLE.md 8.2): the scale belongs to the process technology.
            en->fail("scale",
                     "was removed: on-chip energies come from energy.technology "
                     "(configs/technology/*.yaml, calibrated once per process), and power.tdp "
                     "is a power limit the clock governor enforces");
        }
        energy_param_table().read(*en, p);
    }
    // Per block, so that a what-if with more SMs or stacks draws more static power.
    p.static_by_block.sms = p.static_rates.per_sm * hw.sm_count;
    p.static_by_block.hbm = p.static_rates.per_hbm_stack * hw.hbm.stacks;
    p.static_by_block.other = p.static_rates.other;
    t.static_power = p.static_by_block.total();
    if (p.governor.power_limit_w > 0 && t.static_power >= p.governor.power_limit_w)
        root.child("energy").fail("static_power",
                                  "static power alone (" + std::to_string(t.static_power) +
                                      " W) reaches power.tdp (" +
                                      std::to_string(p.governor.power_limit_w) + " W)");
    return p;
}

double max_clock_of(const hw::HardwareParams& hw, ComputeUnit unit, DType dtype) {
    const std::map<DType, hw::UnitRate>* rates = unit == ComputeUnit::Tensor   ? &hw.tensor
                                                 : unit == ComputeUnit::Vector ? &hw.vector
                                                                               : nullptr;
    if (!rates) return 0;
    const auto it = rates->find(dtype);
    if (it == rates->end()) return 0;
    return static_cast<double>(hw.clocks_hz.at(it->second.clock));
}

ClockedLoad analytic_load(const EnergyParams& e, const hw::HardwareParams& hw, const OpCost& cost) {
    return analytic_load(e, hw, cost, charge(e.table, cost));
}

ClockedLoad analytic_load(const EnergyParams& e,
                          const hw::HardwareParams& hw,
                          const OpCost& cost,
                          const EnergyBreakdown& b) {
    ClockedLoad load;
    load.max_clock_hz = max_clock_of(hw, cost.unit, cost.dtype);
    const double peak = hw.peak_flops(cost.unit, cost.dtype);
    const double compute = peak > 0 ? cost.flops / peak : 0.0;
    load.floor_seconds = cost.dram_bytes / hw.hbm_bandwidth();
    load.seconds = std::max(compute, load.floor_seconds);
    load.on_chip_joules = b.compute + b.sram + b.l2;
    load.fixed_joules = b.dram + b.link + b.host;
    load.static_w = e.table.static_power;
    return load;
}

EnergyBreakdown analytic_events(const Calibration& cal, const EnergyParams& device) {
    OpCost c;
    c.unit = ComputeUnit::Tensor;
    c.dtype = cal.dtype;
    const double m = double(cal.m), n = double(cal.n), k = double(cal.k);
    c.flops = 2 * m * n * k;
    c.dram_bytes = (m * k + k * n + m * n) * static_cast<double>(dtype_bytes(cal.dtype));
    EnergyTable unscaled = device.table;
    unscaled.scale = 1.0;
    return charge(unscaled, c);
}

double fit_technology_scale(const Calibration& cal,
                            const hw::HardwareParams& hw,
                            const EnergyParams& device,
                            const EnergyBreakdown& events) {
    const double f_max = max_clock_of(hw, ComputeUnit::Tensor, cal.dtype);
    if (!(f_max > 0) || !(hw.tdp_watts > 0))
        throw std::invalid_argument("the calibration hardware needs a tensor rate and power.tdp");
    const double flops = 2 * double(cal.m) * double(cal.n) * double(cal.k);
    const double ratio = cal.throttled_tflops / cal.unthrottled_tflops;
    const double seconds = flops / (cal.throttled_tflops * 1e12);
    const double volts = device.governor.curve.empty()
                             ? device.governor.nominal_volts
                             : device.governor.curve.volts_at(ratio * f_max);
    const double vf =
        (volts / device.governor.nominal_volts) * (volts / device.governor.nominal_volts);
    const double on_chip = (events.compute + events.sram + events.l2) * vf;
    const double budget = (hw.tdp_watts - device.table.static_power) * seconds - events.dram;
    if (!(budget > 0) || !(on_chip > 0))
        throw std::invalid_argument("static power and HBM alone exceed power.tdp");
    return budget / on_chip;
}

void EnergyParams::publish(StatGroup& g, const hw::HardwareParams& hw) const {
    const EnergyTable& t = table;
    StatGroup& tg = g.add_group("technology");
    tg.add_scalar("scale", "ratio",
                  technology
                      ? "on-chip energy vs Horowitz 45 nm at nominal voltage, " + technology->name +
                            (technology->calibration ? " (fitted)" : " (derived)")
                      : std::string("on-chip energy vs Horowitz 45 nm (no technology)"))
        .set(t.scale);
    tg.add_scalar("nominal_volts", "V", "voltage the on-chip energies are quoted at")
        .set(governor.nominal_volts);
    g.add_scalar("static_power", "W", "power drawn whatever the device does").set(t.static_power);
    const StaticPower& b = static_by_block;
    StatGroup& sg = g.add_group("static_by_block");
    sg.add_scalar("sms", "W", "static power of the SMs").set(b.sms);
    sg.add_scalar("hbm", "W", "static power of the HBM stacks").set(b.hbm);
    sg.add_scalar("other", "W", "static power of the rest (PHYs, board)").set(b.other);
    StatGroup& fma = g.add_group("fma");
    for (const ComputeUnit unit : {ComputeUnit::Vector, ComputeUnit::Tensor}) {
        StatGroup* ug = nullptr;
        for (const auto& [dtype, joules] : unit == ComputeUnit::Tensor ? t.tensor_fma : t.fma) {
            if (hw.peak_flops(unit, dtype) <= 0) continue;
            if (!ug) ug = &fma.add_group(to_string(unit));
            ug->add_scalar(
                  to_string(dtype), "J",
                  "one " + to_string(dtype) + " FMA with its register traffic, at nominal voltage")
                .set(t.fma_energy(unit, dtype));
        }
    }
    g.add_scalar("sram_per_byte", "J/B", "L1 / shared memory, at nominal voltage")
        .set(t.sram_per_byte * t.scale);
    g.add_scalar("l2_per_byte", "J/B", "L2, at nominal voltage").set(t.l2_per_byte * t.scale);
    g.add_scalar("hbm_read_per_bit", "J/bit", "HBM read, per data bit").set(t.hbm.read_per_bit);
    g.add_scalar("hbm_write_per_bit", "J/bit", "HBM write, per data bit").set(t.hbm.write_per_bit);
    g.add_scalar("link_per_bit", "J/bit", "NVLink-class link, per bit").set(t.link_per_bit);
    g.add_scalar("host_per_bit", "J/bit", "host link, per bit").set(t.host_per_bit);
    g.add_scalar("power_limit", "W", "power.tdp, enforced by lowering the SM clock")
        .set(governor.power_limit_w);
    // The reference load: a dense 8192^3 GEMM at the tensor peak in BF16 (FP16 if none).
    DType dtype = DType::BF16;
    if (hw.peak_flops(ComputeUnit::Tensor, dtype) <= 0) dtype = DType::FP16;
    if (hw.peak_flops(ComputeUnit::Tensor, dtype) > 0) {
        const double n = kReferenceGemmSize;
        OpCost c;
        c.unit = ComputeUnit::Tensor;
        c.dtype = dtype;
        c.flops = 2 * n * n * n;
        c.dram_bytes = 3 * n * n * static_cast<double>(dtype_bytes(dtype));
        const ClockedLoad load = analytic_load(*this, hw, c);
        const GovernedLoad at_max = at_clock(governor, load, load.max_clock_hz);
        const GovernedLoad governed = govern(governor, load);
        StatGroup& rg = g.add_group("reference_gemm");
        const std::string what = "a dense " + to_string(dtype) + " 8192^3 GEMM at the tensor peak";
        rg.add_scalar("power_at_max_clock", "W", what + ": power at the maximum clock")
            .set(at_max.power_w);
        rg.add_scalar("clock", "Hz", what + ": the clock the governor lets it run at")
            .set(governed.clock_hz);
        rg.add_scalar("power", "W", what + ": power at that clock").set(governed.power_w);
        rg.add_scalar("flops", "FLOP/s", what + ": throughput at that clock")
            .set(c.flops / governed.seconds);
    }
}

}  // namespace sim::energy
