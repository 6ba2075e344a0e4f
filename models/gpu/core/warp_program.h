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
    uint32_t unrolled = 0;  ///< Ldg/Stg: added to the loop iteration (an unrolled loop's copy)
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
    };
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

    /// The byte address thread `thread` of `cta` touches on loop iteration `iteration`.
    uint64_t address(uint64_t cta, uint64_t iteration, uint64_t thread) const;
};

struct KernelLaunch {
    std::string name;
    uint64_t ctas = 1;
    uint32_t threads_per_cta = 256;
    uint32_t registers_per_thread = 32;
    uint32_t shared_bytes_per_cta = 0;
    std::vector<Instr> program;
    std::vector<AddressStream> streams;

    uint32_t warps_per_cta() const { return (threads_per_cta + 31) / 32; }
    /// Throws std::invalid_argument for a malformed program (unmatched loops or regions,
    /// a register or stream out of range, no Exit).
    void validate() const;
};

/// Lays arrays out one after another in a flat address space, each aligned to 2 MiB.
class AddressSpace {
  public:
    uint64_t allocate(uint64_t bytes);

  private:
    uint64_t next_ = 0;
};

}  // namespace sim::gpu
