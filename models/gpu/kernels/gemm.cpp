// SPDX-License-Identifier: MIT
#include "models/gpu/kernels/gemm.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/gpu/core/occupancy.h"
#include "models/gpu/kernels/deepgemm_tile.h"
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

namespace {

using tensor_core::MmaFamily;

constexpr uint32_t kMaxStages = 4;

enum class Path { Wgmma, MmaSync, Simt };

Path path_of(const GemmProblem& p, const GpuTarget& t) {
    if (p.dtype == DType::FP32) return Path::Simt;
    if (p.dtype == DType::FP64) throw NotLowerable("the kernel library has no FP64 (DMMA) GEMM");
    if (!t.tensor.supports(p.dtype))
        throw NotLowerable("this GPU's Tensor Cores have no " + to_string(p.dtype) + " path");
    return t.tensor.family == MmaFamily::Wgmma ? Path::Wgmma : Path::MmaSync;
}

uint32_t element_bytes(DType d) {
    return static_cast<uint32_t>(dtype_bytes(d));
}

/// BK of a k-tile whose rows hold k_line_bytes of K (a 128-byte line: 64 BF16, 32 TF32/FP32,
/// 128 FP8; half a line: half that).
uint32_t bk_of(DType d, uint32_t k_line_bytes) {
    return k_line_bytes / element_bytes(d);
}

/// mma.sync and SIMT warp tiles.
uint32_t warp_rows(uint32_t bm) {
    return bm >= 128 ? 64 : 32;
}
uint32_t warp_cols(uint32_t bn) {
    return bn >= 128 ? 64 : 32;
}

uint32_t warps_of(Path path, uint32_t bm, uint32_t bn) {
    switch (path) {
        case Path::Wgmma: return bm / 16;  // warpgroups of 4 warps, 64 rows each
        case Path::MmaSync: return (bm / warp_rows(bm)) * (bn / warp_cols(bn));
        case Path::Simt: return bm * bn / 64 / 32;  // 8 x 8 outputs per thread
    }
    return 1;
}

uint32_t registers_of(const GemmTile& t) {
    const uint32_t accumulators = t.bm * t.bn / (t.warps * 32);
    return std::min<uint32_t>(255, accumulators + 40);
}

uint32_t a_tile_bytes(const GemmProblem& p, const GemmTile& t) {
    return t.bm * t.bk * element_bytes(p.dtype) / (p.sparse ? 2 : 1);
}
uint32_t b_tile_bytes(const GemmProblem& p, const GemmTile& t) {
    return t.bn * t.bk * element_bytes(p.dtype);
}
uint32_t stage_bytes(const GemmProblem& p, const GemmTile& t) {
    return a_tile_bytes(p, t) + b_tile_bytes(p, t);
}

/// Cluster sizes to try: thread-block clusters and TMA multicast came with Hopper (wgmma);
/// a cluster of 2 along M needs an even number of M tiles (TileGrid's groups are 8 tall).
std::vector<uint32_t> clusters_of(Path path, const GemmProblem& p, uint32_t bm) {
    if (path != Path::Wgmma || ceil_div(p.m, bm) % 2) return {1};
    return {1, 2};
}

tensor_core::MmaShape mma_shape(Path path, const GemmTile& t, DType d) {
    return {16, path == Path::Wgmma ? std::min<uint32_t>(t.bn, 256) : 8u, tensor_core::mma_k(d)};
}

/// Tensor Core (or FFMA) cycles one sub-partition spends per k-tile of one CTA.
double k_tile_cycles(Path path, const GemmProblem& p, const GemmTile& t, const GpuTarget& g) {
    const double warps_per_sp = std::ceil(double(t.warps) / g.core.sm.sub_partitions);
    if (path == Path::Simt) return warps_per_sp * 64.0 * t.bk * g.core.sm.fp32.interval();
    const tensor_core::MmaTiming m =
        tensor_core::mma_timing(g.tensor, mma_shape(path, t, p.dtype), p.dtype, p.sparse);
    const double per_warp =
        double(t.bm / t.warps) * t.bn * t.bk / mma_shape(path, t, p.dtype).macs();
    return warps_per_sp * per_warp * m.interval;
}

/// A CTA tile to try: BM x BN outputs, k-tiles whose rows hold k_line_bytes of K.
struct TileCandidate {
    uint32_t bm = 0, bn = 0, k_line_bytes = 128;
};

/// The tiles the heuristic tries, largest first. mma.sync kernels come with k-tiles of a whole
/// 128-byte line of K per row and of half a line, as CUTLASS's SM80 kernel list has them (BK 64
/// and 32 for 16-bit types; docs/references.md [cutlass-generator]): the half line holds the
/// same stages in half the shared memory, so that a 128 x 128 tile fits twice on an A100's SM
/// and its warps hide each other's fragment loads. A whole line goes first: it wins ties.
std::vector<TileCandidate> candidates(Path path) {
    if (path == Path::Simt) return {{128, 128}, {128, 64}, {64, 64}};
    const std::vector<std::pair<uint32_t, uint32_t>> shapes = {{128, 256}, {256, 128}, {128, 128},
                                                               {128, 64},  {64, 128},  {64, 64}};
    std::vector<TileCandidate> out;
    for (const auto& [bm, bn] : shapes) {
        out.push_back({bm, bn, 128});
        if (path == Path::MmaSync) out.push_back({bm, bn, 64});
    }
    return out;
}

/// The stream-K decomposition gemm_kernels gives tile t (none on Ampere, for grids within
/// one wave or with split-K).
TileGrid::StreamK stream_k_of(const GemmProblem& p,
                              const GemmTile& t,
                              uint32_t ctas_per_sm,
                              const GpuTarget& g) {
    if (path_of(p, g) != Path::Wgmma || t.k_splits > 1) return {};
    const uint64_t wave = uint64_t{g.core.sm_count} * ctas_per_sm;
    const uint64_t tiles = p.batch * ceil_div(p.m, t.bm) * ceil_div(p.n, t.bn);
    if (tiles <= wave) return {};
    return plan_stream_k(tiles, wave, t.cluster, ceil_div(p.k, t.bk));
}

/// A launch of tile t's shape (threads, registers, shared memory), for its occupancy.
KernelLaunch occupancy_probe(const GemmProblem& p, const GemmTile& t) {
    KernelLaunch probe;
    probe.threads_per_cta = t.warps * 32;
    probe.registers_per_thread = registers_of(t);
    probe.shared_bytes_per_cta = t.stages * stage_bytes(p, t);
    return probe;
}

}  // namespace

