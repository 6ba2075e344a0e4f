// SPDX-License-Identifier: MIT
// libFuzzer target: Chakra execution traces (.et, plain or gzip), read and imported as
// `wallsim import chakra` does (sim/import/chakra_import.h); what it imports must parse back
// as a trace (fuzz/imported_trace_check.h). The importer reads files, so the input is first
// written to a file of this process (named by its pid) in the temp directory.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/documented_errors.h"
#include "fuzz/imported_trace_check.h"
#include "sim/import/chakra_import.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::filesystem::path path = std::filesystem::temp_directory_path() /
                                       ("wallsim_chakra_fuzz_" + std::to_string(getpid()) + ".et");
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    sim::fuzz::expect_documented_errors([&] {
        sim::fuzz::expect_parsable_import(sim::import::import_chakra({path.string()}, {}));
    });
    std::filesystem::remove(path);
    return 0;
}
