// SPDX-License-Identifier: MIT
#include "models/systolic/core/scalesim_io.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/core/error.h"

namespace sim::systolic {

namespace {

// Layers a topology may expand to. A depthwise row becomes one layer per channel, so without a
// bound one row ("DW,...,4294967296,...") asks for billions of layers and exhausts memory;
// MobileNet's depthwise rows expand to a few thousand.
constexpr uint64_t kMaxLayers = 100'000;

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
    for (char& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == sep) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    out.push_back(cur);
    return out;
}

struct Entry {
    std::string value;
    int line = 0;
};

// Whole non-negative integer, or a ConfigError at file:line naming key.
uint64_t to_uint(const std::string& text,
                 const std::string& file,
                 int line,
                 const std::string& key,
                 uint64_t least) {
    uint64_t v = 0;
    const std::string t = trim(text);
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || ec != std::errc() || end != t.data() + t.size()) {
        throw ConfigError({file, line, 0}, key,
                          "'" + t + "' is not a whole number" +
                              (least > 0 ? " >= " + std::to_string(least) : ""));
    }
    if (v < least) {
        throw ConfigError({file, line, 0}, key,
                          "must be >= " + std::to_string(least) + ", got " + t);
    }
    return v;
}

}  // namespace

std::string read_text_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError({path, 0, 0}, "", "cannot open file");
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

