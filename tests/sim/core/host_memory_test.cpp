// SPDX-License-Identifier: MIT
#include "sim/core/host_memory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace sim {
namespace {

/// Whether some part of the heap carries the kernel's huge-page advice ("hg" in VmFlags).
bool heap_marked_for_huge_pages() {
    std::ifstream smaps("/proc/self/smaps");
    bool in_heap = false;
    for (std::string line; std::getline(smaps, line);) {
        if (line.find(" [heap]") != std::string::npos) in_heap = true;
        if (line.rfind("VmFlags:", 0) == 0) {
            if (in_heap && line.find(" hg") != std::string::npos) return true;
            in_heap = false;
        }
    }
    return false;
}

// ctest runs each test in its own process, so this changes no other test's heap.
TEST(HostMemory, MarksTheHeapForHugePagesAndMallocStillWorks) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer replaces malloc: glibc's heap is not the one in use";
#endif
#if defined(__linux__) && defined(__GLIBC__)
    EXPECT_FALSE(heap_marked_for_huge_pages());  // nothing asked for them yet
#endif
    const bool marked = back_heap_with_huge_pages(size_t{64} << 20);
#if defined(__linux__) && defined(__GLIBC__)
    // Kernels built without transparent huge pages refuse the advice and have no such file.
    if (std::filesystem::exists("/sys/kernel/mm/transparent_hugepage/enabled")) {
        EXPECT_TRUE(marked);
        EXPECT_TRUE(heap_marked_for_huge_pages());
    }
#else
    EXPECT_FALSE(marked);
#endif
    // Blocks of every size, from the heap and (above 32 MiB) from their own mappings.
    std::vector<std::unique_ptr<char[]>> blocks;
    for (size_t bytes : {size_t{16}, size_t{4096}, size_t{1} << 20, size_t{40} << 20}) {
        blocks.emplace_back(new char[bytes]);
        std::memset(blocks.back().get(), 0x5a, bytes);
        EXPECT_EQ(blocks.back()[bytes - 1], 0x5a);
    }
}

}  // namespace
}  // namespace sim
