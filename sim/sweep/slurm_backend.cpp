// SPDX-License-Identifier: MIT
#include "sim/sweep/slurm_backend.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>

#include "sim/core/error.h"
#include "sim/sweep/process.h"
#include "sim/sweep/slurm_state.h"

namespace sim::sweep {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxQueryFailures = 10;  // consecutive squeue failures before giving up

std::string quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) {
        if (c == '\'')
            q += "'\\''";
        else
            q += c;
    }
    return q + "'";
}

ConfigError slurm_error(const std::string& message) {
    return ConfigError({"--slurm", 0, 0}, "", message);
}

std::string one_line(std::string s) {
    std::replace(s.begin(), s.end(), '\n', ' ');
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    return s;
}

// Array index ranges "3,7,10-12" of the sorted indices.
std::string ranges(const std::vector<size_t>& sorted) {
    std::string out;
    for (size_t i = 0; i < sorted.size();) {
        size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1)
            ++j;
        out += (out.empty() ? "" : ",") + std::to_string(sorted[i]);
        if (j > i) out += "-" + std::to_string(sorted[j]);
        i = j + 1;
    }
    return out;
}

// One sbatch call: tasks offset .. offset + indices, throttled by max_running.
struct Submission {
    std::string job_id;
    size_t offset = 0;
    std::vector<size_t> indices;  // array indices (task = offset + index)
};

class SlurmRun {
  public:
    SlurmRun(const std::vector<Task>& tasks,
             const std::string& name,
             const SlurmOptions& options,
             const SweepDir& dir)
        : tasks_(tasks), options_(options), dir_(dir), script_(dir.slurm_dir() / "job.sh") {
        fs::create_directories(dir.slurm_dir() / "tasks");
        std::ofstream(script_) << job_script(name, dir, tasks.size(), options,
                                             fs::current_path().string());
        for (size_t i = 0; i < tasks.size(); ++i) {
            dir.forget(tasks[i].key);
            std::ofstream(dir.slurm_dir() / "tasks" / (std::to_string(i) + ".args"))
                << task_file(tasks[i]);
        }
        const Captured config = run({"scontrol", "show", "config"});
        max_array_ = config.exit_code == 0 ? parse_max_array_size(config.out) : 1001;
    }

    // Submits the tasks (chunks of at most MaxArraySize indices), returns the submissions.
    std::vector<Submission> submit(const std::vector<size_t>& task_ids) {
        std::vector<Submission> subs;
        for (size_t first = 0; first < task_ids.size();) {
            Submission s;
            s.offset = task_ids[first] - task_ids[first] % max_array_;
            size_t last = first;
            while (last < task_ids.size() && task_ids[last] - s.offset < max_array_) {
                s.indices.push_back(task_ids[last] - s.offset);
                ++last;
            }
            std::string array = ranges(s.indices);
            if (options_.max_running > 0) array += "%" + std::to_string(options_.max_running);
            const Captured c = run({"sbatch", "--parsable", "--array=" + array,
                                    "--export=ALL,WALLSIM_TASK_OFFSET=" + std::to_string(s.offset),
                                    script_.string()});
            if (c.exit_code != 0) throw slurm_error("sbatch failed: " + one_line(c.err + c.out));
            s.job_id = one_line(c.out.substr(0, c.out.find(';')));
            if (s.job_id.empty()) throw slurm_error("sbatch printed no job id");
            subs.push_back(s);
            first = last;
        }
        return subs;
    }

    // Polls until no task of subs is queued or running.
    void wait(const std::vector<Submission>& subs,
              SweepProgress& bar,
              size_t& done,
              size_t& failed,
              std::set<size_t>& seen) {
        std::string ids;
        for (const Submission& s : subs)
            ids += (ids.empty() ? "" : ",") + s.job_id;
        int failures = 0;
        for (;;) {
            const Captured q = run({"squeue", "-h", "-r", "-j", ids, "-o", "%i|%T"});
            QueueCounts counts;
            if (q.exit_code != 0) {
                // A job that has left the controller's memory is an "Invalid job id".
                if (q.err.find("Invalid job id") == std::string::npos) {
                    if (++failures >= kMaxQueryFailures)
                        throw slurm_error("squeue failed: " + one_line(q.err));
                    std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_s));
                    continue;
                }
            } else {
                counts = parse_squeue(q.out);
            }
            failures = 0;
            for (const Submission& s : subs) {
                for (size_t index : s.indices) {
                    const size_t t = s.offset + index;
                    if (seen.count(t) != 0) continue;
                    if (const auto st = read_status(dir_.status_file(tasks_[t].key))) {
                        seen.insert(t);
                        ++done;
                        if (st->exit_code != 0) ++failed;
                    }
                }
            }
            bar.update(done, counts.running, failed);
            if (counts.queued == 0) return;
            std::this_thread::sleep_for(std::chrono::duration<double>(options_.poll_s));
        }
    }

    // The end state of every task of subs that left no status file.
    std::map<size_t, std::string> lost(const std::vector<Submission>& subs) {
        std::map<size_t, std::string> out;
        for (const Submission& s : subs) {
            std::map<size_t, std::string> states;
            const Captured a =
                run({"sacct", "-n", "-P", "-X", "-j", s.job_id, "-o", "JobID,State"});
            if (a.exit_code == 0) states = parse_sacct_states(a.out, s.job_id);
            if (states.empty()) {
                const Captured c = run({"scontrol", "-o", "show", "job", s.job_id});
                if (c.exit_code == 0) states = parse_scontrol_states(c.out, s.job_id);
            }
            for (size_t index : s.indices) {
                const size_t t = s.offset + index;
                if (read_status(dir_.status_file(tasks_[t].key))) continue;
                const auto it = states.find(index);
                out[t] = it == states.end() ? "" : it->second;
            }
        }
        return out;
    }

    void record_lost(size_t t, const std::string& state, const std::string& job_id) {
        PointStatus s;
        s.exit_code = -1;
        s.error = fmt::format("Slurm task {} ended without running the point (state {})", job_id,
                              state.empty() ? "unknown" : state);
        write_status(dir_.status_file(tasks_[t].key), s);
    }

  private:
    Captured run(const std::vector<std::string>& argv) const {
        return run_captured(argv, dir_.slurm_dir().string());
    }

    const std::vector<Task>& tasks_;
    const SlurmOptions& options_;
    const SweepDir& dir_;
    fs::path script_;
    size_t max_array_ = 1001;
};

}  // namespace

