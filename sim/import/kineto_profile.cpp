// SPDX-License-Identifier: MIT
#include "sim/import/kineto_profile.h"

#include <cmath>
#include <map>
#include <tuple>

#include "sim/core/error.h"
#include "sim/import/chrome_trace_reader.h"
#include "sim/trace/op.h"

namespace sim::import {

namespace {

using json = nlohmann::json;

// Reads one event's fields with located, one-line errors.
class EventFields {
  public:
    EventFields(const json& e, const std::string& file, int line)
        : e_(e), file_(file), line_(line) {}

    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw ConfigError({file_, line_, 0}, key, what);
    }
    const json& args() const {
        const auto it = e_.find("args");
        if (it == e_.end()) return empty_;
        if (!it->is_object()) fail("args", "expected an object");
        return *it;
    }
    std::string text(const std::string& key) const {
        const auto it = e_.find(key);
        if (it == e_.end()) return {};
        if (!it->is_string()) fail(key, "expected a string");
        return it->get<std::string>();
    }
    double number(const std::string& key) const {
        const auto it = e_.find(key);
        if (it == e_.end()) fail(key, "required key is missing");
        if (!it->is_number()) fail(key, "expected a number");
        const double v = it->get<double>();
        if (!std::isfinite(v)) fail(key, "expected a finite number");
        return v;
    }
    /// An integer from the event (or args when in_args), absent when missing.
    std::optional<int64_t> integer(const std::string& key, bool in_args) const {
        const json& obj = in_args ? args() : e_;
        const auto it = obj.find(key);
        if (it == obj.end() || it->is_null()) return std::nullopt;
        // A number outside int64_t's range is not an id or a count a profiler writes; converting
        // it would wrap (unsigned) or be undefined (floating point).
        if (it->is_number_unsigned()) {
            if (it->get<uint64_t>() <= uint64_t{INT64_MAX}) return it->get<int64_t>();
        } else if (it->is_number_integer()) {
            return it->get<int64_t>();
        } else if (it->is_number_float()) {
            const double v = it->get<double>();
            if (std::floor(v) == v && v >= -0x1p63 && v < 0x1p63) return static_cast<int64_t>(v);
        }
        // Older traces name a GPU track "stream 7".
        if (it->is_string()) {
            const std::string s = it->get<std::string>();
            const size_t digits = s.find_first_of("0123456789");
            if (digits != std::string::npos) {
                try {
                    return std::stoll(s.substr(digits));
                } catch (const std::exception&) {
                }
            }
        }
        fail(in_args ? "args." + key : key, "expected an integer");
    }

  private:
    const json& e_;
    const std::string& file_;
    int line_;
    const json empty_ = json::object();
};

// The argument keys an import reads from CPU ops; the rest (call stacks, sequence numbers)
// is dropped to keep a large profile's memory small.
const char* const kCpuOpArgs[] = {"Input Dims",         "Input type",      "Input Strides",
                                  "Concrete Inputs",    "Collective name", "dtype",
                                  "In msg nelems",      "Out msg nelems",  "Group size",
                                  "Process Group Name", "In split size",   "Out split size"};

bool is_category(const std::string& cat, std::initializer_list<const char*> names) {
    for (const char* n : names) {
        if (cat == n) return true;
    }
    return false;
}

}  // namespace

KinetoProfile parse_kineto_profile(const std::string& text, const std::string& label) {
    KinetoProfile p;
    p.file = label;
    // ac2g flow ends bind to the kernel slice at the same device, stream and time.
    std::map<std::tuple<int64_t, int64_t, double>, int64_t> flow_ends;
    ChromeTraceSink sink;
    sink.metadata = [&p](const std::string& key, const json& value) {
        if (key == "deviceProperties" && value.is_array()) p.device_properties = value;
        if (key == "distributedInfo" && value.is_object()) p.distributed_info = value;
    };
    sink.event = [&](const json& e, int line) {
        if (!e.is_object()) {
            throw ConfigError({label, line, 0}, "traceEvents", "expected an event object");
        }
        const EventFields f(e, label, line);
        const std::string ph = f.text("ph");
        const std::string cat = f.text("cat");
        if (ph == "f" && cat == "ac2g") {
            const auto id = f.integer("id", false);
            const auto pid = f.integer("pid", false);
            const auto tid = f.integer("tid", false);
            if (id && pid && tid) flow_ends[{*pid, *tid, f.number("ts")}] = *id;
            return;
        }
        if (ph != "X") {
            ++p.other_events;
            return;
        }
        if (is_category(cat,
                        {"kernel", "Kernel", "gpu_memcpy", "Memcpy", "gpu_memset", "Memset"})) {
            GpuActivity a;
            a.type = is_category(cat, {"kernel", "Kernel"})       ? GpuActivity::Type::Kernel
                     : is_category(cat, {"gpu_memcpy", "Memcpy"}) ? GpuActivity::Type::Memcpy
                                                                  : GpuActivity::Type::Memset;
            a.name = f.text("name");
            a.ts_us = f.number("ts");
            a.dur_us = f.number("dur");
            if (a.dur_us < 0) f.fail("dur", "must not be negative");
            if (a.dur_us > kMaxTraceMicroseconds)
                f.fail("dur", "must be at most 1e12 microseconds (11.6 days)");
            a.device = f.integer("device", true).value_or(f.integer("pid", false).value_or(0));
            const auto stream = f.integer("stream", true);
            a.stream = stream ? *stream : f.integer("tid", false).value_or(0);
            a.correlation = f.integer("correlation", true);
            a.external_id = f.integer("External id", true);
            a.args = f.args();
            a.line = line;
            p.activities.push_back(std::move(a));
        } else if (is_category(cat, {"cpu_op", "Operator"})) {
            const auto id = f.integer("External id", true);
            if (!id) return;
            CpuOp op;
            op.name = f.text("name");
            op.args = json::object();
            const json& args = f.args();
            for (const char* key : kCpuOpArgs) {
                if (auto it = args.find(key); it != args.end()) op.args[key] = *it;
            }
            if (args.contains("Input Dims")) p.record_shapes_seen = true;
            p.cpu_ops[*id] = std::move(op);
        } else if (is_category(cat, {"cuda_runtime", "Runtime", "cuda_driver"})) {
            ++p.runtime_calls;
            const auto corr = f.integer("correlation", true);
            const auto ext = f.integer("External id", true);
            if (corr && ext) p.runtime_external[*corr] = *ext;
        } else if (cat == "cuda_sync" && f.text("name") == "Stream Wait Event") {
            const auto stream = f.integer("stream", true);
            const auto on = f.integer("wait_on_stream", true);
            const auto corr = f.integer("correlation", true);
            const auto rec = f.integer("wait_on_cuda_event_record_corr_id", true);
            if (!stream || !on || !corr || !rec) {
                f.fail("args",
                       "a Stream Wait Event needs stream, wait_on_stream, correlation "
                       "and wait_on_cuda_event_record_corr_id");
            }
            p.waits.push_back({f.integer("device", true).value_or(0), *stream, *corr, *on, *rec});
        } else {
            ++p.other_events;
        }
    };
    stream_chrome_trace(text, label, sink);
    for (GpuActivity& a : p.activities) {
        if (a.correlation) continue;
        const auto it = flow_ends.find({a.device, a.stream, a.ts_us});
        if (it != flow_ends.end()) a.correlation = it->second;
    }
    return p;
}

KinetoProfile read_kineto_profile(const std::string& path) {
    return parse_kineto_profile(read_maybe_gzip(path), path);
}

}  // namespace sim::import
