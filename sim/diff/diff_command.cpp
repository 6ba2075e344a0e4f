// SPDX-License-Identifier: MIT
#include "sim/diff/diff_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>

#include "sim/core/error.h"
#include "sim/diff/diff_report.h"
#include "sim/diff/run_diff.h"
#include "sim/diff/run_output.h"
#include "sim/engine/command_line.h"

namespace sim::diff {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// Written beside the target and renamed over it, so a failed write leaves no partial file.
void write_atomically(const std::string& file, const std::string& text) {
    const fs::path target(file);
    if (target.filename().empty() || fs::is_directory(target)) {
        throw option_error("--csv", "'" + file + "' is a folder; expected a file name");
    }
    const fs::path parent = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (!fs::is_directory(parent, ec)) {
        throw option_error("--csv", "'" + parent.string() + "': no such folder");
    }
    const fs::path staging =
        parent / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()));
    {
        std::ofstream out(staging, std::ios::binary);
        out << text;
        out.close();
        if (!out) {
            fs::remove(staging, ec);
            throw option_error("--csv", "cannot write '" + staging.string() + "'");
        }
    }
    fs::rename(staging, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(staging, ignored);
        throw option_error("--csv", "cannot write '" + file + "': " + ec.message());
    }
}

}  // namespace

int diff_command(const std::vector<std::string>& args) {
    std::string run_a, run_b, csv, top_text, sort;
    po::options_description opts("wallsim diff RUN_A RUN_B options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("run-a", po::value(&run_a)->required(), "output folder of the first 'wallsim run'");
    add("run-b", po::value(&run_b)->required(), "output folder of the second");
    add("top", po::value(&top_text)->default_value("20"),
        "operators printed, largest change first (0: all)");
    add("sort", po::value(&sort)->default_value("time"),
        "order operators by the change in 'time' or in 'energy'");
    add("csv", po::value(&csv), "also write every figure of the comparison to this CSV file");
    po::positional_options_description pos;
    pos.add("run-a", 1).add("run-b", 1);
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts, &pos);
    const size_t top =
        whole_number_option("--top", top_text, 0, std::numeric_limits<uint32_t>::max());
    if (sort != "time" && sort != "energy") {
        throw option_error("--sort", "'" + sort + "' is not 'time' or 'energy'");
    }
    const SortKey key = sort == "time" ? SortKey::Time : SortKey::Energy;

    // Both runs are read before anything is written.
    const RunOutput a = load_run_output(run_a);
    const RunOutput b = load_run_output(run_b);
    const RunDiff d = diff_runs(a, b, key);
    if (!csv.empty()) write_atomically(csv, format_csv(d));
    std::cout << format_text(a, b, d, key, top);
    return 0;
}

}  // namespace sim::diff
