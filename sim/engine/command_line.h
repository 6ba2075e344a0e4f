// SPDX-License-Identifier: MIT
// What every `wallsim <command>` does with its options: print them on --help, parse them with
// Boost.ProgramOptions, and report a bad value as a ConfigError named after the option.
#pragma once

#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "sim/core/error.h"

namespace sim {

/// Prints opts to stdout and returns true when args hold --help or -h.
bool print_help_if_asked(const boost::program_options::options_description& opts,
                         const std::vector<std::string>& args);

/// Parses args against opts (and positional), checks required options, fills defaults.
/// Throws boost::program_options::error on an unknown or malformed option.
boost::program_options::variables_map parse_options(
    const std::vector<std::string>& args,
    const boost::program_options::options_description& opts,
    const boost::program_options::positional_options_description* positional = nullptr);

/// A bad value of a command-line option, as the one-line error main prints.
ConfigError option_error(const std::string& option, const std::string& message);

/// A whole number in [least, most] given as text. Options are read as text because
/// Boost.ProgramOptions turns "-1" into a huge unsigned value. Throws option_error.
uint64_t whole_number_option(const std::string& option,
                             const std::string& text,
                             uint64_t least,
                             uint64_t most);

}  // namespace sim
