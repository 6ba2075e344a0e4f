// SPDX-License-Identifier: MIT
// The bulk-copy bandwidth microbenchmark as a kernel (Luo et al.'s TMA throughput test,
// docs/references.md [luo2024]): one warp per CTA copies blocks of an array into shared memory
// and waits for each, keeping `in_flight` copies outstanding. Round r of CTA c copies block
// r x ctas + c, so each round of the grid reads one contiguous stretch of the array, as the
// benchmark's loop does. With one copy in flight a CTA's copies take one round trip each, so
// the grid's throughput is ctas x copy_bytes over the memory system's latency under the load
// those copies make: Little's law, measured. On a GPU with TMA (sm.tma_latency > 0) a copy is a
// TMA bulk copy; elsewhere it is cp.async by the warp. Pure C++.
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

KernelLaunch bulk_copy_kernel(const BulkCopyParams& p, const GpuTarget& target) {
    const uint64_t shared = p.in_flight * p.copy_bytes;
    if (shared > target.core.sm.shared_memory) {
        throw NotLowerable("in_flight x copy_bytes is " + std::to_string(shared) +
                           " B of shared memory per CTA, more than an SM has (" +
                           std::to_string(target.core.sm.shared_memory) + " B)");
    }
    KernelLaunch k;
    k.name = "bulk_copy";
    k.tile = std::to_string(p.copy_bytes) + " B copies" +
             (p.rows > 1 ? " of " + std::to_string(p.rows) + " rows" : std::string()) + ", " +
             std::to_string(p.in_flight) + " in flight";
    k.ctas = p.ctas;
    k.threads_per_cta = 32;
    k.registers_per_thread = 32;
    k.shared_bytes_per_cta = static_cast<uint32_t>(shared);
    // Measured whole at every fidelity: sampled, its first rounds (CTAs in step, the memory
    // still filling) read about 7% faster than the rate it settles to.
    k.may_sample = false;
    k.grid.m_tiles = p.ctas;
    k.grid.k_tiles = p.copies;
    AddressSpace space;
    AddressStream s;
    s.name = "array";
    s.layout = AddressStream::Layout::Tile;
    // The array as `copies` bands of p.rows rows, each row p.pitch() bytes: a CTA's round (K)
    // picks the band, its index (M) the block's columns in it.
    s.matrix_rows = p.copies * p.rows;
    s.row_bytes = p.pitch();
    s.base = space.allocate(s.matrix_rows * s.row_bytes);
    s.row_axis = AddressStream::Axis::K;
    s.col_axis = AddressStream::Axis::M;
    s.tile_rows = p.rows;
    s.tile_row_bytes = p.row_bytes();
    k.streams.push_back(s);

    const auto stages = static_cast<uint32_t>(p.in_flight);
    ProgramBuilder b;
    const uint8_t stage = b.regs(stages);
    // The first in_flight - 1 copies before the loop; each trip starts the copy in_flight - 1
    // ahead (none past the last round) and waits for its own.
    // The copies are the leader warp's (its only one): a TMA, which pays sm.tma_latency.
    for (uint32_t u = 0; u + 1 < stages; ++u)
        b.tma(0, stage, 1, u).rotating(stages).leader_only();
    b.marker(Opcode::LoopBegin, static_cast<uint32_t>(p.copies));
    b.tma(0, stage, 1, stages - 1).rotating(stages).leader_only();
    b.op(Opcode::Ialu, 1, 1, kNoReg, stage).rotating(stages).leader_only();
    b.marker(Opcode::LoopEnd);
    k.program = b.finish();
    return k;
}

}  // namespace sim::gpu
