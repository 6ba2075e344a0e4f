// SPDX-License-Identifier: MIT
// Child modules that give a system its shape without a process of their own (DESIGN.md: a
// child may have no process; its parent's process ticks it). Each names what it stands for
// (sc_object::kind()) and carries the figures `wallsim elaborate` shows; link ports also record
// what they are wired to.
#pragma once

#include <systemc>

#include <string>

namespace sim::system {

class StructureModule : public sc_core::sc_module {
  public:
    StructureModule(sc_core::sc_module_name name, std::string kind, std::string summary = {})
        : sc_core::sc_module(name), kind_(std::move(kind)), summary_(std::move(summary)) {}
    const char* kind() const override { return kind_.c_str(); }
    const std::string& summary() const { return summary_; }
    /// "peer.port (latency)" once the builder has wired a link port; empty otherwise.
    const std::string& peer() const { return peer_; }
    void set_peer(std::string peer) { peer_ = std::move(peer); }

  private:
    std::string kind_;
    std::string summary_;
    std::string peer_;
};

/// A module that is only structure at the top of the tree (a switch, a NIC, a host).
class StructureRoot : public StructureModule {
  public:
    using StructureModule::StructureModule;
};

}  // namespace sim::system
