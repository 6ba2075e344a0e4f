// SPDX-License-Identifier: MIT
#include "sim/sweep/point_key.h"

#include <openssl/evp.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "sim/config/loader.h"
#include "sim/core/error.h"

namespace sim::sweep {

namespace fs = std::filesystem;

namespace {
// Options whose file --set overrides apply to (wallsim run, net).
const std::set<std::string> kConfigOptions = {"hw", "system", "topology"};
constexpr size_t kKeyDigits = 16;
}  // namespace

std::string sha256_hex(const std::string& bytes) {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1)
        throw SimBug("OpenSSL EVP_Digest(SHA-256) failed");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(2 * length);
    for (unsigned int i = 0; i < length; ++i) {
        hex += kHex[digest[i] >> 4];
        hex += kHex[digest[i] & 15];
    }
    return hex;
}

std::string PointKeys::file_digest(const std::string& path) {
    auto it = file_digests_.find(path);
    if (it != file_digests_.end()) return it->second;
    std::string digest;
    try {
        digest = sha256_hex(read_text_file(path));
    } catch (const ConfigError&) {
        digest = "unreadable";  // the point itself will report it
    }
    return file_digests_.emplace(path, digest).first->second;
}

std::string PointKeys::config_digest(const std::string& path,
                                     const std::vector<std::string>& sets) {
    try {
        return sha256_hex(dump_config(*load_config(path, sets)));
    } catch (const ConfigError&) {
        // A config that does not load: the point fails and reports why; its key still
        // changes with the file.
        return "unloadable:" + file_digest(path);
    }
}

std::string PointKeys::inputs(const std::string& command, const Point& point) {
    std::string text = "wallsim " + version_ + "\ncommand " + command + "\n";
    std::vector<Option> options = point.options;
    std::sort(options.begin(), options.end(),
              [](const Option& a, const Option& b) { return a.name < b.name; });
    bool sets_resolved = false;
    for (const Option& o : options) {
        text += "--" + o.name;
        std::error_code ec;
        if (o.flag) {
        } else if (fs::is_regular_file(o.value, ec)) {
            if (kConfigOptions.count(o.name) != 0) {
                text += " config " + config_digest(o.value, point.sets);
                sets_resolved = true;
            } else {
                text += " file " + file_digest(o.value);
            }
        } else {
            text += " " + o.value;
        }
        text += "\n";
    }
    // The overrides are part of the resolved config when there is one.
    if (!sets_resolved) {
        for (const std::string& s : point.sets)
            text += "--set " + s + "\n";
    }
    return text;
}

std::string PointKeys::key(const std::string& command, const Point& point) {
    return sha256_hex(inputs(command, point)).substr(0, kKeyDigits);
}

}  // namespace sim::sweep