uint32_t gemm_warps(const GemmProblem& p, const GpuTarget& g, uint32_t bm, uint32_t bn) {
    return warps_of(path_of(p, g), bm, bn);
}

AddressStream tile_stream(const std::string& name,
                          AddressSpace& space,
                          uint64_t batch,
                          uint64_t rows,
                          uint64_t row_bytes,
                          AddressStream::Axis row_axis,
                          AddressStream::Axis col_axis,
                          uint64_t tile_rows,
                          uint64_t tile_row_bytes) {
    AddressStream s;
    s.name = name;
    s.layout = AddressStream::Layout::Tile;
    s.row_axis = row_axis;
    s.col_axis = col_axis;
    s.matrix_rows = rows;
    s.row_bytes = row_bytes;
    s.tile_rows = tile_rows;
    s.tile_row_bytes = tile_row_bytes;
    s.batch_bytes = rows * row_bytes;
    s.base = space.allocate(batch * s.batch_bytes);
    s.access_bytes = 16;
    s.vectors = std::max<uint64_t>(1, batch * s.batch_bytes / 16);
    return s;
}

AddressStream rows_stream(const std::string& name,
                          AddressSpace& space,
                          uint64_t batch,
                          uint64_t rows,
                          uint64_t row_bytes,
                          AddressStream::Axis axis,
                          uint64_t tile_rows) {
    return tile_stream(name, space, batch, rows, row_bytes, axis, AddressStream::Axis::None,
                       tile_rows, row_bytes);
}

