// SPDX-License-Identifier: MIT
// The job table without SystemC: jobs alone take exactly their duration, shared resources slow
// them by their shares, late memory answers stall them.
#include "sim/exec/core/job_table.h"

#include <gtest/gtest.h>

#include <map>

namespace sim::exec {
namespace {

constexpr uint64_t kUs = 1'000'000;  // ps

// Drives the table as the device module does, with a memory that answers each chunk after
// `answer` ps (0: at once); returns when each job finished.
struct Driver {
    JobTable table;
    uint64_t answer_ps = 0;
    uint64_t link_answer_ps = 0;  // link chunks answer after this
    struct Pending {
        uint64_t due, job;
        Port port;
    };
    std::vector<Pending> pending;
    std::map<uint64_t, uint64_t> end_of;
    uint64_t now = 0;
    std::vector<ChunkRequest> issue;
    std::vector<uint64_t> finished;

    void take(uint64_t t) {
        for (const ChunkRequest& c : issue)
            pending.push_back(
                {t + (c.port == Port::Link ? link_answer_ps : answer_ps), c.job, c.port});
        issue.clear();
        for (uint64_t id : finished)
            end_of[id] = t;
        finished.clear();
    }
    uint64_t add(const Job& j) {
        table.advance(TimePs{now}, issue, finished);
        take(now);
        const uint64_t id = table.add(j, TimePs{now}, issue);
        take(now);
        return id;
    }
    void run_until_idle() {
        for (int guard = 0; guard < 100000 && (table.active() || !pending.empty()); ++guard) {
            uint64_t next = UINT64_MAX;
            if (auto e = table.next_event()) next = e->value();
            for (auto& p : pending)
                next = std::min(next, p.due);
            ASSERT_NE(next, UINT64_MAX) << "stuck: jobs wait for answers that never come";
            now = next;
            table.advance(TimePs{now}, issue, finished);
            take(now);
            for (size_t i = 0; i < pending.size();) {
                if (pending[i].due <= now) {
                    table.chunk_done(pending[i].job, pending[i].port);
                    pending.erase(pending.begin() + long(i));
                } else {
                    ++i;
                }
            }
            table.advance(TimePs{now}, issue, finished);
            take(now);
        }
    }
};

TEST(JobTable, AJobAloneTakesExactlyItsDuration) {
    Driver d;
    Job j{TimePs{7 * kUs + 3}};
    j.compute = 1;
    j.memory_bytes = 64.0 * 1024 * 1024;
    const uint64_t id = d.add(j);
    d.run_until_idle();
    EXPECT_EQ(d.end_of.at(id), 7 * kUs + 3);
}

TEST(JobTable, LinkTrafficIsChunkedApartFromMemoryTraffic) {
    Driver d;
    Job j{TimePs{100 * kUs}};
    j.memory_bytes = 1e6;
    j.link_sends = {{3, 3e6}, {5, 1e6}};
    d.table.advance(TimePs{0}, d.issue, d.finished);
    d.table.add(j, TimePs{0}, d.issue);
    // 1 MB: 4 memory chunks of 256 KiB; 4 MB: 16 link chunks; three of each asked at once.
    ASSERT_EQ(d.issue.size(), 6u);
    double link_bytes = 0;
    for (const ChunkRequest& c : d.issue) {
        if (c.port == Port::Link) {
            EXPECT_EQ(c.chunks, 16u);
            link_bytes += c.bytes;
        } else {
            EXPECT_EQ(c.chunks, 4u);
        }
    }
    EXPECT_DOUBLE_EQ(link_bytes, 3 * 250000.0);
}

TEST(JobTable, AShortJobsTrafficIsCutIntoChunksOfAMicrosecondAtLeast) {
    Driver d;
    Job j{TimePs{5 * kUs + 500'000}};  // 5.5 us
    j.memory_bytes = 64e6;             // 245 chunks of 256 KiB by size; 5 by time
    d.table.advance(TimePs{0}, d.issue, d.finished);
    d.table.add(j, TimePs{0}, d.issue);
    ASSERT_FALSE(d.issue.empty());
    EXPECT_EQ(d.issue.front().chunks, 5u);
    Job tiny{TimePs{500'000}};  // shorter than a microsecond: one chunk
    tiny.memory_bytes = 1e6;
    d.issue.clear();
    d.table.add(tiny, TimePs{0}, d.issue);
    ASSERT_EQ(d.issue.size(), 1u);
    EXPECT_EQ(d.issue.front().chunks, 1u);
}

TEST(JobTable, LateLinkAnswersStallAJob) {
    // 4 MB to one peer in 10 us: 10 link chunks of 1 us each (at least a microsecond of the
    // job), the first three asked for at once and each next one as the job passes the start
    // of the chunk two before it. Every answer comes back 4 us after its chunk left, while
    // the lookahead covers 2-3 us of work, so the job waits for its link answers and for
    // nothing else: it runs 1 us, waits until 4 us for the first answers, and from then on
    // each answer lets it run about one more microsecond; it ends at 15 us instead of 10.
    Driver d;
    d.link_answer_ps = 4 * kUs;
    Job j{TimePs{10 * kUs}};
    j.link_sends = {{1, 4e6}};
    const uint64_t id = d.add(j);
    d.run_until_idle();
    EXPECT_EQ(d.end_of.at(id), 15 * kUs);
    Driver prompt;
    const uint64_t fast = prompt.add(j);
    prompt.run_until_idle();
    EXPECT_EQ(prompt.end_of.at(fast), 10 * kUs);
}

TEST(JobTable, TwoFullKernelsShareTheSmsAndEachTakesTwiceAsLong) {
    Driver d;
    Job j{TimePs{10 * kUs}};
    j.compute = 1;
    const uint64_t a = d.add(j);
    const uint64_t b = d.add(j);
    EXPECT_DOUBLE_EQ(d.table.rate_of(a), 0.5);
    d.run_until_idle();
    EXPECT_EQ(d.end_of.at(a), 20 * kUs);
    EXPECT_EQ(d.end_of.at(b), 20 * kUs);
}

TEST(JobTable, ACollectiveOnFewSmsSlowsAGemmByItsShare) {
    Driver d;
    Job gemm{TimePs{100 * kUs}};
    gemm.compute = 1;
    Job allreduce{TimePs{50 * kUs}};
    allreduce.compute = 0.25;
    allreduce.link = 1;
    const uint64_t g = d.add(gemm);
    const uint64_t a = d.add(allreduce);
    EXPECT_DOUBLE_EQ(d.table.rate_of(a), 1.0);  // it gets all it asks for
    EXPECT_DOUBLE_EQ(d.table.rate_of(g), 0.75);
    d.run_until_idle();
    EXPECT_EQ(d.end_of.at(a), 50 * kUs);
    // 50 us at 3/4 speed does 37.5 us of the GEMM; the other 62.5 us run alone after.
    EXPECT_EQ(d.end_of.at(g), 50 * kUs + 62'500'000);
}

TEST(JobTable, AOneWaveGridThatLosesSmsToACollectiveRunsInTwoWaves) {
    // H100: a GEMM of 132 CTAs, one per SM, is one wave; an NCCL kernel holding 24 SMs leaves
    // 108 slots, so the grid runs in two waves and takes twice as long (the tail effect users
    // report with nsys [nvidia-forum-overlap]).
    Driver d;
    Job gemm{TimePs{100 * kUs}};
    gemm.compute = 1;
    gemm.ctas = 132;
    gemm.cta_slots = 132;
    Job nccl{TimePs{1000 * kUs}};
    nccl.compute = 24.0 / 132;
    nccl.link = 1;
    const uint64_t a = d.add(nccl);
    const uint64_t g = d.add(gemm);
    EXPECT_DOUBLE_EQ(d.table.rate_of(g), 0.5);
    d.run_until_idle();
    EXPECT_EQ(d.end_of.at(g), 200 * kUs);
    EXPECT_EQ(d.end_of.at(a), 1000 * kUs);
}

TEST(JobTable, AManyWaveGridLosesOnlyTheWavesTheMissingSlotsCost) {
    Job gemm{TimePs{1}};
    gemm.compute = 1;
    gemm.ctas = 2048;  // 15.5 waves of 132
    gemm.cta_slots = 132;
    EXPECT_DOUBLE_EQ(compute_rate(gemm, 1.0), 1.0);
    EXPECT_DOUBLE_EQ(compute_rate(gemm, 108.0 / 132), 16.0 / 19.0);  // ceil(2048/108) = 19
}

TEST(JobTable, LateMemoryAnswersStallAJobByTheirLateness) {
    Driver d;
    d.answer_ps = 40 * kUs;  // a memory far slower than the job
    Job j{TimePs{10 * kUs}};
    j.memory_bytes = 1024.0 * 1024;  // 4 chunks of 256 KiB
    const uint64_t id = d.add(j);
    d.run_until_idle();
    // Chunks 0..2 go at the start (the look-ahead), chunk 3 when chunk 0's interval is done;
    // the job ends only after the last answer.
    EXPECT_GT(d.end_of.at(id), 40 * kUs);
}

TEST(JobTable, AJobWithNothingToDoFinishesAtItsDuration) {
    Driver d;
    const uint64_t id = d.add(Job{TimePs{5}});
    d.run_until_idle();
    EXPECT_EQ(d.end_of.at(id), 5u);
}

}  // namespace
}  // namespace sim::exec
