// SPDX-License-Identifier: MIT
#include "models/systolic/core/scalesim_replay.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "models/systolic/core/scalesim_demand.h"
#include "sim/core/error.h"

namespace sim::systolic {

namespace {

// Per-fold counts and averages of the compute report, as systolic_compute_*.py sums them:
// SRAM accesses by the shape of each fold's operand slice, and the two per-fold ratios
// averaged in fold order (Python's sum() then one division, then x 100).
void fold_statistics(const ScaleSimFolds& f, Dataflow df, ScaleSimLayerReport& out) {
    const uint64_t R = f.array_rows(), C = f.array_cols(), T = f.t;
    // ws and is divide by the ifmap (is) or filter (ws) demand block's length plus its width
    // minus one; os by the ofmap block's, which is the fold's length.
    const uint64_t fold_cycles =
        df == Dataflow::OutputStationary ? f.lines_per_fold : f.lines_per_fold + C - 1;
    double mapping_sum = 0, util_sum = 0;
    for (uint64_t fc = 0; fc < f.col_folds; ++fc) {
        for (uint64_t fr = 0; fr < f.row_folds; ++fr) {
            const uint64_t ru = f.rows_used(fr), cu = f.cols_used(fc);
            switch (df) {
                case Dataflow::WeightStationary:
                    out.ifmap_sram_reads += T * ru;
                    out.filter_sram_reads += ru * cu;
                    out.ofmap_sram_writes += T * cu;
                    break;
                case Dataflow::OutputStationary:
                    out.ifmap_sram_reads += T * ru;
                    out.filter_sram_reads += T * cu;
                    // The padded R x C output tile's height plus width, added once more.
                    out.ofmap_sram_writes += ru * cu + R + C;
                    break;
                case Dataflow::InputStationary:
                    out.ifmap_sram_reads += ru * cu;
                    out.filter_sram_reads += T * ru;
                    out.ofmap_sram_writes += T * cu;
                    break;
            }
            mapping_sum += double(ru * cu) / double(R * C);
            util_sum += double(ru * cu * T) / double(R * C * fold_cycles);
        }
    }
    const double folds = double(f.row_folds * f.col_folds);
    out.mapping_efficiency = mapping_sum / folds * 100;
    out.compute_util = util_sum / folds * 100;
}

// The two read buffers of either bandwidth mode behind one interface for the line loop.
class ReadSide {
  public:
    ReadSide(const ScaleSimConfig& cfg,
             const ScaleSimOperands& ops,
             const ScaleSimFolds& folds,
             ScaleSimOperand o,
             uint64_t total_words) {
        const uint64_t space = o == ScaleSimOperand::Ifmap ? ops.ifmap_space() : ops.filter_space();
        if (!cfg.user_bandwidth) {
            estimate_ = std::make_unique<EstimateReadBuffer>(total_words, space);
            return;
        }
        std::vector<int64_t> order;
        const PrefetchOrder p = prefetch_order(folds, o, cfg.array.dataflow);
        order.reserve(p.elements());
        for_each_prefetch(ops, p, [&](int64_t a) { order.push_back(a); });
        prefetch_ =
            std::make_unique<PrefetchReadBuffer>(total_words, cfg.bandwidth_words, space, order);
    }
    /// Serves one line's addresses issued at `cycle`; returns the serve cycle.
    int64_t serve(int64_t cycle, const std::vector<int64_t>& addresses) {
        if (prefetch_) return prefetch_->serve_line(cycle, addresses);
        if (!addresses.empty()) estimate_->line_with_requests(cycle);
        for (const int64_t a : addresses)
            estimate_->request(cycle, a);
        return cycle + 1;  // a hit, one cycle later
    }
    void finish() {
        if (estimate_) estimate_->finish();
    }
    const DramActivity& dram() const { return prefetch_ ? prefetch_->dram() : estimate_->dram(); }

