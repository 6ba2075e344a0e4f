// SPDX-License-Identifier: MIT
// A memory manager for TLM-2.0 generic payloads (IEEE 1666 §14.5): payloads are reused rather
// than allocated per transaction. acquire() hands out a payload with a reference held by the
// caller; when the last reference is released the payload comes back to the pool.
#pragma once

#include <tlm>

#include <memory>
#include <vector>

namespace sim::tlm_util {

class PayloadPool final : public tlm::tlm_mm_interface {
  public:
    PayloadPool() = default;
    PayloadPool(const PayloadPool&) = delete;
    PayloadPool& operator=(const PayloadPool&) = delete;
    ~PayloadPool() override = default;

    /// A reset payload managed by this pool, with one reference taken.
    tlm::tlm_generic_payload* acquire() {
        tlm::tlm_generic_payload* p;
        if (free_.empty()) {
            owned_.push_back(std::make_unique<tlm::tlm_generic_payload>(this));
            p = owned_.back().get();
        } else {
            p = free_.back();
            free_.pop_back();
        }
        p->acquire();
        return p;
    }
    void free(tlm::tlm_generic_payload* p) override {
        p->reset();
        free_.push_back(p);
    }
    /// Payloads ever created (the pool's high-water mark).
    size_t created() const { return owned_.size(); }

  private:
    std::vector<std::unique_ptr<tlm::tlm_generic_payload>> owned_;
    std::vector<tlm::tlm_generic_payload*> free_;
};

}  // namespace sim::tlm_util
