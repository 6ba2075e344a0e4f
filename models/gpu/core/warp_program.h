// SPDX-License-Identifier: MIT
// What a kernel is to the cycle-level GPU: a grid of CTAs whose warps all run one program of
// macro-instructions, and the address streams its memory instructions walk. A macro-instruction
// is one SASS-like warp-instruction (a vectorised LDG, an FFMA, a SHFL, a BAR...), or for
// arithmetic a run of `count` of them, so that a kernel doing thousands of FMAs per element
// costs one scheduler decision per run rather than one per FMA. Pure C++.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sim::gpu {

/// A 128-byte line and the 32-byte sectors of it an access touches.
struct LineAccess {
    uint64_t line = 0;
    uint8_t sectors = 0;
};

/// Sectors in a mask of four (a table: without -mpopcnt, __builtin_popcount is a library call
/// on the path of every access).
inline uint32_t sector_count(uint8_t sectors) {
    static constexpr uint8_t kCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return kCount[sectors & 0xF];
}

enum class Opcode : uint8_t {
    Ldg,         ///< global load, vectorised: access_bytes per thread from a stream
    Stg,         ///< global store (fire and forget: no register waits on it)
    Lds,         ///< shared-memory load (MIO pipe)
    Sts,         ///< shared-memory store
    Ffma,        ///< FP32 fused multiply-add, 2 FLOP per active thread
    Falu,        ///< FP32 add / multiply / compare, 1 FLOP per active thread
    Ialu,        ///< integer address arithmetic (IMAD, IADD, shifts)
    Sfu,         ///< special function (MUFU.EX2, RSQ, RCP), 1 FLOP per active thread
    Shfl,        ///< warp shuffle
    Bar,         ///< CTA-wide barrier (BAR.SYNC)
    Diverge,     ///< data-dependent branch: the region up to Reconverge runs once per path
    Reconverge,  ///< end of a divergent region (the immediate post-dominator)
    LoopBegin,   ///< start of a counted loop; its body ends at the matching LoopEnd
    LoopEnd,
    Exit,
    Mma,       ///< Tensor Core MMA (the kernel's MmaTiming), a run of `count`
    Tma,       ///< bulk copy of a tile from global to shared memory (TMA, or cp.async when
               ///< `count` > 1 warps share it); dst is done when every line is in
    TmaStore,  ///< bulk copy of a tile from shared to global memory (fire and forget)
    /// A value stored into the shared memory of every CTA of the kernel's cluster over the
    /// SM-to-SM network (Hopper's distributed shared memory, st.async): dst, each member's
    /// barrier, is done once the cluster's last member has sent its value, the network's
    /// latency later. No L1, L2 or DRAM traffic. Run by the leader warp.
    ClusterExchange,
};
std::string to_string(Opcode op);

constexpr uint8_t kNoReg = 0xFF;
constexpr uint32_t kMaxRegs = 32;  ///< scoreboard entries per warp

struct Instr {
    Opcode op = Opcode::Exit;
    uint8_t dst = kNoReg;                        ///< register (scoreboard entry) written
    std::array<uint8_t, 2> src{kNoReg, kNoReg};  ///< registers read
    uint8_t stream = 0;                          ///< Ldg/Stg: index into KernelLaunch::streams
    uint32_t count = 1;     ///< arithmetic: warp-instructions in this run; LoopBegin: trips;
                            ///< Diverge: paths (1..32)
    uint32_t chains = 1;    ///< arithmetic: independent dependency chains in the run
    uint32_t unrolled = 0;  ///< Ldg/Stg/Tma: added to the loop iteration (an unrolled copy)
    bool leader = false;    ///< only warp 0 of each CTA runs it (`if (warp == 0)`)
    /// Rotating registers (a software-pipelined loop's stages): when > 1, every register the
    /// instruction names is offset by (iteration + unrolled) % rotate.
    uint8_t rotate = 0;
    /// LoopBegin: a causal loop, trips = min(count, (the CTA's M tile + 1) x chains) (the KV
    /// blocks at or below a query block's diagonal).
    bool triangular = false;
    /// LoopBegin: the other causal loop, from the diagonal to the end: trips = count - the
    /// CTA's M tile x chains (the query blocks at or after a KV block's diagonal; streams
    /// with diagonal_step start there).
    bool from_diagonal = false;
    /// Tma: TMA multicast. The tile is the same for every CTA of the kernel's cluster; it is
    /// read from L2 once, when the last member issues it, and lands in every member's buffer.
    bool multicast = false;
    /// Lds/Sts: cycles each warp-instruction holds the SM's shared memory, whose 32 banks
    /// serve 4 bytes each per cycle: 1 for 4 bytes per thread (or fewer distinct words, which
    /// the banks broadcast), 4 for 16 bytes per thread or an ldmatrix.x4 (512 bytes).
    uint8_t shared_wavefronts = 1;
    /// LoopBegin: a later loop reads again what this one loads (a two-pass row kernel's first
    /// pass). Never the main loop: the sampler must not skip its trips, whose lines the
    /// second pass finds in the caches.
    bool reread_later = false;
    /// LoopBegin: trips are the CTA's own (TileGrid::trips: a stream-K unit walks its share of
    /// k-tiles, not count).
    bool grid_trips = false;
    /// Run only by stream-K units (TileGrid::is_stream_k_unit): their partial-tile fix-up.
    bool stream_k_only = false;
};

