// SPDX-License-Identifier: MIT
// Appends CSV rows to a string in place (RFC 4180 quoting, %.9g numbers via std::to_chars):
// formatting is a large share of an analytic run's time.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>

namespace sim {

class RowWriter {
  public:
    explicit RowWriter(std::string& out) : out_(out) {}

    /// A number as printf's %.9g writes it (std::to_chars with precision is specified so).
    RowWriter& num(double v) {
        sep();
        char buf[40];
        const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 9);
        out_.append(buf, r.ptr);
        return *this;
    }
    RowWriter& num(uint64_t v) {
        sep();
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, r.ptr);
        return *this;
    }
    /// An empty cell when v is absent.
    RowWriter& maybe(std::optional<double> v) {
        if (v) return num(*v);
        sep();
        return *this;
    }
    /// RFC 4180: quote a field holding a comma, quote or newline; double inner quotes.
    RowWriter& text(const std::string& s) {
        sep();
        if (s.find_first_of(",\"\n\r") == std::string::npos) {
            out_ += s;
            return *this;
        }
        out_ += '"';
        for (char c : s) {
            if (c == '"') out_ += '"';
            out_ += c;
        }
        out_ += '"';
        return *this;
    }
    void end() {
        out_ += '\n';
        first_ = true;
    }

  private:
    void sep() {
        if (!first_) out_ += ',';
        first_ = false;
    }
    std::string& out_;
    bool first_ = true;
};

}  // namespace sim
