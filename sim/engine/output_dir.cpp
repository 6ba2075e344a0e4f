// SPDX-License-Identifier: MIT
#include "sim/engine/output_dir.h"

#include <unistd.h>

#include <fstream>

#include "sim/core/error.h"

namespace sim {

namespace fs = std::filesystem;

namespace {
bool replaceable(const fs::path& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return true;
    if (!fs::is_directory(dir, ec)) return false;
    return fs::is_empty(dir, ec) || fs::exists(dir / OutputDir::kMarker, ec);
}
}  // namespace

OutputDir::OutputDir(const std::string& final_dir)
    : final_(fs::path(final_dir).lexically_normal()) {
    if (final_dir.empty()) throw ConfigError({"--out", 0, 0}, "", "must name a directory");
    if (final_.filename().empty()) final_ = final_.parent_path();
    if (!replaceable(final_)) {
        throw ConfigError({"--out", 0, 0}, "",
                          "'" + final_dir +
                              "' exists and is not an earlier wallsim output; "
                              "refusing to overwrite it (choose another directory)");
    }
    std::error_code ec;
    const fs::path parent = final_.has_parent_path() ? final_.parent_path() : fs::path(".");
    fs::create_directories(parent, ec);
    if (ec)
        throw ConfigError({"--out", 0, 0}, "",
                          "cannot create '" + parent.string() + "': " + ec.message());
    staging_ = parent / ("." + final_.filename().string() + ".tmp-" + std::to_string(::getpid()));
    fs::remove_all(staging_, ec);
    fs::create_directory(staging_, ec);
    if (ec) {
        throw ConfigError({"--out", 0, 0}, "",
                          "cannot create '" + staging_.string() + "': " + ec.message());
    }
    write(kMarker, "This directory was written by wallsim and may be replaced by a later run.\n");
}

OutputDir::~OutputDir() {
    if (!committed_) {
        std::error_code ec;
        fs::remove_all(staging_, ec);
    }
}

void OutputDir::write(const std::string& name, const std::string& text) const {
    std::ofstream out(file(name), std::ios::binary);
    out << text;
    out.close();
    if (!out) throw ConfigError({"--out", 0, 0}, "", "cannot write " + file(name).string());
}

void OutputDir::write_stats(const Json& meta, const StatGroup& stats) const {
    Json json;
    json["meta"] = meta;
    const Json tree = stats.to_json();
    for (const auto& [key, value] : tree.items())
        json[key] = value;
    std::string text;
    stats.to_text(text);
    write("stats.json", json.dump(2) + "\n");
    write("stats.txt", text);
}

void OutputDir::commit() {
    std::error_code ec;
    fs::path old;
    if (fs::exists(final_, ec)) {
        old = final_.parent_path() /
              ("." + final_.filename().string() + ".old-" + std::to_string(::getpid()));
        fs::rename(final_, old, ec);
        if (ec)
            throw ConfigError({"--out", 0, 0}, "",
                              "cannot replace '" + final_.string() + "': " + ec.message());
    }
    fs::rename(staging_, final_, ec);
    if (ec)
        throw ConfigError({"--out", 0, 0}, "",
                          "cannot create '" + final_.string() + "': " + ec.message());
    committed_ = true;
    if (!old.empty()) fs::remove_all(old, ec);
}

}  // namespace sim