GemmTile choose_gemm_tile(const GemmProblem& p, const GpuTarget& g, bool stream_k) {
    const Path path = path_of(p, g);
    GemmTile best;
    double best_cycles = 0;
    bool found = false, best_hides = false;
    for (const TileCandidate& c : candidates(path)) {
        const uint32_t bm = c.bm, bn = c.bn;
        GemmTile t;
        t.bm = bm;
        t.bn = bn;
        t.bk = bk_of(p.dtype, c.k_line_bytes);
        t.warps = warps_of(path, bm, bn);
        t.stages = std::min<uint32_t>(kMaxStages, g.core.sm.shared_memory / stage_bytes(p, t));
        if (t.stages < 2) continue;
        const uint32_t ctas_per_sm = occupancy_of(g.core.sm, occupancy_probe(p, t)).ctas_per_sm;
        if (ctas_per_sm == 0) continue;
        // mma.sync and FFMA warps load their fragments from shared memory before each MMA: a
        // scheduler with one resident warp cannot overlap those loads with the math, so such
        // tiles are taken only when no tile gives two warps per scheduler (wgmma reads shared
        // memory itself, asynchronously).
        const bool hides =
            path == Path::Wgmma || ctas_per_sm * t.warps >= 2 * g.core.sm.sub_partitions;
        // An SM runs its share of the CTAs one after another at the Tensor Core rate; the L2
        // must deliver every CTA's A tiles and every cluster's B tiles.
        const double ctas = double(p.batch) * double(ceil_div(p.m, bm)) * double(ceil_div(p.n, bn));
        const double k_tiles = double(ceil_div(p.k, t.bk));
        for (uint32_t cluster : clusters_of(path, p, bm)) {
            t.cluster = cluster;
            // Tiles per SM: whole waves, or their share where stream-K evens out the last wave.
            const bool shared_waves = stream_k && stream_k_of(p, t, ctas_per_sm, g).units > 0;
            const double per_sm =
                shared_waves ? ctas / g.core.sm_count : std::ceil(ctas / g.core.sm_count);
            const double compute = per_sm * k_tiles * k_tile_cycles(path, p, t, g);
            const double bytes = a_tile_bytes(p, t) + double(b_tile_bytes(p, t)) / cluster;
            const double l2 = ctas * k_tiles * bytes /
                              (double(g.core.l2.slices) * g.core.l2.bytes_per_clock_per_slice);
            const double cycles = std::max(compute, l2);
            // Ties (within 1%) go to the larger tile (less traffic per FLOP) and to no
            // cluster (its CTAs need not wait for each other).
            if (!found || (hides && !best_hides) ||
                (hides == best_hides && cycles < best_cycles * 0.99)) {
                best = t;
                best_cycles = cycles;
                best_hides = hides;
                found = true;
            }
        }
    }
    if (!found) throw NotLowerable("no GEMM tile fits in this GPU's shared memory");
    return best;
}

uint32_t choose_k_splits(const GemmProblem& p, const GemmTile& t, const GpuTarget& g) {
    const uint64_t ctas = p.batch * ceil_div(p.m, t.bm) * ceil_div(p.n, t.bn);
    const uint64_t k_tiles = ceil_div(p.k, t.bk);
    // The most splits that still fit one wave, in whole k-tiles per CTA, with enough of them
    // that the pipeline's fill and drain (stages - 1 k-tiles each) stay a small part of a
    // CTA's time. A grid that fills a wave already gets none.
    for (uint64_t s = std::min<uint64_t>(kMaxKSplits, g.core.sm_count / ctas); s > 1; --s) {
        if (k_tiles % s == 0 && k_tiles / s >= 2 * uint64_t{t.stages})
            return static_cast<uint32_t>(s);
    }
    return 1;
}

TileGrid::StreamK plan_stream_k(uint64_t tiles,
                                uint64_t ctas_per_wave,
                                uint32_t cluster,
                                uint64_t k_tiles) {
    // CUTLASS's min_iters_per_sk_unit_: a unit walks at least this many k-tiles.
    constexpr uint64_t kMinUnitTrips = 8;
    TileGrid::StreamK sk;
    sk.cluster = std::max<uint32_t>(1, cluster);
    const uint64_t wave = ctas_per_wave / sk.cluster * sk.cluster;
    if (wave == 0 || k_tiles <= kMinUnitTrips) return sk;
    const uint64_t full_waves = tiles / wave;
    const uint64_t tail = tiles - full_waves * wave;
    // Data-parallel when the waves come out even or the last one is at least half full.
    if (tail == 0 || 2 * tail >= wave) return sk;
    // The last full wave and the partial one are shared; the waves before run whole tiles.
    const uint64_t whole_waves = full_waves > 1 ? full_waves - 1 : 0;
    const uint64_t shared = (tiles - whole_waves * wave) / sk.cluster * sk.cluster;
    const uint64_t units =
        std::min(wave, k_tiles * shared / kMinUnitTrips / sk.cluster * sk.cluster);
    if (shared == 0 || units == 0) return sk;
    const uint64_t trips = k_tiles * (shared / sk.cluster);  // every cluster's k-tiles
    sk.units = units;
    sk.tiles = shared;
    sk.iters = trips / (units / sk.cluster);
    sk.big = trips % (units / sk.cluster);
    return sk;
}

