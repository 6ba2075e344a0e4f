// SPDX-License-Identifier: MIT
#include "sim/diff/diff_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/engine/csv_row.h"

namespace sim::diff {

namespace {

using Table = std::vector<std::vector<std::string>>;

// Columns from first_numeric on are right-aligned; two spaces between columns.
std::string align(const Table& t, size_t first_numeric) {
    std::vector<size_t> width;
    for (const auto& row : t) {
        width.resize(std::max(width.size(), row.size()), 0);
        for (size_t c = 0; c < row.size(); ++c)
            width[c] = std::max(width[c], row[c].size());
    }
    std::string out;
    for (const auto& row : t) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            if (c > 0) line += "  ";
            const std::string pad(width[c] - row[c].size(), ' ');
            line += c < first_numeric ? row[c] + pad : pad + row[c];
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string maybe_human(const std::optional<double>& v, const std::string& unit) {
    return v ? human(*v, unit) : "-";
}

// A change keeps its sign; a change in a ratio is in percentage points.
std::string signed_human(const std::optional<double>& v, const std::string& unit) {
    if (!v) return "-";
    if (unit == "ratio") return fmt::format("{:+.3g} pp", *v * 100.0);
    const std::string text = human(std::fabs(*v), unit);
    return (*v < 0 ? "-" : "+") + text;
}

std::string ratio_text(const std::optional<double>& r) {
    return r ? fmt::format("{:.3g}x", *r) : "-";
}

std::string run_line(const char* tag, const RunOutput& r) {
    std::string about;
    for (const char* key : {"hw_name", "trace_name", "fidelity"}) {
        const std::string v = r.meta(key);
        if (!v.empty()) about += (about.empty() ? "" : ", ") + v;
    }
    return fmt::format("{}: {}{}\n", tag, r.dir, about.empty() ? "" : "  (" + about + ")");
}

}  // namespace

std::string human(double value, const std::string& unit) {
    if (unit == "ratio") return fmt::format("{:.3g} %", value * 100.0);
    if (unit == "count") return fmt::format("{:.0f}", value);
    struct Prefix {
        double scale;
        const char* name;
    };
    static constexpr Prefix kPrefixes[] = {{1e18, "E"}, {1e15, "P"}, {1e12, "T"}, {1e9, "G"},
                                           {1e6, "M"},  {1e3, "k"},  {1, ""},     {1e-3, "m"},
                                           {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
    const double mag = std::fabs(value);
    if (mag == 0.0) return fmt::format("0 {}", unit);
    for (const Prefix& p : kPrefixes) {
        if (mag >= p.scale * 0.9995)
            return fmt::format("{:.4g} {}{}", value / p.scale, p.name, unit);
    }
    return fmt::format("{:.4g} {}", value, unit);
}

std::string format_text(
    const RunOutput& a, const RunOutput& b, const RunDiff& d, SortKey key, size_t top) {
    std::string out = run_line("A", a) + run_line("B", b) + "\n";

    Table totals{{"total", "A", "B", "B - A", "B / A"}};
    for (const TotalDelta& t : d.totals) {
        totals.push_back({t.label, maybe_human(t.value.a, t.unit), maybe_human(t.value.b, t.unit),
                          signed_human(t.value.delta(), t.unit), ratio_text(t.value.ratio())});
    }
    out += align(totals, 1) + "\n";

    const size_t shown = top == 0 ? d.ops.size() : std::min(top, d.ops.size());
    out += fmt::format("operators by change in {}, largest first: {} of {}",
                       key == SortKey::Time ? "time" : "energy", shown, d.ops.size());
    out += fmt::format(" ({} only in A, {} only in B)\n", d.only_a, d.only_b);
    Table ops{{"name", "kind", "in", "time A", "time B", "B - A", "B / A", "energy A", "energy B",
               "B - A"}};
    for (size_t i = 0; i < shown; ++i) {
        const OpDelta& o = d.ops[i];
        const char* in = o.presence == Presence::Both    ? "both"
                         : o.presence == Presence::OnlyA ? "A only"
                                                         : "B only";
        ops.push_back({o.name, o.kind, in, maybe_human(o.time_s.a, "s"),
                       maybe_human(o.time_s.b, "s"), signed_human(o.time_s.delta(), "s"),
                       ratio_text(o.time_s.ratio()), maybe_human(o.energy_j.a, "J"),
                       maybe_human(o.energy_j.b, "J"), signed_human(o.energy_j.delta(), "J")});
    }
    out += align(ops, 3);
    return out;
}

std::string format_csv(const RunDiff& d) {
    std::string out = "section,name,kind,status,metric,unit,a,b,delta,ratio\n";
    RowWriter row(out);
    const auto figure = [&](const char* section, const std::string& name, const std::string& kind,
                            const char* status, const std::string& metric, const std::string& unit,
                            const Pair& p) {
        row.text(section).text(name).text(kind).text(status).text(metric).text(unit);
        row.maybe(p.a).maybe(p.b).maybe(p.delta()).maybe(p.ratio());
        row.end();
    };
    for (const TotalDelta& t : d.totals)
        figure("total", t.stat_path, "", "", t.label, t.unit, t.value);
    for (const OpDelta& o : d.ops) {
        figure("op", o.name, o.kind, to_string(o.presence), "time", "s", o.time_s);
        figure("op", o.name, o.kind, to_string(o.presence), "energy", "J", o.energy_j);
    }
    return out;
}

}  // namespace sim::diff
