// SPDX-License-Identifier: MIT
// A hint to the host's caches: fetch the cache lines of [data, data + bytes) now, because the
// caller will read them soon. Nothing in the model changes. The simulator's state (cache tag
// arrays, controller queues, warp slots) is larger than the host's caches, so a step that
// touches many independent pieces of it stalls on one miss after another; hinting a batch of
// them first lets the host fetch them together (gem5 and SST do not do this; it is the usual
// software-pipelining of a miss-bound loop).
#pragma once

#include <cstddef>

namespace sim {

inline void prefetch_bytes(const void* data, size_t bytes) {
    const char* p = static_cast<const char*>(data);
    for (size_t at = 0; at < bytes; at += 64)
        __builtin_prefetch(p + at);
}

}  // namespace sim
