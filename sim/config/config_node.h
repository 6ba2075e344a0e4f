// SPDX-License-Identifier: MIT
// A typed, location-aware view of a YAML tree (yaml-cpp underneath). Every read names its key,
// so a bad value is reported as "file:line:col: full.key.path: what is wrong; what was
// expected". Reads also record which keys are known: a key that no params struct ever asked
// for is an unknown key, reported with a did-you-mean suggestion (STYLE.md 8.2).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <typeindex>
#include <vector>

#include "sim/core/error.h"
#include "sim/core/units.h"

namespace sim {

/// The shared state of one configuration tree: where each subtree came from, and which keys
/// have been asked for. Created by the loader; ConfigNodes point into it.
class ConfigDocument {
  public:
    /// root_file names the file the tree was read from (or a label such as "--set").
    ConfigDocument(YAML::Node root, std::string root_file, int line_offset = 0);

    const YAML::Node& root() const { return root_; }
    YAML::Node& mutable_root() { return root_; }

    /// Records that the subtree at path (and everything below) came from file.
    void set_source(const std::string& path, const std::string& file);
    /// The file the value at path came from: the longest recorded prefix, else the root file.
    const std::string& source_of(const std::string& path) const;
    /// Added to every line number; for nodes without a position (built from a JSON Lines
    /// record), the line itself.
    int line_offset() const { return line_offset_; }

    void mark_known(const std::string& path) { known_.emplace(path, 0); }
    /// A value read (present or absent): marks the key known and counts the read.
    void note_value_read(const std::string& path) { ++known_[path]; }
    bool is_known(const std::string& path) const { return known_.count(path) != 0; }
    /// How many times each key's value was read (sections and accepted keys: 0). Params
    /// structs read each key once, when the config is resolved (DESIGN.md).
    const std::map<std::string, unsigned>& value_reads() const { return known_; }

    /// Replaces the top-level section key with value (from file): a system wires a GPU to the
    /// HBM its memory port reaches. The configuration has changed, so every params struct
    /// resolved from it is dropped and resolves again, and its reads count afresh.
    void replace_section(const std::string& key, const YAML::Node& value, const std::string& file) {
        root_[key] = value;
        set_source(key, file);
        resolved_.clear();
        for (auto& entry : known_)
            entry.second = 0;
    }

    /// Params structs resolved from this document (sim/config/resolved.h), by type.
    const void* find_resolved(std::type_index type) const {
        const auto it = resolved_.find(type);
        return it == resolved_.end() ? nullptr : it->second.get();
    }
    void keep_resolved(std::type_index type, std::shared_ptr<const void> params) {
        resolved_.emplace(type, std::move(params));
    }
    /// The known direct child keys of path, sorted.
    std::vector<std::string> known_children(const std::string& path) const;

  private:
    YAML::Node root_;
    std::string root_file_;
    int line_offset_;
    std::map<std::string, std::string> sources_;
    std::map<std::string, unsigned> known_;  ///< keys asked for -> value reads
    std::map<std::type_index, std::shared_ptr<const void>> resolved_;
};

/// One node (usually a map) of a ConfigDocument, with its dotted path ("hbm.stacks").
class ConfigNode {
  public:
    ConfigNode(std::shared_ptr<ConfigDocument> doc, YAML::Node node, std::string path);

    /// The root node of a document.
    static ConfigNode root_of(const std::shared_ptr<ConfigDocument>& doc);

    const std::string& path() const { return path_; }
    /// The document this node belongs to.
    ConfigDocument& document() const { return *doc_; }
    const YAML::Node& yaml() const { return node_; }
    bool is_map() const { return node_.IsMap(); }
    bool has(const std::string& key) const;
    /// Keys of this map in document order.
    std::vector<std::string> keys() const;

    /// A required child map; throws ConfigError when it is missing or not a map.
    ConfigNode child(const std::string& key) const;
    /// An optional child map (nullopt when absent); throws when present but not a map.
    std::optional<ConfigNode> optional_child(const std::string& key) const;
    /// The child as a map when it is one (a scalar-or-map key), nullopt otherwise.
    std::optional<ConfigNode> optional_child_if_map(const std::string& key) const;
    /// The elements of a required sequence child (each element gets path key[i]).
    std::vector<ConfigNode> sequence(const std::string& key) const;

    /// Reads an optional scalar into out; returns false (out untouched) when absent.
    /// Supported T: bool, int64_t, uint64_t, uint32_t, int, double, std::string,
    /// std::vector<std::string>, std::vector<uint64_t>. Throws ConfigError on a value of the
    /// wrong type.
    template <typename T>
    bool get(const std::string& key, T& out) const;
    /// As get, but the key must be present.
    template <typename T>
    void require(const std::string& key, T& out) const {
        if (!get(key, out)) fail(key, "required key is missing");
    }
    /// A string that must be one of allowed; returns false when absent.
    bool get_choice(const std::string& key,
                    std::string& out,
                    std::initializer_list<const char*> allowed) const;
    /// A quantity with a unit, in the dimension's base unit (see units.h).
    bool get_quantity(const std::string& key, Dimension dim, double& out) const;
    /// A size in whole bytes ("80GB", "1GiB").
    bool get_size(const std::string& key, uint64_t& out) const;
    /// A time in whole picoseconds ("2us").
    bool get_time_ps(const std::string& key, uint64_t& out) const;

    /// Marks key as known without reading it (keys consumed elsewhere, e.g. "extends").
    void accept(const std::string& key) const;
    /// Throws ConfigError for the first key of this map (document order) that no read asked
    /// for, suggesting the closest known key.
    void reject_unknown_keys() const;
    /// reject_unknown_keys over the whole subtree: every map below must be fully known.
    void reject_unknown_keys_recursive() const;

    /// Where this node, or its child key, sits in its file.
    SourceLocation location() const;
    SourceLocation location_of(const std::string& key) const;
    /// Throws ConfigError located at key (or at this node when key is absent) naming the full
    /// key path.
    [[noreturn]] void fail(const std::string& key, const std::string& message) const;
    /// The full dotted path of a child key.
    std::string child_path(const std::string& key) const;

  private:
    SourceLocation location_of_node(const YAML::Node& n, const std::string& path) const;
    YAML::Node lookup(const std::string& key) const;
    std::string scalar_text(const std::string& key, const YAML::Node& v, const char* what) const;

    std::shared_ptr<ConfigDocument> doc_;
    YAML::Node node_;
    std::string path_;
    /// A map's pairs, gathered at the first lookup (yaml-cpp builds node handles for every
    /// pair it passes, so one pass beats a pass per key). A key added to the map afterwards is
    /// not seen by this view; values assigned to existing keys are.
    mutable std::shared_ptr<const std::vector<std::pair<std::string, YAML::Node>>> pairs_;
};

/// Edit distance between two keys, for did-you-mean suggestions.
size_t edit_distance(const std::string& a, const std::string& b);

}  // namespace sim
