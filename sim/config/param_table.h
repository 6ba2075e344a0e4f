// SPDX-License-Identifier: MIT
// Self-describing parameters, after SST's ELI and gem5's Param declarations: a params struct
// lists each of its config keys once, with its member, type, range, unit and a one-line
// description. The struct's own default member initialisers are the defaults (one place):
// read() starts from the struct as given and overwrites only the keys present, and describe()
// prints the defaults of a default-constructed struct. `wallsim list --params` prints every
// table, and docs/configuration.md holds that output.
#pragma once

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "sim/config/config_node.h"
#include "sim/core/units.h"

namespace sim {

/// One key of a params table as `wallsim list --params` prints it.
struct ParamDoc {
    std::string key;   ///< relative to the table's section, e.g. "read_queue"
    std::string type;  ///< integer, size, quantity, number, time, bool, choice or text
    std::string default_text;
    std::string range;        ///< "1 .. 4096", "at least 0", "open, closed", "true, false"
    std::string unit;         ///< what an integer counts (B for a size); empty for choices, flags
    std::string description;  ///< one line
};

/// v as the docs and errors print it (%g).
std::string format_number(double v);
/// "between 0 and 64", "at least 0", "above 0 and at most 1".
std::string number_range(double least, double most, bool least_excluded);
/// The base unit a quantity of dim is read into: s, B/s, B, Hz, bit/s, W, J.
const char* base_unit_of(Dimension dim);

/// A whole-number range as the docs print it ("1 .. 64", or "at least 1" when unbounded: no
/// upper bound but its type's) and as an error states it ("must be between 1 and 64" +
/// suffix, e.g. " B").
struct WholeBounds {
    std::string range, rule;
};
WholeBounds whole_bounds(uint64_t least, uint64_t most, bool unbounded, const std::string& suffix);

/// Leaves a parameter out of template argument deduction (C++20's std::type_identity).
template <typename T>
struct NotDeduced {
    using type = T;
};

/// The keys of one section of a config file (e.g. hbm.controller) and where they go.
template <typename Params>
class ParamTable {
  public:
    /// defaults are what the docs print as each key's default: a default-constructed struct,
    /// or one instance's own (e.g. one NCCL protocol's, where each differs).
    explicit ParamTable(Params defaults = Params{}) : defaults_(std::move(defaults)) {}

    /// An unsigned integer key read into a uint32_t or uint64_t member, within [least, most].
    template <typename Whole>
    ParamTable& integer(const char* key,
                        Whole Params::*member,
                        typename NotDeduced<Whole>::type least,
                        typename NotDeduced<Whole>::type most,
                        const char* unit,
                        const char* description) {
        return integer_at<Whole>(
            key, [member](Params& p) -> Whole& { return p.*member; }, least, most, unit,
            description);
    }

    /// The same for an integer that at finds in the params (a member of a member).
    template <typename Whole>
    ParamTable& integer_at(const char* key,
                           std::function<Whole&(Params&)> at,
                           typename NotDeduced<Whole>::type least,
                           typename NotDeduced<Whole>::type most,
                           const char* unit,
                           const char* description) {
        const WholeBounds b =
            whole_bounds(least, most, most == std::numeric_limits<Whole>::max(), "");
        docs_.push_back(
            {key, "integer", std::to_string(at(defaults_)), b.range, unit, description});
        readers_.push_back([=](const ConfigNode& n, Params& p) {
            Whole& v = at(p);
            if (n.get(key, v) && (v < least || v > most))
                n.fail(key, "= " + std::to_string(v) + " is out of range: " + b.rule);
        });
        return *this;
    }

    /// A size with a unit ("256KiB", "50MB") read into a uint32_t or uint64_t member in bytes,
    /// within [least, most].
    template <typename Whole>
    ParamTable& bytes(const char* key,
                      Whole Params::*member,
                      typename NotDeduced<Whole>::type least,
                      typename NotDeduced<Whole>::type most,
                      const char* description) {
        const WholeBounds b =
            whole_bounds(least, most, most == std::numeric_limits<uint64_t>::max(), " B");
        docs_.push_back(
            {key, "size", std::to_string(defaults_.*member), b.range, "B", description});
        readers_.push_back([=](const ConfigNode& n, Params& p) {
            uint64_t v = 0;
            if (!n.get_size(key, v)) return;
            if (v < least || v > most)
                n.fail(key, "= " + std::to_string(v) + " B is out of range: " + b.rule);
            p.*member = static_cast<Whole>(v);
        });
        return *this;
    }

    /// A time with a unit ("2us") read into a uint64_t member in whole picoseconds.
    ParamTable& picoseconds(const char* key, uint64_t Params::*member, const char* description) {
        docs_.push_back({key, "time", format_number(double(defaults_.*member) * 1e-12),
                         "at least 0", "s", description});
        readers_.push_back([=](const ConfigNode& n, Params& p) { n.get_time_ps(key, p.*member); });
        return *this;
    }

    /// A key naming one of several values of an enum member; names lists them with their
    /// names, the way the config spells them.
    template <typename Enum>
    ParamTable& options(const char* key,
                        Enum Params::*member,
                        std::vector<std::pair<std::string, Enum>> names,
                        const char* description) {
        std::string range, default_name;
        for (const auto& [name, value] : names) {
            range += (range.empty() ? "" : ", ") + name;
            if (value == defaults_.*member) default_name = name;
        }
        docs_.push_back({key, "choice", default_name, range, "", description});
        readers_.push_back([=](const ConfigNode& n, Params& p) {
            std::string text;
            if (!n.get(key, text)) return;
            for (const auto& [name, value] : names) {
                if (name != text) continue;
                p.*member = value;
                return;
            }
            n.fail(key, "'" + text + "' is not one of: " + range);
        });
        return *this;
    }

