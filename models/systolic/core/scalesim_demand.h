// SPDX-License-Identifier: MIT
// The operand matrices and demand streams of SCALE-Sim v2 (docs/references.md [scalesim];
// compute/operand_matrix.py and compute/systolic_compute_{ws,os,is}.py at commit 22f88b1),
// produced one demand line at a time instead of as whole numpy matrices:
//  - operand addresses without the configured offsets (offsets never change a report):
//    ifmap(pixel, tap) is the im2col address, -1 where a window hangs over the ifmap's edge
//    (SCALE-Sim sizes the output as ceil((H - R + S) / S), rounding a partial window up);
//    filter(tap, f) = f * K + tap; ofmap(pixel, f) = pixel * N + f;
//  - per fold, the three demand blocks (ifmap, filter, ofmap) with SCALE-Sim's null prefixes,
//    suffixes, vertical flips and diagonal skews, so that line l of a fold is row l of its
//    demand matrices;
//  - the prefetch streams of USER bandwidth mode (the operand per fold, rolled out along its
//    anti-diagonals where SCALE-Sim does).
// Pure C++; no SystemC.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>

#include "models/systolic/core/array_params.h"
#include "models/systolic/core/layer.h"

namespace sim::systolic {

/// A layer's three operand matrices as SCALE-Sim v2 builds them.
class ScaleSimOperands {
  public:
    explicit ScaleSimOperands(const Layer& layer);
    uint64_t ofmap_h = 0, ofmap_w = 0;  ///< ceil((in - filter + stride) / stride), pixels
    uint64_t m = 0;                     ///< output pixels: ifmap matrix rows
    uint64_t k = 0;                     ///< window: ifmap columns, filter rows
    uint64_t n = 0;                     ///< filters: filter and ofmap columns
    uint64_t ifmap_space() const { return ifmap_h_ * ifmap_w_ * channels_; }  ///< words
    uint64_t filter_space() const { return k * n; }                           ///< words
    /// im2col address of (output pixel, window tap), or -1 outside the ifmap.
    int64_t ifmap(uint64_t pixel, uint64_t tap) const;
    int64_t filter(uint64_t tap, uint64_t f) const { return int64_t(f * k + tap); }
    int64_t ofmap(uint64_t pixel, uint64_t f) const { return int64_t(pixel * n + f); }

  private:
    uint64_t ifmap_h_ = 1, ifmap_w_ = 1, filter_w_ = 1, channels_ = 1, stride_ = 1;
};

enum class ScaleSimOperand { Ifmap, Filter, Ofmap };

/// One operand's demand block in one fold: `prefix` null lines, then `rows` block rows of
/// `width` columns (columns >= used_cols are null), optionally flipped vertically (rows of the
/// padded block >= used_rows are null before the flip) and skewed (column c delayed by c
/// lines). Element (row, col) of the block reads the operand at (base_a + row, base_b + col),
/// or at (base_a + col, base_b + row) when transposed.
struct DemandBlock {
    ScaleSimOperand operand = ScaleSimOperand::Ifmap;
    uint64_t width = 1, prefix = 0, rows = 0, used_rows = 0, used_cols = 0;
    bool skew = false, flip = false, transposed = false;
    uint64_t base_a = 0, base_b = 0;
};

/// The folds of a layer on an R x C array for a dataflow, and what each fold demands.
class ScaleSimFolds {
  public:
    ScaleSimFolds(const ScaleSimOperands& ops, uint32_t rows, uint32_t cols, Dataflow df);
    uint64_t sr = 0, sc = 0, t = 0;             ///< SCALE-Sim's Sr, Sc, T
    uint64_t row_folds = 0, col_folds = 0;      ///< ceil(Sr / R), ceil(Sc / C)
    uint64_t lines_per_fold = 0;                ///< 2R + C + T - 2 (ws, is) or R + C + T - 2 (os)
    uint32_t array_rows() const { return r_; }  ///< R
    uint32_t array_cols() const { return c_; }  ///< C
    uint64_t rows_used(uint64_t fr) const;      ///< array rows fold fr maps
    uint64_t cols_used(uint64_t fc) const;      ///< array columns fold fc maps
    /// The block operand o demands in fold (fc, fr).
    DemandBlock block(ScaleSimOperand o, uint64_t fc, uint64_t fr) const;
    /// Calls f(address) for each address on line `line` of block b; nulls (-1) are skipped.
    template <typename F>
    void for_each(const DemandBlock& b, uint64_t line, F&& f) const;
    /// Address of one block element (may be -1 for an ifmap window over the edge).
    int64_t address(const DemandBlock& b, uint64_t row, uint64_t col) const;

  private:
    const ScaleSimOperands& ops_;
    uint32_t r_ = 1, c_ = 1;
    Dataflow df_;
};

/// The prefetch order of one read operand in USER bandwidth mode: the operand matrix cut per
/// fold into blocks of `width` columns stacked vertically, then rolled out along anti-diagonals
/// where SCALE-Sim does (ws ifmap, os ifmap and filter, is filter).
struct PrefetchOrder {
    ScaleSimOperand operand = ScaleSimOperand::Ifmap;
    uint64_t width = 1;       ///< R or C
    uint64_t block_rows = 0;  ///< rows of each stacked block
    uint64_t blocks = 0;      ///< folds stacked
    uint64_t extent = 0;      ///< Sr or Sc: block f uses min(width, extent - f * width) columns
    bool transposed = false;  ///< element (row, c) of block f reads (f*width + c, row)
    bool rolled = false;      ///< anti-diagonal roll-out
    uint64_t elements() const { return blocks * block_rows * width; }
};
PrefetchOrder prefetch_order(const ScaleSimFolds& folds, ScaleSimOperand o, Dataflow df);
/// Calls f(address) for every element of the prefetch order, -1 included, in order.
void for_each_prefetch(const ScaleSimOperands& ops,
                       const PrefetchOrder& p,
                       const std::function<void(int64_t)>& f);

template <typename F>
void ScaleSimFolds::for_each(const DemandBlock& b, uint64_t line, F&& f) const {
    if (line < b.prefix) return;
    const uint64_t l = line - b.prefix;
    // Block row of column c: l - c when skewed, l otherwise.
    uint64_t c_lo = 0, c_hi = b.used_cols;
    if (b.skew) {
        c_lo = l + 1 > b.rows ? l + 1 - b.rows : 0;
        c_hi = std::min<uint64_t>(b.used_cols, l + 1);
    } else if (l >= b.rows) {
        return;
    }
    for (uint64_t c = c_lo; c < c_hi; ++c) {
        uint64_t row = b.skew ? l - c : l;
        if (b.flip) {
            row = b.rows - 1 - row;
            if (row >= b.used_rows) continue;
        }
        const int64_t a = address(b, row, c);
        if (a >= 0) f(a);
    }
}

}  // namespace sim::systolic
