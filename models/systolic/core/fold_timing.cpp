// SPDX-License-Identifier: MIT
#include "models/systolic/core/fold_timing.h"

#include <algorithm>
#include <cmath>

namespace sim::systolic {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

// The three operands by their role in a dataflow: which one stays in the PEs, which one
// streams, which one collects the outputs.
enum class Operand { Ifmap, Filter, Ofmap };

struct Traffic {
    uint64_t ifmap = 0, filter = 0, ofmap_rd = 0, ofmap_wr = 0;
    uint64_t reads() const { return ifmap + filter + ofmap_rd; }
};

// Words of a unique operand that belong to a slice covering `part` of `whole` (rounded up so
// that the slices of a pass add up to at least the operand).
uint64_t share(uint64_t unique_words, uint64_t part, uint64_t whole) {
    return ceil_div(unique_words * part, whole);
}

}  // namespace

Mapping map_layer(const Layer& l, Dataflow df) {
    switch (df) {
        case Dataflow::WeightStationary: return {l.k(), l.n(), l.m()};
        case Dataflow::OutputStationary: return {l.m(), l.n(), l.k()};
        case Dataflow::InputStationary: return {l.k(), l.m(), l.n()};
    }
    return {};
}

uint64_t fold_cycles(const ArrayParams& p, const Mapping& m, bool pays_preload) {
    const uint64_t r = p.rows, c = p.cols;
    if (p.dataflow == Dataflow::OutputStationary) return r + c + m.t - 2;
    return (pays_preload ? r : 0) + m.t + (r - 1) + (c - 1);
}

