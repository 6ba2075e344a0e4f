// SPDX-License-Identifier: MIT
#include "sim/sweep/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.h"

extern char** environ;

namespace sim::sweep {

namespace fs = std::filesystem;

namespace {

// posix_spawn file actions, released however the spawn ends.
class FileActions {
  public:
    FileActions() { posix_spawn_file_actions_init(&actions_); }
    ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
    FileActions(const FileActions&) = delete;
    FileActions& operator=(const FileActions&) = delete;
    posix_spawn_file_actions_t* get() { return &actions_; }

  private:
    posix_spawn_file_actions_t actions_;
};

pid_t spawn(const std::vector<std::string>& argv,
            const std::string& out_file,
            const std::string& err_file) {
    if (argv.empty()) throw SimBug("spawn: empty command");
    FileActions actions;
    posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, out_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err_file == out_file) {
        posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
    } else {
        posix_spawn_file_actions_addopen(actions.get(), STDERR_FILENO, err_file.c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const std::string& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = argv[0].find('/') == std::string::npos
                       ? posix_spawnp(&pid, args[0], actions.get(), nullptr, args.data(), environ)
                       : posix_spawn(&pid, args[0], actions.get(), nullptr, args.data(), environ);
    if (rc != 0) {
        throw ConfigError({argv[0], 0, 0}, "",
                          std::string("cannot start it: ") + std::strerror(rc));
    }
    return pid;
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

pid_t spawn_logged(const std::vector<std::string>& argv, const std::string& log_file) {
    return spawn(argv, log_file, log_file);
}

int exit_code_of(int wait_status) {
    if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
    return -1;
}

std::string signal_text(int exit_code) {
    if (exit_code <= 128 || exit_code >= 128 + NSIG) return "";
    const int sig = exit_code - 128;
    return "signal " + std::to_string(sig) + " (" + ::strsignal(sig) + ")";
}

Captured run_captured(const std::vector<std::string>& argv, const std::string& scratch_dir) {
    const fs::path base = fs::path(scratch_dir) / (".capture-" + std::to_string(::getpid()));
    const std::string out = base.string() + ".out", err = base.string() + ".err";
    const pid_t pid = spawn(argv, out, err);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    Captured c;
    c.exit_code = exit_code_of(status);
    c.out = read_all(out);
    c.err = read_all(err);
    std::error_code ec;
    fs::remove(out, ec);
    fs::remove(err, ec);
    return c;
}

std::string self_executable() {
    std::error_code ec;
    const fs::path p = fs::read_symlink("/proc/self/exe", ec);
    if (ec) throw SimBug("cannot read /proc/self/exe: " + ec.message());
    return p.string();
}

}  // namespace sim::sweep
