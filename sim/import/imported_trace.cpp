// SPDX-License-Identifier: MIT
#include "sim/import/imported_trace.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>

#include "sim/core/error.h"
#include "sim/trace/trace_parser.h"

namespace sim::import {

namespace fs = std::filesystem;

std::string to_jsonl(const ImportedTrace& trace) {
    std::string out = nlohmann::ordered_json{{"version", 1}, {"name", trace.name}}.dump() + "\n";
    for (const TraceOp& op : trace.ops) {
        out += op.dump();
        out += '\n';
    }
    return out;
}

void keep_parsable(ImportedTrace& trace) {
    while (!trace.ops.empty()) {
        try {
            parse_trace_jsonl(to_jsonl(trace), "imported.jsonl");
            return;
        } catch (const ConfigError& e) {
            // Line 1 is the header; operator i is on line i + 2.
            const int line = e.where().line;
            if (line < 2 || static_cast<size_t>(line - 2) >= trace.ops.size())
                throw SimBug(std::string("the importer wrote an invalid trace: ") + e.what());
            TraceOp& op = trace.ops[static_cast<size_t>(line - 2)];
            if (op.value("kind", "") == "custom")
                throw SimBug(std::string("the importer wrote an invalid trace: ") + e.what());
            if (!op.contains("measured_us")) {
                throw ConfigError({trace.source, 0, 0}, op.value("name", ""),
                                  "cannot be imported: " + e.key() + ": " + e.message() +
                                      ", and no measured time to replay instead");
            }
            const std::string kind = op.value("kind", "");
            TraceOp custom;
            custom["name"] = op["name"];
            custom["kind"] = "custom";
            custom["duration_us"] = op["measured_us"];
            if (kind == "gemm" || kind == "conv2d" || kind == "attention")
                custom["unit"] = "tensor";
            for (const char* key : {"stream", "after", "measured_us"}) {
                if (op.contains(key)) custom[key] = op[key];
            }
            op = std::move(custom);
            ++trace.custom_reasons["a " + kind + " a trace cannot hold (" + e.key() + ": " +
                                   e.message() + ")"];
        }
    }
}

void write_trace(const ImportedTrace& trace, const std::string& path) {
    if (fs::path(path).extension() != ".jsonl") {
        throw ConfigError({"-o", 0, 0}, "-o",
                          "'" + path +
                              "': the trace is written as JSON Lines; expected a .jsonl "
                              "file name");
    }
    if (trace.ops.empty()) {
        throw ConfigError({trace.source, 0, 0}, "",
                          "no GPU operators found; nothing to write to " + path);
    }
    const std::string text = to_jsonl(trace);
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(dir)) {
        throw ConfigError({"-o", 0, 0}, "-o",
                          "'" + path + "': directory '" + dir.string() + "' does not exist");
    }
    // A sibling temporary name, so the rename stays on one file system and is atomic.
    const fs::path tmp =
        dir / ("." + target.filename().string() + ".tmp" + std::to_string(::getpid()));
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        f << text;
        f.close();
        if (!f) {
            std::error_code ec;
            fs::remove(tmp, ec);
            throw ConfigError({"-o", 0, 0}, "-o", "'" + path + "': cannot write the file");
        }
    }
    std::error_code ec;
    fs::rename(tmp, target, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw ConfigError({"-o", 0, 0}, "-o", "'" + path + "': cannot write the file");
    }
}

void print_summary(const ImportedTrace& trace, const std::string& out_path, std::ostream& os) {
    struct Row {
        uint64_t ops = 0;
        double measured_us = 0;
    };
    std::map<std::string, Row> by_kind;
    double total_us = 0;
    for (const TraceOp& op : trace.ops) {
        Row& r = by_kind[op.at("kind").get<std::string>()];
        ++r.ops;
        if (op.contains("measured_us")) {
            r.measured_us += op.at("measured_us").get<double>();
            total_us += op.at("measured_us").get<double>();
        }
    }
    os << "imported " << trace.source << ": " << trace.ops.size() << " operators on "
       << trace.streams << " stream(s), " << trace.dependencies << " cross-stream dependencies, "
       << trace.skipped << " other records skipped\n";
    if (!trace.device.empty()) {
        os << "recorded on: " << trace.device;
        if (!trace.suggested_hw.empty())
            os << " (simulate it with --hw configs/hw/" << trace.suggested_hw << ".yaml)";
        os << "\n";
    }
    os << std::left << std::setw(16) << "kind" << std::right << std::setw(10) << "ops"
       << std::setw(16) << "measured_us" << std::setw(10) << "share"
       << "\n";
    const auto old_flags = os.flags();
    os << std::fixed << std::setprecision(1);
    for (const auto& [kind, r] : by_kind) {
        os << std::left << std::setw(16) << kind << std::right << std::setw(10) << r.ops
           << std::setw(16) << r.measured_us << std::setw(9)
           << (total_us > 0 ? 100.0 * r.measured_us / total_us : 0.0) << "%\n";
    }
    os.flags(old_flags);
    for (const auto& [reason, count] : trace.custom_reasons)
        os << "custom (replaying the measured time): " << count << " " << reason << "\n";
    for (const std::string& note : trace.notes)
        os << "note: " << note << "\n";
    os << "wrote " << out_path << "\n";
}

}  // namespace sim::import