LayerTiming time_layer(const ArrayParams& p, const Layer& layer) {
    layer.validate();
    LayerTiming out;
    const Mapping m = map_layer(layer, p.dataflow);
    out.map = m;
    const uint64_t R = p.rows, C = p.cols, w = p.word_bytes;
    out.row_folds = ceil_div(m.sr, R);
    out.col_folds = ceil_div(m.sc, C);
    out.folds = out.row_folds * out.col_folds;
    out.macs = layer.macs();

    const uint64_t u_ifmap = layer.ifmap_words(), u_filter = layer.filter_words(),
                   u_ofmap = layer.ofmap_words();
    const uint64_t wk_ifmap = p.working_bytes(p.ifmap_sram_bytes),
                   wk_filter = p.working_bytes(p.filter_sram_bytes),
                   wk_ofmap = p.working_bytes(p.ofmap_sram_bytes);
    const bool ifmap_fits = u_ifmap * w <= wk_ifmap;
    const bool filter_fits = u_filter * w <= wk_filter;
    const bool ofmap_fits = u_ofmap * w <= wk_ofmap;
    // Activations kept on chip (TPU v1's Unified Buffer) cost no DRAM traffic while they fit.
    const bool ifmap_free = !p.activations_in_dram && ifmap_fits;
    const bool ofmap_free = !p.activations_in_dram && ofmap_fits;

    const Dataflow df = p.dataflow;
    const Operand stationary = df == Dataflow::InputStationary ? Operand::Ifmap : Operand::Filter;
    const Operand streamed = df == Dataflow::InputStationary ? Operand::Filter : Operand::Ifmap;
    const auto unique = [&](Operand o) { return o == Operand::Ifmap ? u_ifmap : u_filter; };
    const auto fits = [&](Operand o) { return o == Operand::Ifmap ? ifmap_fits : filter_fits; };
    // One column fold's partial sums (T x C words) must stay in the ofmap buffer while the row
    // folds accumulate into them; otherwise they go out to DRAM and come back.
    const bool psums_fit = m.t * std::min<uint64_t>(C, m.sc) * w <= wk_ofmap;
    // os: one column fold's filter slice (T x C) is reused by every row fold if it fits.
    const bool filter_tile_fits = m.t * std::min<uint64_t>(C, m.sc) * w <= wk_filter;

    const double bw = p.dram_bytes_per_cycle;
    const auto dram_time = [&](uint64_t words) -> uint64_t {
        if (bw <= 0 || words == 0) return 0;
        return static_cast<uint64_t>(std::ceil(double(words * w) / bw));
    };

    Traffic total;
    double util_sum = 0;
    // Event times in cycles: the array's fold start/end and when the DRAM channel frees up.
    uint64_t prev_start = 0, prev_end = 0, dram_free = 0, compute = 0, t_serial = 0;
    Traffic prev_fold;
    uint64_t index = 0;
    for (uint64_t fc = 0; fc < out.col_folds; ++fc) {
        const uint64_t cols_used = std::min<uint64_t>(C, m.sc - fc * C);
        for (uint64_t fr = 0; fr < out.row_folds; ++fr, ++index) {
            const uint64_t rows_used = std::min<uint64_t>(R, m.sr - fr * R);
            Traffic f;
            const uint64_t ifmap_before = out.ifmap_sram_reads,
                           filter_before = out.filter_sram_reads,
                           ofmap_before = out.ofmap_sram_writes;
            if (df == Dataflow::OutputStationary) {
                out.ifmap_sram_reads += m.t * rows_used;
                out.filter_sram_reads += m.t * cols_used;
                out.ofmap_sram_writes += rows_used * cols_used;
                if (!ifmap_free && (fc == 0 || !ifmap_fits))
                    f.ifmap = share(u_ifmap, rows_used, m.sr);
                if (fr == 0 || !filter_tile_fits) f.filter = share(u_filter, cols_used, m.sc);
                if (!ofmap_free) f.ofmap_wr = rows_used * cols_used;
            } else {
                // ws/is: the stationary tile is read once; the streamed operand is re-read for
                // every column fold; partial sums T x cols are written per row fold.
                (stationary == Operand::Filter ? out.filter_sram_reads : out.ifmap_sram_reads) +=
                    rows_used * cols_used;
                (streamed == Operand::Ifmap ? out.ifmap_sram_reads : out.filter_sram_reads) +=
                    m.t * rows_used;
                out.ofmap_sram_writes += m.t * cols_used;
                const uint64_t stat_words =
                    share(unique(stationary), rows_used * cols_used, m.sr * m.sc);
                const bool stat_free = stationary == Operand::Ifmap && ifmap_free;
                if (!stat_free) (stationary == Operand::Filter ? f.filter : f.ifmap) += stat_words;
                const bool stream_free = streamed == Operand::Ifmap && ifmap_free;
                if (!stream_free && (fc == 0 || !fits(streamed))) {
                    (streamed == Operand::Ifmap ? f.ifmap : f.filter) +=
                        share(unique(streamed), rows_used, m.sr);
                }
                const uint64_t psums = m.t * cols_used;
                if (!ofmap_free) {
                    if (psums_fit) {
                        if (fr + 1 == out.row_folds) f.ofmap_wr = psums;
                    } else {
                        f.ofmap_wr = psums;
                        if (fr > 0) f.ofmap_rd = psums;
                    }
                }
            }
            const bool pays_preload = !(p.preload_overlap && index > 0);
            const uint64_t c = fold_cycles(p, m, pays_preload);
            compute += c;
            // The fold takes as long as its busiest SRAM port needs, at least its own cycles.
            uint64_t busy = c;
            if (p.sram_port_bytes_per_cycle > 0) {
                for (uint64_t words :
                     {out.ifmap_sram_reads - ifmap_before, out.filter_sram_reads - filter_before,
                      out.ofmap_sram_writes - ofmap_before}) {
                    busy = std::max(busy, ceil_div(words * w, p.sram_port_bytes_per_cycle));
                }
            }
            out.sram_stall_cycles += busy - c;
            util_sum += double(rows_used * cols_used) * double(m.t) / (double(R * C) * double(c));
            total.ifmap += f.ifmap;
            total.filter += f.filter;
            total.ofmap_rd += f.ofmap_rd;
            total.ofmap_wr += f.ofmap_wr;

            if (p.double_buffered) {
                // Fold i's operands load into the free half while fold i-1 computes.
                const uint64_t fetch_begin = index == 0 ? 0 : std::max(prev_start, dram_free);
                dram_free = fetch_begin + dram_time(f.reads());
                const uint64_t start = std::max(index == 0 ? 0 : prev_end, dram_free);
                const uint64_t end = start + busy;
                if (index > 0)
                    dram_free = std::max(prev_end, dram_free) + dram_time(prev_fold.ofmap_wr);
                prev_start = start;
                prev_end = end;
            } else {
                t_serial += dram_time(f.reads()) + busy + dram_time(f.ofmap_wr);
            }
            prev_fold = f;
        }
    }
    if (p.double_buffered) {
        dram_free = std::max(prev_end, dram_free) + dram_time(prev_fold.ofmap_wr);
        out.total_cycles = std::max(prev_end, dram_free);
    } else {
        out.total_cycles = t_serial;
    }
    out.compute_cycles = compute;
    out.stall_cycles = out.total_cycles - compute;

    out.ifmap_dram_reads = total.ifmap;
    out.filter_dram_reads = total.filter;
    out.ofmap_dram_reads = total.ofmap_rd;
    out.ofmap_dram_writes = total.ofmap_wr;
    const uint64_t dram_words = total.reads() + total.ofmap_wr;
    out.dram_bytes = dram_words * w;
    out.dram_cycles = dram_time(dram_words);
    out.memory_bound = out.dram_cycles > compute;

    out.mapping_efficiency = double(m.sr) * double(m.sc) / (double(out.folds) * double(R * C));
    out.compute_utilisation = util_sum / double(out.folds);
    out.overall_utilisation = double(out.macs) / (double(out.total_cycles) * double(R * C));

    const uint64_t sram_words = out.ifmap_sram_reads + out.filter_sram_reads +
                                out.ofmap_sram_writes + dram_words;  // fills and drains too
    out.mac_energy = double(out.macs) * p.mac_energy_j;
    out.sram_energy = double(sram_words * w) * p.sram_energy_per_byte;
    out.dram_energy = double(out.dram_bytes) * p.dram_energy_per_byte;
    return out;
}

}  // namespace sim::systolic