/// How the threads of a grid walk one array. The vector (access_bytes-sized element group)
/// a thread touches on loop iteration i is
///   v = cta * cta_step + i * iteration_step + thread * thread_step   (modulo vectors)
/// and its address depends on the layout.
struct AddressStream {
    enum class Layout : uint8_t {
        Linear,   ///< base + v * access_bytes
        Strided,  ///< a transposed walk: consecutive v are `stride` vectors apart (each vector is
                  ///< still touched once), so a warp's lanes hit different sectors
        Gather,   ///< embedding rows: row = hash(v / row_vectors) % rows; base + row * row_bytes
        Tile,     ///< a 2-D tile of a row-major matrix, copied whole by Tma/TmaStore
    };
    /// Which grid coordinate picks a Tile's rows or columns (None: always the first tile).
    enum class Axis : uint8_t { None, M, N, K };
    std::string name;
    uint64_t base = 0;
    uint32_t access_bytes = 4;  ///< bytes per thread per instruction (1..16, a power of two)
    uint64_t vectors = 1;       ///< vectors in the array (indices wrap)
    uint64_t cta_step = 0, iteration_step = 0, thread_step = 1;
    Layout layout = Layout::Linear;
    uint64_t stride = 1;       ///< Strided: vectors between consecutive v
    uint64_t rows = 0;         ///< Gather: rows in the table
    uint64_t row_vectors = 1;  ///< Gather: vectors per row
    uint64_t seed = 1;         ///< Gather: the token ids
    // Tile: rows [r0, r0 + tile_rows) and bytes [c0, c0 + tile_row_bytes) of each, where r0 and
    // c0 come from the CTA's tile coordinates along row_axis and col_axis; rows and bytes past
    // the matrix are not fetched (TMA's out-of-bounds fill). Matrices of a batch lie
    // batch_bytes apart.
    Axis row_axis = Axis::M, col_axis = Axis::K;
    uint64_t tile_rows = 0, tile_row_bytes = 0;
    /// Tile: the K coordinate starts at the CTA's M tile x diagonal_step (0: at 0), for a loop
    /// that walks from the diagonal (Instr::from_diagonal).
    uint64_t diagonal_step = 0;
    uint64_t matrix_rows = 0, row_bytes = 0;  ///< the matrix (row_bytes is also the row pitch)
    uint64_t batch_bytes = 0;
    /// Tile: bytes between the matrices of consecutive K splits (a split-K GEMM's partial
    /// sums, one matrix per split); 0: every split reads the same matrix.
    uint64_t split_bytes = 0;
    /// An implicit-GEMM convolution's A (TMA's im2col mode): row r of the M x K matrix is
    /// output pixel r of an NHWC input; k-tile t is filter tap t / channel_tiles, channels
    /// (t % channel_tiles) x tile_row_bytes. Taps falling in the padding are not fetched.
    struct Im2col {
        uint64_t height = 0, width = 0, out_height = 0, out_width = 0;
        uint64_t kernel_w = 1, stride = 1, padding = 0;
        uint64_t channel_bytes = 0;  ///< bytes per input pixel (all channels)
        uint64_t channel_tiles = 1;
    };
    bool im2col = false;
    Im2col conv;

    /// The byte address thread `thread` of `cta` touches on loop iteration `iteration`.
    uint64_t address(uint64_t cta, uint64_t iteration, uint64_t thread) const;
};