ScaleSimConfig parse_scalesim_config(const std::string& text, const std::string& file) {
    // section -> key (lower case) -> value and line
    const std::map<std::string, std::vector<std::string>> kKnown = {
        {"general", {"run_name"}},
        {"architecture_presets",
         {"arrayheight", "arraywidth", "ifmapsramszkb", "filtersramszkb", "ofmapsramszkb",
          "ifmapoffset", "filteroffset", "ofmapoffset", "dataflow", "bandwidth", "memorybanks"}},
        {"run_presets", {"interfacebandwidth"}},
        {"network_presets", {"topologycsvloc"}},
    };
    std::map<std::string, std::map<std::string, Entry>> sections;
    std::string section;
    int line_no = 0;
    std::istringstream in(text);
    std::string raw;
    while (std::getline(in, raw)) {
        ++line_no;
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#' || line[0] == ';') continue;
        if (line.front() == '[') {
            if (line.back() != ']')
                throw ConfigError({file, line_no, 1}, line, "malformed section header");
            section = lower(trim(line.substr(1, line.size() - 2)));
            if (!kKnown.count(section)) {
                std::string list;
                for (const auto& [s, keys] : kKnown)
                    list += (list.empty() ? "" : ", ") + s;
                throw ConfigError({file, line_no, 1}, "[" + section + "]",
                                  "unknown section; expected one of: " + list);
            }
            continue;
        }
        const auto sep = line.find_first_of(":=");
        if (sep == std::string::npos)
            throw ConfigError({file, line_no, 1}, line, "expected 'key: value' or 'key = value'");
        if (section.empty())
            throw ConfigError({file, line_no, 1}, trim(line.substr(0, sep)),
                              "key before any [section]");
        const std::string key = lower(trim(line.substr(0, sep)));
        const auto& allowed = kKnown.at(section);
        if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
            std::string list;
            for (const auto& k : allowed)
                list += (list.empty() ? "" : ", ") + k;
            throw ConfigError({file, line_no, 1}, section + "." + key,
                              "unknown key; expected one of: " + list);
        }
        sections[section][key] = {trim(line.substr(sep + 1)), line_no};
    }

    const auto need = [&](const std::string& sec, const std::string& key) -> const Entry& {
        auto s = sections.find(sec);
        if (s == sections.end() || !s->second.count(key))
            throw ConfigError({file, 0, 0}, sec + "." + key, "required key is missing");
        return s->second.at(key);
    };
    const auto uint_of = [&](const std::string& sec, const std::string& key, uint64_t least) {
        const Entry& e = need(sec, key);
        return to_uint(e.value, file, e.line, sec + "." + key, least);
    };

    ScaleSimConfig cfg;
    cfg.run_name = need("general", "run_name").value;
    const std::string arch = "architecture_presets";
    ArrayParams& a = cfg.array;
    a.rows = static_cast<uint32_t>(uint_of(arch, "arrayheight", 1));
    a.cols = static_cast<uint32_t>(uint_of(arch, "arraywidth", 1));
    a.ifmap_sram_bytes = 1024 * uint_of(arch, "ifmapsramszkb", 1);
    a.filter_sram_bytes = 1024 * uint_of(arch, "filtersramszkb", 1);
    a.ofmap_sram_bytes = 1024 * uint_of(arch, "ofmapsramszkb", 1);
    cfg.ifmap_offset = uint_of(arch, "ifmapoffset", 0);
    cfg.filter_offset = uint_of(arch, "filteroffset", 0);
    cfg.ofmap_offset = uint_of(arch, "ofmapoffset", 0);
    {
        const Entry& e = need(arch, "dataflow");
        try {
            a.dataflow = parse_dataflow(e.value);
        } catch (const std::invalid_argument& ex) {
            throw ConfigError({file, e.line, 0}, arch + ".dataflow", ex.what());
        }
    }
    // SCALE-Sim's defaults for what its cfg does not say: 1-byte words, double-buffered
    // scratchpads with half of each active, weight preload not overlapped, clock 1 GHz (only
    // used to print times; SCALE-Sim reports cycles).
    a.word_bytes = 1;
    a.double_buffered = true;
    a.preload_overlap = false;
    a.activations_in_dram = true;
    a.clock_hz = 1e9;
    const Entry& mode = need("run_presets", "interfacebandwidth");
    if (mode.value == "USER") {
        cfg.user_bandwidth = true;
    } else if (mode.value != "CALC") {
        throw ConfigError({file, mode.line, 0}, "run_presets.interfacebandwidth",
                          "'" + mode.value + "': expected USER or CALC");
    }
    uint64_t banks = 1;
    if (sections[arch].count("memorybanks")) banks = uint_of(arch, "memorybanks", 1);
    if (banks != 1) {
        throw ConfigError({file, sections[arch]["memorybanks"].line, 0}, arch + ".memorybanks",
                          "only 1 memory bank is modelled, got " + std::to_string(banks));
    }
    if (cfg.user_bandwidth) {
        const Entry& e = need(arch, "bandwidth");
        const auto parts = split(e.value, ',');
        if (parts.size() != banks) {
            throw ConfigError({file, e.line, 0}, arch + ".bandwidth",
                              "expected one bandwidth per memory bank");
        }
        cfg.bandwidth_words = to_uint(parts[0], file, e.line, arch + ".bandwidth", 1);
        a.dram_bytes_per_cycle = double(cfg.bandwidth_words * a.word_bytes);
    } else {
        // CALC: SCALE-Sim estimates the bandwidth needed and never stalls. Bandwidth is still
        // read (it must be a number) but does not limit anything.
        if (sections[arch].count("bandwidth")) {
            const Entry& e = sections[arch]["bandwidth"];
            for (const auto& part : split(e.value, ','))
                to_uint(part, file, e.line, arch + ".bandwidth", 1);
        }
        a.dram_bytes_per_cycle = 0;
    }
    if (sections.count("network_presets") && sections["network_presets"].count("topologycsvloc")) {
        std::string t = sections["network_presets"]["topologycsvloc"].value;
        t.erase(std::remove(t.begin(), t.end(), '"'), t.end());
        cfg.topology = t;
    }
    try {
        a.validate();
    } catch (const ConfigError& e) {
        throw ConfigError({file, 0, 0}, e.key(), e.message());
    }
    return cfg;
}

ScaleSimConfig read_scalesim_config(const std::string& path) {
    return parse_scalesim_config(read_text_file(path), path);
}

