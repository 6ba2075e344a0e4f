// SPDX-License-Identifier: MIT
// Timing probes (Ramulator 2 style, tests/device_timings/test_hbm3.py there) for the HBM
// mechanisms beyond the base set: separate read and write tRCD, HBM3 stack IDs (tCCD_R), tPPD,
// per-bank refresh (tRFCpb, tRREFD), multi-cycle ACTs and the shared command buses.
#include <gtest/gtest.h>

#include "models/hbm/core/bank_timing.h"
#include "models/hbm/core/command_bus.h"
#include "models/hbm/core/pseudo_channel.h"
#include "sim/core/error.h"

namespace sim::hbm {
namespace {

// Distinct values, so that a probe passes only through the constraint it names.
DramTiming probe_timing() {
    DramTiming t;
    t.burst = 2;
    t.rcd = 11;
    t.rcd_wr = 6;
    t.rp = 13;
    t.ras = 29;
    t.rc = 43;
    t.cl = 17;
    t.cwl = 5;
    t.ccd_s = 2;
    t.ccd_l = 4;
    t.ccd_r = 3;
    t.rrd_s = 3;
    t.rrd_l = 7;
    t.faw = 40;
    t.wtr_s = 6;
    t.wtr_l = 9;
    t.rtp = 8;
    t.wr = 15;
    t.rfc = 300;
    t.refi = 4000;
    t.ppd = 5;
    t.rfc_pb = 90;
    t.rrefd = 12;
    return t;
}

// Two stack IDs of 4 bank groups of 4 banks (HBM3 8-high).
PseudoChannelShape two_sids() {
    PseudoChannelShape s;
    s.stack_ids = 2;
    s.bank_groups = 8;
    return s;
}

constexpr uint32_t bank(uint32_t sid, uint32_t g, uint32_t b) {
    return (sid * 4 + g) * 4 + b;
}

TEST(JedecProbe, WriteAfterActivateWaitsTrcdWrReadWaitsTrcdRd) {
    BankTiming t(probe_timing(), PseudoChannelShape{});
    t.issue(Command::ACT, bank(0, 0, 0), 100, 7);
    EXPECT_EQ(t.earliest(Command::RD, bank(0, 0, 0)), 111u);
    EXPECT_EQ(t.earliest(Command::WR, bank(0, 0, 0)), 106u);
}

TEST(JedecProbe, OneTrcdForBothWhenNoWriteTrcdIsGiven) {
    DramTiming tm = probe_timing();
    tm.rcd_wr = 0;
    BankTiming t(tm, PseudoChannelShape{});
    t.issue(Command::ACT, bank(0, 0, 0), 100, 7);
    EXPECT_EQ(t.earliest(Command::WR, bank(0, 0, 0)), 111u);
}

TEST(JedecProbe, ReadToAnotherStackIdWaitsTccdR) {
    BankTiming t(probe_timing(), two_sids());
    for (uint32_t b : {bank(0, 0, 0), bank(0, 1, 0), bank(1, 0, 0), bank(1, 2, 0)})
        t.issue(Command::ACT, b, 8 * (b + 1), 1);
    t.issue(Command::RD, bank(0, 0, 0), 1000);
    EXPECT_EQ(t.earliest(Command::RD, bank(0, 1, 0)), 1002u);  // same SID, other group: tCCD_S
    EXPECT_EQ(t.earliest(Command::RD, bank(1, 0, 0)), 1003u);  // other SID: tCCD_R
    EXPECT_EQ(t.earliest(Command::RD, bank(1, 2, 0)), 1003u);
    EXPECT_EQ(t.earliest_any_column(false), 1002u);  // a lower bound for every bank
}

TEST(JedecProbe, WriteToAnotherStackIdWaitsOnlyForTheDataBus) {
    DramTiming tm = probe_timing();
    tm.ccd_s = 3;  // so that the data bus (one burst, 2) is what another SID waits for
    tm.ccd_l = 4;
    BankTiming t(tm, two_sids());
    for (uint32_t b : {bank(0, 0, 0), bank(0, 1, 0), bank(1, 0, 0)})
        t.issue(Command::ACT, b, 8 * (b + 1), 1);
    t.issue(Command::WR, bank(0, 0, 0), 1000);
    EXPECT_EQ(t.earliest(Command::WR, bank(0, 1, 0)), 1003u);  // same SID: tCCD_S
    EXPECT_EQ(t.earliest(Command::WR, bank(1, 0, 0)), 1002u);  // other SID: burst
}

TEST(JedecProbe, PrechargeToPrechargeWaitsTppd) {
    BankTiming t(probe_timing(), PseudoChannelShape{});
    t.issue(Command::ACT, bank(0, 0, 0), 0, 1);
    t.issue(Command::ACT, bank(0, 1, 0), 10, 1);
    t.issue(Command::PRE, bank(0, 0, 0), 100);
    EXPECT_EQ(t.earliest(Command::PRE, bank(0, 1, 0)), 105u);
}

TEST(JedecProbe, TwoCycleActivateShiftsWhatFollowsAndPrecedesIt) {
    // As Ramulator 2 adjusts multi-cycle commands: constraints from an ACT count from its last
    // cycle (one later), constraints into an ACT end at its last cycle (one earlier), and
    // ACT-to-ACT constraints are unchanged.
    DramTiming tm = probe_timing();
    tm.act_extra = 1;
    BankTiming t(tm, PseudoChannelShape{});
    t.issue(Command::ACT, bank(0, 0, 0), 100, 7);
    EXPECT_EQ(t.earliest(Command::RD, bank(0, 0, 0)), 112u);   // tRCD + 1
    EXPECT_EQ(t.earliest(Command::PRE, bank(0, 0, 0)), 130u);  // tRAS + 1
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0, 1)), 107u);  // tRRD_L
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 1, 0)), 103u);  // tRRD_S
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0, 0)), 143u);  // tRC
    t.issue(Command::PRE, bank(0, 0, 0), 200);
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0, 0)), 212u);  // tRP - 1
}

