// SPDX-License-Identifier: MIT
// How the simulator's own process uses the host's memory. The cycle-level models keep tens of
// megabytes of small tables (cache tag sets, warp slots, controller queues) and touch them in
// no order the host can predict, so with 4 KiB pages most of those touches also miss the
// host's TLB. Backing the heap with 2 MiB transparent huge pages removes most of those misses
// (docs/performance.md). Nothing the simulator computes depends on it.
#pragma once

#include <cstddef>

namespace sim {

/// Asks the kernel to back the heap with transparent huge pages: reserves `reserve_bytes` of
/// address space at the top of the heap, marks it for huge pages (madvise MADV_HUGEPAGE: Linux
/// in its default `madvise` THP mode) and has malloc serve blocks up to 32 MiB from the heap
/// (not from separate mappings) and keep freed memory at its top. Call it once, first thing in
/// main, before other threads start. Returns false where the host has no such mechanism
/// (not Linux with glibc) or refuses it, or for a reserve under 4 MiB or over 1 GiB; the
/// process then runs as before, only slower.
bool back_heap_with_huge_pages(size_t reserve_bytes = size_t{256} << 20);

}  // namespace sim
