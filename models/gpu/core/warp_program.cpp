// SPDX-License-Identifier: MIT
#include "models/gpu/core/warp_program.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace sim::gpu {

std::string to_string(Opcode op) {
    switch (op) {
        case Opcode::Ldg: return "LDG";
        case Opcode::Stg: return "STG";
        case Opcode::Lds: return "LDS";
        case Opcode::Sts: return "STS";
        case Opcode::Ffma: return "FFMA";
        case Opcode::Falu: return "FALU";
        case Opcode::Ialu: return "IALU";
        case Opcode::Sfu: return "SFU";
        case Opcode::Shfl: return "SHFL";
        case Opcode::Bar: return "BAR";
        case Opcode::Diverge: return "DIVERGE";
        case Opcode::Reconverge: return "RECONVERGE";
        case Opcode::LoopBegin: return "LOOP";
        case Opcode::LoopEnd: return "ENDLOOP";
        case Opcode::Exit: return "EXIT";
        case Opcode::Mma: return "MMA";
        case Opcode::Tma: return "TMA";
        case Opcode::TmaStore: return "TMA.STORE";
        case Opcode::ClusterExchange: return "ST.ASYNC.CLUSTER";
    }
    return "?";
}

namespace {
// splitmix64: a fixed, portable hash for the gathered rows.
uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
}  // namespace

uint64_t AddressStream::address(uint64_t cta, uint64_t iteration, uint64_t thread) const {
    uint64_t v = (cta * cta_step + iteration * iteration_step + thread * thread_step) % vectors;
    switch (layout) {
        case Layout::Linear: break;
        case Layout::Strided: {
            const uint64_t columns = (vectors + stride - 1) / stride;
            v = (v % columns) * stride + v / columns;
            if (v >= vectors) v %= vectors;
            break;
        }
        case Layout::Tile: break;  // copied whole by tile_lines()
        case Layout::Gather: {
            const uint64_t row = mix(seed ^ (v / row_vectors)) % rows;
            return base + (row * row_vectors + v % row_vectors) * access_bytes;
        }
    }
    return base + v * access_bytes;
}

uint64_t TileGrid::trips(uint64_t cta) const {
    if (!is_stream_k_unit(cta)) return k_tiles;
    const uint64_t unit = cta / stream_k.cluster;
    return stream_k.iters + (unit < stream_k.big ? 1 : 0);
}

TileGrid::Coord TileGrid::of(uint64_t cta, uint64_t iteration) const {
    Coord c;
    const uint64_t per_split = m_tiles * n_tiles;
    uint64_t tile = 0;  // in the order of the grid, batch outermost
    if (is_stream_k_unit(cta)) {
        const uint64_t unit = cta / stream_k.cluster;
        const uint64_t first = unit * stream_k.iters + std::min(unit, stream_k.big);
        const uint64_t unit_trips = trips(cta);
        c.past = iteration >= unit_trips;
        const uint64_t walked = first + std::min(iteration, unit_trips - 1);
        tile = walked / k_tiles * stream_k.cluster + cta % stream_k.cluster;
        c.k = walked % k_tiles;
    } else if (stream_k.units) {
        tile = stream_k.tiles + (cta - stream_k.units);
        c.k = iteration;
    } else {
        c.split = cta / per_split % k_splits;
        tile = cta / (per_split * k_splits) * per_split + cta % per_split;
        c.k = c.split * k_tiles + iteration;
    }
    c.batch = tile / per_split;
    // Groups of `group` M-tiles: inside a group, CTAs go down M first, then across N; a cluster
    // along N walks as one CTA over N tiles cluster_n wide.
    const uint64_t t = tile % per_split / cluster_n;
    const uint64_t per_group = uint64_t{group} * (n_tiles / cluster_n);
    const uint64_t first_m = t / per_group * group;
    const uint64_t rows = std::min<uint64_t>(group, m_tiles - first_m);
    c.m = first_m + (t % per_group) % rows;
    c.n = (t % per_group) / rows * cluster_n + tile % cluster_n;
    return c;
}

