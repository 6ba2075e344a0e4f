// SPDX-License-Identifier: MIT
// What every fuzz target accepts from the library on bad input: a sim::ConfigError whose
// message is one line (main prints it as one line and exits 2). Anything else escaping the
// call is a finding: another exception type (a SimBug included) reaches std::terminate, and a
// multi-line message aborts here, so libFuzzer saves the input as a crash reproducer.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim/core/error.h"

namespace sim::fuzz {

/// Runs parse; returns normally when it succeeds or throws a one-line ConfigError.
template <typename Parse>
void expect_documented_errors(Parse&& parse) {
    try {
        parse();
    } catch (const ConfigError& e) {
        if (std::string(e.what()).find('\n') != std::string::npos) {
            std::fprintf(stderr, "ConfigError message spans several lines:\n%s\n", e.what());
            std::abort();
        }
    }
}

}  // namespace sim::fuzz