KernelLaunch gemm_kernel(const GemmProblem& p,
                         const GemmTile& t,
                         const GpuTarget& g,
                         AddressSpace& space,
                         const std::string& name) {
    using Axis = AddressStream::Axis;
    const Path path = path_of(p, g);
    const uint32_t es = element_bytes(p.dtype);
    const uint32_t a_div = p.sparse ? 2 : 1;  // a 2:4-sparse A is stored compressed
    KernelLaunch k;
    k.name = name;
    k.grid.batch = p.batch;
    k.grid.m_tiles = ceil_div(p.m, t.bm);
    k.grid.n_tiles = ceil_div(p.n, t.bn);
    const uint64_t k_tiles = ceil_div(p.k, t.bk);
    if (t.k_splits == 0 || k_tiles % t.k_splits != 0)
        throw NotLowerable("split-K needs the " + std::to_string(k_tiles) +
                           " k-tiles to divide evenly into " + std::to_string(t.k_splits) +
                           " splits");
    k.grid.k_splits = t.k_splits;
    k.grid.k_tiles = k_tiles / t.k_splits;
    const bool stream_k = t.stream_k.units > 0;
    if (stream_k) {
        if (path != Path::Wgmma || t.k_splits > 1 || t.stream_k.cluster != std::max(1u, t.cluster))
            throw NotLowerable(
                "stream-K needs the wgmma (Hopper) path, no split-K and the "
                "tile's cluster");
        k.grid.stream_k = t.stream_k;
    }
    k.ctas = checked_grid(k.grid.ctas());
    k.threads_per_cta = t.warps * 32;
    k.registers_per_thread = registers_of(t);
    k.shared_bytes_per_cta = t.stages * stage_bytes(p, t);
    if (t.cluster > 1 && path != Path::Wgmma)
        throw NotLowerable("thread-block clusters need the wgmma (Hopper) path");
    k.cluster = t.cluster;
    if (t.cluster_along_n) k.grid.cluster_n = t.cluster;
    k.tile = std::to_string(t.bm) + "x" + std::to_string(t.bn) + "x" + std::to_string(t.bk) + " " +
             std::to_string(t.stages) + " stages";
    if (t.cluster > 1)
        k.tile += " cluster " + std::string(t.cluster_along_n ? "1x" : "") +
                  std::to_string(t.cluster) + (t.cluster_along_n ? "" : "x1");
    if (t.k_splits > 1) k.tile += " split-K " + std::to_string(t.k_splits);
    if (stream_k) k.tile += " stream-K " + std::to_string(t.stream_k.units) + " units";

    // A: M x K (or K x M), B: K x N (or N x K), C: M x N, row-major.
    k.streams.push_back(p.a_transposed ? tile_stream("A", space, p.batch, p.k, p.m * es / a_div,
                                                     Axis::K, Axis::M, t.bk, t.bm * es / a_div)
                                       : tile_stream("A", space, p.batch, p.m, p.k * es / a_div,
                                                     Axis::M, Axis::K, t.bm, t.bk * es / a_div));
    k.streams.push_back(
        p.b_transposed
            ? tile_stream("B", space, p.batch, p.n, p.k * es, Axis::N, Axis::K, t.bn, t.bk * es)
            : tile_stream("B", space, p.batch, p.k, p.n * es, Axis::K, Axis::N, t.bk, t.bn * es));
    // C, or with split-K the FP32 partial sums: one M x N matrix per split and batch, the
    // splits outermost ([split][batch][M][N], so that each split's partials are contiguous).
    const bool split = t.k_splits > 1;
    const uint32_t os = split ? uint32_t{sizeof(float)} : element_bytes(p.out_dtype);
    k.streams.push_back(tile_stream(split ? "C_partial" : "C", space, p.batch * t.k_splits, p.m,
                                    p.n * os, Axis::M, Axis::N, t.bm, t.bn * os));
    if (split) k.streams.back().split_bytes = p.batch * k.streams.back().batch_bytes;
    constexpr uint8_t kA = 0, kB = 1, kC = 2, kPartial = 3;
    // Stream-K: the FP32 partial sums of tiles that units share, in a workspace.
    if (stream_k)
        k.streams.push_back(tile_stream("C_partial", space, p.batch, p.m, p.n * sizeof(float),
                                        Axis::M, Axis::N, t.bm, t.bn * sizeof(float)));

    ProgramBuilder b;
    const uint8_t acc = b.reg();
    const uint8_t fragment = b.reg();
    const uint8_t stage = b.regs(t.stages);  // one "stage full" token per buffer
    // TMA: warp 0 copies whole tiles; cp.async: every warp copies its share.
    const bool tma = path == Path::Wgmma;
    const uint32_t parts = tma ? 1 : t.warps;
    const auto copy_stage = [&](uint32_t unrolled) {
        for (uint8_t s : {kA, kB}) {
            b.tma(s, stage, parts, unrolled).rotating(t.stages);
            if (tma) b.leader_only();
            if (s == (t.cluster_along_n ? kA : kB) && t.cluster > 1) b.multicast();
        }
    };
    for (uint32_t u = 0; u + 1 < t.stages; ++u)
        copy_stage(u);
    if (stream_k) {
        // A unit's trips are its own share (TileGrid::trips); count is the longest.
        b.marker(Opcode::LoopBegin,
                 static_cast<uint32_t>(std::max<uint64_t>(k.grid.k_tiles, t.stream_k.iters + 1)))
            .grid_trips();
    } else {
        b.marker(Opcode::LoopBegin, static_cast<uint32_t>(k.grid.k_tiles));
    }
    // Wait until this k-tile's buffer is full (mbarrier / cp.async.wait_group), then
    // __syncthreads so every warp sees it, then refill the buffer the last k-tile used.
    b.op(Opcode::Ialu, 1, 1, kNoReg, stage).rotating(t.stages);
    if (tma) b.leader_only();
    b.bar();
    copy_stage(t.stages - 1);
    const uint32_t kin = path == Path::Simt ? 1 : tensor_core::mma_k(p.dtype);
    switch (path) {
        case Path::Wgmma: {
            const uint32_t n_steps = ceil_div(t.bn, 256);
            const auto m =
                tensor_core::mma_timing(g.tensor, mma_shape(path, t, p.dtype), p.dtype, p.sparse);
            k.mma[0] = mma_cost_of(m);
            const uint32_t count = t.bk / kin * n_steps;
            b.op(Opcode::Mma, count, count, acc, acc);
            break;
        }
        case Path::MmaSync: {
            const auto m = tensor_core::mma_timing(g.tensor, mma_shape(path, t, p.dtype), p.dtype,
                                                   p.sparse, tensor_core::OperandA::Registers);
            k.mma[0] = mma_cost_of(m);
            const uint32_t wm = warp_rows(t.bm), wn = warp_cols(t.bn);
            const uint32_t loads =
                std::max<uint32_t>(1, (wm / a_div + wn) * kin * es / kLdmatrixBytes);
            const uint32_t mmas = (wm / 16) * (wn / 8);
            b.marker(Opcode::LoopBegin, t.bk / kin);
            b.op(Opcode::Lds, loads, loads, fragment).wavefronts(kWideWavefronts);
            b.op(Opcode::Mma, mmas, mmas, acc, fragment, acc);
            b.marker(Opcode::LoopEnd);
            break;
        }
        case Path::Simt: {
            // Per k: 8 A and 8 B values per thread (4 LDS.128), then 64 independent FFMAs.
            b.marker(Opcode::LoopBegin, t.bk);
            b.op(Opcode::Lds, 4, 4, fragment);
            b.op(Opcode::Ffma, 64, 64, acc, fragment, acc);
            b.marker(Opcode::LoopEnd);
            break;
        }
    }
    b.marker(Opcode::LoopEnd);
    const uint32_t accumulators = t.bm * t.bn / (t.warps * 32);
    if (stream_k) {
        // The fix-up of a tile units share: a unit stores its partial sums, and the unit that
        // finishes a tile adds a peer's; on average each unit does one of each. (CUTLASS's
        // unit also waits for its peers' flags, which this leaves out.)
        const uint8_t peer = b.reg();
        b.tma_store(kPartial, 1).leader_only().stream_k_only();
        b.tma(kPartial, peer, 1).leader_only().stream_k_only();
        b.op(Opcode::Ialu, 1, 1, kNoReg, peer).leader_only().stream_k_only();
        b.bar().stream_k_only();
        b.op(Opcode::Falu, accumulators, accumulators, acc, acc, peer).stream_k_only();
    }
    // Epilogue: convert the accumulators, stage C in shared memory, one bulk store.
    const uint32_t converts = std::max<uint32_t>(1, accumulators / 2);
    b.op(Opcode::Falu, converts, converts, fragment, acc);
    const uint32_t stores = std::max<uint32_t>(1, accumulators * os / 16);
    b.op(Opcode::Sts, stores, stores, kNoReg, fragment).wavefronts(kWideWavefronts);
    b.bar();
    b.tma_store(kC, 1).leader_only();
    k.program = b.finish();
    return k;
}

