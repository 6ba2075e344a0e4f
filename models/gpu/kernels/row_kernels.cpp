// SPDX-License-Identifier: MIT
// Row-wise kernels (softmax, layernorm), one CTA per row, in the two shapes real libraries use:
// - Register-resident, for rows that fit (the shape of PyTorch's and Apex's kernels for rows
//   up to a few tens of thousands of elements): the CTA's threads each load `iterations`
//   vectors of the row into registers, reduce across the block (shuffles, shared memory,
//   barriers), and write the row once. HBM traffic is one read and one write of the tensor.
// - Looped, for longer rows (a vocabulary's logits: GPT-2's 50,257 or Llama-3's 128,256
//   columns): the CTA walks the row twice, a few vectors per thread per trip. The first pass
//   keeps running statistics in registers (the online max and sum of Milakov & Gimelshein,
//   docs/references.md [milakov2018]; Welford's mean and variance for layernorm, as Apex's
//   layer norm computes them [apex-layernorm]), the block merges them, and the second pass
//   reads the row again, normalises and writes it (PyTorch's block softmax for long rows
//   [pytorch-softmax]). The second read finds the row in L2 when the rows in flight fit
//   there; DRAM then sees one read and one write, as for the short rows.
// - Cluster-split, on GPUs with thread-block clusters (Hopper), for rows too long for one CTA's
//   registers but not for a cluster's: C CTAs of a cluster (C <= 8, the portable size) each
//   hold 1/C of the row in registers, reduce it across the block, and exchange their partial
//   results with the cluster's other CTAs (distributed shared memory), once for the max and
//   once for the sum (or mean and variance), then write their part. The row is read once, as
//   for short rows: the shape of the speed-of-light kernels of Guo, Zadouri and Dao
//   (docs/references.md [quack-membound]), which reach about 90% of H100's HBM bandwidth on
//   16K x 131K FP32 softmax where a two-pass kernel reads the row twice. An exchange goes over
//   the SM-to-SM network (Opcode::ClusterExchange): each CTA's value reaches the others
//   sm.dsmem_latency after the cluster's last CTA sent its own, so a CTA waits for the slowest
//   of its cluster; nothing of it touches L2.
// The last trip of a row whose length is not a multiple of the trip reads past the row's end
// into the next row (a real kernel predicates those lanes off): at most one trip per pass. A
// cluster's last CTA does the same with the part of the row past its end.
#include <optional>
#include <vector>

#include "models/gpu/core/occupancy.h"
#include "models/gpu/kernels/gemm.h"
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

