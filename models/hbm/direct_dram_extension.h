// SPDX-License-Identifier: MIT
// A typed direct interface to a wallsim memory, obtained through a TLM-2.0 binding: an
// initiator sends a debug transaction (transport_dbg) carrying this extension; a wallsim HBM
// target fills in its DRAM model and answers 0 bytes, any other target leaves it empty. The
// initiator may then drive that model from its own loop instead of sending transactions, with
// identical results (tests/models/gpu/tlm_kernel_sc_test.cpp).
#pragma once

#include <tlm>

#include "models/hbm/core/hbm_system.h"

namespace sim::hbm {

struct DirectDramExtension : tlm::tlm_extension<DirectDramExtension> {
    HbmSystem* system = nullptr;  ///< filled by the target

    tlm::tlm_extension_base* clone() const override { return new DirectDramExtension(*this); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        system = static_cast<const DirectDramExtension&>(other).system;
    }
};

}  // namespace sim::hbm