namespace {

/// cuBLAS's splitKreduce kernel: each thread adds one 16-byte vector (4 FP32) of every split's
/// partials and writes the 4 outputs of C. partials is the split GEMM's workspace stream.
KernelLaunch split_k_reduce_kernel(const GemmProblem& p,
                                   uint32_t splits,
                                   const AddressStream& partials,
                                   AddressSpace& space) {
    constexpr uint32_t kVector = 4;  // FP32 values per 16-byte load
    constexpr uint32_t kBlock = 256;
    const uint64_t outputs = p.batch * p.m * p.n;
    KernelLaunch k;
    k.name = "splitk_reduce";
    k.threads_per_cta = kBlock;
    k.registers_per_thread = 32;
    k.ctas = checked_grid(ceil_div(ceil_div(outputs, kVector), kBlock));
    for (uint32_t i = 0; i < splits; ++i)
        k.streams.push_back(dense_stream_at("C_partial" + std::to_string(i),
                                            partials.base + i * partials.split_bytes, outputs,
                                            DType::FP32, kVector, kBlock, 0));
    k.streams.push_back(dense_stream("C", space, outputs, p.out_dtype, kVector, kBlock, 0));
    const uint32_t os = element_bytes(p.out_dtype);

    ProgramBuilder b;
    const uint8_t addr = b.reg();
    b.op(Opcode::Ialu, 4, 1, addr);  // global index, bounds check, byte offset, address
    std::vector<uint8_t> in;
    for (uint32_t i = 0; i < splits; ++i) {
        in.push_back(b.reg());
        b.ldg(in.back(), static_cast<uint8_t>(i), addr);
    }
    for (uint32_t i = 1; i < splits; ++i)
        b.op(Opcode::Falu, kVector, kVector, in[0], in[0], in[i]);
    if (os != sizeof(float)) b.op(Opcode::Falu, kVector / 2, kVector / 2, in[0], in[0]);  // pack
    b.stg(static_cast<uint8_t>(splits), in[0], addr);
    k.program = b.finish();
    return k;
}

/// Throws std::invalid_argument when tile t's CTA does not fit on an SM.
void check_fits(const GemmProblem& p, const GpuTarget& g, const GemmTile& t) {
    if (occupancy_of(g.core.sm, occupancy_probe(p, t)).ctas_per_sm == 0)
        throw std::invalid_argument(
            "a " + std::to_string(t.bm) + " x " + std::to_string(t.bn) + " tile's CTA (" +
            std::to_string(t.warps * 32) + " threads, " + std::to_string(t.stages) + " stages of " +
            std::to_string(stage_bytes(p, t)) + " B) does not fit on an SM");
}

/// The tile and cluster r asks for, in place of the heuristic's `picked`; stages as the library
/// gives them (cuBLAS: as many as fit, up to kMaxStages). Throws std::invalid_argument for a
/// tile the kernel's MMA cannot cover or a cluster the path does not have.
GemmTile requested_tile(const GemmProblem& p,
                        const GpuTarget& g,
                        const GemmRequest& r,
                        const GemmTile& picked) {
    const Path path = path_of(p, g);
    GemmTile t = picked;
    const std::string shape = std::to_string(r.tile_m) + " x " + std::to_string(r.tile_n);
    if (r.tile_m) {
        t.bm = r.tile_m;
        t.bn = r.tile_n;
        switch (path) {
            case Path::Wgmma:
                if (t.bm % 64 || t.bn % 8)
                    throw std::invalid_argument(
                        "tile " + shape +
                        ": wgmma covers M in warpgroups of 64 rows and N in multiples of 8");
                break;
            case Path::MmaSync:
                if (t.bm % warp_rows(t.bm) || t.bn % warp_cols(t.bn))
                    throw std::invalid_argument(
                        "tile " + shape + ": mma.sync warps own 64 x 64 warp tiles (32 x 32 " +
                        "below 128), so M and N must be multiples of them");
                break;
            case Path::Simt:
                if ((t.bm * t.bn) % (64 * 32))
                    throw std::invalid_argument("tile " + shape +
                                                ": an FP32 GEMM's warps own 32 x 64 outputs");
                break;
        }
        t.warps = warps_of(path, t.bm, t.bn);
        if (t.warps * 32 > 1024)
            throw std::invalid_argument("tile " + shape + " needs " + std::to_string(t.warps * 32) +
                                        " threads, more than a CTA's 1024");
        t.stages = r.library == GemmLibrary::DeepGemm
                       ? deepgemm_stages(p, g, t.bm, t.bn)
                       : std::min(kMaxStages, g.core.sm.shared_memory / stage_bytes(p, t));
        if (t.stages < 2)
            throw std::invalid_argument("tile " + shape + ": two stages of " +
                                        std::to_string(stage_bytes(p, t)) +
                                        " B do not fit in an SM's shared memory");
        t.cluster = 1;
        t.cluster_along_n = false;
    }
    if (r.cluster_m) {
        if (r.cluster_m * r.cluster_n > 1 && path != Path::Wgmma)
            throw std::invalid_argument("thread-block clusters need a wgmma (Hopper) kernel");
        t.cluster = r.cluster_m * r.cluster_n;
        t.cluster_along_n = r.cluster_n > 1;
        const uint64_t extent = t.cluster_along_n ? p.n : p.m;
        const uint32_t block = t.cluster_along_n ? t.bn : t.bm;
        if (ceil_div(extent, block) % t.cluster)
            throw std::invalid_argument(
                "a cluster along " + std::string(t.cluster_along_n ? "N" : "M") +
                " pairs the grid's tiles there, but " + std::to_string(extent) + " / " +
                std::to_string(block) + " makes " + std::to_string(ceil_div(extent, block)) +
                ", an odd number");
    }
    return t;
}

}  // namespace