namespace {

/// Vectors each thread of a looped kernel loads per trip, all in flight together.
constexpr uint32_t kLoopUnroll = 4;
/// Threads per CTA of a looped kernel. PyTorch's SoftMax_getBlockSize gives a long row 512
/// [pytorch-softmax], two CTAs per SM: 264 rows in flight on an H100, 66 MB of Llama-3 BF16
/// logits, more than its 50 MB L2, so the second pass went back to DRAM (about 1.55x the
/// compulsory bytes, half the bandwidth roof, measured here). 1024 threads with their
/// registers make one CTA per SM: the rows in flight (34 MB) stay in L2 for the second pass.
constexpr uint32_t kLoopBlock = 1024;

struct RowShape {
    uint32_t vec = 4;
    uint32_t block = 256;
    bool looped = false;
    uint32_t iterations = 1;  ///< register-resident: vectors per thread
    uint32_t trips = 1;       ///< looped: trips over the row per pass
    uint32_t unroll = 1;      ///< looped: vectors per thread per trip
    uint32_t registers = 32;  ///< per thread
    uint32_t cluster = 1;     ///< CTAs per row (a cluster), each with cols_per_cta of it
    uint64_t cols_per_cta = 0;
};

/// The most CTAs a cluster splits a row into: the portable cluster size of Hopper.
constexpr uint32_t kMaxRowCluster = 8;

uint32_t row_registers(const KernelHints& h, uint32_t values) {
    return static_cast<uint32_t>(h.registers.value_or(std::min<uint64_t>(255, 32 + values)));
}

/// Shapes s (its vec set) to hold `cols` columns in registers: at most 16 vectors per thread,
/// in a CTA that fits on an SM. Returns how many such CTAs fit on an SM (0: it does not fit).
uint32_t fit_in_registers(uint64_t cols, const KernelHints& h, const SmConfig& sm, RowShape& s) {
    const uint64_t vectors = ceil_div(cols, s.vec);
    // Enough threads that each holds at most 8 vectors, in whole warps, at most 1024.
    s.block = h.block ? static_cast<uint32_t>(*h.block)
                      : static_cast<uint32_t>(std::clamp<uint64_t>(
                            ceil_div(ceil_div(vectors, 8), 32) * 32, 32, 1024));
    const uint64_t iterations = ceil_div(vectors, s.block);
    if (iterations > 16) return 0;
    s.iterations = static_cast<uint32_t>(iterations);
    s.registers = row_registers(h, s.iterations * s.vec);
    KernelLaunch probe;
    probe.threads_per_cta = s.block;
    probe.registers_per_thread = s.registers;
    probe.shared_bytes_per_cta = static_cast<uint32_t>(h.shared_memory.value_or(128));
    return occupancy_of(sm, probe).ctas_per_sm;
}

/// Register-resident when the row fits; else, with clusters, split over the fewest CTAs of a
/// cluster whose parts fit twice on an SM (one CTA loads while the other reduces and waits for
/// its cluster), or once when none does; else looped.
RowShape row_shape(
    uint64_t cols, DType dtype, const KernelHints& h, const SmConfig& sm, bool clusters) {
    RowShape s;
    s.vec = vector_width(dtype, h);
    s.cols_per_cta = cols;
    if (fit_in_registers(cols, h, sm, s) > 0) return s;
    std::optional<RowShape> once;  // the first split that fits only once per SM
    for (uint32_t c = 2; clusters && c <= kMaxRowCluster; c *= 2) {
        RowShape t = s;
        t.cluster = c;
        // Whole vectors per CTA, so that every part starts on a vector.
        t.cols_per_cta = ceil_div(ceil_div(cols, c), s.vec) * s.vec;
        const uint32_t per_sm = fit_in_registers(t.cols_per_cta, h, sm, t);
        if (per_sm >= 2) return t;
        if (per_sm == 1 && !once) once = t;
    }
    if (once) return *once;
    s.looped = true;
    s.block = h.block ? static_cast<uint32_t>(*h.block) : kLoopBlock;
    s.unroll = kLoopUnroll;
    const uint64_t vectors = ceil_div(cols, s.vec);
    const uint64_t trips = ceil_div(vectors, uint64_t{s.block} * s.unroll);
    if (trips > UINT32_MAX) throw NotLowerable("a row of " + std::to_string(cols) + " is too long");
    s.trips = static_cast<uint32_t>(trips);
    s.registers = row_registers(h, s.unroll * s.vec);
    return s;
}

/// Thread-block clusters came with Hopper, as did wgmma (the GEMM kernels' test too).
bool has_clusters(const GpuTarget& target) {
    return target.tensor.family == tensor_core::MmaFamily::Wgmma;
}

KernelLaunch row_kernel(const std::string& name,
                        uint64_t rows,
                        uint64_t cols,
                        const KernelHints& h,
                        const RowShape& s) {
    if (rows == 0 || cols == 0) throw NotLowerable(name + " needs rows and cols");
    KernelLaunch k;
    k.name = name;
    k.ctas = checked_grid(rows * s.cluster);
    k.cluster = s.cluster;  // a row's CTAs, consecutive ids, are one cluster
    k.threads_per_cta = s.block;
    k.registers_per_thread = s.registers;
    k.shared_bytes_per_cta = static_cast<uint32_t>(h.shared_memory.value_or(128));
    return k;
}

/// Streams over an array of `rows` rows of p.cols (0: one row every CTA reads). Register-
/// resident: one stream, thread t on iteration i at vector i * block + t of its row. Looped:
/// one stream per unrolled copy u, thread t on trip i at vector (i * unroll + u) * block + t.
/// Returns the index of the first.
uint8_t add_row_array(KernelLaunch& k,
                      const char* name,
                      uint64_t rows,
                      uint64_t cols,
                      DType dtype,
                      const RowShape& s,
                      AddressSpace& space) {
    const uint64_t row_vectors = ceil_div(cols, s.vec);
    const uint64_t cta_step = rows > 1 ? row_vectors : 0;
    const uint8_t first = static_cast<uint8_t>(k.streams.size());
    if (!s.looped) {
        k.streams.push_back(dense_stream(name, space, std::max<uint64_t>(1, rows) * cols, dtype,
                                         s.vec, cta_step, s.block));
        return first;
    }
    AddressStream base = dense_stream(name, space, std::max<uint64_t>(1, rows) * cols, dtype, s.vec,
                                      cta_step, uint64_t{s.block} * s.unroll);
    for (uint32_t u = 0; u < s.unroll; ++u) {
        AddressStream copy = base;
        copy.name = std::string(name) + "." + std::to_string(u);
        copy.base = base.base + uint64_t{u} * s.block * copy.access_bytes;
        k.streams.push_back(copy);
    }
    return first;
}

/// Extra FP32 work per element before a softmax's row max: attention's scale by 1/sqrt(d)
/// and causal mask (a compare and select).
struct RowExtras {
    uint32_t falu_per_element = 0;
};

/// A looped pass over the row: a loop of s.trips trips, each loading s.unroll vectors of the
/// streams named, then `body` for each unrolled copy u with its loaded registers.
template <typename Body>
void row_pass(ProgramBuilder& b,
              const RowShape& s,
              uint8_t addr,
              const std::vector<uint8_t>& first_streams,
              bool reread_later,
              Body body) {
    b.marker(Opcode::LoopBegin, s.trips);
    if (reread_later) b.reread_later();
    std::vector<std::vector<uint8_t>> regs(first_streams.size());
    for (size_t a = 0; a < first_streams.size(); ++a) {
        for (uint32_t u = 0; u < s.unroll; ++u)
            regs[a].push_back(b.reg());
    }
    for (size_t a = 0; a < first_streams.size(); ++a) {
        for (uint32_t u = 0; u < s.unroll; ++u)
            b.ldg(regs[a][u], static_cast<uint8_t>(first_streams[a] + u), addr);
    }
    for (uint32_t u = 0; u < s.unroll; ++u) {
        std::vector<uint8_t> loaded;
        for (const auto& r : regs)
            loaded.push_back(r[u]);
        body(u, loaded);
    }
    b.marker(Opcode::LoopEnd);
}

/// Merges value across the CTAs of the row's cluster after each CTA reduced it (block_reduce):
/// the leader sends the CTA's result to the other CTAs' shared memory and waits for theirs
/// (the cluster's arrivals on its barrier), a barrier lets every warp see them, and a few
/// shuffle steps reduce the cluster's values. Nothing without a cluster.
void cluster_reduce(ProgramBuilder& b, uint8_t value, uint32_t cluster) {
    if (cluster < 2) return;
    const uint8_t arrived = b.reg(), t = b.reg();
    b.op(Opcode::Sts, 1, 1, kNoReg, value);
    b.cluster_exchange(arrived);  // st.async to every CTA of the cluster
    b.op(Opcode::Ialu, 1, 1, kNoReg, arrived).leader_only();
    b.bar().op(Opcode::Lds, 1, 1, value);
    for (uint32_t n = 1; n < cluster; n *= 2)
        b.op(Opcode::Shfl, 1, 1, t, value).op(Opcode::Falu, 1, 1, value, value, t);
}

KernelLaunch softmax_resident(const RowParams& p,
                              DType dtype,
                              const KernelHints& h,
                              const RowShape& s,
                              const RowExtras& extras,
                              AddressSpace& space) {
    KernelLaunch k = row_kernel("softmax", p.rows, p.cols, h, s);
    // A cluster's CTAs each hold a part of the row: rows x cluster parts of cols_per_cta.
    const uint64_t parts = p.rows * s.cluster;
    add_row_array(k, "x", parts, s.cols_per_cta, dtype, s, space);
    add_row_array(k, "y", parts, s.cols_per_cta, dtype, s, space);
    const uint32_t warps = k.warps_per_cta();
    ProgramBuilder b;
    const uint8_t addr = b.reg(), m = b.reg(), sum = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);
    const std::vector<uint8_t> x = b.ldg_unrolled(0, addr, s.iterations);  // the row
    b.op(Opcode::Falu, s.vec * s.iterations * extras.falu_per_element, s.vec, x[0], x[0]);
    for (uint32_t i = 0; i < s.iterations; ++i)
        b.op(Opcode::Falu, s.vec, s.vec, m, m, x[i]);
    b.block_reduce(m, warps);
    cluster_reduce(b, m, s.cluster);
    for (uint32_t i = 0; i < s.iterations; ++i) {  // exp(x - max) and the running sum
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], m)
            .op(Opcode::Sfu, s.vec, s.vec, x[i], x[i])
            .op(Opcode::Falu, s.vec, s.vec, sum, sum, x[i]);
    }
    b.block_reduce(sum, warps);
    cluster_reduce(b, sum, s.cluster);
    b.op(Opcode::Sfu, 1, 1, sum, sum);  // 1 / sum
    for (uint32_t i = 0; i < s.iterations; ++i)
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], sum).stg(1, x[i], addr, i);
    k.program = b.finish();
    return k;
}

