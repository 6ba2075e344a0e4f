// SPDX-License-Identifier: MIT
#include "models/systolic/core/scalesim_demand.h"

#include "sim/core/error.h"

namespace sim::systolic {

namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) {
    return (a + b - 1) / b;
}

}  // namespace

ScaleSimOperands::ScaleSimOperands(const Layer& l)
    : ifmap_h_(l.ifmap_h),
      ifmap_w_(l.ifmap_w),
      filter_w_(l.filter_w),
      channels_(l.channels),
      stride_(l.stride) {
    l.validate();
    if (l.batch != 1) throw ConfigError({}, "batch", "SCALE-Sim v2 runs batch 1 only");
    // topology_utils.py: ceil((in - filter + stride) / stride). When (in - filter) is not a
    // multiple of the stride, the last window hangs over the edge and reads -1 there.
    ofmap_h = ceil_div(l.ifmap_h - l.filter_h + l.stride, l.stride);
    ofmap_w = ceil_div(l.ifmap_w - l.filter_w + l.stride, l.stride);
    m = ofmap_h * ofmap_w;
    k = l.filter_h * l.filter_w * l.channels;
    n = l.num_filters;
}

int64_t ScaleSimOperands::ifmap(uint64_t pixel, uint64_t tap) const {
    const uint64_t in_row = (pixel / ofmap_w) * stride_;
    const uint64_t in_col = (pixel % ofmap_w) * stride_;
    const uint64_t row_taps = filter_w_ * channels_;
    const uint64_t f_row = tap / row_taps;
    const uint64_t rest = tap % row_taps;
    const uint64_t f_col = rest / channels_;
    const uint64_t ch = rest % channels_;
    if (f_row + in_row >= ifmap_h_ || f_col + in_col >= ifmap_w_) return -1;
    return int64_t(((in_row + f_row) * ifmap_w_ + in_col + f_col) * channels_ + ch);
}

ScaleSimFolds::ScaleSimFolds(const ScaleSimOperands& ops, uint32_t rows, uint32_t cols, Dataflow df)
    : ops_(ops), r_(rows), c_(cols), df_(df) {
    switch (df) {
        case Dataflow::WeightStationary: sr = ops.k, sc = ops.n, t = ops.m; break;
        case Dataflow::OutputStationary: sr = ops.m, sc = ops.n, t = ops.k; break;
        case Dataflow::InputStationary: sr = ops.k, sc = ops.m, t = ops.n; break;
    }
    row_folds = ceil_div(sr, r_);
    col_folds = ceil_div(sc, c_);
    lines_per_fold = (df == Dataflow::OutputStationary ? 1 : 2) * uint64_t(r_) + c_ + t - 2;
}

uint64_t ScaleSimFolds::rows_used(uint64_t fr) const {
    return std::min<uint64_t>(r_, sr - fr * r_);
}

uint64_t ScaleSimFolds::cols_used(uint64_t fc) const {
    return std::min<uint64_t>(c_, sc - fc * c_);
}

DemandBlock ScaleSimFolds::block(ScaleSimOperand o, uint64_t fc, uint64_t fr) const {
    const uint64_t R = r_, C = c_, ru = rows_used(fr), cu = cols_used(fc);
    DemandBlock b;
    b.operand = o;
    // Streams of T rows over the used rows or columns, skewed one line per column.
    const auto stream = [&](uint64_t width, uint64_t prefix, uint64_t used, bool transposed,
                            uint64_t base) {
        b.width = width;
        b.prefix = prefix;
        b.rows = t;
        b.used_rows = t;
        b.used_cols = used;
        b.skew = true;
        b.transposed = transposed;
        (transposed ? b.base_a : b.base_b) = base;
    };
    // A stationary R x C tile, flipped so that its top row enters last.
    const auto tile = [&](uint64_t base_a, uint64_t base_b, bool transposed, bool skew,
                          uint64_t prefix) {
        b.width = C;
        b.prefix = prefix;
        b.rows = R;
        b.used_rows = ru;
        b.used_cols = cu;
        b.flip = true;
        b.skew = skew;
        b.transposed = transposed;
        b.base_a = base_a;
        b.base_b = base_b;
    };
    switch (df_) {
        case Dataflow::WeightStationary:
            // Weights preload for R lines, inputs stream after them, outputs leave from
            // line 2R - 1 on.
            if (o == ScaleSimOperand::Ifmap) stream(R, R, ru, false, fr * R);
            if (o == ScaleSimOperand::Filter) tile(fr * R, fc * C, false, false, 0);
            if (o == ScaleSimOperand::Ofmap) stream(C, 2 * R - 1, cu, false, fc * C);
            break;
        case Dataflow::OutputStationary:
            if (o == ScaleSimOperand::Ifmap) stream(R, 0, ru, true, fr * R);
            if (o == ScaleSimOperand::Filter) stream(C, 0, cu, false, fc * C);
            if (o == ScaleSimOperand::Ofmap) tile(fr * R, fc * C, false, true, t - 1);
            break;
        case Dataflow::InputStationary:
            if (o == ScaleSimOperand::Ifmap) tile(fc * C, fr * R, true, false, 0);
            if (o == ScaleSimOperand::Filter) stream(R, R, ru, true, fr * R);
            if (o == ScaleSimOperand::Ofmap) stream(C, 2 * R - 1, cu, true, fc * C);
            break;
    }
    return b;
}

