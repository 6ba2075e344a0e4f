// SPDX-License-Identifier: MIT
#include "sim/sweep/sweep_dir.h"

#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/core/error.h"

namespace sim::sweep {

namespace fs = std::filesystem;

namespace {
ConfigError out_error(const std::string& message) {
    return ConfigError({"--out", 0, 0}, "", message);
}
}  // namespace

SweepDir::SweepDir(const std::string& root, bool dry_run)
    : root_(fs::path(root).lexically_normal()) {
    if (root.empty()) throw out_error("must name a directory");
    if (root_.filename().empty()) root_ = root_.parent_path();
    std::error_code ec;
    if (fs::exists(root_, ec)) {
        if (!fs::is_directory(root_, ec))
            throw out_error("'" + root + "' exists and is not a directory");
        if (!fs::is_empty(root_, ec) && !fs::exists(root_ / kMarker, ec)) {
            throw out_error("'" + root +
                            "' exists and is not an earlier sweep; refusing to write into it "
                            "(choose another directory)");
        }
    }
    if (dry_run) return;
    for (const char* sub : {"points", "logs"}) {
        fs::create_directories(root_ / sub, ec);
        if (ec) throw out_error("cannot create '" + (root_ / sub).string() + "': " + ec.message());
    }
    std::ofstream(root_ / kMarker) << "This directory holds a wallsim sweep; a later sweep with "
                                      "the same --out reuses its finished points.\n";
}

fs::path SweepDir::point_dir(const std::string& key) const {
    return root_ / "points" / key;
}
fs::path SweepDir::log_file(const std::string& key) const {
    return root_ / "logs" / (key + ".log");
}
fs::path SweepDir::status_file(const std::string& key) const {
    return root_ / "logs" / (key + ".status");
}

bool SweepDir::finished(const std::string& key) const {
    std::error_code ec;
    return fs::exists(point_dir(key) / ".wallsim-output", ec);
}

void SweepDir::forget(const std::string& key) const {
    std::error_code ec;
    fs::remove(status_file(key), ec);
    fs::remove(log_file(key), ec);
}

void SweepDir::write_atomically(const std::string& name, const std::string& text) const {
    const fs::path final_path = root_ / name;
    const fs::path tmp = root_ / ("." + name + ".tmp-" + std::to_string(::getpid()));
    {
        std::ofstream out(tmp, std::ios::binary);
        out << text;
        if (!out) throw out_error("cannot write " + tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, final_path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw out_error("cannot write " + final_path.string());
    }
}

void write_status(const fs::path& file, const PointStatus& status) {
    nlohmann::json j = {{"exit_code", status.exit_code}, {"wall_s", status.wall_s}};
    if (!status.error.empty()) j["error"] = status.error;
    const fs::path tmp = file.string() + ".tmp";
    std::ofstream(tmp) << j.dump() << "\n";
    std::error_code ec;
    fs::rename(tmp, file, ec);
}

std::optional<PointStatus> read_status(const fs::path& file) {
    std::ifstream in(file);
    if (!in) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object() || !j.contains("exit_code") || !j["exit_code"].is_number_integer())
        return std::nullopt;
    PointStatus s;
    s.exit_code = j["exit_code"].get<int>();
    if (j.contains("wall_s") && j["wall_s"].is_number()) {
        s.wall_s = j["wall_s"].get<double>();
    } else if (j.contains("start") && j.contains("end") && j["start"].is_number() &&
               j["end"].is_number()) {
        s.wall_s = j["end"].get<double>() - j["start"].get<double>();
    }
    if (j.contains("error") && j["error"].is_string()) s.error = j["error"].get<std::string>();
    return s;
}

std::string error_line(const fs::path& log_file) {
    std::ifstream in(log_file);
    std::string line, last, last_error;
    while (std::getline(in, line)) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' '))
            line.pop_back();
        if (line.empty()) continue;
        last = line;
        if (line.rfind("wallsim: error:", 0) == 0 || line.rfind("wallsim: internal", 0) == 0)
            last_error = line;
    }
    return last_error.empty() ? last : last_error;
}

}  // namespace sim::sweep