KernelLaunch softmax_looped(const RowParams& p,
                            DType dtype,
                            const KernelHints& h,
                            const RowShape& s,
                            const RowExtras& extras,
                            AddressSpace& space) {
    KernelLaunch k = row_kernel("softmax", p.rows, p.cols, h, s);
    const uint8_t x = add_row_array(k, "x", p.rows, p.cols, dtype, s, space);
    const uint8_t y = add_row_array(k, "y", p.rows, p.cols, dtype, s, space);
    const uint32_t warps = k.warps_per_cta();
    const uint32_t v = s.vec;
    ProgramBuilder b;
    const uint8_t addr = b.reg(), m = b.reg(), sum = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);
    // Pass 1, online: m' = max(m, x); sum = sum * exp(m - m') + exp(x - m').
    row_pass(b, s, addr, {x}, true, [&](uint32_t, const std::vector<uint8_t>& r) {
        b.op(Opcode::Falu, v * extras.falu_per_element, v, r[0], r[0]);
        b.op(Opcode::Falu, v, v, m, m, r[0])          // running max
            .op(Opcode::Falu, v, v, r[0], r[0], m)    // x - max
            .op(Opcode::Sfu, v, v, r[0], r[0])        // exp
            .op(Opcode::Ffma, v, v, sum, sum, r[0]);  // sum * rescale + exp
    });
    // The block merges (max, sum) pairs: both reduced, the sums rescaled by their maxima.
    b.block_reduce(m, warps);
    b.op(Opcode::Sfu, 1, 1, sum, m).block_reduce(sum, warps);
    b.op(Opcode::Sfu, 1, 1, sum, sum);  // 1 / sum
    // Pass 2: the row again (from L2), exp(x - max) / sum, written out.
    row_pass(b, s, addr, {x}, false, [&](uint32_t u, const std::vector<uint8_t>& r) {
        b.op(Opcode::Falu, v * extras.falu_per_element, v, r[0], r[0]);
        b.op(Opcode::Falu, v, v, r[0], r[0], m)
            .op(Opcode::Sfu, v, v, r[0], r[0])
            .op(Opcode::Falu, v, v, r[0], r[0], sum)
            .stg(static_cast<uint8_t>(y + u), r[0], addr);
    });
    k.program = b.finish();
    return k;
}

