// SPDX-License-Identifier: MIT
// The HBM model behind its TLM-2.0 AT target socket, driven by a scripted initiator that
// follows the base protocol. Each TEST elaborates its own top and runs sc_start once (ctest
// runs each TEST in its own process); threads only record, assertions come after sc_start.
#include <gtest/gtest.h>

#include <tlm_utils/simple_initiator_socket.h>
#include <cstdlib>

#include <map>

#include "models/hbm/hbm_target.h"
#include "sim/config/loader.h"
#include "tests/testing/hbm_presets.h"
#include "tests/testing/temp_dir.h"

namespace sim::hbm {
namespace {

using sim::testing::hbm_preset;
using sim::testing::one_hbm_pseudo_channel;

// Sends requests back to back, waiting for END_REQ whenever the target withholds it.
struct ScriptedInitiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<ScriptedInitiator> init_socket{"init_socket"};
    struct Request {
        uint64_t addr;
        uint32_t bytes;
        bool write;
    };
    std::vector<Request> script;
    std::vector<tlm::tlm_generic_payload> payloads;
    std::map<const tlm::tlm_generic_payload*, size_t> index;
    std::vector<int> responses;  // count per request
    std::vector<sc_core::sc_time> response_at;
    std::vector<tlm::tlm_response_status> status;
    size_t withheld = 0;  // BEGIN_REQs answered without END_REQ
    sc_core::sc_event end_req;

    SC_HAS_PROCESS(ScriptedInitiator);
    ScriptedInitiator(sc_core::sc_module_name name, std::vector<Request> s)
        : sc_core::sc_module(name),
          script(std::move(s)),
          payloads(script.size()),
          responses(script.size(), 0),
          response_at(script.size()),
          status(script.size(), tlm::TLM_INCOMPLETE_RESPONSE) {
        init_socket.register_nb_transport_bw(this, &ScriptedInitiator::nb_transport_bw);
        SC_THREAD(run);
    }

    void run() {
        for (size_t i = 0; i < script.size(); ++i) {
            tlm::tlm_generic_payload& p = payloads[i];
            index[&p] = i;
            p.set_address(script[i].addr);
            p.set_data_length(script[i].bytes);
            p.set_command(script[i].write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
            p.set_data_ptr(nullptr);
            p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            tlm::tlm_phase phase = tlm::BEGIN_REQ;
            sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
            const tlm::tlm_sync_enum r = init_socket->nb_transport_fw(p, phase, delay);
            if (r == tlm::TLM_COMPLETED) {
                status[i] = p.get_response_status();
            } else if (r == tlm::TLM_ACCEPTED) {
                ++withheld;
                sc_core::wait(end_req);
            }
        }
    }

    tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& p,
                                       tlm::tlm_phase& phase,
                                       sc_core::sc_time&) {
        if (phase == tlm::END_REQ) {
            end_req.notify(sc_core::SC_ZERO_TIME);
            return tlm::TLM_ACCEPTED;
        }
        const size_t i = index.at(&p);
        ++responses[i];
        response_at[i] = sc_core::sc_time_stamp();
        status[i] = p.get_response_status();
        return tlm::TLM_COMPLETED;
    }
};

struct Top {
    Top(const HbmParams& p, std::vector<ScriptedInitiator::Request> script)
        : target("hbm", p), initiator("initiator", std::move(script)) {
        initiator.init_socket.bind(target.tgt_socket);
    }
    HbmTarget target;
    ScriptedInitiator initiator;
};

TEST(HbmTarget, IdleReadTakesControllerPlusActivatePlusCasPlusBurst) {
    const HbmParams p = one_hbm_pseudo_channel({"hbm.controller.row_policy=closed"});
    Top top(p, {{4096, 64, false}});
    sc_core::sc_start();
    ASSERT_EQ(top.initiator.responses[0], 1);
    EXPECT_EQ(top.initiator.status[0], tlm::TLM_OK_RESPONSE);
    const DramTiming& t = p.core.timing;
    const uint64_t cycles = p.core.controller.frontend_cycles + t.rcd + t.ccd_l + t.cl + t.burst;
    const ClockDomain clock("hbm", p.core.clock_hz);
    EXPECT_EQ(top.initiator.response_at[0].value(), clock.to_ps(Cycle{cycles}).value());
}

TEST(HbmTarget, EveryRequestOfAStreamGetsExactlyOneResponse) {
    const HbmParams p = hbm_preset("h100");
    std::vector<ScriptedInitiator::Request> script;
    for (uint64_t i = 0; i < 8192; ++i)
        script.push_back({i * 64, 64, i % 4 == 3});
    Top top(p, script);
    sc_core::sc_start();
    sc_core::sc_time last = sc_core::SC_ZERO_TIME;
    for (size_t i = 0; i < script.size(); ++i) {
        ASSERT_EQ(top.initiator.responses[i], 1) << i;
        EXPECT_EQ(top.initiator.status[i], tlm::TLM_OK_RESPONSE);
        last = std::max(last, top.initiator.response_at[i]);
    }
    EXPECT_EQ(top.target.completed(), script.size());
    // Streaming through all 160 pseudo-channels: well above half the peak bandwidth.
    const double bandwidth = 8192.0 * 64 / last.to_seconds();
    EXPECT_GT(bandwidth, 0.5 * p.peak_bandwidth());
    EXPECT_LT(bandwidth, p.peak_bandwidth());
}

TEST(HbmTarget, FullQueueWithholdsEndReqUntilThereIsRoom) {
    const HbmParams p = one_hbm_pseudo_channel({"hbm.controller.read_queue=1"});
    std::vector<ScriptedInitiator::Request> script;
    for (uint64_t i = 0; i < 16; ++i)
        script.push_back({i * 64, 64, false});
    Top top(p, script);
    sc_core::sc_start();
    EXPECT_GT(top.initiator.withheld, 0u);
    for (size_t i = 0; i < script.size(); ++i)
        EXPECT_EQ(top.initiator.responses[i], 1) << i;
}

TEST(HbmTarget, MalformedRequestsGetErrorResponses) {
    const HbmParams p = one_hbm_pseudo_channel();
    Top top(p, {{0, 48, false}, {1ull << 40, 64, false}});
    sc_core::sc_start();
    EXPECT_EQ(top.initiator.status[0], tlm::TLM_BURST_ERROR_RESPONSE);
    EXPECT_EQ(top.initiator.status[1], tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

}  // namespace
}  // namespace sim::hbm
