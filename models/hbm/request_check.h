// SPDX-License-Identifier: MIT
// What the HBM targets (hbm_target.h, hbm_controller_target.h) answer a malformed request: a
// read or write of whole bursts, at most one interleave granule, starting on a burst inside
// the memory and staying within one row of one pseudo-channel; TLM_OK_RESPONSE when it is one.
#pragma once

#include <tlm>

#include "models/hbm/core/hbm_system.h"

namespace sim::hbm {

inline tlm::tlm_response_status request_status(const HbmSystem& system,
                                               const tlm::tlm_generic_payload& trans) {
    const uint32_t len = trans.get_data_length();
    const uint32_t access = system.config().shape.access_bytes;
    const uint32_t granule = system.max_request_bytes();
    if ((!trans.is_read() && !trans.is_write()) || len == 0 || len % access != 0 || len > granule)
        return tlm::TLM_BURST_ERROR_RESPONSE;
    const uint64_t addr = trans.get_address();
    const uint64_t capacity = system.mapping().capacity();
    if (addr >= capacity || len > capacity - addr || addr % access != 0 ||
        addr % granule + len > granule)
        return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

}  // namespace sim::hbm
