// SPDX-License-Identifier: MIT
// Runs a callable that must throw sim::ConfigError and returns the one-line message.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "sim/core/error.h"

namespace sim::testing {

template <typename F>
std::string config_error(F&& f) {
    try {
        f();
    } catch (const ConfigError& e) {
        return e.what();
    }
    ADD_FAILURE() << "expected a ConfigError";
    return {};
}

}  // namespace sim::testing
