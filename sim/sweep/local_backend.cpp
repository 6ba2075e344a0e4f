// SPDX-License-Identifier: MIT
#include "sim/sweep/local_backend.h"

#include <sys/wait.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <map>

#include "sim/core/error.h"
#include "sim/sweep/process.h"

namespace sim::sweep {

namespace {

using Clock = std::chrono::steady_clock;

struct Running {
    size_t task = 0;
    Clock::time_point start;
};

// Stops the children still running when the sweep itself fails, so none outlives it.
void stop_all(const std::map<pid_t, Running>& running) {
    for (const auto& [pid, r] : running)
        ::kill(pid, SIGTERM);
    for (const auto& [pid, r] : running) {
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
}

}  // namespace

void run_local(const std::vector<Task>& tasks, unsigned jobs, const SweepDir& dir, bool progress) {
    SIM_ASSERT(jobs >= 1, "at least one job");
    SweepProgress bar(tasks.size(), progress);
    std::map<pid_t, Running> running;
    size_t next = 0, done = 0, failed = 0;
    try {
        while (next < tasks.size() || !running.empty()) {
            while (running.size() < jobs && next < tasks.size()) {
                const Task& t = tasks[next];
                dir.forget(t.key);
                const pid_t pid = spawn_logged(t.argv, dir.log_file(t.key).string());
                running[pid] = {next, Clock::now()};
                ++next;
            }
            int status = 0;
            const pid_t pid = ::waitpid(-1, &status, 0);
            if (pid < 0) {
                if (errno == EINTR) continue;
                throw SimBug("waitpid failed with children still running");
            }
            const auto it = running.find(pid);
            if (it == running.end()) continue;  // not one of ours
            const std::chrono::duration<double> wall = Clock::now() - it->second.start;
            PointStatus s;
            s.exit_code = exit_code_of(status);
            s.wall_s = wall.count();
            write_status(dir.status_file(tasks[it->second.task].key), s);
            running.erase(it);
            ++done;
            if (s.exit_code != 0) ++failed;
            bar.update(done, running.size(), failed);
        }
    } catch (...) {
        stop_all(running);
        throw;
    }
}

}  // namespace sim::sweep
