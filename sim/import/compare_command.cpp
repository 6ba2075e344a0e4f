// SPDX-License-Identifier: MIT
// `wallsim compare RUN`: the measured and simulated times of a run of an imported trace, per
// op class and in total, printed and written to RUN/compare.csv.
#include <boost/program_options.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "sim/config/loader.h"
#include "sim/core/error.h"
#include "sim/engine/command_line.h"
#include "sim/import/commands.h"
#include "sim/import/compare.h"

namespace sim::import {

namespace po = boost::program_options;
namespace fs = std::filesystem;

int run_compare_command(const Registry&, const std::vector<std::string>& args) {
    std::string run_dir, csv_path;
    po::options_description opts("wallsim compare options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("run", po::value(&run_dir)->required(), "output directory of `wallsim run`");
    add("csv", po::value(&csv_path), "where to write the table (default: RUN/compare.csv)");
    po::positional_options_description pos;
    pos.add("run", 1);
    if (print_help_if_asked(opts, args)) return 0;
    parse_options(args, opts, &pos);
    const fs::path ops = fs::path(run_dir) / "ops.csv";
    if (!fs::is_regular_file(ops)) {
        throw ConfigError({run_dir, 0, 0}, "RUN",
                          "no ops.csv here; expected the --out directory of a wallsim run");
    }
    const Comparison c = compare_ops_csv(read_text_file(ops.string()), ops.string());
    if (csv_path.empty()) csv_path = (fs::path(run_dir) / "compare.csv").string();
    // Written beside its final name, then renamed: never a half-written table.
    const fs::path tmp = fs::path(csv_path).string() + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << format_compare_csv(c);
        f.close();
        if (!f) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throw ConfigError({"--csv", 0, 0}, "--csv", "'" + csv_path + "': cannot write");
        }
    }
    std::error_code ec;
    fs::rename(tmp, csv_path, ec);
    if (ec) throw ConfigError({"--csv", 0, 0}, "--csv", "'" + csv_path + "': cannot write");
    std::cout << format_compare_table(c) << "wrote " << csv_path << "\n";
    return 0;
}

}  // namespace sim::import
