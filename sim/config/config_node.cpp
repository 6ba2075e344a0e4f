// SPDX-License-Identifier: MIT
#include "sim/config/config_node.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace sim {

// ---------------------------------------------------------------- ConfigDocument

ConfigDocument::ConfigDocument(YAML::Node root, std::string root_file, int line_offset)
    : root_(std::move(root)), root_file_(std::move(root_file)), line_offset_(line_offset) {}

void ConfigDocument::set_source(const std::string& path, const std::string& file) {
    // A new subtree replaces everything recorded below it.
    for (auto it = sources_.lower_bound(path); it != sources_.end();) {
        const std::string& p = it->first;
        if (p == path || (p.size() > path.size() && p.compare(0, path.size(), path) == 0 &&
                          (p[path.size()] == '.' || p[path.size()] == '['))) {
            it = sources_.erase(it);
        } else if (p.compare(0, path.size(), path) == 0) {
            ++it;
        } else {
            break;
        }
    }
    sources_[path] = file;
}

const std::string& ConfigDocument::source_of(const std::string& path) const {
    std::string p = path;
    while (true) {
        if (auto it = sources_.find(p); it != sources_.end()) return it->second;
        if (p.empty()) break;
        const size_t cut = p.find_last_of(".[");
        p.resize(cut == std::string::npos ? 0 : cut);
    }
    return root_file_;
}

std::vector<std::string> ConfigDocument::known_children(const std::string& path) const {
    std::vector<std::string> out;
    const std::string prefix = path.empty() ? "" : path + ".";
    for (auto it = known_.lower_bound(prefix); it != known_.end(); ++it) {
        const std::string& k = it->first;
        if (k.compare(0, prefix.size(), prefix) != 0) break;
        const std::string rest = k.substr(prefix.size());
        if (!rest.empty() && rest.find_first_of(".[") == std::string::npos) out.push_back(rest);
    }
    return out;
}

// ---------------------------------------------------------------- helpers

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t subst = prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, subst});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

namespace {

const char* yaml_type_name(const YAML::Node& n) {
    switch (n.Type()) {
        case YAML::NodeType::Map: return "a map";
        case YAML::NodeType::Sequence: return "a list";
        case YAML::NodeType::Null: return "an empty value";
        case YAML::NodeType::Scalar: return "a scalar";
        case YAML::NodeType::Undefined: return "nothing";
    }
    return "something else";
}

// Integers may be written plainly or, for convenience, as an exact float such as 1e9.
bool parse_unsigned(const std::string& s, uint64_t& out) {
    const char* b = s.data();
    const char* e = b + s.size();
    auto [p, ec] = std::from_chars(b, e, out);
    if (ec == std::errc() && p == e) return true;
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
    char* end = nullptr;
    const double d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size() || !std::isfinite(d) || d < 0 || d != std::floor(d) ||
        d > 9.007199254740992e15) {
        return false;
    }
    out = static_cast<uint64_t>(d);
    return true;
}

bool parse_signed(const std::string& s, int64_t& out) {
    const char* b = s.data();
    const char* e = b + s.size();
    auto [p, ec] = std::from_chars(b, e, out);
    return ec == std::errc() && p == e;
}

bool parse_double(const std::string& s, double& out) {
    if (s.empty()) return false;
    char* end = nullptr;
    out = std::strtod(s.c_str(), &end);
    return end == s.c_str() + s.size() && std::isfinite(out);
}

bool parse_bool(const std::string& s, bool& out) {
    if (s == "true" || s == "True" || s == "TRUE") {
        out = true;
        return true;
    }
    if (s == "false" || s == "False" || s == "FALSE") {
        out = false;
        return true;
    }
    return false;
}

std::string index_path(const std::string& base, size_t i) {
    return base + "[" + std::to_string(i) + "]";
}

}  // namespace

// ---------------------------------------------------------------- ConfigNode

ConfigNode::ConfigNode(std::shared_ptr<ConfigDocument> doc, YAML::Node node, std::string path)
    : doc_(std::move(doc)), node_(std::move(node)), path_(std::move(path)) {}

ConfigNode ConfigNode::root_of(const std::shared_ptr<ConfigDocument>& doc) {
    return ConfigNode(doc, doc->root(), "");
}

std::string ConfigNode::child_path(const std::string& key) const {
    return path_.empty() ? key : path_ + "." + key;
}