int64_t ScaleSimFolds::address(const DemandBlock& b, uint64_t row, uint64_t col) const {
    const uint64_t a = b.base_a + (b.transposed ? col : row);
    const uint64_t c = b.base_b + (b.transposed ? row : col);
    switch (b.operand) {
        case ScaleSimOperand::Ifmap: return ops_.ifmap(a, c);
        case ScaleSimOperand::Filter: return ops_.filter(a, c);
        case ScaleSimOperand::Ofmap: return ops_.ofmap(a, c);
    }
    return -1;
}

PrefetchOrder prefetch_order(const ScaleSimFolds& folds, ScaleSimOperand o, Dataflow df) {
    SIM_ASSERT(o != ScaleSimOperand::Ofmap, "the ofmap is written, never prefetched");
    PrefetchOrder p;
    p.operand = o;
    const bool ifmap = o == ScaleSimOperand::Ifmap;
    // Which fold index cuts the operand: row folds (width R, extent Sr) or column folds.
    bool by_rows = true;
    switch (df) {
        case Dataflow::WeightStationary:
            by_rows = ifmap;
            p.block_rows = ifmap ? folds.t : folds.sr;
            p.transposed = false;
            p.rolled = ifmap;
            break;
        case Dataflow::OutputStationary:
            by_rows = ifmap;
            p.block_rows = folds.t;
            p.transposed = ifmap;
            p.rolled = true;
            break;
        case Dataflow::InputStationary:
            by_rows = !ifmap;
            p.block_rows = ifmap ? folds.sr : folds.t;
            p.transposed = true;
            p.rolled = !ifmap;
            break;
    }
    p.width = by_rows ? folds.array_rows() : folds.array_cols();
    p.blocks = by_rows ? folds.row_folds : folds.col_folds;
    p.extent = by_rows ? folds.sr : folds.sc;
    return p;
}

void for_each_prefetch(const ScaleSimOperands& ops,
                       const PrefetchOrder& p,
                       const std::function<void(int64_t)>& f) {
    const auto element = [&](uint64_t row, uint64_t col) -> int64_t {
        const uint64_t fold = row / p.block_rows, r = row % p.block_rows;
        const uint64_t first = fold * p.width;
        if (first + col >= p.extent) return -1;
        const uint64_t a = p.transposed ? first + col : r;
        const uint64_t b = p.transposed ? r : first + col;
        return p.operand == ScaleSimOperand::Ifmap ? ops.ifmap(a, b) : ops.filter(a, b);
    };
    const uint64_t rows = p.blocks * p.block_rows, cols = p.width;
    if (!p.rolled) {
        for (uint64_t r = 0; r < rows; ++r)
            for (uint64_t c = 0; c < cols; ++c)
                f(element(r, c));
        return;
    }
    // Anti-diagonal d holds (row, d - row), bottom row first.
    for (uint64_t d = 0; d + 1 < rows + cols; ++d) {
        const uint64_t hi = std::min<uint64_t>(d, rows - 1);
        const uint64_t lo = d + 1 > cols ? d + 1 - cols : 0;
        for (uint64_t r = hi + 1; r-- > lo;)
            f(element(r, d - r));
    }
}

}  // namespace sim::systolic
