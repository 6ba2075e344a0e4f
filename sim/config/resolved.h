// SPDX-License-Identifier: MIT
// Params resolved once (DESIGN.md): resolved<T>(root) reads a params struct from the root of a
// configuration the first time anything asks for it, and hands every later caller (the models,
// components and modules of the same device) that same struct. The structs live with their
// document, so a device's configuration is read once however many blocks use it, and a key has
// one reader and one default.
//
// T provides `static T from_config(const ConfigNode& root)`, or the reader is passed (a core
// struct read by a function of its model's library). A struct that builds on another (a GPU's
// cycle-level structure on its datasheet figures) calls resolved<Other>(root) inside its reader
// instead of reading the other's keys again. Each type has one reader.
#pragma once

#include <memory>
#include <typeindex>

#include "sim/config/config_node.h"

namespace sim {

template <typename T, typename Reader>
const T& resolved(const ConfigNode& root, Reader read) {
    if (!root.path().empty()) {
        throw SimBug("resolved<T>() takes the root of a configuration, got '" + root.path() + "'");
    }
    ConfigDocument& doc = root.document();
    if (const void* cached = doc.find_resolved(std::type_index(typeid(T))))
        return *static_cast<const T*>(cached);
    auto made = std::make_shared<const T>(read(root));
    const T& ref = *made;
    doc.keep_resolved(std::type_index(typeid(T)), std::move(made));
    return ref;
}

template <typename T>
const T& resolved(const ConfigNode& root) {
    return resolved<T>(root, &T::from_config);
}

}  // namespace sim