void tile_lines(const AddressStream& s,
                const TileGrid& grid,
                uint64_t cta,
                uint64_t iteration,
                uint32_t part,
                uint32_t parts,
                std::vector<LineAccess>& out) {
    const TileGrid::Coord c = grid.of(cta, iteration);
    if (c.past) return;
    const auto index = [&](AddressStream::Axis a) -> uint64_t {
        switch (a) {
            case AddressStream::Axis::M: return c.m;
            case AddressStream::Axis::N: return c.n;
            case AddressStream::Axis::K: return c.k + c.m * s.diagonal_step;
            default: return 0;
        }
    };
    const uint64_t base = s.base + c.batch * s.batch_bytes + c.split * s.split_bytes;
    if (s.im2col) {
        const AddressStream::Im2col& g = s.conv;
        const uint64_t tap = iteration / g.channel_tiles;
        const uint64_t col0 = iteration % g.channel_tiles * s.tile_row_bytes;
        const uint64_t kh = tap / g.kernel_w, kw = tap % g.kernel_w;
        const uint64_t row0 = c.m * s.tile_rows;
        if (row0 >= s.matrix_rows || col0 >= g.channel_bytes) return;
        const uint64_t rows = std::min(s.tile_rows, s.matrix_rows - row0);
        const uint64_t first = row0 + rows * part / parts, last = row0 + rows * (part + 1) / parts;
        const uint64_t bytes = std::min(s.tile_row_bytes, g.channel_bytes - col0);
        const uint64_t pixels = g.out_height * g.out_width;
        for (uint64_t r = first; r < last; ++r) {
            const uint64_t n = r / pixels, oh = r % pixels / g.out_width, ow = r % g.out_width;
            const uint64_t ih = oh * g.stride + kh, iw = ow * g.stride + kw;  // + padding
            if (ih < g.padding || iw < g.padding) continue;
            if (ih - g.padding >= g.height || iw - g.padding >= g.width) continue;
            const uint64_t begin =
                base +
                ((n * g.height + ih - g.padding) * g.width + iw - g.padding) * g.channel_bytes +
                col0;
            for (uint64_t line = begin & ~uint64_t{127}; line < begin + bytes; line += 128) {
                const uint64_t lo = std::max(begin, line), hi = std::min(begin + bytes, line + 128);
                const uint32_t s0 = uint32_t((lo - line) / 32),
                               s1 = uint32_t((hi - line + 31) / 32);
                out.push_back({line, static_cast<uint8_t>(((1u << s1) - 1) & ~((1u << s0) - 1))});
            }
        }
        return;
    }
    const uint64_t row0 = index(s.row_axis) * s.tile_rows;
    const uint64_t col0 = index(s.col_axis) * s.tile_row_bytes;
    if (row0 >= s.matrix_rows || col0 >= s.row_bytes) return;  // past the matrix: nothing
    const uint64_t rows = std::min(s.tile_rows, s.matrix_rows - row0);
    const uint64_t bytes = std::min(s.tile_row_bytes, s.row_bytes - col0);
    const uint64_t first = rows * part / parts, last = rows * (part + 1) / parts;
    for (uint64_t r = first; r < last; ++r) {
        const uint64_t begin = base + (row0 + r) * s.row_bytes + col0;
        const uint64_t end = begin + bytes;
        for (uint64_t line = begin & ~uint64_t{127}; line < end; line += 128) {
            // The sectors of this line inside [begin, end).
            const uint64_t lo = std::max(begin, line), hi = std::min(end, line + 128);
            const uint32_t s0 = uint32_t((lo - line) / 32), s1 = uint32_t((hi - line + 31) / 32);
            out.push_back({line, static_cast<uint8_t>(((1u << s1) - 1) & ~((1u << s0) - 1))});
        }
    }
}

void KernelLaunch::validate_multicast(const Instr& in) const {
    const auto fail = [this](const std::string& what) {
        throw std::invalid_argument("kernel " + name + ": a multicast copy " + what);
    };
    if (in.op != Opcode::Tma || in.count != 1 || !in.leader)
        fail("must be a TMA issued by the leader warp");
    if (cluster < 2) fail("needs a cluster of two or more CTAs");
    // The members, consecutive CTA ids, must share the tile: down M, the same batch and N
    // tile, which TileGrid gives when whole clusters fit in every group of M tiles; across N
    // (cluster_n), the same M tile, when whole clusters fit in N.
    const bool across_n = grid.cluster_n > 1;
    if (across_n ? grid.cluster_n != cluster || grid.n_tiles % cluster
                 : grid.m_tiles % cluster || grid.group % cluster)
        fail(across_n ? "needs N tiles to be a multiple of the cluster, which runs along N"
                      : "needs M tiles and the tile group to be multiples of the cluster");
    const AddressStream::Axis moving = across_n ? AddressStream::Axis::N : AddressStream::Axis::M;
    const AddressStream& s = streams[in.stream];
    if (s.row_axis == moving || s.col_axis == moving)
        fail(std::string("names a tile that differs between the cluster's CTAs (it moves along ") +
             (across_n ? "N)" : "M)"));
}

