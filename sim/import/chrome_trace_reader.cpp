// SPDX-License-Identifier: MIT
#include "sim/import/chrome_trace_reader.h"

#include <zlib.h>

#include <filesystem>
#include <iterator>
#include <memory>
#include <vector>

#include "sim/core/error.h"

namespace sim::import {

namespace {

using json = nlohmann::json;

// Walks the text for nlohmann's lexer and counts the newlines it has passed, so that each
// event can be reported at its line.
class CountingIterator {
  public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    CountingIterator(const char* p, uint64_t* newlines) : p_(p), newlines_(newlines) {}
    reference operator*() const { return *p_; }
    CountingIterator& operator++() {
        if (*p_ == '\n') ++*newlines_;
        ++p_;
        return *this;
    }
    CountingIterator operator++(int) {
        CountingIterator old = *this;
        ++*this;
        return old;
    }
    bool operator==(const CountingIterator& o) const { return p_ == o.p_; }
    bool operator!=(const CountingIterator& o) const { return p_ != o.p_; }

  private:
    const char* p_;
    uint64_t* newlines_;
};

// Builds one JSON value from SAX callbacks (what nlohmann's own DOM parser does).
class ValueBuilder {
  public:
    void reset() {
        root_ = json();
        stack_.clear();
        slot_ = nullptr;
    }
    json& root() { return root_; }
    bool done() const { return stack_.empty(); }

    void value(json v) {
        if (stack_.empty()) {
            root_ = std::move(v);
        } else if (stack_.back()->is_array()) {
            stack_.back()->push_back(std::move(v));
        } else {
            *slot_ = std::move(v);
        }
    }
    void start(json container) {
        if (stack_.empty()) {
            root_ = std::move(container);
            stack_.push_back(&root_);
        } else if (stack_.back()->is_array()) {
            stack_.back()->push_back(std::move(container));
            stack_.push_back(&stack_.back()->back());
        } else {
            *slot_ = std::move(container);
            stack_.push_back(slot_);
        }
    }
    void key(const std::string& k) { slot_ = &(*stack_.back())[k]; }
    void end() { stack_.pop_back(); }

  private:
    json root_;
    std::vector<json*> stack_;
    json* slot_ = nullptr;
};

// The document's shape: { "traceEvents": [ {event}, ... ], "other": value, ... }.
class Handler : public nlohmann::json_sax<json> {
  public:
    Handler(ChromeTraceSink& sink, const uint64_t& newlines) : sink_(sink), newlines_(newlines) {}

    bool null() override { return scalar(json()); }
    bool boolean(bool v) override { return scalar(v); }
    bool number_integer(number_integer_t v) override { return scalar(v); }
    bool number_unsigned(number_unsigned_t v) override { return scalar(v); }
    bool number_float(number_float_t v, const string_t&) override { return scalar(v); }
    bool string(string_t& v) override { return scalar(std::move(v)); }
    bool binary(binary_t&) override { return scalar(json()); }

