// SPDX-License-Identifier: MIT
#include "sim/engine/command_line.h"

#include <charconv>
#include <iostream>

namespace sim {

namespace po = boost::program_options;

bool print_help_if_asked(const po::options_description& opts,
                         const std::vector<std::string>& args) {
    for (const auto& a : args) {
        if (a == "--help" || a == "-h") {
            std::cout << opts;
            return true;
        }
    }
    return false;
}

po::variables_map parse_options(const std::vector<std::string>& args,
                                const po::options_description& opts,
                                const po::positional_options_description* positional) {
    po::variables_map vm;
    po::command_line_parser parser(args);
    parser.options(opts);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), vm);
    po::notify(vm);
    return vm;
}

ConfigError option_error(const std::string& option, const std::string& message) {
    return ConfigError({option, 0, 0}, "", message);
}

uint64_t whole_number_option(const std::string& option,
                             const std::string& text,
                             uint64_t least,
                             uint64_t most) {
    uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size() || v < least || v > most) {
        throw option_error(option, "'" + text + "' is not a whole number from " +
                                       std::to_string(least) + " to " + std::to_string(most));
    }
    return v;
}

}  // namespace sim
