// SPDX-License-Identifier: MIT
// One ReRAM crossbar, functionally: cells programmed to conductances, a read cycle that drives
// word lines with DAC voltages, sums bit-line currents (Kirchhoff: I_j = sum_i G_ij V_i) and
// converts each used column with the ADC.
//
// Cell level l (0 .. 2^b-1) targets G = G_off + l (G_on - G_off) / (2^b - 1).
// Non-idealities, each off at zero:
//   - programming variation: G *= exp(sigma_v z), lognormal, device to device;
//   - write noise: G += sigma_w z' (G_on - G_off) / (2^b - 1), the error left after
//     write-verify;
//   - drift: G(t) = G (t / t0)^-nu for t > t0;
//   - IR drop: each cell sees the wire resistance of its word-line and bit-line segments in
//     series, R_s = r_wire ((j + 1) + (rows - i)), so I = V G / (1 + G R_s). This first-order
//     model ignores the current other cells push through the same wires;
//   - I-V non-linearity: I = G V_r sinh(k V / V_r) / k;
//   - limited on/off ratio: G_off > 0 carries current for level 0. A reference column of
//     nominal G_off cells removes it, so it only matters through its variation and drift.
// The ADC sees the column signal in units of one level step times one input step. Its range is
// adc_full_scale x the largest column sum (half of rows x levels x input codes with
// flip_columns); its LSB is the smallest power of two of those units
// that covers the range with adc_bits, so with enough bits it resolves every integer sum
// exactly. Sums above the range clip, noise below zero clips at code 0.
// Random numbers come from the caller's std::mt19937_64, two normals per cell in row-major
// order whatever the sigmas, so a sweep of one sigma sees the same device draws.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "models/cim/core/cim_config.h"

namespace sim::cim {

class CrossbarArray {
  public:
    /// levels: used_rows x used_columns cell levels, row-major. Cells outside the used block
    /// stay at G_off and see no input or ADC. Throws std::invalid_argument on a bad shape.
    CrossbarArray(const CrossbarConfig& xb,
                  const NonidealityConfig& nonideality,
                  uint32_t used_rows,
                  uint32_t used_columns,
                  const std::vector<uint32_t>& levels,
                  std::mt19937_64& rng);

    /// One read cycle. codes: used_rows input codes in [0, 2^dac_bits - 1]. out: used_columns
    /// ADC outputs in units of (one level step x one input step); ideally the integer
    /// sum_i level_ij x code_i. Not thread-safe (uses a scratch row).
    void read(const uint32_t* codes, double* out) const;

    uint32_t used_rows() const { return rows_; }
    uint32_t used_columns() const { return columns_; }
    /// ADC LSB in the units of read()'s output (a power of two, 1 when the ADC resolves every
    /// integer column sum).
    double adc_step() const { return step_; }

  private:
    uint32_t rows_;
    uint32_t columns_;
    std::vector<double> g_;                  // column-major effective conductance / level step
    std::vector<double> drive_;              // per input code: cell current factor in input steps
    mutable std::vector<double> drive_row_;  // scratch: drive_ of this cycle's codes
    double g_off_ref_;                       // nominal G_off / level step (the reference column)
    double step_;
    double max_code_;
};

}  // namespace sim::cim