KernelLaunch layernorm_resident(
    const RowParams& p, DType dtype, const KernelHints& h, const RowShape& s, AddressSpace& space) {
    KernelLaunch k = row_kernel("layernorm", p.rows, p.cols, h, s);
    const uint64_t parts = p.rows * s.cluster;
    add_row_array(k, "x", parts, s.cols_per_cta, dtype, s, space);
    add_row_array(k, "y", parts, s.cols_per_cta, dtype, s, space);
    // gamma and beta: one row every CTA reads (L1 and L2 hits after the first CTAs). In a
    // cluster every CTA reads the first part of them: L2 hits either way, over a smaller
    // footprint than the whole row's.
    add_row_array(k, "gamma", 0, s.cols_per_cta, dtype, s, space);
    add_row_array(k, "beta", 0, s.cols_per_cta, dtype, s, space);
    const uint32_t warps = k.warps_per_cta();
    ProgramBuilder b;
    const uint8_t addr = b.reg(), mean = b.reg(), var = b.reg();
    const uint8_t g[2] = {b.reg(), b.reg()}, bt[2] = {b.reg(), b.reg()};
    b.op(Opcode::Ialu, 4, 1, addr);
    const std::vector<uint8_t> x = b.ldg_unrolled(0, addr, s.iterations);  // the row
    for (uint32_t i = 0; i < s.iterations; ++i)
        b.op(Opcode::Falu, s.vec, s.vec, mean, mean, x[i]);
    b.block_reduce(mean, warps);
    cluster_reduce(b, mean, s.cluster);
    for (uint32_t i = 0; i < s.iterations; ++i) {
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], mean)    // x - mean
            .op(Opcode::Ffma, s.vec, s.vec, var, var, x[i]);  // sum of squares
    }
    b.block_reduce(var, warps);
    cluster_reduce(b, var, s.cluster);
    b.op(Opcode::Sfu, 1, 1, var, var);  // rsqrt(var + eps)
    // Scale and shift, with gamma and beta double-buffered: the next pair loads while this
    // one is used.
    b.ldg(g[0], 2, addr, 0).ldg(bt[0], 3, addr, 0);
    for (uint32_t i = 0; i < s.iterations; ++i) {
        if (i + 1 < s.iterations)
            b.ldg(g[(i + 1) % 2], 2, addr, i + 1).ldg(bt[(i + 1) % 2], 3, addr, i + 1);
        b.op(Opcode::Falu, s.vec, s.vec, x[i], x[i], var)
            .op(Opcode::Ffma, s.vec, s.vec, x[i], g[i % 2], bt[i % 2])
            .stg(1, x[i], addr, i);
    }
    k.program = b.finish();
    return k;
}