std::vector<KernelLaunch> gemm_kernels(const GemmProblem& p,
                                       const GpuTarget& g,
                                       const GemmRequest& r) {
    const std::optional<uint64_t>& split_k = r.split_k;
    if (split_k && (*split_k == 0 || *split_k > kMaxKSplits))
        throw NotLowerable("split_k must be 1.." + std::to_string(kMaxKSplits));
    const bool deepgemm = r.library == GemmLibrary::DeepGemm;
    if (deepgemm && split_k)
        throw std::invalid_argument("DeepGEMM's GEMM does not split K; leave split_k out");
    GemmTile t = deepgemm ? choose_deepgemm_tile(p, g) : choose_gemm_tile(p, g, !split_k);
    if (r.tile_m || r.cluster_m) t = requested_tile(p, g, r, t);
    if (r.tile_m || deepgemm) check_fits(p, g, t);
    if (deepgemm) {
        AddressSpace space;
        return {gemm_kernel(p, t, g, space)};
    }
    t.k_splits = split_k ? static_cast<uint32_t>(*split_k) : choose_k_splits(p, t, g);
    if (!split_k)
        t.stream_k =
            stream_k_of(p, t, occupancy_of(g.core.sm, occupancy_probe(p, t)).ctas_per_sm, g);
    AddressSpace space;
    std::vector<KernelLaunch> kernels{gemm_kernel(p, t, g, space)};
    if (t.k_splits > 1) {
        kernels.front().name = "gemm_splitk";
        const AddressStream& partials = kernels.front().streams[2];  // gemm_kernel's C (kC)
        kernels.push_back(split_k_reduce_kernel(p, t.k_splits, partials, space));
    }
    return kernels;
}

}  // namespace sim::gpu