std::string task_file(const Task& task) {
    std::string text = task.key + "\n";
    for (const std::string& a : task.argv) {
        if (a.find('\n') != std::string::npos)
            throw ConfigError({"--slurm", 0, 0}, "", "an argument holds a line break: " + a);
        text += a + "\n";
    }
    return text;
}

std::string job_script(const std::string& sweep_name,
                       const SweepDir& dir,
                       size_t tasks,
                       const SlurmOptions& options,
                       const std::string& working_dir) {
    const std::string root = fs::absolute(dir.root()).lexically_normal().string();
    std::string s = "#!/bin/bash\n";
    s += "#SBATCH --job-name=" + quote("wallsim-" + sweep_name) + "\n";
    s += fmt::format("#SBATCH --array=0-{}", tasks == 0 ? 0 : tasks - 1);
    if (options.max_running > 0) s += "%" + std::to_string(options.max_running);
    s += "\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
    s += "#SBATCH --output=" + quote(root + "/slurm/task-%A_%a.out") + "\n";
    if (!options.partition.empty()) s += "#SBATCH --partition=" + quote(options.partition) + "\n";
    if (!options.time_limit.empty()) s += "#SBATCH --time=" + quote(options.time_limit) + "\n";
    s += "# One point of the wallsim sweep '" + sweep_name +
         "' per array task, written by `wallsim sweep --slurm`.\n"
         "# Task i runs the command line in slurm/tasks/i.args (its point key first, then one\n"
         "# argument a line) and leaves logs/KEY.log and logs/KEY.status, as a local run does.\n"
         "set -u\n";
    s += "root=" + quote(root) + "\n";
    s += "task=$(( ${SLURM_ARRAY_TASK_ID:?submit with sbatch --array} + "
         "${WALLSIM_TASK_OFFSET:-0} ))\n";
    s += "mapfile -t cmd < \"$root/slurm/tasks/$task.args\" || exit 1\n"
         "key=${cmd[0]}\n"
         "cmd=(\"${cmd[@]:1}\")\n"
         "status=\"$root/logs/$key.status\"\n"
         "rm -f \"$status\"\n";
    s += "cd " + quote(working_dir) + " || exit 1\n";
    s += "# At a time limit Slurm sends SIGTERM to every process of the task: the trap lets this\n"
         "# script outlive the point and record how it ended.\n"
         "trap 'true' TERM\n"
         "start=$(date +%s.%N)\n"
         "\"${cmd[@]}\" >\"$root/logs/$key.log\" 2>&1 </dev/null\n"
         "rc=$?\n"
         "end=$(date +%s.%N)\n"
         "printf '{\"exit_code\": %d, \"start\": %s, \"end\": %s}\\n' \"$rc\" \"$start\" "
         "\"$end\" >\"$status.tmp\" && mv \"$status.tmp\" \"$status\"\n"
         "exit \"$rc\"\n";
    return s;
}

void run_slurm(const std::vector<Task>& tasks,
               const std::string& sweep_name,
               const SlurmOptions& options,
               const SweepDir& dir,
               bool progress) {
    if (tasks.empty()) return;
    SlurmRun run(tasks, sweep_name, options, dir);
    SweepProgress bar(tasks.size(), progress);
    size_t done = 0, failed = 0;
    std::set<size_t> seen;
    std::vector<size_t> all(tasks.size());
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = i;
    auto subs = run.submit(all);
    std::cerr << "wallsim: submitted " << tasks.size() << " points as Slurm job " << subs[0].job_id
              << (subs.size() > 1 ? fmt::format(" and {} more", subs.size() - 1) : "") << "\n";
    run.wait(subs, bar, done, failed, seen);
    // One more try for the tasks a node lost; the others are recorded as they ended.
    const auto job_of = [](const std::vector<Submission>& subs) {
        std::map<size_t, std::string> out;
        for (const auto& s : subs)
            for (size_t index : s.indices)
                out[s.offset + index] = s.job_id + "_" + std::to_string(index);
        return out;
    };
    std::vector<size_t> again;
    const auto first_jobs = job_of(subs);
    for (const auto& [t, state] : run.lost(subs)) {
        if (node_reason(state))
            again.push_back(t);
        else
            run.record_lost(t, state, first_jobs.at(t));
    }
    if (again.empty()) return;
    std::cerr << "wallsim: resubmitting " << again.size()
              << " Slurm task(s) that ended without running their point\n";
    const auto retry = run.submit(again);
    run.wait(retry, bar, done, failed, seen);
    const auto retry_jobs = job_of(retry);
    for (const auto& [t, state] : run.lost(retry))
        run.record_lost(t, state, retry_jobs.at(t));
}

}  // namespace sim::sweep