Topology parse_topology_csv(const std::string& text, const std::string& file) {
    std::istringstream in(text);
    std::string raw;
    int line_no = 0;
    Topology topo;
    std::vector<std::string> header;
    while (std::getline(in, raw)) {
        ++line_no;
        const std::string line = trim(raw);
        if (line.empty()) continue;
        std::vector<std::string> cells = split(line, ',');
        for (auto& c : cells)
            c = trim(c);
        while (!cells.empty() && cells.back().empty())
            cells.pop_back();
        if (header.empty()) {
            header = cells;
            std::vector<std::string> h;
            for (const auto& c : cells)
                h.push_back(lower(c));
            if (h.size() >= 4 && h[1] == "m" && h[2] == "n" && h[3] == "k") {
                topo.gemm = true;
            } else if (h.size() >= 8 && h[1].find("ifmap") != std::string::npos &&
                       h[3].find("filter") != std::string::npos) {
                topo.gemm = false;
            } else {
                throw ConfigError({file, line_no, 1}, "header",
                                  "expected a SCALE-Sim topology header: 'Layer name, IFMAP "
                                  "Height, IFMAP Width, Filter Height, Filter Width, Channels, "
                                  "Num Filter, Strides' or 'Layer, M, N, K'");
            }
            continue;
        }
        const size_t need = topo.gemm ? 4 : 8;
        if (cells.size() < need) {
            throw ConfigError({file, line_no, 1}, cells.empty() ? "row" : cells[0],
                              "has " + std::to_string(cells.size()) + " columns, expected " +
                                  std::to_string(need) + " (missing '" +
                                  header[std::min(cells.size(), header.size() - 1)] + "')");
        }
        const auto num = [&](size_t i) {
            return to_uint(cells[i], file, line_no,
                           cells[0] + "." + (i < header.size() ? header[i] : "column"), 1);
        };
        if (topo.gemm) {
            Layer l = Layer::gemm(cells[0], num(1), num(2), num(3));
            topo.layers.push_back(l);
            continue;
        }
        Layer l;
        l.name = cells[0];
        l.ifmap_h = num(1);
        l.ifmap_w = num(2);
        l.filter_h = num(3);
        l.filter_w = num(4);
        l.channels = num(5);
        l.num_filters = num(6);
        l.stride = num(7);
        if (cells.size() >= 9 && num(8) != l.stride) {
            throw ConfigError({file, line_no, 0}, cells[0] + ".stride",
                              "different row and column strides are not modelled");
        }
        try {
            l.validate();
        } catch (const ConfigError& e) {
            throw ConfigError({file, line_no, 0}, cells[0] + "." + e.key(), e.message());
        }
        if (l.name.find("DP") != std::string::npos) {
            // Depthwise: SCALE-Sim runs one single-channel layer per channel.
            const uint64_t channels = l.channels;
            if (channels > kMaxLayers - topo.layers.size()) {
                throw ConfigError({file, line_no, 0}, cells[0] + ".channels",
                                  "a depthwise layer runs one layer per channel; " +
                                      std::to_string(channels) + " channels make the topology " +
                                      "longer than " + std::to_string(kMaxLayers) + " layers");
            }
            for (uint64_t c = 0; c < channels; ++c) {
                Layer d = l;
                d.name = l.name + "Channel_" + std::to_string(c);
                d.channels = 1;
                topo.layers.push_back(d);
            }
        } else {
            if (topo.layers.size() == kMaxLayers) {
                throw ConfigError(
                    {file, line_no, 0}, cells[0],
                    "the topology is longer than " + std::to_string(kMaxLayers) + " layers");
            }
            topo.layers.push_back(l);
        }
    }
    if (header.empty()) throw ConfigError({file, 0, 0}, "header", "the file is empty");
    if (topo.layers.empty()) throw ConfigError({file, line_no, 0}, "layers", "no layer rows");
    return topo;
}

Topology read_topology_csv(const std::string& path) {
    return parse_topology_csv(read_text_file(path), path);
}

}  // namespace sim::systolic