KernelLaunch layernorm_looped(
    const RowParams& p, DType dtype, const KernelHints& h, const RowShape& s, AddressSpace& space) {
    KernelLaunch k = row_kernel("layernorm", p.rows, p.cols, h, s);
    const uint8_t x = add_row_array(k, "x", p.rows, p.cols, dtype, s, space);
    const uint8_t y = add_row_array(k, "y", p.rows, p.cols, dtype, s, space);
    const uint8_t gamma = add_row_array(k, "gamma", 0, p.cols, dtype, s, space);
    const uint8_t beta = add_row_array(k, "beta", 0, p.cols, dtype, s, space);
    const uint32_t warps = k.warps_per_cta();
    const uint32_t v = s.vec;
    ProgramBuilder b;
    const uint8_t addr = b.reg(), mean = b.reg(), m2 = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);
    // Pass 1, Welford: d = x - mean; mean += d / n; m2 += d * (x - mean).
    row_pass(b, s, addr, {x}, true, [&](uint32_t, const std::vector<uint8_t>& r) {
        b.op(Opcode::Falu, v, v, r[0], r[0], mean)
            .op(Opcode::Ffma, v, v, mean, mean, r[0])
            .op(Opcode::Ffma, v, v, m2, m2, r[0]);
    });
    // The block merges the (count, mean, m2) triples.
    b.block_reduce(mean, warps).block_reduce(m2, warps);
    b.op(Opcode::Sfu, 1, 1, m2, m2);  // rsqrt(var + eps)
    // Pass 2: the row again (from L2) with gamma and beta (L1 and L2 hits), written out.
    row_pass(b, s, addr, {x, gamma, beta}, false, [&](uint32_t u, const std::vector<uint8_t>& r) {
        b.op(Opcode::Falu, v, v, r[0], r[0], mean)
            .op(Opcode::Falu, v, v, r[0], r[0], m2)
            .op(Opcode::Ffma, v, v, r[0], r[1], r[2])
            .stg(static_cast<uint8_t>(y + u), r[0], addr);
    });
    k.program = b.finish();
    return k;
}

KernelLaunch softmax_with(const RowParams& p,
                          DType dtype,
                          const KernelHints& h,
                          const GpuTarget& target,
                          const RowExtras& extras,
                          AddressSpace& space) {
    const RowShape s = row_shape(p.cols, dtype, h, target.core.sm, has_clusters(target));
    return s.looped ? softmax_looped(p, dtype, h, s, extras, space)
                    : softmax_resident(p, dtype, h, s, extras, space);
}

}  // namespace

KernelLaunch softmax_kernel(const RowParams& p,
                            DType dtype,
                            const KernelHints& h,
                            const GpuTarget& target,
                            AddressSpace& space) {
    return softmax_with(p, dtype, h, target, {}, space);
}

KernelLaunch layernorm_kernel(const RowParams& p,
                              DType dtype,
                              const KernelHints& h,
                              const GpuTarget& target,
                              AddressSpace& space) {
    const RowShape s = row_shape(p.cols, dtype, h, target.core.sm, has_clusters(target));
    return s.looped ? layernorm_looped(p, dtype, h, s, space)
                    : layernorm_resident(p, dtype, h, s, space);
}

KernelLaunch attention_softmax_kernel(const AttentionParams& p,
                                      DType dtype,
                                      const KernelHints& h,
                                      const GpuTarget& target,
                                      AddressSpace& space) {
    const uint64_t kv = p.kv_seq ? p.kv_seq : p.seq;
    RowExtras extras;
    // Scale by 1/sqrt(d) (and the causal mask: a compare and select) before the row max.
    extras.falu_per_element = p.causal ? 2 : 1;
    KernelLaunch k = softmax_with({p.batch * p.heads * p.seq, kv}, dtype, h, target, extras, space);
    k.name = "attention_softmax";
    return k;
}

}  // namespace sim::gpu
