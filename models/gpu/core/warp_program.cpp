// SPDX-License-Identifier: MIT
#include "models/gpu/core/warp_program.h"

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
        case Layout::Gather: {
            const uint64_t row = mix(seed ^ (v / row_vectors)) % rows;
            return base + (row * row_vectors + v % row_vectors) * access_bytes;
        }
    }
    return base + v * access_bytes;
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
    int loops = 0;
    int regions = 0;
    for (const Instr& in : program) {
        for (uint8_t r : {in.dst, in.src[0], in.src[1]}) {
            if (r != kNoReg && r >= kMaxRegs) fail("register out of range");
        }
        switch (in.op) {
            case Opcode::Ldg:
            case Opcode::Stg:
                if (in.stream >= streams.size()) fail("memory instruction names no stream");
                break;
            case Opcode::LoopBegin:
                if (in.count == 0) fail("a loop must run at least once");
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
    if (regions != 0) fail("unterminated divergent region");
    for (const AddressStream& s : streams) {
        if (s.access_bytes == 0 || s.access_bytes > 16 || (s.access_bytes & (s.access_bytes - 1)))
            fail("stream " + s.name + ": access bytes must be 1, 2, 4, 8 or 16");
        if (s.vectors == 0) fail("stream " + s.name + " is empty");
        if (s.layout == AddressStream::Layout::Strided && s.stride == 0)
            fail("stream " + s.name + ": stride must be at least 1");
        if (s.layout == AddressStream::Layout::Gather && (s.rows == 0 || s.row_vectors == 0))
            fail("stream " + s.name + ": a gather needs rows");
    }
}

uint64_t AddressSpace::allocate(uint64_t bytes) {
    constexpr uint64_t kAlign = 2ULL << 20;
    const uint64_t at = next_;
    next_ += (bytes + kAlign - 1) / kAlign * kAlign;
    return at;
}

}  // namespace sim::gpu