    /// A quantity with a unit ("2us", "450GB/s", "128KiB") read into a double member in the
    /// dimension's base unit (s, B/s, B, Hz, ...), within [least, most] (most may be infinite).
    ParamTable& quantity(const char* key,
                         double Params::*member,
                         Dimension dim,
                         double least,
                         double most,
                         const char* description) {
        return quantity_at(
            key, [member](Params& p) -> double& { return p.*member; }, dim, least, most,
            description);
    }

    /// The same for a quantity that at finds in the params (a member of a member).
    ParamTable& quantity_at(const char* key,
                            std::function<double&(Params&)> at,
                            Dimension dim,
                            double least,
                            double most,
                            const char* description) {
        return quantity_in(key, std::move(at), dim, least, most, false, description);
    }

    /// A quantity above 0, for what divides or paces (a rate, a cycle time), read into a double
    /// member in base units.
    ParamTable& positive_quantity(const char* key,
                                  double Params::*member,
                                  Dimension dim,
                                  const char* description) {
        return quantity_in(
            key, [member](Params& p) -> double& { return p.*member; }, dim, 0,
            std::numeric_limits<double>::infinity(), true, description);
    }

    /// A plain number read into a double member, within [least, most], or (least, most] with
    /// least_excluded.
    ParamTable& number(const char* key,
                       double Params::*member,
                       double least,
                       double most,
                       bool least_excluded,
                       const char* unit,
                       const char* description) {
        const std::string range = number_range(least, most, least_excluded);
        docs_.push_back(
            {key, "number", format_number(defaults_.*member), range, unit, description});
        readers_.push_back([=](const ConfigNode& n, Params& p) {
            double v = 0;
            if (!n.get(key, v)) return;
            if (!((least_excluded ? v > least : v >= least) && v <= most && std::isfinite(v)))
                n.fail(key, "= " + format_number(v) + " is out of range: must be " + range);
            p.*member = v;
        });
        return *this;
    }

    /// Free text (a name, a citation, a preset) read into a string member.
    ParamTable& text(const char* key, std::string Params::*member, const char* description) {
        const std::string& given = defaults_.*member;
        docs_.push_back({key, "text", given.empty() ? "none" : given, "any", "", description});
        readers_.push_back([=](const ConfigNode& n, Params& p) { n.get(key, p.*member); });
        return *this;
    }

    /// A true/false key held in a bool member.
    ParamTable& flag(const char* key, bool Params::*member, const char* description) {
        docs_.push_back(
            {key, "bool", defaults_.*member ? "true" : "false", "true, false", "", description});
        readers_.push_back([=](const ConfigNode& n, Params& p) { n.get(key, p.*member); });
        return *this;
    }

    /// A key with its own reading (a value whose meaning needs other keys, such as a DRAM
    /// timing in memory clocks): doc is what the list prints, read what reading does.
    ParamTable& custom(ParamDoc doc, std::function<void(const ConfigNode&, Params&)> read) {
        docs_.push_back(std::move(doc));
        readers_.push_back(std::move(read));
        return *this;
    }

    /// Makes the key added last required: reading fails when the section lacks it, and the
    /// docs say so instead of giving a default.
    ParamTable& required() {
        const std::string key = docs_.back().key;
        docs_.back().default_text = "required";
        auto read_key = std::move(readers_.back());
        readers_.back() = [key, read_key](const ConfigNode& n, Params& p) {
            if (!n.has(key)) n.fail(key, "required key is missing");
            read_key(n, p);
        };
        return *this;
    }

    /// Overwrites out's members whose keys section holds; each key is checked against its
    /// type and range (ConfigError naming file, line and key). Checks between keys are the
    /// caller's.
    void read(const ConfigNode& section, Params& out) const {
        for (const auto& read_key : readers_)
            read_key(section, out);
    }

    const std::vector<ParamDoc>& describe() const { return docs_; }

  private:
    // A quantity within [least, most], or (least, most] with least_excluded; never infinite.
    ParamTable& quantity_in(const char* key,
                            std::function<double&(Params&)> at,
                            Dimension dim,
                            double least,
                            double most,
                            bool least_excluded,
                            const char* description) {
        const std::string range = number_range(least, most, least_excluded);
        docs_.push_back(
            {key, "quantity", format_number(at(defaults_)), range, base_unit_of(dim), description});
        readers_.push_back([=](const ConfigNode& n, Params& p) {
            double v = 0;
            if (dim == Dimension::Size) {
                uint64_t bytes = 0;
                if (!n.get_size(key, bytes)) return;
                v = static_cast<double>(bytes);
            } else if (!n.get_quantity(key, dim, v)) {
                return;
            }
            if (!((least_excluded ? v > least : v >= least) && v <= most && std::isfinite(v)))
                n.fail(key, "= " + format_number(v) + " " + base_unit_of(dim) +
                                " is out of range: must be " + range);
            at(p) = v;
        });
        return *this;
    }

    Params defaults_;
    std::vector<ParamDoc> docs_;
    std::vector<std::function<void(const ConfigNode&, Params&)>> readers_;
};

/// The docs of the tables that read one section between them (e.g. sm.count into the
/// datasheet struct, the rest into the cycle-level SM's), in order.
template <typename... Tables>
std::vector<ParamDoc> joined_docs(const Tables&... tables) {
    std::vector<ParamDoc> all;
    (all.insert(all.end(), tables.describe().begin(), tables.describe().end()), ...);
    return all;
}

/// A Markdown table of docs under a heading naming section and its kind of file: what
/// `wallsim list --params` prints for each table.
void print_param_docs(std::ostream& os,
                      const std::string& section,
                      const std::string& file,
                      const std::string& description,
                      const std::vector<ParamDoc>& docs);

}  // namespace sim
