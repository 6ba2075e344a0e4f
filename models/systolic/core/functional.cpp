// SPDX-License-Identifier: MIT
#include "models/systolic/core/functional.h"

#include <algorithm>
#include <iomanip>

#include "sim/core/error.h"

namespace sim::systolic {

namespace {

constexpr int64_t kNone = -1;  // tag of an empty register

// A value in flight and the stream index (row t of the streamed operand, or k) it belongs to.
struct Reg {
    int64_t value = 0;
    int64_t tag = kNone;
};

IntMatrix transpose(const IntMatrix& m) {
    IntMatrix t(m.cols, m.rows);
    for (uint64_t r = 0; r < m.rows; ++r)
        for (uint64_t c = 0; c < m.cols; ++c)
            t.at(c, r) = m.at(r, c);
    return t;
}

void print_grid(std::ostream& os,
                uint64_t cycle,
                const char* phase,
                const std::vector<Reg>& regs,
                uint32_t rows,
                uint32_t cols,
                const char* legend) {
    os << "cycle " << cycle << " (" << phase << ", " << legend << ")\n";
    for (uint32_t i = 0; i < rows; ++i) {
        for (uint32_t j = 0; j < cols; ++j) {
            const Reg& r = regs[i * cols + j];
            if (r.tag == kNone)
                os << std::setw(4) << '.';
            else
                os << std::setw(4) << r.tag;
        }
        os << '\n';
    }
}

// Weight-stationary on one problem: stationary w (K x N), streamed x (T x K), out (T x N).
// Returns cycles; accumulates into out.
uint64_t ws_run(const ArrayParams& p,
                const IntMatrix& x,
                const IntMatrix& w,
                IntMatrix& out,
                std::ostream* wave,
                uint64_t& folds) {
    const uint32_t R = p.rows, C = p.cols;
    const uint64_t K = w.rows, N = w.cols, T = x.rows;
    const uint64_t row_folds = (K + R - 1) / R, col_folds = (N + C - 1) / C;
    uint64_t cycles = 0;
    std::vector<int64_t> weight(size_t(R) * C);
    std::vector<Reg> a(size_t(R) * C), psum(size_t(R) * C), na(a.size()), np(a.size());
    for (uint64_t fc = 0; fc < col_folds; ++fc) {
        for (uint64_t fr = 0; fr < row_folds; ++fr) {
            const bool pays_preload = !(p.preload_overlap && folds > 0);
            ++folds;
            // Preload: weight rows shift down from the top edge, the bottom row first, so that
            // after R shifts PE row i holds filter row fr*R + i. Overlapped preloads shift
            // into shadow registers during the previous fold and cost no cycles here.
            std::fill(weight.begin(), weight.end(), 0);
            for (uint32_t s = 0; s < R; ++s) {
                for (uint32_t i = R - 1; i > 0; --i)
                    for (uint32_t j = 0; j < C; ++j)
                        weight[i * C + j] = weight[(i - 1) * C + j];
                const uint64_t src = fr * R + (R - 1 - s);
                for (uint32_t j = 0; j < C; ++j) {
                    const uint64_t col = fc * C + j;
                    weight[j] = (src < K && col < N) ? w.at(src, col) : 0;
                }
                if (pays_preload) {
                    if (wave) {
                        *wave << "cycle " << cycles << " (preload: filter row " << src
                              << " enters the top edge)\n";
                    }
                    ++cycles;
                }
            }
            std::fill(a.begin(), a.end(), Reg{});
            std::fill(psum.begin(), psum.end(), Reg{});
            uint64_t collected = 0;
            for (uint64_t c = 0; collected < T * C; ++c) {
                for (uint32_t i = 0; i < R; ++i) {
                    for (uint32_t j = 0; j < C; ++j) {
                        Reg in;
                        if (j == 0) {
                            const int64_t t = int64_t(c) - int64_t(i);
                            const uint64_t kk = fr * R + i;
                            if (t >= 0 && uint64_t(t) < T)
                                in = {kk < K ? x.at(uint64_t(t), kk) : 0, t};
                        } else {
                            in = a[i * C + j - 1];
                        }
                        na[i * C + j] = in;
                        Reg above = i == 0 ? Reg{0, in.tag} : psum[(i - 1) * C + j];
                        SIM_ASSERT(above.tag == in.tag,
                                   "ws: partial sum and input out of step at PE " << i << "," << j);
                        np[i * C + j] =
                            in.tag == kNone
                                ? Reg{}
                                : Reg{above.value + in.value * weight[i * C + j], in.tag};
                    }
                }
                a.swap(na);
                psum.swap(np);
                if (wave) print_grid(*wave, cycles, "stream", a, R, C, "input row t per PE");
                ++cycles;
                for (uint32_t j = 0; j < C; ++j) {
                    const Reg& o = psum[(R - 1) * C + j];
                    if (o.tag == kNone) continue;
                    ++collected;
                    const uint64_t col = fc * C + j;
                    if (col < N) out.at(uint64_t(o.tag), col) += o.value;
                }
            }
        }
    }
    return cycles;
}

uint64_t os_run(const ArrayParams& p,
                const IntMatrix& A,
                const IntMatrix& B,
                IntMatrix& out,
                std::ostream* wave,
                uint64_t& folds) {
    const uint32_t R = p.rows, C = p.cols;
    const uint64_t M = A.rows, K = A.cols, N = B.cols;
    const uint64_t row_folds = (M + R - 1) / R, col_folds = (N + C - 1) / C;
    uint64_t cycles = 0;
    std::vector<Reg> a(size_t(R) * C), b(a.size()), na(a.size()), nb(a.size());
    std::vector<int64_t> acc(a.size());
    std::vector<uint64_t> macs(a.size());
    for (uint64_t fc = 0; fc < col_folds; ++fc) {
        for (uint64_t fr = 0; fr < row_folds; ++fr) {
            ++folds;
            std::fill(a.begin(), a.end(), Reg{});
            std::fill(b.begin(), b.end(), Reg{});
            std::fill(acc.begin(), acc.end(), 0);
            std::fill(macs.begin(), macs.end(), 0);
            uint64_t done = 0;
            for (uint64_t c = 0; done < uint64_t(R) * C; ++c) {
                for (uint32_t i = 0; i < R; ++i) {
                    for (uint32_t j = 0; j < C; ++j) {
                        Reg ai, bj;
                        if (j == 0) {
                            const int64_t k = int64_t(c) - int64_t(i);
                            const uint64_t row = fr * R + i;
                            if (k >= 0 && uint64_t(k) < K)
                                ai = {row < M ? A.at(row, uint64_t(k)) : 0, k};
                        } else {
                            ai = a[i * C + j - 1];
                        }
                        if (i == 0) {
                            const int64_t k = int64_t(c) - int64_t(j);
                            const uint64_t col = fc * C + j;
                            if (k >= 0 && uint64_t(k) < K)
                                bj = {col < N ? B.at(uint64_t(k), col) : 0, k};
                        } else {
                            bj = b[(i - 1) * C + j];
                        }
                        SIM_ASSERT(ai.tag == bj.tag,
                                   "os: operands out of step at PE " << i << "," << j);
                        na[i * C + j] = ai;
                        nb[i * C + j] = bj;
                        if (ai.tag != kNone) {
                            acc[i * C + j] += ai.value * bj.value;
                            if (++macs[i * C + j] == K) ++done;
                        }
                    }
                }
                a.swap(na);
                b.swap(nb);
                if (wave) print_grid(*wave, cycles, "stream", a, R, C, "k per PE");
                ++cycles;
            }
            for (uint32_t i = 0; i < R; ++i)
                for (uint32_t j = 0; j < C; ++j)
                    if (fr * R + i < M && fc * C + j < N)
                        out.at(fr * R + i, fc * C + j) = acc[i * C + j];
        }
    }
    return cycles;
}

}  // namespace

IntMatrix reference_gemm(const IntMatrix& a, const IntMatrix& b) {
    IntMatrix c(a.rows, b.cols);
    for (uint64_t i = 0; i < a.rows; ++i)
        for (uint64_t k = 0; k < a.cols; ++k)
            for (uint64_t j = 0; j < b.cols; ++j)
                c.at(i, j) += a.at(i, k) * b.at(k, j);
    return c;
}

FunctionalResult run_functional(const ArrayParams& p,
                                const IntMatrix& a,
                                const IntMatrix& b,
                                std::ostream* wavefront) {
    p.validate();
    if (a.cols != b.rows) {
        throw ConfigError({}, "k",
                          "operand shapes do not match: " + std::to_string(a.cols) + " vs " +
                              std::to_string(b.rows));
    }
    for (uint64_t side : {a.rows, a.cols, b.cols}) {
        if (side == 0 || side > kFunctionalMaxSide) {
            throw ConfigError({}, "functional",
                              "matrix sides must be from 1 to " +
                                  std::to_string(kFunctionalMaxSide) + " in functional mode");
        }
    }
    FunctionalResult r;
    switch (p.dataflow) {
        case Dataflow::WeightStationary:
            r.c = IntMatrix(a.rows, b.cols);
            r.cycles = ws_run(p, a, b, r.c, wavefront, r.folds);
            break;
        case Dataflow::InputStationary: {
            IntMatrix ct(b.cols, a.rows);
            r.cycles = ws_run(p, transpose(b), transpose(a), ct, wavefront, r.folds);
            r.c = transpose(ct);
            break;
        }
        case Dataflow::OutputStationary:
            r.c = IntMatrix(a.rows, b.cols);
            r.cycles = os_run(p, a, b, r.c, wavefront, r.folds);
            break;
    }
    return r;
}

}  // namespace sim::systolic
