// SPDX-License-Identifier: MIT
#include "sim/sweep/sweep_command.h"

#include <fmt/format.h>
#include <boost/program_options.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <set>
#include <thread>

#include "sim/engine/command_line.h"
#include "sim/sweep/experiment.h"
#include "sim/sweep/local_backend.h"
#include "sim/sweep/point_key.h"
#include "sim/sweep/process.h"
#include "sim/sweep/results.h"
#include "sim/sweep/slurm_backend.h"
#include "sim/sweep/sweep_dir.h"

namespace sim::sweep {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

constexpr size_t kFailuresShown = 5;

struct SweepOptions {
    std::string experiment;
    std::string out;
    std::string jobs;
    bool slurm = false;
    SlurmOptions slurm_options;
    std::string max_running;
    std::string poll = "5";
    bool dry_run = false;
    bool progress = true;
};

std::string shell_line(const std::vector<std::string>& argv) {
    std::string line;
    for (const std::string& a : argv) {
        const bool plain = !a.empty() && a.find_first_not_of(
                                             "abcdefghijklmnopqrstuvwxyz"
                                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789-_./=:,+@%") == std::string::npos;
        line += (line.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
    }
    return line;
}

unsigned default_jobs() {
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : n;
}

}  // namespace

int sweep_command(const std::vector<std::string>& commands, const std::vector<std::string>& args) {
    SweepOptions o;
    po::options_description opts("wallsim sweep EXPERIMENT.yaml options");
    auto add = opts.add_options();
    add("help,h", "show this help");
    add("experiment", po::value(&o.experiment)->required(), "experiment file");
    add("out", po::value(&o.out), "sweep directory (default: out/sweeps/<experiment name>)");
    add("jobs,j", po::value(&o.jobs), "points run at once on this machine (default: cores)");
    add("slurm", po::bool_switch(&o.slurm), "submit the points as one Slurm job array");
    add("partition", po::value(&o.slurm_options.partition), "--slurm: the partition");
    add("max-running", po::value(&o.max_running),
        "--slurm: most tasks of the array running at once (sbatch --array=...%M)");
    add("time", po::value(&o.slurm_options.time_limit),
        "--slurm: time limit per point, in sbatch's syntax (e.g. 30:00)");
    add("poll", po::value(&o.poll)->default_value("5"),
        "--slurm: seconds between two squeue calls");
    add("dry-run", po::bool_switch(&o.dry_run),
        "print what would run (with --slurm: the job script) and run nothing");
    add("no-progress", "never draw the progress bar");
    po::positional_options_description pos;
    pos.add("experiment", 1);
    if (print_help_if_asked(opts, args)) return 0;
    const po::variables_map vm = parse_options(args, opts, &pos);
    o.progress = vm.count("no-progress") == 0;

    unsigned jobs = default_jobs();
    if (vm.count("jobs") != 0) {
        if (o.slurm) throw option_error("--jobs", "applies to local runs, not to --slurm");
        jobs = unsigned(whole_number_option("--jobs", o.jobs, 1, 4096));
    }
    if (!o.slurm) {
        for (const char* only : {"partition", "max-running", "time"}) {
            if (vm.count(only) != 0)
                throw option_error(std::string("--") + only, "applies only with --slurm");
        }
    }
    if (vm.count("max-running") != 0)
        o.slurm_options.max_running =
            unsigned(whole_number_option("--max-running", o.max_running, 1, 1000000));
    o.slurm_options.poll_s = double(whole_number_option("--poll", o.poll, 1, 3600));

    const Experiment e = load_experiment(o.experiment, commands);
    if (o.out.empty()) o.out = (fs::path("out") / "sweeps" / e.name).string();
    const SweepDir dir(o.out, o.dry_run);
    const std::vector<Point> points = expand(e);
    PointKeys keys(WALLSIM_VERSION);
    const std::string wallsim = self_executable();

    std::vector<std::string> point_keys;
    std::vector<Task> tasks;
    std::set<std::string> queued;
    size_t reused = 0;
    for (const Point& p : points) {
        const std::string key = keys.key(e.command, p);
        point_keys.push_back(key);
        if (dir.finished(key)) {
            ++reused;
            continue;
        }
        if (!queued.insert(key).second) continue;  // two points with the same inputs
        std::vector<std::string> argv{wallsim};
        for (std::string& a : point_arguments(e, p, dir.point_dir(key).string()))
            argv.push_back(std::move(a));
        tasks.push_back({key, std::move(argv)});
    }

    if (o.dry_run) {
        if (o.slurm) {
            std::cout << job_script(e.name, dir, tasks.size(), o.slurm_options,
                                    fs::current_path().string());
            for (size_t i = 0; i < tasks.size(); ++i)
                std::cout << "# task " << i << ": " << shell_line(tasks[i].argv) << "\n";
        } else {
            for (const Task& t : tasks)
                std::cout << shell_line(t.argv) << "\n";
        }
        std::cerr << "wallsim: " << points.size() << " points, " << reused << " already done, "
                  << tasks.size() << " to run (dry run: nothing ran)\n";
        return 0;
    }

    std::cerr << "wallsim: sweep " << e.name << ": " << points.size() << " points, " << reused
              << " already done, " << tasks.size() << " to run"
              << (o.slurm ? " on Slurm" : fmt::format(" on {} job(s)", jobs)) << "\n";
    if (o.slurm)
        run_slurm(tasks, e.name, o.slurm_options, dir, o.progress);
    else
        run_local(tasks, jobs, dir, o.progress);

    const std::vector<PointResult> results = write_results(e, points, point_keys, dir);
    size_t failed = 0;
    for (size_t i = 0; i < results.size(); ++i) {
        if (results[i].ok) continue;
        if (failed < kFailuresShown)
            std::cerr << "wallsim: point " << i << " failed: " << results[i].error << "\n";
        ++failed;
    }
    if (failed > kFailuresShown)
        std::cerr << "wallsim: ... and " << failed - kFailuresShown << " more failed points\n";
    std::cerr << "wallsim: " << points.size() - failed << " of " << points.size()
              << " points ok; results in " << (dir.root() / "results.csv").string() << "\n";
    if (failed == 0) return 0;
    return kExitFailedPoints + int(std::min<size_t>(failed, kMaxCountedFailures));
}

}  // namespace sim::sweep
