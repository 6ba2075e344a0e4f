// SPDX-License-Identifier: MIT
#include "sim/core/host_memory.h"

#include <climits>
#include <cstdint>
#include <cstdlib>

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace sim {

bool back_heap_with_huge_pages(size_t reserve_bytes) {
#if defined(__linux__) && defined(__GLIBC__) && defined(MADV_HUGEPAGE)
    constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
    constexpr int kLargestHeapBlock = 32 << 20;  // glibc's own largest mmap threshold
    // mallopt takes ints; the trim threshold is twice the reserve.
    if (reserve_bytes < 2 * kHugePage || reserve_bytes > INT_MAX / 2) return false;
    // Blocks up to 32 MiB come from the heap, which grows by reserve_bytes at a time and
    // keeps what is freed at its top: the marked range then holds the models' tables.
    if (mallopt(M_MMAP_THRESHOLD, kLargestHeapBlock) == 0) return false;
    if (mallopt(M_TOP_PAD, static_cast<int>(reserve_bytes)) == 0) return false;
    if (mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * reserve_bytes)) == 0) return false;
    // A block larger than what is left at the top makes the heap grow now, by reserve_bytes.
    void* block = std::malloc(2 * kHugePage);
    if (block == nullptr) return false;
    const auto first = (reinterpret_cast<uintptr_t>(block) + kHugePage - 1) & ~(kHugePage - 1);
    const auto top = reinterpret_cast<uintptr_t>(sbrk(0));
    std::free(block);
    if (top <= first + kHugePage) return false;
    return madvise(reinterpret_cast<void*>(first), top - first, MADV_HUGEPAGE) == 0;
#else
    (void)reserve_bytes;
    return false;
#endif
}

}  // namespace sim
