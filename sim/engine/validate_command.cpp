// SPDX-License-Identifier: MIT
#include "sim/engine/validate_command.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <boost/program_options.hpp>
#include <boost/tokenizer.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "sim/config/loader.h"
#include "sim/engine/command_line.h"
#include "sim/engine/figure_text.h"
#include "sim/engine/measurement_spread.h"
#include "sim/engine/output_dir.h"
#include "sim/engine/validation_cases.h"
#include "sim/engine/validation_summary.h"

extern char** environ;

namespace sim {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

struct Outcome {
    std::optional<double> simulated;  ///< in the case's unit; nullopt when the run failed
    std::string error;                ///< why it failed
    double seconds = 0;               ///< wall time of the case
};

// Runs `exe args` with stdout and stderr in files; returns the exit status (-1: did not run).
int spawn(const std::string& exe,
          const std::vector<std::string>& args,
          const fs::path& out_file,
          const fs::path& err_file) {
    std::vector<std::string> argv_s{exe};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argv_s)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string first_line(const fs::path& p) {
    std::ifstream in(p);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty()) last = line;
    }
    return last;
}

// The value at a dotted path of a JSON document ("net_run.busbw.value").
double json_value(const fs::path& file, const std::string& path) {
    std::ifstream in(file);
    const nlohmann::json doc = nlohmann::json::parse(in);
    const nlohmann::json* node = &doc;
    std::stringstream ss(path);
    std::string part;
    while (std::getline(ss, part, '.')) {
        if (!node->is_object() || !node->contains(part))
            throw std::runtime_error(file.filename().string() + " has no " + path);
        node = &(*node)[part];
    }
    if (!node->is_number())
        throw std::runtime_error(file.filename().string() + ": " + path + " is not a number");
    return node->get<double>();
}

// The value in a named column of a CSV file (row 0: the first line after the header).
double csv_value(const fs::path& file, const std::string& column, uint32_t row) {
    std::ifstream in(file);
    using Tokens = boost::tokenizer<boost::escaped_list_separator<char>>;
    std::string line;
    if (!std::getline(in, line)) throw std::runtime_error(file.filename().string() + " is empty");
    const Tokens header(line);
    const std::vector<std::string> names(header.begin(), header.end());
    const auto col = std::find(names.begin(), names.end(), column);
    if (col == names.end())
        throw std::runtime_error(file.filename().string() + " has no column " + column);
    for (uint32_t r = 0; std::getline(in, line); ++r) {
        if (r != row) continue;
        const Tokens t(line);
        const std::vector<std::string> cells(t.begin(), t.end());
        const auto i = static_cast<size_t>(col - names.begin());
        if (i >= cells.size()) break;
        return std::stod(cells[i]);
    }
    throw std::runtime_error(file.filename().string() + " has no data row " + std::to_string(row));
}

Outcome run_case(const std::string& exe, const ValidationCase& c, const fs::path& scratch) {
    Outcome o;
    const fs::path out = scratch / c.id;
    std::vector<std::string> args = c.command;
    for (std::string& a : args) {
        if (a == "{out}") a = out.string();
    }
    const auto start = std::chrono::steady_clock::now();
    const int code = spawn(exe, args, scratch / (c.id + ".stdout"), scratch / (c.id + ".stderr"));
    o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (code != 0) {
        o.error = "exit " + std::to_string(code) + ": " + first_line(scratch / (c.id + ".stderr"));
        return o;
    }
    try {
        const fs::path file = out / c.metric_file;
        const double v = c.metric_path.empty() ? csv_value(file, c.metric_column, c.metric_row)
                                               : json_value(file, c.metric_path);
        if (c.divide > 0 && !(v > 0)) throw std::runtime_error(c.metric_path + " is not positive");
        o.simulated = (c.divide > 0 ? c.divide / v : v) * c.scale;
    } catch (const std::exception& e) {
        o.error = e.what();
    }
    return o;
}

std::string csv_cell(const std::string& s) {
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) {
        if (ch == '"') q += '"';
        q += ch;
    }
    return q + "\"";
}

}  // namespace

