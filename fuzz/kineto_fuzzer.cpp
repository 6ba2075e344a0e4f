// SPDX-License-Identifier: MIT
// libFuzzer target: PyTorch profiler (Kineto) / Chrome trace JSON, read and imported for the
// first device (sim/import/kineto_profile.h, kineto_import.h); what it imports must parse
// back as a trace (fuzz/imported_trace_check.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/documented_errors.h"
#include "fuzz/imported_trace_check.h"
#include "sim/import/kineto_import.h"
#include "sim/import/kineto_profile.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    sim::fuzz::expect_documented_errors([&] {
        const auto profile = sim::import::parse_kineto_profile(text, "fuzz.json");
        sim::fuzz::expect_parsable_import(sim::import::import_kineto(profile, {}));
    });
    return 0;
}
