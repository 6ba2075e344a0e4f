// SPDX-License-Identifier: MIT
// An embedding lookup: a vector of each of `tokens` rows of `dim` gathered from a table of
// `vocab` rows (token ids from a fixed hash, uniformly spread) and written densely. The token
// ids themselves (4 bytes per row) are left out of the traffic.
#include "models/gpu/kernels/kernel_shape.h"
#include "models/gpu/kernels/kernels.h"
#include "models/gpu/kernels/program_builder.h"

namespace sim::gpu {

KernelLaunch embedding_kernel(const EmbeddingParams& p,
                              DType dtype,
                              const KernelHints& h,
                              AddressSpace& space) {
    if (p.tokens == 0 || p.dim == 0 || p.vocab == 0)
        throw NotLowerable("an embedding needs tokens, dim and vocab");
    const uint32_t vec = vector_width(dtype, h);
    if (p.dim % vec != 0) throw NotLowerable("dim must be a multiple of the vector width");
    const uint32_t block = block_size(h, 256);
    KernelLaunch k;
    k.name = "embedding";
    k.threads_per_cta = block;
    k.registers_per_thread = static_cast<uint32_t>(h.registers.value_or(32));
    k.shared_bytes_per_cta = static_cast<uint32_t>(h.shared_memory.value_or(0));
    const uint64_t vectors = p.tokens * p.dim / vec;
    k.ctas = checked_grid(ceil_div(vectors, block));
    AddressStream table = dense_stream("table", space, p.vocab * p.dim, dtype, vec, block, 0);
    table.layout = AddressStream::Layout::Gather;
    table.rows = p.vocab;
    table.row_vectors = p.dim / vec;
    table.vectors = vectors;  // the walk is over output vectors; rows come from the hash
    k.streams.push_back(table);
    k.streams.push_back(dense_stream("out", space, p.tokens * p.dim, dtype, vec, block, 0));
    ProgramBuilder b;
    const uint8_t addr = b.reg(), x = b.reg();
    b.op(Opcode::Ialu, 6, 1, addr);  // row of the token, table offset, output offset
    b.ldg(x, 0, addr).stg(1, x, addr);
    k.program = b.finish();
    return k;
}

}  // namespace sim::gpu