int run_validate_command(const std::string& argv0, const std::vector<std::string>& args) {
    std::string cases_dir, filter, out_dir;
    po::options_description opts("wallsim validate options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("cases", po::value(&cases_dir)->default_value("configs/validation"),
        "directory of validation cases (*.yaml, configs/validation/README.md)");
    add("filter", po::value(&filter),
        "run only the cases whose id or component contains this text");
    add("out", po::value(&out_dir), "write validation.csv and validation.md here");
    add("all", "also run the slow cases (minutes of CPU each)");
    if (print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = parse_options(args, opts);
    const bool all = vm.count("all") != 0;

    std::vector<ValidationCase> cases;
    size_t skipped = 0;
    for (ValidationCase& c : load_validation_cases(cases_dir)) {
        if (!filter.empty() && c.id.find(filter) == std::string::npos &&
            c.component.find(filter) == std::string::npos)
            continue;
        if (c.slow && !all) {
            ++skipped;
            continue;
        }
        cases.push_back(std::move(c));
    }
    if (cases.empty() && skipped > 0)
        throw option_error("--all", "only slow cases match; run them with --all");
    if (cases.empty()) throw option_error("--filter", "'" + filter + "' matches no case");
    std::unique_ptr<OutputDir> out;
    if (!out_dir.empty()) out = std::make_unique<OutputDir>(out_dir);

    const std::string exe = fs::read_symlink("/proc/self/exe").string();
    (void)argv0;
    const fs::path scratch =
        fs::temp_directory_path() / ("wallsim-validate-" + std::to_string(::getpid()));
    fs::create_directories(scratch);

    std::string csv =
        "id,component,check,hardware,workload,measured,simulated,unit,error,tolerance,pass,"
        "known_gap,source,seconds,peak,points,group\n";
    std::string md;
    std::vector<CaseOutcome> outcomes;
    std::vector<EfficiencyOutcome> efficiency;
    std::vector<GroupedMember> grouped;
    int failed_runs = 0;
    size_t passed[2] = {0, 0}, total[2] = {0, 0};
    std::printf("%-34s %-11s %-11s %12s %12s %-6s %8s %6s  %s\n", "case", "component", "check",
                "measured", "simulated", "unit", "error", "pass", "source");
    for (const CheckKind kind : {CheckKind::Validation, CheckKind::Consistency}) {
        md += kind == CheckKind::Validation
                  ? "\n### Validations (independent published measurements)\n\n"
                  : "\n### Consistency checks (hold by construction: datasheet peaks, fitted "
                    "points)\n\n";
        md +=
            "| case | hardware | workload | measured | simulated | error | tolerance | pass | "
            "source |\n|---|---|---|---|---|---|---|---|---|\n";
        for (const ValidationCase& c : cases) {
            if (c.check != kind) continue;
            const Outcome o = run_case(exe, c, scratch);
            const int k = kind == CheckKind::Validation ? 0 : 1;
            ++total[k];
            std::string sim_text = "error", err_text = "-", pass_text = "ERROR";
            double err = 0;
            bool pass = false;
            if (o.simulated) {
                err = (*o.simulated - c.measured) / c.measured;
                pass = std::fabs(err) <= c.tolerance;
                sim_text = figure_text(*o.simulated);
                err_text = formatted("%+.1f%%", 100 * err);
                pass_text = pass ? "yes" : (c.known_gap.empty() ? "NO" : "no (gap)");
                passed[k] += pass ? 1 : 0;
            } else {
                ++failed_runs;
            }
            std::optional<EfficiencyOutcome> eff;
            if (c.peak > 0 && o.simulated && kind == CheckKind::Validation) {
                eff = EfficiencyOutcome{c.id, c.peak, c.measured, *o.simulated, c.unit};
                efficiency.push_back(*eff);
            }
            grouped.push_back({c.group, c.unit, {c.id, c.measured, o.simulated}});
            outcomes.push_back({c.id, c.component, c.check,
                                o.simulated ? std::optional<double>(err) : std::nullopt,
                                c.tolerance, !c.known_gap.empty()});
            std::printf("%-34s %-11s %-11s %12s %12s %-6s %8s %6s  %s\n", c.id.c_str(),
                        c.component.c_str(), to_string(c.check).c_str(),
                        figure_text(c.measured).c_str(), sim_text.c_str(), c.unit.c_str(),
                        err_text.c_str(), pass_text.c_str(), c.source.c_str());
            if (!o.simulated) std::printf("    %s: %s\n", c.id.c_str(), o.error.c_str());
            csv += csv_cell(c.id) + "," + csv_cell(c.component) + "," + to_string(c.check) + "," +
                   csv_cell(c.hardware) + "," + csv_cell(c.workload) + "," +
                   formatted("%.6g", c.measured) + "," +
                   (o.simulated ? formatted("%.6g", *o.simulated) : "") + "," + csv_cell(c.unit) +
                   "," + (o.simulated ? formatted("%.6g", err) : "") + "," +
                   formatted("%.6g", c.tolerance) + "," + (pass ? "1" : "0") + "," +
                   csv_cell(c.known_gap) + "," + csv_cell(c.source) + "," +
                   formatted("%.3f", o.seconds) + "," +
                   (c.peak > 0 ? formatted("%.6g", c.peak) : "") + "," +
                   (eff ? formatted("%.6g", eff->points()) : "") + "," + csv_cell(c.group) + "\n";
            md += "| `" + c.id + "` | " + c.hardware + " | " + c.workload + " | " +
                  figure_text(c.measured) + " " + c.unit + " | " + sim_text + " " + c.unit + " | " +
                  err_text + " | ±" + formatted("%.0f%%", 100 * c.tolerance) + " | " + pass_text +
                  " | " + c.source + " |\n";
        }
    }
    std::printf("validations: %zu of %zu within tolerance; consistency checks: %zu of %zu%s\n",
                passed[0], total[0], passed[1], total[1],
                skipped > 0
                    ? ("; " + std::to_string(skipped) + " slow case(s) not run (--all)").c_str()
                    : "");
    const std::vector<ComponentSummary> summary = summarize_by_component(outcomes);
    std::printf("\n%s", summary_text(summary).c_str());
    std::printf("%s", efficiency_text(efficiency).c_str());
    const std::vector<SpreadGroup> spread = spread_groups(grouped);
    std::printf("%s", spread_text(spread).c_str());
    std::error_code ec;
    fs::remove_all(scratch, ec);
    if (out) {
        out->write("validation.csv", csv);
        out->write("validation.md",
                   "<!-- written by wallsim validate -->\n\n" + summary_markdown(summary) + md +
                       (efficiency.empty() ? "" : "\n" + efficiency_markdown(efficiency)) +
                       (spread.empty() ? "" : "\n" + spread_markdown(spread)));
        out->commit();
    }
    return failed_runs > 0 ? 1 : 0;
}

}  // namespace sim
