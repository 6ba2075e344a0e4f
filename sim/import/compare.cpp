// SPDX-License-Identifier: MIT
#include "sim/import/compare.h"

#include <boost/tokenizer.hpp>

#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include "sim/core/error.h"
#include "sim/engine/csv_row.h"

namespace sim::import {

namespace {

using Tokenizer = boost::tokenizer<boost::escaped_list_separator<char>>;

// ops.csv quotes a field holding a comma or quote (RFC 4180). With no escape character the
// tokenizer keeps such fields whole; a doubled quote inside one loses its quotes, which only
// names can hold and the comparison does not read.
std::vector<std::string> fields_of(const std::string& line) {
    const boost::escaped_list_separator<char> sep(std::string(), std::string(","),
                                                  std::string("\""));
    const Tokenizer tok(line, sep);
    return {tok.begin(), tok.end()};
}

double number(const std::string& text, const std::string& label, int line, const char* column) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v)) {
        throw ConfigError({label, line, 0}, column, "expected a number, got '" + text + "'");
    }
    return v;
}

}  // namespace

Comparison compare_ops_csv(const std::string& csv, const std::string& label) {
    std::istringstream in(csv);
    std::string line;
    if (!std::getline(in, line))
        throw ConfigError({label, 1, 0}, "", "empty file; expected ops.csv");
    const std::vector<std::string> header = fields_of(line);
    const auto column = [&](const char* name) {
        for (size_t i = 0; i < header.size(); ++i) {
            if (header[i] == name) return i;
        }
        throw ConfigError({label, 1, 0}, name,
                          "column missing; expected the ops.csv of a wallsim run (measured_us "
                          "appears in runs since wallsim import exists)");
    };
    const size_t c_kind = column("kind"), c_time = column("time_us"),
                 c_measured = column("measured_us"), c_bound = column("bound");
    // The launch gap within time_us, which a profiler's kernel duration leaves out (runs from
    // before the column was written have none).
    std::optional<size_t> c_gap;
    for (size_t i = 0; i < header.size(); ++i) {
        if (header[i] == "launch_gap_us") c_gap = i;
    }
    struct Sum {
        CompareRow row;
        double ape = 0;
    };
    std::map<std::string, Sum> classes;
    Sum replayed, total;
    Comparison c;
    int line_no = 1;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.empty()) continue;
        const std::vector<std::string> f = fields_of(line);
        if (f.size() != header.size()) {
            throw ConfigError({label, line_no, 0}, "",
                              "expected " + std::to_string(header.size()) + " columns, got " +
                                  std::to_string(f.size()));
        }
        if (f[c_measured].empty()) {
            ++c.unmeasured;
            continue;
        }
        const double measured = number(f[c_measured], label, line_no, "measured_us");
        const double simulated = number(f[c_time], label, line_no, "time_us") -
                                 (c_gap ? number(f[*c_gap], label, line_no, "launch_gap_us") : 0.0);
        if (measured <= 0) {
            ++c.unmeasured;
            continue;
        }
        const bool replay = f[c_bound] == "measured";
        for (Sum* s : {replay ? &replayed : &classes[f[c_kind]], replay ? nullptr : &total}) {
            if (!s) continue;
            ++s->row.ops;
            s->row.measured_us += measured;
            s->row.simulated_us += simulated;
            s->ape += std::fabs(simulated - measured) / measured;
        }
    }
    const auto finish = [](Sum& s, const std::string& name) {
        s.row.op_class = name;
        s.row.mape = s.row.ops > 0 ? s.ape / static_cast<double>(s.row.ops) : 0;
        return s.row;
    };
    for (auto& [name, s] : classes)
        c.classes.push_back(finish(s, name));
    if (replayed.row.ops > 0) c.classes.push_back(finish(replayed, "custom (replayed)"));
    c.total = finish(total, "total");
    if (c.total.ops == 0 && replayed.row.ops == 0) {
        throw ConfigError({label, 0, 0}, "measured_us",
                          "no operator has a measured time; run a trace written by wallsim "
                          "import");
    }
    return c;
}

std::string format_compare_csv(const Comparison& c) {
    std::string out = "class,ops,measured_us,simulated_us,error,mape\n";
    RowWriter row(out);
    for (const CompareRow* r : [&c] {
             std::vector<const CompareRow*> rows;
             for (const CompareRow& x : c.classes)
                 rows.push_back(&x);
             rows.push_back(&c.total);
             return rows;
         }()) {
        row.text(r->op_class).num(r->ops).num(r->measured_us).num(r->simulated_us);
        row.num(r->error()).num(r->mape);
        row.end();
    }
    return out;
}

std::string format_compare_table(const Comparison& c) {
    std::string out;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%-20s %7s %14s %14s %9s %9s\n", "class", "ops", "measured_us",
                  "simulated_us", "error", "MAPE");
    out += buf;
    const auto line = [&](const CompareRow& r) {
        std::snprintf(buf, sizeof buf, "%-20s %7llu %14.1f %14.1f %+8.1f%% %8.1f%%\n",
                      r.op_class.c_str(), static_cast<unsigned long long>(r.ops), r.measured_us,
                      r.simulated_us, 100 * r.error(), 100 * r.mape);
        out += buf;
    };
    for (const CompareRow& r : c.classes)
        line(r);
    line(c.total);
    if (c.unmeasured > 0)
        out += std::to_string(c.unmeasured) + " operators without a measured time left out\n";
    return out;
}

}  // namespace sim::import
