// SPDX-License-Identifier: MIT
// Which initiator a request came from, carried with the payload through interconnects (a TLM-2.0
// extension, IEEE 1666 §14.21), so that a memory can keep one queue per source as memory
// controllers do. Requests without it count as one anonymous source.
#pragma once

#include <tlm>

#include <cstdint>

namespace sim::tlm_util {

class OriginExtension final : public tlm::tlm_extension<OriginExtension> {
  public:
    explicit OriginExtension(uintptr_t origin = 0) : origin_(origin) {}
    tlm::tlm_extension_base* clone() const override { return new OriginExtension(origin_); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        origin_ = static_cast<const OriginExtension&>(other).origin_;
    }
    uintptr_t origin() const { return origin_; }

  private:
    uintptr_t origin_;
};

/// The origin of trans: its OriginExtension's, or 0.
inline uintptr_t origin_of(const tlm::tlm_generic_payload& trans) {
    const OriginExtension* e = trans.get_extension<OriginExtension>();
    return e ? e->origin() : 0;
}

}  // namespace sim::tlm_util
