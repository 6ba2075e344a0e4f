// SPDX-License-Identifier: MIT
// libFuzzer target: SCALE-Sim hardware configs, .cfg (models/systolic/core/scalesim_io.h).
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz/documented_errors.h"
#include "models/systolic/core/scalesim_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text(reinterpret_cast<const char*>(data), size);
    sim::fuzz::expect_documented_errors(
        [&] { sim::systolic::parse_scalesim_config(text, "fuzz.cfg"); });
    return 0;
}
