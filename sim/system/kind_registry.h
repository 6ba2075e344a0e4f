// SPDX-License-Identifier: MIT
// The registered module kinds (module_kind.h), one list (register_all.cpp adds them), printed
// by `wallsim list`.
#pragma once

#include <ostream>
#include <vector>

#include "sim/config/param_table.h"
#include "sim/system/module_kind.h"

namespace sim::system {

class KindRegistry {
  public:
    /// Throws SimBug on a duplicate kind.
    void add(ModuleKind kind);
    const ModuleKind* find(const std::string& kind) const;
    const std::vector<ModuleKind>& kinds() const { return kinds_; }
    /// The names, comma-separated (for messages).
    std::string names() const;
    void print(std::ostream& os) const;

  private:
    std::vector<ModuleKind> kinds_;
};

/// The kinds that need no model knowledge: memory (a bandwidth) and interconnect.
void register_generic_kinds(KindRegistry& kinds);

/// The described keys of a system file's memory and interconnect instances (besides kind:
/// and extends:), for `wallsim list --params system`.
std::vector<ParamDoc> memory_param_docs();
std::vector<ParamDoc> interconnect_param_docs();

}  // namespace sim::system