void KernelLaunch::validate() const {
    const auto fail = [this](const std::string& what) {
        throw std::invalid_argument("kernel " + name + ": " + what);
    };
    if (ctas == 0) fail("the grid has no CTAs");
    if (threads_per_cta == 0 || threads_per_cta > 1024) fail("threads per CTA must be 1..1024");
    if (registers_per_thread == 0 || registers_per_thread > 255)
        fail("registers per thread must be 1..255");
    if (program.empty() || program.back().op != Opcode::Exit) fail("the program must end in EXIT");
    if (cluster == 0 || cluster > 16 || ctas % cluster)
        fail("the grid must be whole clusters of 1..16 CTAs");
    int loops = 0;
    int regions = 0;
    bool multicast = false, causal_loop = false;
    for (const Instr& in : program) {
        multicast |= in.multicast;
        causal_loop |= in.triangular || in.from_diagonal;
        // A cluster's members must issue the same multicast copies and exchanges in the same
        // order.
        if (in.multicast && regions > 0) fail("a multicast copy inside a divergent region");
        if (in.op == Opcode::ClusterExchange && regions > 0)
            fail("a cluster exchange inside a divergent region");
        for (uint8_t r : {in.dst, in.src[0], in.src[1]}) {
            if (r != kNoReg && r + std::max<uint32_t>(in.rotate, 1) > kMaxRegs)
                fail("register out of range");
        }
        switch (in.op) {
            case Opcode::Ldg:
            case Opcode::Stg:
                if (in.stream >= streams.size()) fail("memory instruction names no stream");
                break;
            case Opcode::Tma:
            case Opcode::TmaStore:
                if (in.stream >= streams.size() ||
                    streams[in.stream].layout != AddressStream::Layout::Tile)
                    fail("a bulk copy names no tile stream");
                if (in.count == 0 || in.count > warps_per_cta())
                    fail("a bulk copy is shared by 1..warps-per-CTA warps");
                if (in.multicast) validate_multicast(in);
                break;
            case Opcode::Lds:
            case Opcode::Sts:
                if (in.count == 0 || in.chains == 0)
                    fail("an arithmetic run needs count and chains");
                if (in.shared_wavefronts == 0 || in.shared_wavefronts > 32)
                    fail("a shared-memory access takes 1..32 wavefronts");
                break;
            case Opcode::ClusterExchange:
                if (cluster < 2) fail("a cluster exchange needs a cluster of two or more CTAs");
                if (!in.leader || in.dst == kNoReg)
                    fail("a cluster exchange is the leader warp's, with a barrier to complete");
                break;
            case Opcode::Mma:
                if (in.stream >= kMmaKinds || mma[in.stream].interval == 0)
                    fail("an MMA names no Tensor Core instruction");
                if (in.count == 0 || in.chains == 0) fail("an MMA run needs count and chains");
                break;
            case Opcode::LoopBegin:
                if (in.count == 0) fail("a loop must run at least once");
                if ((in.triangular || in.from_diagonal) && in.chains == 0)
                    fail("a triangular loop needs a step");
                if (in.triangular && in.from_diagonal)
                    fail("a loop runs up to the diagonal or from it, not both");
                if (++loops > 2) fail("loops nest at most two deep");
                break;
            case Opcode::LoopEnd:
                if (--loops < 0) fail("ENDLOOP without LOOP");
                break;
            case Opcode::Diverge:
                if (in.count == 0 || in.count > 32) fail("a branch splits a warp into 1..32 paths");
                if (++regions > 1) fail("divergent regions do not nest");
                break;
            case Opcode::Reconverge:
                if (--regions < 0) fail("RECONVERGE without DIVERGE");
                break;
            default:
                if (in.count == 0 || in.chains == 0)
                    fail("an arithmetic run needs count and chains");
                break;
        }
    }
    if (loops != 0) fail("unterminated loop");
    if (multicast && causal_loop)
        fail("multicast copies in a kernel whose loops depend on the CTA's tile");
    if (regions != 0) fail("unterminated divergent region");
    for (const AddressStream& s : streams) {
        if (s.access_bytes == 0 || s.access_bytes > 16 || (s.access_bytes & (s.access_bytes - 1)))
            fail("stream " + s.name + ": access bytes must be 1, 2, 4, 8 or 16");
        if (s.vectors == 0) fail("stream " + s.name + " is empty");
        if (s.layout == AddressStream::Layout::Strided && s.stride == 0)
            fail("stream " + s.name + ": stride must be at least 1");
        if (s.layout == AddressStream::Layout::Gather && (s.rows == 0 || s.row_vectors == 0))
            fail("stream " + s.name + ": a gather needs rows");
        if (s.layout == AddressStream::Layout::Tile &&
            (s.tile_rows == 0 || s.tile_row_bytes == 0 || s.row_bytes == 0))
            fail("stream " + s.name + ": a tile needs rows and bytes");
    }
}

uint64_t AddressSpace::allocate(uint64_t bytes) {
    constexpr uint64_t kAlign = 2ULL << 20;
    const uint64_t at = next_;
    next_ += (bytes + kAlign - 1) / kAlign * kAlign;
    return at;
}

MainLoop main_loop_of(const KernelLaunch& k) {
    MainLoop m;
    uint32_t depth = 0;
    for (uint32_t pc = 0; pc < k.program.size(); ++pc) {
        const Instr& in = k.program[pc];
        if (in.rotate > 1) m.trip_multiple = std::lcm(m.trip_multiple, uint32_t{in.rotate});
        if (in.op == Opcode::LoopBegin) {
            if (depth == 0 && !in.reread_later && in.count > m.trips) {
                m.begin = pc;
                m.trips = in.count;
            }
            ++depth;
        } else if (in.op == Opcode::LoopEnd) {
            --depth;
        }
    }
    return m;
}

}  // namespace sim::gpu
