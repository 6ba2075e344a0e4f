// SPDX-License-Identifier: MIT
// The mechanisms that couple the pseudo-channels of a channel (shared command buses, shared
// request queues) and per-bank refresh, under traffic: the event-driven scheduler must still
// match one evaluated every cycle, and each mechanism must move what it should.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "models/hbm/core/traffic.h"
#include "models/hbm/hbm_params.h"
#include "sim/config/loader.h"
#include "tests/testing/hbm_presets.h"
#include "tests/testing/temp_dir.h"

namespace sim::hbm {
namespace {

HbmParams memory_preset(const std::string& name, std::vector<std::string> overrides = {}) {
    return HbmParams::from_config(ConfigNode::root_of(
        load_config(sim::testing::source_path("configs/hbm/" + name + ".yaml"), overrides)));
}

// One channel (two pseudo-channels) of a Ramulator preset: quick, and every coupling applies.
HbmParams one_channel(const std::string& name, std::vector<std::string> extra = {}) {
    const bool hbm3 = name == "ramulator_hbm3";
    std::vector<std::string> o{
        "hbm.bus_width_bits=" + std::string(hbm3 ? "64" : "128"),
        "hbm.organisation.channels_per_stack=1", "hbm.capacity=256MiB",
        std::string("hbm.mapping.layout=[offset, column:2, pseudo_channel, ") +
            (hbm3 ? "sid, " : "") + "bank_group, bank, column, row]"};
    o.insert(o.end(), extra.begin(), extra.end());
    return memory_preset(name, o);
}

struct Case {
    std::string preset;
    Pattern pattern;
    std::vector<std::string> overrides;
    double offered = 0;
    uint32_t jitter = 0;
};

std::vector<Case> cases() {
    std::vector<Case> c;
    for (const char* preset : {"ramulator_hbm3", "ramulator_hbm2"}) {
        for (Pattern p : {Pattern::Stream, Pattern::Read2Write1, Pattern::Copy, Pattern::Random})
            c.push_back({preset, p, {}});
        c.push_back({preset, Pattern::Copy, {}, 5e9});  // light load: refresh skipping
        c.push_back({preset, Pattern::Read2Write1, {}, 0, 40});
        c.push_back({preset, Pattern::Random, {"hbm.controller.row_policy=closed"}});
        c.push_back({preset, Pattern::Read2Write1, {"hbm.controller.queues=per_pseudo_channel"}});
    }
    c.push_back({"ramulator_hbm2", Pattern::Copy, {"hbm.controller.refresh=per_bank"}});
    c.push_back({"ramulator_hbm3", Pattern::Random, {"hbm.controller.refresh=all_bank"}});
    return c;
}

TrafficResult run(const Case& c, HbmSystem& system) {
    TrafficParams tp;
    tp.pattern = c.pattern;
    tp.request_bytes = 32;
    tp.bytes = 32 * 6000;
    tp.offered_bandwidth = c.offered;
    tp.outstanding = 96;
    tp.arrival_jitter = c.jitter;
    return run_traffic(system, tp);
}

// Every cycle versus event-driven, with the channel's pseudo-channels sharing buses and queues
// and refreshing per bank: a missed wake-up of the sibling that lost the bus, or a drain that
// one pseudo-channel started and the other did not see, would show here.
TEST(ChannelSharing, EventDrivenSchedulingMatchesEvaluatingEveryCycle) {
    for (const Case& c : cases()) {
        const HbmParams p = one_channel(c.preset, c.overrides);
        HbmSystem plain(p.core);
        const TrafficResult a = run(c, plain);
        HbmParams q = p;
        q.core.controller.tick_every_cycle = true;
        HbmSystem ticked(q.core);
        const TrafficResult b = run(c, ticked);
        HbmParams f = p;
        f.core.controller.full_row_scan = true;
        HbmSystem full(f.core);
        const TrafficResult d = run(c, full);
        const std::string what = c.preset + " " + to_string(c.pattern) + " " +
                                 std::to_string(c.offered) + " jitter " + std::to_string(c.jitter) +
                                 (c.overrides.empty() ? "" : " " + c.overrides[0]);
        for (const TrafficResult* other : {&b, &d}) {
            EXPECT_EQ(a.cycles, other->cycles) << what;
            EXPECT_EQ(a.read_latency.mean(), other->read_latency.mean()) << what;
            EXPECT_EQ(a.write_latency.mean(), other->write_latency.mean()) << what;
            EXPECT_EQ(a.stalled_enqueues, other->stalled_enqueues) << what;
        }
        for (size_t pc = 0; pc < plain.pseudo_channel_count(); ++pc) {
            for (const HbmSystem* other : {&ticked, &full}) {
                const ChannelCounters& x = plain.pseudo_channel(pc).counters();
                const ChannelCounters& y = other->pseudo_channel(pc).counters();
                EXPECT_EQ(x.activates, y.activates) << what << " pc" << pc;
                EXPECT_EQ(x.precharges, y.precharges) << what << " pc" << pc;
                EXPECT_EQ(x.refreshes + x.bank_refreshes, y.refreshes + y.bank_refreshes)
                    << what << " pc" << pc;
                EXPECT_EQ(x.row_hits, y.row_hits) << what << " pc" << pc;
                EXPECT_EQ(x.queue_integral, y.queue_integral) << what << " pc" << pc;
            }
        }
    }
}

double bandwidth(const HbmParams& p, const TrafficResult& r) {
    return (r.bytes_read + r.bytes_written) / (r.cycles / double(p.core.clock_hz));
}

TEST(ChannelSharing, SharedQueuesHoldTheChannelsCapacityNotEachPseudoChannels) {
    // Reads camping on one pseudo-channel: with a queue per pseudo-channel it holds 32; with
    // one per channel it may take all 32 of the channel's, and the other none.
    for (const char* queues : {"per_pseudo_channel", "per_channel"}) {
        const HbmParams p =
            one_channel("ramulator_hbm3", {std::string("hbm.controller.queues=") + queues});
        HbmSystem system(p.core);
        uint64_t id = 0;
        AddressParts at;  // pseudo-channel 0, bank 0, row 0
        while (system.try_enqueue(id, at, false, 32, 0))
            ++id;
        EXPECT_EQ(id, 32u) << queues;
        at.pseudo_channel = 1;
        const bool other_has_room = system.try_enqueue(id, at, false, 32, 0);
        EXPECT_EQ(other_has_room, std::string(queues) == "per_pseudo_channel") << queues;
    }
}

TEST(ChannelSharing, PerBankRefreshHidesMostOfWhatAllBankRefreshCosts) {
    // A stream long enough for several tREFI on the H100 preset: all-bank refresh locks every
    // bank of a pseudo-channel for tRFC each tREFI (about 9% of the time); per-bank refresh
    // locks one bank at a time and the stream goes on in the others.
    const std::vector<std::string> per_bank{"hbm.controller.refresh=per_bank",
                                            "hbm.timing.t_rfc_pb=200ns", "hbm.timing.t_rrefd=8ns"};
    TrafficParams tp;
    tp.bytes = 32 << 20;
    const HbmParams all = sim::testing::hbm_preset("h100", {"hbm.controller.refresh=all_bank"});
    const HbmParams pb = sim::testing::hbm_preset("h100", per_bank);
    HbmSystem s_all(all.core), s_pb(pb.core);
    const TrafficResult r_all = run_traffic(s_all, tp);
    const TrafficResult r_pb = run_traffic(s_pb, tp);
    uint64_t ref = 0, refpb = 0;
    for (size_t i = 0; i < s_all.pseudo_channel_count(); ++i) {
        ref += s_all.pseudo_channel(i).counters().refreshes;
        refpb += s_pb.pseudo_channel(i).counters().bank_refreshes;
        EXPECT_EQ(s_pb.pseudo_channel(i).counters().refreshes, 0u);
    }
    // Consistency check: every pseudo-channel refreshes once a tREFI (all-bank) or once a
    // tREFI / 16 (per-bank), from a staggered first due time: within one of each per
    // pseudo-channel.
    const double pcs = double(s_all.pseudo_channel_count());
    const double refi = all.core.timing.refi;
    const double step = double(pb.core.timing.refi / pb.core.shape.banks());
    EXPECT_GT(ref, 0u);
    EXPECT_NEAR(double(ref), pcs * (r_all.cycles / refi - 0.5), pcs);
    EXPECT_NEAR(double(refpb), pcs * (r_pb.cycles / step - 0.5), pcs);
    EXPECT_GT(bandwidth(pb, r_pb), 1.03 * bandwidth(all, r_all));
}

TEST(ChannelSharing, RowHitsToTheBankDueForRefreshDoNotHoldItOff) {
    // One pseudo-channel streaming within one bank's rows: its REFpb must still go every
    // tREFI / banks on average, and the run must end.
    HbmParams p = sim::testing::one_hbm_pseudo_channel(
        {"hbm.controller.refresh=per_bank", "hbm.timing.t_rfc_pb=200ns", "hbm.timing.t_rrefd=8ns",
         "hbm.mapping.layout=[offset, column, bank_group, bank, row]"});
    HbmSystem system(p.core);
    TrafficParams tp;
    tp.bytes = 2 << 20;  // rows of bank 0 first, then the others
    const TrafficResult r = run_traffic(system, tp);
    const uint64_t step = p.core.timing.refi / p.core.shape.banks();
    const uint64_t refpb = system.pseudo_channel(0).counters().bank_refreshes;
    EXPECT_GE(refpb + 1, r.cycles / step - 1);
    EXPECT_LE(refpb, r.cycles / step + 1);
}

}  // namespace
}  // namespace sim::hbm
