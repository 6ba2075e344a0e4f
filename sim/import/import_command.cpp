// SPDX-License-Identifier: MIT
// `wallsim import pytorch FILE[.gz] -o trace.jsonl` and `wallsim import chakra FILE... -o
// trace.jsonl`: read a trace recorded elsewhere, write wallsim's operator trace and print what
// was imported and what could only be replayed.
#include <boost/program_options.hpp>

#include <iostream>

#include "sim/engine/command_line.h"
#include "sim/import/chakra_import.h"
#include "sim/import/commands.h"
#include "sim/import/imported_trace.h"
#include "sim/import/kineto_import.h"
#include "sim/registry/registry.h"

namespace sim::import {

namespace po = boost::program_options;

namespace {

const char* const kImportUsage =
    "usage: wallsim import pytorch FILE[.json|.json.gz] -o TRACE.jsonl [--device N]\n"
    "       wallsim import chakra RANK0.et [RANK1.et ...] -o TRACE.jsonl [--rank R] "
    "[--group N]\n";

int import_pytorch(const std::vector<std::string>& args) {
    std::string file, out;
    int64_t device = -1;
    po::options_description opts("wallsim import pytorch options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("file", po::value(&file)->required(), "torch.profiler trace (.json or .json.gz)");
    add("out,o", po::value(&out)->required(), "operator trace to write (.jsonl)");
    add("device", po::value(&device), "the GPU to import (default: the lowest id present)");
    po::positional_options_description pos;
    pos.add("file", 1);
    if (print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = parse_options(args, opts, &pos);
    KinetoImportOptions options;
    if (vm.count("device")) {
        if (device < 0) throw option_error("--device", "expected a device id >= 0");
        options.device = device;
    }
    const ImportedTrace trace = import_kineto(read_kineto_profile(file), options);
    write_trace(trace, out);
    print_summary(trace, out, std::cout);
    return 0;
}

int import_chakra_command(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    std::string out;
    std::string rank_text = "0", group_text;
    po::options_description opts("wallsim import chakra options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("files", po::value(&files)->required()->multitoken(),
        "Chakra execution traces (.et, one per rank, rank order)");
    add("out,o", po::value(&out)->required(), "operator trace to write (.jsonl)");
    add("rank", po::value(&rank_text)->default_value("0"), "the rank whose trace is written");
    add("group", po::value(&group_text),
        "ranks taking part in collectives (default: the number of files)");
    po::positional_options_description pos;
    pos.add("files", -1);
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts, &pos);
    ChakraImportOptions options;
    options.rank = whole_number_option("--rank", rank_text, 0, files.size() - 1);
    if (!group_text.empty())
        options.group = whole_number_option("--group", group_text, 2, uint64_t{1} << 20);
    const ImportedTrace trace = import_chakra(files, options);
    write_trace(trace, out);
    print_summary(trace, out, std::cout);
    return 0;
}

}  // namespace

int run_import_command(const Registry&, const std::vector<std::string>& args) {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
        std::cout << kImportUsage;
        return 0;
    }
    if (args.empty()) {
        throw ConfigError({"import", 0, 0}, "",
                          "expected a trace format: wallsim import pytorch|chakra FILE -o "
                          "TRACE.jsonl");
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "pytorch") return import_pytorch(rest);
    if (args[0] == "chakra") return import_chakra_command(rest);
    throw ConfigError({"import", 0, 0}, "",
                      "unknown trace format '" + args[0] + "'; expected pytorch or chakra");
}

}  // namespace sim::import