    bool start_object(std::size_t) override { return open(json::object()); }
    bool start_array(std::size_t) override { return open(json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }
    bool key(string_t& k) override {
        if (depth_ == 1) {
            top_key_ = k;
            if (k == "traceEvents") saw_events_ = true;
        } else if (capturing_) {
            builder_.key(k);
        }
        return true;
    }
    bool parse_error(std::size_t position,
                     const std::string&,
                     const nlohmann::detail::exception& ex) override {
        error_position_ = position;
        error_ = ex.what();
        return false;
    }

    bool saw_events() const { return saw_events_; }
    bool top_is_object() const { return top_is_object_; }
    const std::string& error() const { return error_; }
    std::size_t error_position() const { return error_position_; }
    bool events_not_array() const { return events_not_array_; }

  private:
    // Depth 1: inside the top object. Depth 2 under traceEvents: one event.
    bool open(json container) {
        if (depth_ == 0) {
            top_is_object_ = container.is_object();
            ++depth_;
            return top_is_object_;
        }
        if (depth_ == 1 && top_key_ == "traceEvents") {
            if (!container.is_array()) {
                events_not_array_ = true;
                return false;
            }
            in_events_ = true;
            ++depth_;
            return true;
        }
        if (!capturing_) {
            capturing_ = true;
            builder_.reset();
            line_ = static_cast<int>(newlines_) + 1;
        }
        builder_.start(std::move(container));
        ++depth_;
        return true;
    }
    bool close() {
        --depth_;
        if (depth_ == 1 && in_events_ && !capturing_) {
            in_events_ = false;  // the end of traceEvents
            return true;
        }
        if (!capturing_) return true;
        builder_.end();
        if (builder_.done()) {
            capturing_ = false;
            deliver();
        }
        return true;
    }
    bool scalar(json v) {
        if (capturing_) {
            builder_.value(std::move(v));
        } else if (depth_ == 1) {
            if (top_key_ == "traceEvents") {
                events_not_array_ = true;
                return false;
            }
            if (sink_.metadata) sink_.metadata(top_key_, v);
        } else if (depth_ == 0) {
            top_is_object_ = false;
            return false;
        }
        // A scalar directly in traceEvents is not an event; the caller reports it.
        else if (in_events_ && sink_.event) {
            sink_.event(v, static_cast<int>(newlines_) + 1);
        }
        return true;
    }
    void deliver() {
        if (in_events_) {
            if (sink_.event) sink_.event(builder_.root(), line_);
        } else if (sink_.metadata) {
            sink_.metadata(top_key_, builder_.root());
        }
    }

    ChromeTraceSink& sink_;
    const uint64_t& newlines_;
    ValueBuilder builder_;
    int depth_ = 0;
    int line_ = 0;
    bool capturing_ = false;
    bool in_events_ = false;
    bool saw_events_ = false;
    bool top_is_object_ = false;
    bool events_not_array_ = false;
    std::string top_key_;
    std::string error_;
    std::size_t error_position_ = 0;
};

SourceLocation location_at(const std::string& text, const std::string& label, std::size_t pos) {
    pos = std::min(pos, text.size());
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i + 1 < pos; ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    return {label, line, static_cast<int>(pos - line_start)};
}

// nlohmann's message without its "[json.exception.parse_error.101] parse error at line 1,
// column 2: " prefix (its line and column count from the start of the stream).
std::string json_error_text(const std::string& what) {
    const size_t colon = what.find(": ");
    return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

std::string read_maybe_gzip(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        throw ConfigError({path, 0, 0}, "", "cannot open: no such file");
    }
    std::unique_ptr<gzFile_s, int (*)(gzFile)> f(gzopen(path.c_str(), "rb"), gzclose);
    if (!f) throw ConfigError({path, 0, 0}, "", "cannot open the file");
    gzbuffer(f.get(), 1 << 20);
    std::string text;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) text.reserve(size);
    std::vector<char> chunk(1 << 20);
    while (true) {
        const int n = gzread(f.get(), chunk.data(), static_cast<unsigned>(chunk.size()));
        if (n < 0) {
            int code = 0;
            const char* msg = gzerror(f.get(), &code);
            throw ConfigError({path, 0, 0}, "",
                              std::string("cannot decompress: ") + (msg ? msg : "zlib error") +
                                  " (a truncated or corrupt gzip file?)");
        }
        if (n == 0) break;
        text.append(chunk.data(), static_cast<size_t>(n));
    }
    int code = 0;
    gzerror(f.get(), &code);
    if (code != Z_OK && code != Z_BUF_ERROR) {
        throw ConfigError({path, 0, 0}, "",
                          "cannot read the file (zlib error " + std::to_string(code) + ")");
    }
    // zlib stops quietly at a truncated stream's end; a gzip member must end in its trailer.
    if (code == Z_BUF_ERROR) {
        throw ConfigError({path, 0, 0}, "", "the gzip stream is truncated");
    }
    return text;
}

void stream_chrome_trace(const std::string& text, const std::string& label, ChromeTraceSink& sink) {
    uint64_t newlines = 0;
    Handler handler(sink, newlines);
    const char* begin = text.data();
    const bool ok = json::sax_parse(CountingIterator(begin, &newlines),
                                    CountingIterator(begin + text.size(), &newlines), &handler);
    if (!ok) {
        if (!handler.error().empty()) {
            throw ConfigError(location_at(text, label, handler.error_position()), "",
                              "malformed JSON: " + json_error_text(handler.error()));
        }
        if (!handler.top_is_object()) {
            throw ConfigError({label, 1, 1}, "",
                              "expected a Chrome trace: a JSON object with a traceEvents array");
        }
        if (handler.events_not_array()) {
            throw ConfigError({label, static_cast<int>(newlines) + 1, 0}, "traceEvents",
                              "expected an array of events");
        }
        throw ConfigError({label, static_cast<int>(newlines) + 1, 0}, "", "cannot read the trace");
    }
    if (!handler.saw_events()) {
        throw ConfigError({label, 0, 0}, "traceEvents",
                          "required key is missing; expected a Chrome trace (torch.profiler's "
                          "export_chrome_trace) with a traceEvents array");
    }
}

}  // namespace sim::import
