// SPDX-License-Identifier: MIT
// One operator of an operator trace (traces/README.md is the specification): its kind, the
// parameters of that kind, its stream and dependencies. Pure data; no timing knowledge.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "sim/core/error.h"

namespace sim {

enum class OpKind {
    Gemm,
    Conv2d,
    Elementwise,
    Reduction,
    Softmax,
    Layernorm,
    Attention,
    Embedding,
    Memcpy,
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    SendRecv,
    Custom,
    DramTraffic,
    PointerChase,
    BulkCopy,
    CacheRead,
};

enum class DType { FP64, FP32, TF32, FP16, BF16, FP8, INT8 };

/// The engine an operator occupies and whose roof it is measured against.
enum class ComputeUnit {
    Vector,   ///< CUDA cores (non-tensor)
    Tensor,   ///< matrix units
    Network,  ///< the device's links (collectives)
    Host,     ///< the host link (PCIe copies)
};

/// All kinds, in the order of the specification (for listings).
const std::vector<OpKind>& all_op_kinds();
std::string to_string(OpKind k);
std::optional<OpKind> parse_op_kind(const std::string& s);
std::string to_string(DType d);
std::optional<DType> parse_dtype(const std::string& s);
/// Bytes per element of a dtype (tf32 is stored as 4 bytes).
uint64_t dtype_bytes(DType d);
std::string to_string(ComputeUnit u);
bool is_collective(OpKind k);

struct GemmParams {
    uint64_t m = 0, n = 0, k = 0;
    uint64_t batch = 1;
    DType out_dtype = DType::FP16;
    std::string layout = "nn";
};
struct Conv2dParams {
    uint64_t batch = 0, in_channels = 0, out_channels = 0, height = 0, width = 0;
    uint64_t kernel_h = 3, kernel_w = 3, stride = 1, padding = 0, groups = 1;
    uint64_t out_height() const { return (height + 2 * padding - kernel_h) / stride + 1; }
    uint64_t out_width() const { return (width + 2 * padding - kernel_w) / stride + 1; }
};
struct ElementwiseParams {
    uint64_t elements = 0, inputs = 2, outputs = 1, flops_per_element = 1;
};
struct ReductionParams {
    uint64_t elements = 0, outputs = 1;
};
struct RowParams {  ///< softmax and layernorm
    uint64_t rows = 0, cols = 0;
};
struct AttentionParams {
    uint64_t batch = 0, heads = 0, seq = 0, kv_seq = 0, head_dim = 0;
    bool fused = true;
    bool causal = false;
    bool backward = false;  ///< the backward pass: dQ, dK, dV from Q, K, V, O and dO
};
struct EmbeddingParams {
    uint64_t tokens = 0, dim = 0, vocab = 0;
};
/// The longest time a trace states (duration_us, measured_us), 1e12 us (11.6 days); times are
/// held in whole picoseconds, so a positive time must be at least 0.5e-6 us.
constexpr double kMaxTraceMicroseconds = 1e12;

struct MemcpyParams {
    /// The largest copy a trace may hold, 64 PiB; importers drop larger ones with a reason.
    static constexpr uint64_t kMaxBytes = uint64_t{1} << 56;
    uint64_t bytes = 0;
    std::string direction = "d2d";  ///< d2d, h2d, d2h, or p2p: to another device's memory
    std::string to;                 ///< p2p: the device it copies to
};
struct CollectiveParams {
    uint64_t bytes = 0;
    uint64_t group = 0;  ///< ranks taking part, >= 2
};
struct CustomParams {
    uint64_t flops = 0, bytes = 0;
    ComputeUnit unit = ComputeUnit::Vector;
    /// A measured duration replayed as is instead of timing flops and bytes, ps; 0: none.
    /// Imported kernels that no model can describe keep their measured time this way.
    uint64_t duration_ps = 0;
};

struct DramTrafficParams {  ///< a memory-system traffic pattern (the HBM model's generator)
    uint64_t bytes = 0;
    std::string pattern = "stream";  ///< stream, write_stream, read2_write1, copy, random, strided
    uint64_t request_bytes = 64;
    uint64_t outstanding = 8192;
    uint64_t stride = 4096;
    uint64_t seed = 1;
};

/// A pointer chase (the latency microbenchmark of Jia et al. and Luo et al.): one thread loads
/// `steps` pointers in a chain, each the address of the next, walking an array of `footprint`
/// bytes `stride` bytes at a time (wrapping around).
struct PointerChaseParams {
    uint64_t footprint = 0;  ///< bytes, a multiple of stride
    uint64_t stride = 128;   ///< bytes between consecutive pointers, a multiple of 8
    uint64_t steps = 4096;   ///< loads timed
};

/// A bulk-copy stream (the TMA bandwidth microbenchmarks of Luo et al.): `ctas` CTAs of one warp
/// each copy `copies` blocks of `copy_bytes` from global into shared memory, keeping `in_flight`
/// copies outstanding, round by round through one array: in round r, CTA c copies block
/// r x ctas + c. A block is `rows` rows of copy_bytes / rows bytes (a 2-D tile when rows > 1),
/// the array's rows `row_pitch` bytes apart (0: packed, ctas x copy_bytes / rows). Its time is
/// the memory system's latency under the load it makes itself.
struct BulkCopyParams {
    uint64_t ctas = 0;           ///< CTAs of the grid
    uint64_t copy_bytes = 4096;  ///< bytes per copy
    uint64_t copies = 0;         ///< copies per CTA
    uint64_t in_flight = 1;      ///< copies each CTA keeps outstanding
    uint64_t rows = 1;           ///< rows per copy, each copy_bytes / rows, a multiple of 16
    uint64_t row_pitch = 0;      ///< bytes from one row of the array to the next; 0: packed
    uint64_t bytes() const { return ctas * copy_bytes * copies; }
    uint64_t row_bytes() const { return copy_bytes / rows; }
    uint64_t pitch() const { return row_pitch ? row_pitch : ctas * row_bytes(); }
};

/// A cache-bandwidth stream (the L2 cache test of gpu-benches, docs/references.md [gpu-benches]):
/// `ctas` CTAs of 1024 threads each read `block_bytes` of a data set of `footprint` bytes, 8 bytes
/// a thread per load, the data set split in footprint / block_bytes regions and CTA c reading
/// region c mod regions, so the grid reads the data set over and over. Its bandwidth is that of the
/// caches holding the data set (L1, L2), or the DRAM's when none does.
struct CacheReadParams {
    uint64_t footprint = 0;         ///< bytes, a multiple of block_bytes
    uint64_t block_bytes = 131072;  ///< bytes per CTA: 1024 threads x 8 B x 1..16 loads
    uint64_t ctas = 2048;           ///< CTAs of the grid: at least 2 x regions
    uint64_t regions() const { return footprint / block_bytes; }
    uint64_t bytes() const { return ctas * block_bytes; }
};

using OpParams = std::variant<GemmParams,
                              Conv2dParams,
                              ElementwiseParams,
                              ReductionParams,
                              RowParams,
                              AttentionParams,
                              EmbeddingParams,
                              MemcpyParams,
                              CollectiveParams,
                              CustomParams,
                              DramTrafficParams,
                              PointerChaseParams,
                              BulkCopyParams,
                              CacheReadParams>;

/// How a GPU model should shape the kernel it lowers an operator to (the trace's `kernel:` map);
/// an absent field means the kernel library's default. Models that run no kernels ignore it.
struct KernelHints {
    std::optional<uint64_t> block;          ///< threads per CTA (32..1024, a multiple of 32)
    std::optional<uint64_t> vector;         ///< elements per thread per load (1, 2, 4, 8, 16)
    std::optional<uint64_t> registers;      ///< registers per thread (1..255)
    std::optional<uint64_t> shared_memory;  ///< bytes of shared memory per CTA
    std::optional<uint64_t> stride;      ///< elements between neighbouring threads (1: coalesced)
    std::optional<uint64_t> divergence;  ///< paths a warp's branch splits into (1..32)
    bool sparse = false;                 ///< GEMM: A is 2:4 structured-sparse (Sparse Tensor Cores)
    /// GEMM, convolution, attention: the MMA instruction the kernel issues (mma_sync, wgmma);
    /// empty: the GPU's own family.
    std::string mma;
    /// GEMM: CTAs per C tile along K (split-K, 1..16); empty: the kernel library's heuristic.
    std::optional<uint64_t> split_k;
    /// GEMM: the kernel library whose heuristic picks the tile (cublas, deepgemm); empty: cublas.
    std::string library;
    /// GEMM: the CTA tile, {M, N} outputs; empty: the library's heuristic picks it.
    std::vector<uint64_t> tile;
    /// GEMM (wgmma): CTAs per thread-block cluster along {M, N}, 2 CTAs at most (those along M
    /// share B, which TMA multicasts; those along N share A); empty: the heuristic picks.
    std::vector<uint64_t> cluster;
    bool any() const {
        return block || vector || registers || shared_memory || stride || divergence || sparse ||
               !mma.empty() || split_k || !library.empty() || !tile.empty() || !cluster.empty();
    }
};

/// How the host launches a trace's kernels (its header's `launch:`, traces/README.md).
enum class LaunchMode {
    Stream,  ///< one host call per operator, enqueued on its stream (cudaLaunchKernel)
    Graph,   ///< the whole trace captured as one CUDA graph: one host call for all of it
};
std::string to_string(LaunchMode m);
std::optional<LaunchMode> parse_launch_mode(const std::string& s);

/// Which pass of a pipelined micro-batch an operator belongs to (traces/README.md, pipeline:).
enum class PipelinePhase {
    None,      ///< outside the pipeline (the optimizer step, gradient reductions)
    Forward,   ///< a micro-batch's forward pass through this stage
    Backward,  ///< its backward pass (recomputation included)
};

struct Op {
    size_t index = 0;  ///< position in the expanded trace
    std::string name;  ///< unique in the trace
    OpKind kind = OpKind::Custom;
    std::string device;         ///< the system instance that runs it; empty: the first device
    uint32_t stream = 0;        ///< ops on one stream (of one device) run in program order
    std::vector<size_t> after;  ///< indices of ops that must finish first (all < index)
    LaunchMode launch = LaunchMode::Stream;  ///< how the host launched it (the header's launch:)
    DType dtype = DType::FP32;
    OpParams params;
    KernelHints kernel;
    /// The operator's duration measured on real hardware (imported traces), microseconds;
    /// ops.csv sets the simulated time beside it.
    std::optional<double> measured_us;
    /// Re-executes forward work for the backward pass (activation checkpointing): its FLOPs
    /// count as hardware FLOPs (HFU) but not as model FLOPs (MFU).
    bool recompute = false;
    PipelinePhase phase = PipelinePhase::None;  ///< pipeline traces: forward or backward pass
    uint64_t microbatch = 0;                    ///< pipeline traces: of which micro-batch
    std::optional<uint64_t> token;  ///< inference traces: 0 prefill, j: the j-th decode step
    /// A collective over named devices (`group: [gpu0, gpu1, ...]`) is one operator per device,
    /// `<name>@<device>`; the copies start together once each has reached its turn on its own
    /// stream, and their streams go on once all have finished (NCCL's ranks). The index of the
    /// first copy identifies the group; nullopt for every other operator.
    std::optional<size_t> rendezvous;
    uint32_t rendezvous_size = 0;    ///< copies in the group
    std::vector<std::string> group;  ///< its devices, in the order of `group:` (ranks)
    SourceLocation where;            ///< the trace line that defined it
};

/// A trace of one pipeline stage (its header's `pipeline:` map): the stage runs its ops for
/// every micro-batch; the other stages are taken to be like it (uniform stages).
struct PipelineLayout {
    uint64_t stages = 1;        ///< p, >= 1
    uint64_t microbatches = 1;  ///< m per step, >= 1
    uint64_t stage = 0;         ///< the stage this trace is, < stages
    SourceLocation where;       ///< the header's pipeline: key
};

/// The device memory a trace says it needs on each device (its header's `memory:` map), in
/// bytes. wallsim run refuses a trace whose total exceeds the device's memory capacity.
struct DeclaredMemory {
    uint64_t weights = 0;      ///< parameters in their working precision
    uint64_t gradients = 0;    ///< gradients kept until the optimizer step
    uint64_t optimizer = 0;    ///< optimizer states (Adam m and v, fp32 master weights)
    uint64_t activations = 0;  ///< activations kept for the backward pass
    uint64_t kv_cache = 0;     ///< inference: keys and values of every token so far
    uint64_t workspace = 0;    ///< temporary buffers
    SourceLocation where;      ///< the header's memory: key
    /// The sum of the parts (each at most 2^60 bytes, so it cannot overflow).
    uint64_t total() const {
        return weights + gradients + optimizer + activations + kv_cache + workspace;
    }
};

/// A trace of LLM inference (its header's `inference:` map): a prefill pass over the prompt
/// (ops with `token: 0`), then one decode step per generated token (`token: 1..generate-1`).
struct InferenceLayout {
    uint64_t batch = 1;     ///< sequences decoded together, >= 1
    uint64_t prompt = 1;    ///< prompt tokens per sequence, >= 1
    uint64_t generate = 1;  ///< tokens generated per sequence, >= 1 (the first by the prefill)
    SourceLocation where;   ///< the header's inference: key
};

struct Trace {
    std::string name;
    std::string file;
    std::vector<Op> ops;
    std::optional<DeclaredMemory> memory;      ///< the header's memory: map, when present
    std::optional<PipelineLayout> pipeline;    ///< the header's pipeline: map, when present
    std::optional<InferenceLayout> inference;  ///< the header's inference: map, when present
    LaunchMode launch = LaunchMode::Stream;    ///< the header's launch: (every op carries it)
    /// Number of streams used (max stream + 1).
    uint32_t stream_count() const;
};

}  // namespace sim
