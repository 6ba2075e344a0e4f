// SPDX-License-Identifier: MIT
// Where a chunk sent over links is going: the link id of its destination device (a TLM-2.0
// extension, IEEE 1666 §14.21). Switches route by it (sim/tlm/link_switch.h); the payload that
// carries it keeps it across reuse, as OriginExtension does.
#pragma once

#include <tlm>

#include <cstdint>

namespace sim::tlm_util {

class RouteExtension final : public tlm::tlm_extension<RouteExtension> {
  public:
    explicit RouteExtension(uint32_t destination = 0) : destination_(destination) {}
    tlm::tlm_extension_base* clone() const override { return new RouteExtension(destination_); }
    void copy_from(const tlm::tlm_extension_base& other) override {
        destination_ = static_cast<const RouteExtension&>(other).destination_;
    }
    uint32_t destination() const { return destination_; }
    void set_destination(uint32_t d) { destination_ = d; }

  private:
    uint32_t destination_;
};

/// trans's destination; throws SimBug when it has none.
uint32_t destination_of(const tlm::tlm_generic_payload& trans);
/// Sets trans's destination, adding the extension the first time.
void set_destination(tlm::tlm_generic_payload& trans, uint32_t destination);

}  // namespace sim::tlm_util