TEST(JedecProbe, PerBankRefreshLocksItsBankForTrfcPbAndTheOthersForTrrefd) {
    BankTiming t(probe_timing(), PseudoChannelShape{});
    t.issue(Command::ACT, bank(0, 0, 0), 0, 1);
    EXPECT_THROW(t.issue(Command::REFPB, bank(0, 0, 0), 100), SimBug);  // open: PRE it first
    t.issue(Command::PRE, bank(0, 0, 0), 100);
    EXPECT_EQ(t.earliest(Command::REFPB, bank(0, 0, 0)), 113u);  // tRP
    t.issue(Command::REFPB, bank(0, 0, 0), 113);
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0, 0)), 203u);    // tRFCpb
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 2, 0)), 125u);    // tRREFD
    EXPECT_EQ(t.earliest(Command::REFPB, bank(0, 1, 0)), 125u);  // tRREFD
    t.issue(Command::ACT, bank(0, 3, 0), 125, 1);
    EXPECT_EQ(t.earliest(Command::REFPB, bank(0, 1, 0)), 128u);  // ACT -> REFpb: tRRD_S
}

TEST(JedecProbe, Hbm2RowBusTakesAnActivateForTwoClocks) {
    CommandBus bus;
    bus.act_halves = 4;
    bus.pre_halves = 2;
    bus.take_row(true, 10);
    EXPECT_FALSE(bus.row_free_at(false, 11));
    EXPECT_TRUE(bus.row_free_at(false, 12));
    EXPECT_EQ(bus.row_wake(true), 12u);
}

TEST(JedecProbe, Hbm3PrechargeMayGoOnTheFallingEdgeAnActivateNot) {
    CommandBus bus;
    bus.act_halves = 3;
    bus.pre_halves = 1;
    bus.take_row(false, 10);                  // a PRE on the rising edge of clock 10
    EXPECT_TRUE(bus.row_free_at(false, 10));  // a second PRE on its falling edge
    EXPECT_FALSE(bus.row_free_at(true, 10));
    bus.take_row(false, 10);
    bus.take_row(true, 11);  // an ACT of 1.5 clocks from the rising edge of 11
    EXPECT_FALSE(bus.row_free_at(true, 12));
    EXPECT_TRUE(bus.row_free_at(false, 12));  // the falling edge of 12 is free
    EXPECT_EQ(bus.row_wake(true), 13u);
    EXPECT_EQ(bus.row_wake(false), 12u);
}

// Two pseudo-channels on one command bus: a read to a closed row of each, sent together.
std::vector<Completion> two_reads(CommandBus* bus, uint32_t act_extra) {
    DramTiming tm = probe_timing();
    tm.act_extra = act_extra;
    ControllerParams cp;
    PseudoChannel a(tm, PseudoChannelShape{}, cp, 0, bus);
    PseudoChannel b(tm, PseudoChannelShape{}, cp, 0, bus);
    MemRequest r;
    a.enqueue(r, 0);
    r.id = 1;
    b.enqueue(r, 0);
    std::vector<Completion> done;
    for (uint64_t now = 1; done.size() < 2 && now < 1000; ++now) {
        a.advance(now, done);
        b.advance(now, done);
    }
    return done;
}

TEST(JedecProbe, PseudoChannelsSharingTheRowBusActivateOneAfterTheOther) {
    const std::vector<Completion> apart = two_reads(nullptr, 0);
    ASSERT_EQ(apart.size(), 2u);
    EXPECT_EQ(apart[0].done, apart[1].done);  // own buses: both ACTs at once
    CommandBus hbm2;
    hbm2.act_halves = 4;
    const std::vector<Completion> shared = two_reads(&hbm2, 1);
    ASSERT_EQ(shared.size(), 2u);
    // The first ACT holds the bus for two clocks, and both reads wait one more for tRCD.
    EXPECT_EQ(shared[0].done, apart[0].done + 1);
    EXPECT_EQ(shared[1].done, shared[0].done + 2);
}

// Two pseudo-channels whose rows are open: a row hit to each, sent at the same clock.
std::vector<Completion> two_row_hits(CommandBus* bus) {
    const DramTiming tm = probe_timing();
    ControllerParams cp;
    PseudoChannel a(tm, PseudoChannelShape{}, cp, 0, bus);
    PseudoChannel b(tm, PseudoChannelShape{}, cp, 0, bus);
    std::vector<Completion> done;
    MemRequest r;
    uint64_t now = 0;
    for (int round = 0; round < 2; ++round) {
        done.clear();
        a.enqueue(r, now);
        b.enqueue(r, now);
        while (done.size() < 2 && now < 1000) {
            ++now;
            a.advance(now, done);
            b.advance(now, done);
        }
        now += 50;  // every data beat moved, every constraint over
    }
    return done;
}

TEST(JedecProbe, PseudoChannelsSharingTheColumnBusIssueOneColumnCommandAClock) {
    const std::vector<Completion> apart = two_row_hits(nullptr);
    ASSERT_EQ(apart.size(), 2u);
    EXPECT_EQ(apart[0].done, apart[1].done);
    CommandBus bus;  // one clock per ACT and PRE: only the column bus is in the way
    const std::vector<Completion> shared = two_row_hits(&bus);
    ASSERT_EQ(shared.size(), 2u);
    EXPECT_EQ(shared[1].done, shared[0].done + 1);
}

}  // namespace
}  // namespace sim::hbm
