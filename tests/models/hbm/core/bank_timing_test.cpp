// SPDX-License-Identifier: MIT
// Timing probes (Ramulator 2 style): issue a command at cycle X, the earliest legal next
// command is at cycle Y, for every constraint the model enforces.
#include "models/hbm/core/bank_timing.h"

#include <gtest/gtest.h>

#include "sim/core/error.h"

namespace sim::hbm {
namespace {

// Distinct values so that a probe can only pass through the constraint it names.
DramTiming probe_timing() {
    DramTiming t;
    t.burst = 2;
    t.rcd = 11;
    t.rp = 13;
    t.ras = 29;
    t.rc = 43;
    t.cl = 17;
    t.cwl = 5;
    t.ccd_s = 2;
    t.ccd_l = 4;
    t.rrd_s = 3;
    t.rrd_l = 7;
    t.faw = 40;
    t.wtr_s = 6;
    t.wtr_l = 9;
    t.rtp = 8;
    t.wr = 15;
    t.rfc = 300;
    t.refi = 4000;
    return t;
}

PseudoChannelShape shape() {
    return PseudoChannelShape{};
}  // 4 groups x 4 banks

// Bank b of group g.
constexpr uint32_t bank(uint32_t g, uint32_t b) {
    return g * 4 + b;
}

TEST(BankTiming, ReadAfterActivateWaitsTrcd) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 100, 7);
    EXPECT_EQ(t.earliest(Command::RD, bank(0, 0)), 111u);
    EXPECT_EQ(t.earliest(Command::WR, bank(0, 0)), 111u);
    EXPECT_EQ(t.open_row(bank(0, 0)), 7);
}

TEST(BankTiming, PrechargeAfterActivateWaitsTras) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 100, 7);
    EXPECT_EQ(t.earliest(Command::PRE, bank(0, 0)), 129u);
}

TEST(BankTiming, ActivateAfterActivateSameBankWaitsTrc) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 100, 7);
    t.issue(Command::PRE, bank(0, 0), 129);
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0)), 143u);  // tRC (100 + 43) > PRE + tRP (142)
}

TEST(BankTiming, ActivateAfterPrechargeWaitsTrp) {
    DramTiming tm = probe_timing();
    tm.rc = tm.ras + tm.rp;  // 42: now tRP decides
    BankTiming t(tm, shape());
    t.issue(Command::ACT, bank(0, 0), 100, 7);
    t.issue(Command::PRE, bank(0, 0), 200);
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0)), 213u);
    EXPECT_EQ(t.open_row(bank(0, 0)), BankTiming::kClosed);
}

TEST(BankTiming, ActivateToOtherBanksWaitsTrrdShortOrLong) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 100, 1);
    EXPECT_EQ(t.earliest(Command::ACT, bank(1, 0)), 103u);  // other group: tRRD_S
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 1)), 107u);  // same group: tRRD_L
}

TEST(BankTiming, FifthActivateWaitsForTheFourActivateWindow) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 100, 1);
    t.issue(Command::ACT, bank(1, 0), 103, 1);
    t.issue(Command::ACT, bank(2, 0), 106, 1);
    t.issue(Command::ACT, bank(3, 0), 109, 1);
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 1)), 140u);  // first ACT + tFAW
}

TEST(BankTiming, ReadToReadWaitsTccdShortOrLong) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 0, 1);
    t.issue(Command::ACT, bank(0, 1), 10, 1);
    t.issue(Command::ACT, bank(1, 0), 20, 1);
    t.issue(Command::RD, bank(0, 0), 100);
    EXPECT_EQ(t.earliest(Command::RD, bank(1, 0)), 102u);  // tCCD_S
    EXPECT_EQ(t.earliest(Command::RD, bank(0, 1)), 104u);  // tCCD_L
    EXPECT_EQ(t.read_done(100), 119u);                     // tCL + burst
}

TEST(BankTiming, WriteToReadWaitsTwtrShortOrLong) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 0, 1);
    t.issue(Command::ACT, bank(0, 1), 10, 1);
    t.issue(Command::ACT, bank(1, 0), 20, 1);
    t.issue(Command::WR, bank(0, 0), 100);
    // Write data ends at 100 + tCWL + burst = 107.
    EXPECT_EQ(t.earliest(Command::RD, bank(1, 0)), 113u);  // + tWTR_S
    EXPECT_EQ(t.earliest(Command::RD, bank(0, 1)), 116u);  // + tWTR_L
}

TEST(BankTiming, ReadToWriteWaitsForTheBusTurnaround) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 0, 1);
    t.issue(Command::ACT, bank(1, 0), 10, 1);
    t.issue(Command::RD, bank(0, 0), 100);
    EXPECT_EQ(t.earliest(Command::WR, bank(1, 0)),
              100u + 17 + 2 + 2 - 5);  // tCL + burst + 2 - tCWL
}

TEST(BankTiming, PrechargeAfterReadWaitsTrtp) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 0, 1);
    t.issue(Command::RD, bank(0, 0), 100);
    EXPECT_EQ(t.earliest(Command::PRE, bank(0, 0)), 108u);
}

TEST(BankTiming, PrechargeAfterWriteWaitsForWriteRecovery) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(0, 0), 0, 1);
    t.issue(Command::WR, bank(0, 0), 100);
    EXPECT_EQ(t.earliest(Command::PRE, bank(0, 0)), 100u + 5 + 2 + 15);  // tCWL + burst + tWR
}

TEST(BankTiming, RefreshNeedsClosedBanksAndLocksThemForTrfc) {
    BankTiming t(probe_timing(), shape());
    t.issue(Command::ACT, bank(2, 3), 0, 1);
    EXPECT_FALSE(t.all_closed());
    EXPECT_THROW(t.issue(Command::REF, 0, 200), SimBug);
    t.issue(Command::PRE, bank(2, 3), 200);
    EXPECT_EQ(t.earliest(Command::REF, 0), 213u);  // every bank precharged (tRP)
    t.issue(Command::REF, 0, 213);
    EXPECT_EQ(t.earliest(Command::ACT, bank(0, 0)), 513u);  // + tRFC
}

TEST(BankTiming, IllegalCommandsAreBugsNotSilentlyAccepted) {
    BankTiming t(probe_timing(), shape());
    EXPECT_THROW(t.issue(Command::RD, bank(0, 0), 0), SimBug);  // closed bank
    t.issue(Command::ACT, bank(0, 0), 0, 1);
    EXPECT_THROW(t.issue(Command::RD, bank(0, 0), 5), SimBug);  // before tRCD
}

}  // namespace
}  // namespace sim::hbm