YAML::Node ConfigNode::lookup(const std::string& key) const {
    if (!node_.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    // A scan of the pairs rather than operator[]: yaml-cpp's const operator[] formats a missing
    // key into a string stream for the undefined node it returns, which made every absent
    // optional key of a trace line cost a stream.
    if (!pairs_) {
        auto pairs = std::make_shared<std::vector<std::pair<std::string, YAML::Node>>>();
        for (const auto& kv : node_) {
            if (kv.first.IsScalar()) pairs->emplace_back(kv.first.Scalar(), kv.second);
        }
        pairs_ = std::move(pairs);
    }
    for (const auto& [k, v] : *pairs_) {
        if (k == key) return v;
    }
    return YAML::Node(YAML::NodeType::Undefined);
}

bool ConfigNode::has(const std::string& key) const {
    const YAML::Node v = lookup(key);
    return v.IsDefined();
}

std::vector<std::string> ConfigNode::keys() const {
    std::vector<std::string> out;
    if (!node_.IsMap()) return out;
    for (const auto& kv : node_)
        out.push_back(kv.first.Scalar());
    return out;
}

SourceLocation ConfigNode::location_of_node(const YAML::Node& n, const std::string& path) const {
    SourceLocation loc;
    loc.file = doc_->source_of(path);
    if (loc.file.rfind("--set", 0) == 0) return loc;
    const YAML::Mark m = n.Mark();
    if (!m.is_null()) {
        loc.line = m.line + 1 + doc_->line_offset();
        loc.column = m.column + 1;
    } else if (doc_->line_offset() > 0) {
        // Nodes built from JSON carry no mark; the record's physical line still locates them.
        loc.line = doc_->line_offset();
    }
    return loc;
}

SourceLocation ConfigNode::location() const {
    return location_of_node(node_, path_);
}

SourceLocation ConfigNode::location_of(const std::string& key) const {
    const YAML::Node v = lookup(key);
    if (v.IsDefined()) return location_of_node(v, child_path(key));
    return location();
}

void ConfigNode::fail(const std::string& key, const std::string& message) const {
    const std::string full = key.empty() ? path_ : child_path(key);
    throw ConfigError(key.empty() ? location() : location_of(key), full, message);
}

void ConfigNode::accept(const std::string& key) const {
    doc_->mark_known(child_path(key));
}

ConfigNode ConfigNode::child(const std::string& key) const {
    auto c = optional_child(key);
    if (!c) fail(key, "required section is missing; expected a map");
    return *c;
}

std::optional<ConfigNode> ConfigNode::optional_child(const std::string& key) const {
    doc_->mark_known(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return std::nullopt;
    if (!v.IsMap()) fail(key, std::string("expected a map, got ") + yaml_type_name(v));
    return ConfigNode(doc_, v, child_path(key));
}

std::optional<ConfigNode> ConfigNode::optional_child_if_map(const std::string& key) const {
    doc_->mark_known(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined() || !v.IsMap()) return std::nullopt;
    return ConfigNode(doc_, v, child_path(key));
}

std::vector<ConfigNode> ConfigNode::sequence(const std::string& key) const {
    doc_->mark_known(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) fail(key, "required key is missing; expected a list");
    if (!v.IsSequence()) fail(key, std::string("expected a list, got ") + yaml_type_name(v));
    std::vector<ConfigNode> out;
    out.reserve(v.size());
    for (size_t i = 0; i < v.size(); ++i) {
        out.emplace_back(doc_, v[i], index_path(child_path(key), i));
    }
    return out;
}

std::string ConfigNode::scalar_text(const std::string& key,
                                    const YAML::Node& v,
                                    const char* what) const {
    if (!v.IsScalar()) fail(key, std::string("expected ") + what + ", got " + yaml_type_name(v));
    return v.Scalar();
}

template <>
bool ConfigNode::get<std::string>(const std::string& key, std::string& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    out = scalar_text(key, v, "a string");
    return true;
}

template <>
bool ConfigNode::get<bool>(const std::string& key, bool& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    const std::string s = scalar_text(key, v, "true or false");
    if (!parse_bool(s, out)) fail(key, "expected true or false, got '" + s + "'");
    return true;
}

template <>
bool ConfigNode::get<uint64_t>(const std::string& key, uint64_t& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    const std::string s = scalar_text(key, v, "a non-negative integer");
    if (!parse_unsigned(s, out)) {
        const bool negative = !s.empty() && s[0] == '-';
        fail(key,
             std::string(negative ? "must not be negative" : "expected a non-negative integer") +
                 ", got '" + s + "'");
    }
    return true;
}

template <>
bool ConfigNode::get<uint32_t>(const std::string& key, uint32_t& out) const {
    uint64_t wide = 0;
    if (!get<uint64_t>(key, wide)) return false;
    if (wide > std::numeric_limits<uint32_t>::max()) {
        fail(key, "value " + std::to_string(wide) + " is too large; expected at most 4294967295");
    }
    out = static_cast<uint32_t>(wide);
    return true;
}

template <>
bool ConfigNode::get<int64_t>(const std::string& key, int64_t& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    const std::string s = scalar_text(key, v, "an integer");
    if (!parse_signed(s, out)) fail(key, "expected an integer, got '" + s + "'");
    return true;
}

template <>
bool ConfigNode::get<int>(const std::string& key, int& out) const {
    int64_t wide = 0;
    if (!get<int64_t>(key, wide)) return false;
    if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) {
        fail(key, "value " + std::to_string(wide) + " is out of range");
    }
    out = static_cast<int>(wide);
    return true;
}

template <>
bool ConfigNode::get<double>(const std::string& key, double& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    const std::string s = scalar_text(key, v, "a number");
    if (!parse_double(s, out)) fail(key, "expected a number, got '" + s + "'");
    return true;
}

template <>
bool ConfigNode::get<std::vector<std::string>>(const std::string& key,
                                               std::vector<std::string>& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    if (!v.IsSequence())
        fail(key, std::string("expected a list of strings, got ") + yaml_type_name(v));
    out.clear();
    for (size_t i = 0; i < v.size(); ++i) {
        if (!v[i].IsScalar()) {
            throw ConfigError(location_of_node(v[i], index_path(child_path(key), i)),
                              index_path(child_path(key), i),
                              std::string("expected a string, got ") + yaml_type_name(v[i]));
        }
        out.push_back(v[i].Scalar());
    }
    return true;
}

template <>
bool ConfigNode::get<std::vector<uint64_t>>(const std::string& key,
                                            std::vector<uint64_t>& out) const {
    doc_->note_value_read(child_path(key));
    const YAML::Node v = lookup(key);
    if (!v.IsDefined()) return false;
    if (!v.IsSequence())
        fail(key,
             std::string("expected a list of non-negative integers, got ") + yaml_type_name(v));
    out.clear();
    for (size_t i = 0; i < v.size(); ++i) {
        const std::string path = index_path(child_path(key), i);
        uint64_t value = 0;
        if (!v[i].IsScalar() || !parse_unsigned(v[i].Scalar(), value)) {
            throw ConfigError(location_of_node(v[i], path), path,
                              "expected a non-negative integer, got " +
                                  (v[i].IsScalar() ? "'" + v[i].Scalar() + "'"
                                                   : std::string(yaml_type_name(v[i]))));
        }
        out.push_back(value);
    }
    return true;
}

bool ConfigNode::get_choice(const std::string& key,
                            std::string& out,
                            std::initializer_list<const char*> allowed) const {
    std::string value;
    if (!get(key, value)) return false;
    std::string list;
    for (const char* a : allowed) {
        if (value == a) {
            out = value;
            return true;
        }
        list += list.empty() ? a : std::string(", ") + a;
    }
    fail(key, "'" + value + "' is not one of: " + list);
}

bool ConfigNode::get_quantity(const std::string& key, Dimension dim, double& out) const {
    std::string text;
    if (!get(key, text)) return false;
    try {
        out = parse_quantity(text, dim);
    } catch (const std::invalid_argument& e) {
        fail(key, e.what());
    }
    return true;
}

bool ConfigNode::get_size(const std::string& key, uint64_t& out) const {
    std::string text;
    if (!get(key, text)) return false;
    try {
        out = parse_size_bytes(text);
    } catch (const std::invalid_argument& e) {
        fail(key, e.what());
    }
    return true;
}

bool ConfigNode::get_time_ps(const std::string& key, uint64_t& out) const {
    std::string text;
    if (!get(key, text)) return false;
    try {
        out = parse_time_ps(text);
    } catch (const std::invalid_argument& e) {
        fail(key, e.what());
    }
    return true;
}

void ConfigNode::reject_unknown_keys() const {
    if (!node_.IsMap()) return;
    for (const auto& kv : node_) {
        const std::string key = kv.first.Scalar();
        if (doc_->is_known(child_path(key))) continue;
        // Suggest among the keys that some params struct asked for at this level.
        const std::vector<std::string> known = doc_->known_children(path_);
        std::string best;
        size_t best_distance = std::numeric_limits<size_t>::max();
        for (const std::string& candidate : known) {
            const size_t d = edit_distance(key, candidate);
            if (d < best_distance) {
                best_distance = d;
                best = candidate;
            }
        }
        std::string msg = "unknown key";
        if (!best.empty() && best_distance <= std::max<size_t>(2, key.size() / 3)) {
            msg += " (did you mean '" + best + "'?)";
        }
        if (!known.empty()) {
            std::string list;
            for (const auto& k : known)
                list += list.empty() ? k : ", " + k;
            msg += "; expected one of: " + list;
        }
        // A key merged in from an extends chain has lost its own mark; its value kept one.
        const YAML::Node& at = kv.first.Mark().is_null() ? kv.second : kv.first;
        throw ConfigError(location_of_node(at, child_path(key)), child_path(key), msg);
    }
}

void ConfigNode::reject_unknown_keys_recursive() const {
    reject_unknown_keys();
    if (node_.IsMap()) {
        for (const auto& kv : node_) {
            const std::string key = kv.first.Scalar();
            ConfigNode(doc_, kv.second, child_path(key)).reject_unknown_keys_recursive();
        }
    } else if (node_.IsSequence()) {
        for (size_t i = 0; i < node_.size(); ++i) {
            ConfigNode(doc_, node_[i], index_path(path_, i)).reject_unknown_keys_recursive();
        }
    }
}

}  // namespace sim