/// Where a CTA of a tiled kernel (GEMM, attention) works: its batch, its K split, its M and N
/// tile. CTAs walk the tiles in groups of `group` M-tiles (the swizzle cuBLAS and Triton use),
/// so that a wave's CTAs share A and B tiles in L2. A split-K GEMM's grid has k_splits CTAs per
/// tile, split s walking k-tiles [s x k_tiles, (s + 1) x k_tiles) of K: the split is the
/// outermost coordinate inside a batch (a CUDA grid's z), so a wave's CTAs share their K range.
struct TileGrid {
    uint64_t batch = 1, m_tiles = 1, n_tiles = 1;
    uint64_t k_tiles = 1;  ///< k-tiles of a whole tile (per split); a data-parallel CTA's trips
    uint64_t k_splits = 1;
    uint32_t group = 8;
    /// CTAs per cluster along N (clusters that multicast A): consecutive CTAs take neighbouring
    /// N tiles of one M tile; n_tiles is a multiple of it. 1: consecutive CTAs go down M.
    uint32_t cluster_n = 1;
    /// Stream-K (docs/references.md [osama2023], [cutlass-streamk]): the first tiles (in the
    /// order above, batch outermost) are shared by `units` CTAs, which walk their k-tiles
    /// back to back, tile after tile; whole tiles from `tiles` on go one to a CTA after them.
    /// A cluster of `cluster` consecutive CTAs is one unit over as many consecutive tiles,
    /// every member on its own tile of the group with the same k-tiles.
    struct StreamK {
        uint64_t units = 0;  ///< CTAs (a multiple of cluster); 0: no stream-K
        uint64_t tiles = 0;  ///< tiles they share (a multiple of cluster)
        uint64_t iters = 0;  ///< k-tiles each cluster walks ...
        uint64_t big = 0;    ///< ... one more for the first `big` clusters
        uint32_t cluster = 1;
    };
    StreamK stream_k;
    struct Coord {
        uint64_t batch = 0, split = 0, m = 0, n = 0;
        uint64_t k = 0;     ///< the k-tile of K this iteration walks
        bool past = false;  ///< past the CTA's last trip (a prefetch beyond it copies nothing)
    };
    uint64_t tiles() const { return batch * m_tiles * n_tiles; }
    uint64_t ctas() const {
        return stream_k.units ? stream_k.units + tiles() - stream_k.tiles : tiles() * k_splits;
    }
    bool is_stream_k_unit(uint64_t cta) const { return cta < stream_k.units; }
    /// The main loop's trips of a CTA: k_tiles, or a stream-K unit's share.
    uint64_t trips(uint64_t cta) const;
    /// Where cta works on main-loop iteration `iteration`.
    Coord of(uint64_t cta, uint64_t iteration = 0) const;
};

/// The lines of the Tile stream s a CTA copies on k-iteration `iteration`: part `part` of
/// `parts` (the tile's rows split among the warps that copy it). Appends to out.
void tile_lines(const AddressStream& s,
                const TileGrid& grid,
                uint64_t cta,
                uint64_t iteration,
                uint32_t part,
                uint32_t parts,
                std::vector<LineAccess>& out);

/// A Tensor Core instruction a kernel's Mma runs: cycles per warp-instruction and FLOPs.
struct MmaCost {
    uint32_t interval = 1, latency = 1;
    double flops = 0;
    double shared_bytes = 0;  ///< operands read from shared memory (wgmma; mma.sync's come by LDS)
};
constexpr size_t kMmaKinds = 2;  ///< an Mma's `stream` picks one of a kernel's MmaCosts

struct KernelLaunch {
    std::string name;
    /// The tile the kernel library chose, for the reader (GEMM: "BMxBNxBK, stages, cluster,
    /// split-K or stream-K"); empty for kernels without one.
    std::string tile;
    uint64_t ctas = 1;
    uint32_t threads_per_cta = 256;
    uint32_t registers_per_thread = 32;
    uint32_t shared_bytes_per_cta = 0;
    std::vector<Instr> program;
    std::vector<AddressStream> streams;
    TileGrid grid;                         ///< Tile streams' coordinates
    std::array<MmaCost, kMmaKinds> mma{};  ///< what one Mma warp-instruction costs
    /// CTAs per thread-block cluster: consecutive CTA ids, which multicast Tma tiles share.
    uint32_t cluster = 1;
    /// false for a microbenchmark, simulated trip by trip and wave by wave at every fidelity:
    /// its figure is the rate the memory settles to, which the sampler, extrapolating its first
    /// rounds, would miss.
    bool may_sample = true;

    uint32_t warps_per_cta() const { return (threads_per_cta + 31) / 32; }
    /// Throws std::invalid_argument for a malformed program (unmatched loops or regions,
    /// a register or stream out of range, no Exit).
    void validate() const;

  private:
    void validate_multicast(const Instr& in) const;
};

/// A kernel's main loop: its longest top-level loop (a GEMM's k-loop, attention's KV loop),
/// the one the sampler may fast-forward.
struct MainLoop {
    static constexpr uint32_t kNone = ~0u;
    uint32_t begin = kNone;      ///< the LoopBegin's index in the program
    uint32_t trips = 0;          ///< its trip count (the most, for a causal loop)
    uint32_t trip_multiple = 1;  ///< every rotating register's period divides this
    bool found() const { return begin != kNone; }
};
/// The kernel's longest top-level loop, if any.
MainLoop main_loop_of(const KernelLaunch& k);

/// Lays arrays out one after another in a flat address space, each aligned to 2 MiB.
class AddressSpace {
  public:
    uint64_t allocate(uint64_t bytes);

  private:
    uint64_t next_ = 0;
};

}  // namespace sim::gpu
