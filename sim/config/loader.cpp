// SPDX-License-Identifier: MIT
#include "sim/config/loader.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "sim/config/presets.h"

namespace sim {

namespace fs = std::filesystem;

namespace {

constexpr int kMaxExtendsDepth = 16;

struct LoadedTree {
    YAML::Node root;
    std::vector<std::pair<std::string, std::string>> sources;  // (key path, file)
};

// yaml-cpp keeps both copies of a repeated key and lookups see the first; a repeated key is
// almost always a mistake, so it is an error (with the position of the second one).
void reject_duplicate_keys(const YAML::Node& node, const std::string& label, int depth = 0) {
    if (depth > 256) return;  // yaml-cpp's own depth guard fires long before this
    if (node.IsMap()) {
        std::set<std::string> seen;
        for (const auto& kv : node) {
            const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string();
            if (kv.first.IsScalar() && !seen.insert(key).second) {
                const YAML::Mark m = kv.first.Mark();
                throw ConfigError(
                    {label, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1}, key,
                    "duplicate key; each key may appear once in a map");
            }
            reject_duplicate_keys(kv.second, label, depth + 1);
        }
    } else if (node.IsSequence()) {
        for (const auto& item : node)
            reject_duplicate_keys(item, label, depth + 1);
    }
}

YAML::Node parse_yaml(const std::string& text, const std::string& label) {
    try {
        YAML::Node root = YAML::Load(text);
        reject_duplicate_keys(root, label);
        return root;
    } catch (const YAML::Exception& e) {
        SourceLocation where{label, e.mark.is_null() ? 0 : e.mark.line + 1,
                             e.mark.is_null() ? 0 : e.mark.column + 1};
        throw ConfigError(where, "", "malformed YAML: " + e.msg);
    }
}

std::string join(const std::string& base, const std::string& key) {
    return base.empty() ? key : base + "." + key;
}

// Child keys replace parent keys; maps present on both sides merge recursively.
void merge_into(YAML::Node target,
                const YAML::Node& overlay,
                const std::string& path,
                const std::string& file,
                std::vector<std::pair<std::string, std::string>>& sources) {
    for (const auto& kv : overlay) {
        const std::string key = kv.first.Scalar();
        const std::string child_path = join(path, key);
        // Look the key up through a const node: the non-const operator[] of yaml-cpp adds a
        // placeholder for a missing key, which would then shadow the key inserted below.
        const YAML::Node& const_target = target;
        const YAML::Node existing = const_target[key];
        const bool present = existing.IsDefined();
        if (present && existing.IsMap() && kv.second.IsMap()) {
            merge_into(target[key], kv.second, child_path, file, sources);
        } else {
            // Insert the child's own nodes (not clones, which lose their file positions).
            if (present) target.remove(key);
            target.force_insert(kv.first, kv.second);
            sources.emplace_back(child_path, file);
        }
    }
}

// The file `extends: name_or_path` stands for, seen from the file at path.
std::string parent_file(const std::string& path,
                        const std::string& name_or_path,
                        const std::string& preset_folder,
                        const SourceLocation& at) {
    const fs::path dir = fs::path(path).parent_path();
    if (looks_like_path(name_or_path) || preset_folder.empty())
        return (dir / name_or_path).lexically_normal().string();
    std::error_code ec;
    const fs::path sibling = dir / (name_or_path + ".yaml");
    if (fs::is_regular_file(sibling, ec)) return sibling.lexically_normal().string();
    return resolve_preset(preset_folder, name_or_path, "", at, "extends");
}

LoadedTree extend_tree(YAML::Node root,
                       const std::string& path,
                       const std::string& preset_folder,
                       std::set<std::string>& chain,
                       int depth);

LoadedTree load_tree(const std::string& path,
                     const std::string& preset_folder,
                     std::set<std::string>& chain,
                     int depth) {
    const std::string text = read_text_file(path);
    YAML::Node root = parse_yaml(text, path);
    if (!root.IsMap()) {
        throw ConfigError({path, 1, 1}, "", "expected a YAML map at the top of the file");
    }
    return extend_tree(root, path, preset_folder, chain, depth);
}

// root (read from path) merged on top of the chain of files its `extends:` names.
LoadedTree extend_tree(YAML::Node root,
                       const std::string& path,
                       const std::string& preset_folder,
                       std::set<std::string>& chain,
                       int depth) {
    const YAML::Node& const_root = root;
    const YAML::Node extends = const_root["extends"];
    if (!extends.IsDefined()) return LoadedTree{root, {{"", path}}};

    const SourceLocation at{path, extends.Mark().line + 1, extends.Mark().column + 1};
    if (!extends.IsScalar()) throw ConfigError(at, "extends", "expected a file path");
    if (depth >= kMaxExtendsDepth) throw ConfigError(at, "extends", "extends chain is too deep");
    const std::string parent_path = parent_file(path, extends.Scalar(), preset_folder, at);
    std::error_code ec;
    const std::string canonical = fs::weakly_canonical(parent_path, ec).string();
    if (chain.count(canonical)) {
        throw ConfigError(at, "extends", "'" + extends.Scalar() + "' forms a cycle of extends");
    }
    if (!fs::exists(parent_path, ec)) {
        throw ConfigError(at, "extends",
                          "'" + extends.Scalar() + "' not found (looked for " + parent_path + ")");
    }
    chain.insert(canonical);
    LoadedTree parent = load_tree(parent_path, preset_folder, chain, depth + 1);
    root.remove("extends");
    merge_into(parent.root, root, "", path, parent.sources);
    return parent;
}

}  // namespace

std::string read_text_file(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) throw ConfigError({path, 0, 0}, "", "file not found");
    if (fs::is_directory(path, ec))
        throw ConfigError({path, 0, 0}, "", "is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError({path, 0, 0}, "", "cannot be opened for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::shared_ptr<ConfigDocument> load_config(const std::string& path,
                                            const std::vector<std::string>& overrides,
                                            const std::string& preset_folder) {
    std::set<std::string> chain;
    std::error_code ec;
    chain.insert(fs::weakly_canonical(path, ec).string());
    LoadedTree tree = load_tree(path, preset_folder, chain, 0);
    auto doc = std::make_shared<ConfigDocument>(tree.root, path);
    for (const auto& [key_path, file] : tree.sources)
        doc->set_source(key_path, file);
    doc->mark_known("extends");
    for (const std::string& o : overrides)
        apply_override(*doc, o);
    return doc;
}

std::shared_ptr<ConfigDocument> load_inline_config(const YAML::Node& node,
                                                   const std::string& file,
                                                   const std::vector<std::string>& skip,
                                                   const std::vector<std::string>& overrides,
                                                   const std::string& preset_folder) {
    const YAML::Mark mark = node.Mark();
    if (!node.IsMap()) {
        throw ConfigError({file, mark.line + 1, mark.column + 1}, "", "expected a map");
    }
    YAML::Node root(YAML::NodeType::Map);
    for (const auto& kv : node) {
        const std::string key = kv.first.Scalar();
        if (std::find(skip.begin(), skip.end(), key) == skip.end())
            root.force_insert(kv.first, kv.second);
    }
    std::set<std::string> chain;
    std::error_code ec;
    chain.insert(fs::weakly_canonical(file, ec).string());
    LoadedTree tree = extend_tree(root, file, preset_folder, chain, 0);
    auto doc = std::make_shared<ConfigDocument>(tree.root, file);
    for (const auto& [key_path, source] : tree.sources)
        doc->set_source(key_path, source);
    doc->mark_known("extends");
    for (const std::string& o : overrides)
        apply_override(*doc, o);
    return doc;
}

std::shared_ptr<ConfigDocument> parse_config_text(const std::string& text,
                                                  const std::string& label) {
    YAML::Node root = parse_yaml(text, label);
    if (!root.IsMap()) throw ConfigError({label, 1, 1}, "", "expected a YAML map at the top");
    return std::make_shared<ConfigDocument>(root, label);
}

void apply_override(ConfigDocument& doc, const std::string& assignment) {
    const std::string label = "--set " + assignment;
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        throw ConfigError({label, 0, 0}, "", "expected key.path=value");
    }
    const std::string key_path = assignment.substr(0, eq);
    std::vector<std::string> parts;
    std::stringstream ss(key_path);
    for (std::string part; std::getline(ss, part, '.');) {
        if (part.empty()) throw ConfigError({label, 0, 0}, key_path, "empty component in key path");
        parts.push_back(part);
    }
    if (key_path.back() == '.') {
        throw ConfigError({label, 0, 0}, key_path, "empty component in key path");
    }
    const YAML::Node value = parse_yaml(assignment.substr(eq + 1), label);

    YAML::Node node;
    node.reset(doc.mutable_root());
    std::string walked;
    for (size_t i = 0; i + 1 < parts.size(); ++i) {
        walked = join(walked, parts[i]);
        // yaml-cpp's Node::operator= writes through to the referenced node; reset() rebinds.
        YAML::Node next;
        next.reset(node[parts[i]]);
        if (!next.IsDefined() || next.IsNull()) {
            node[parts[i]] = YAML::Node(YAML::NodeType::Map);
            next.reset(node[parts[i]]);
        } else if (!next.IsMap()) {
            throw ConfigError({label, 0, 0}, walked,
                              "is not a map, so it has no key '" + parts[i + 1] + "'");
        }
        node.reset(next);
    }
    node[parts.back()] = value;
    doc.set_source(key_path, label);
}

std::string dump_config(const ConfigDocument& doc) {
    YAML::Emitter out;
    out << doc.root();
    return std::string(out.c_str()) + "\n";
}

}  // namespace sim