  private:
    std::unique_ptr<EstimateReadBuffer> estimate_;
    std::unique_ptr<PrefetchReadBuffer> prefetch_;
};

void seen(SramActivity& s, int64_t cycle) {
    if (!s.any) s.first = cycle;
    s.any = true;
    s.last = cycle;
}

}  // namespace

ScaleSimLayerReport replay_scalesim_layer(const ScaleSimConfig& cfg, const Layer& layer) {
    const ArrayParams& a = cfg.array;
    const ScaleSimOperands ops(layer);
    const ScaleSimFolds folds(ops, a.rows, a.cols, a.dataflow);
    ScaleSimLayerReport out;
    fold_statistics(folds, a.dataflow, out);

    // SCALE-Sim's words are bytes (word size 1).
    ReadSide ifmap(cfg, ops, folds, ScaleSimOperand::Ifmap, a.ifmap_sram_bytes);
    ReadSide filter(cfg, ops, folds, ScaleSimOperand::Filter, a.filter_sram_bytes);
    // CALC mode drains outputs one array width per cycle.
    WriteBuffer ofmap(a.ofmap_sram_bytes, cfg.user_bandwidth ? cfg.bandwidth_words : a.cols);

    std::vector<int64_t> ifmap_line, filter_line;
    ifmap_line.reserve(std::max(a.rows, a.cols));
    filter_line.reserve(std::max(a.rows, a.cols));
    int64_t line = 0, stalls = 0, last_served = 0;
    for (uint64_t fc = 0; fc < folds.col_folds; ++fc) {
        for (uint64_t fr = 0; fr < folds.row_folds; ++fr) {
            const DemandBlock bi = folds.block(ScaleSimOperand::Ifmap, fc, fr);
            const DemandBlock bf = folds.block(ScaleSimOperand::Filter, fc, fr);
            const DemandBlock bo = folds.block(ScaleSimOperand::Ofmap, fc, fr);
            for (uint64_t l = 0; l < folds.lines_per_fold; ++l, ++line) {
                const int64_t cycle = line + stalls;
                ifmap_line.clear();
                filter_line.clear();
                uint64_t outputs = 0;
                folds.for_each(bi, l, [&](int64_t x) { ifmap_line.push_back(x); });
                folds.for_each(bf, l, [&](int64_t x) { filter_line.push_back(x); });
                folds.for_each(bo, l, [&](int64_t) { ++outputs; });
                const int64_t ifmap_done = ifmap.serve(cycle, ifmap_line);
                const int64_t filter_done = filter.serve(cycle, filter_line);
                const int64_t ofmap_done = ofmap.serve_line(cycle, outputs);
                if (!ifmap_line.empty()) seen(out.ifmap_sram, ifmap_done);
                if (!filter_line.empty()) seen(out.filter_sram, filter_done);
                if (outputs > 0) seen(out.ofmap_sram, ofmap_done);
                stalls +=
                    std::max({ifmap_done - cycle - 1, filter_done - cycle - 1, ofmap_done - cycle});
                last_served = ofmap_done;
            }
        }
    }
    ifmap.finish();
    filter.finish();
    ofmap.finish(last_served);

    out.total_cycles = uint64_t(last_served);
    out.stall_cycles = uint64_t(stalls);
    if (out.total_cycles == 0) {
        throw ConfigError({}, layer.name, "SCALE-Sim v2 itself fails here: zero total cycles");
    }
    const uint64_t macs = ops.m * ops.n * ops.k;
    out.overall_util =
        double(macs * 100) / (double(out.total_cycles) * double(uint64_t(a.rows) * a.cols));
    out.ifmap_dram = ifmap.dram();
    out.filter_dram = filter.dram();
    out.ofmap_dram = ofmap.dram();
    for (const DramActivity* d : {&out.ifmap_dram, &out.filter_dram, &out.ofmap_dram}) {
        if (!d->any) {
            throw ConfigError({}, layer.name,
                              "SCALE-Sim v2 itself fails here: a buffer never touched DRAM");
        }
    }
    return out;
}

}  // namespace sim::systolic
