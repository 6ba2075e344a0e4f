// SPDX-License-Identifier: MIT
#include "sim/exec/core/job_table.h"

#include <algorithm>
#include <cmath>

#include "sim/core/error.h"
#include "sim/exec/core/fair_share.h"

namespace sim::exec {

namespace {
/// Work within this many ps of a point counts as having reached it (rates below 1 make
/// doubles land a hair short).
constexpr double kSlackPs = 1e-3;
}  // namespace

double compute_rate(const Job& job, double share) {
    if (job.ctas == 0 || job.cta_slots < 1) return share / job.compute;
    // Whole waves: the grid's CTAs run in batches of the slots it holds.
    const double ctas = double(job.ctas);
    const double alone = std::min(ctas, std::floor(job.cta_slots));
    const double held = std::max(1.0, std::floor(share * job.cta_slots + 1e-9));
    return std::min(1.0, std::ceil(ctas / alone) / std::ceil(ctas / std::min(held, alone)));
}

void JobTableParams::validate() const {
    SIM_ASSERT(min_chunk_bytes > 0, "min_chunk_bytes must be > 0");
    SIM_ASSERT(max_chunks >= 1, "max_chunks must be >= 1");
    SIM_ASSERT(lookahead >= 1, "lookahead must be >= 1");
    SIM_ASSERT(min_chunk_ps > 0, "min_chunk_ps must be > 0");
}

JobTable::JobTable(const JobTableParams& params) : params_(params) {
    params_.validate();
}

double JobTable::issue_point(const Entry& e, const Traffic& t, uint32_t chunk) const {
    const uint32_t ahead = params_.lookahead;
    if (chunk <= ahead) return 0;
    return std::ceil(double(chunk - ahead) * double(e.job.duration.value()) / t.chunks);
}

double JobTable::limit_of(const Entry& e) const {
    const double duration = double(e.job.duration.value());
    double limit = duration;
    for (const Traffic& t : e.traffic) {
        if (t.answered < t.chunks)
            limit = std::min(limit, double(t.answered + 1) * duration / t.chunks);
    }
    return limit;
}

bool JobTable::all_answered(const Entry& e) const {
    return e.traffic[0].answered == e.traffic[0].chunks &&
           e.traffic[1].answered == e.traffic[1].chunks;
}

JobTable::Traffic JobTable::chunked(double bytes, TimePs duration) const {
    Traffic t;
    t.bytes = bytes;
    if (bytes > 0) {
        const double wanted = std::min(std::ceil(bytes / params_.min_chunk_bytes),
                                       std::floor(double(duration.value()) / params_.min_chunk_ps));
        t.chunks = static_cast<uint32_t>(std::clamp(wanted, 1.0, double(params_.max_chunks)));
    }
    return t;
}

void JobTable::issue_reached(Entry& e, std::vector<ChunkRequest>& issue) {
    for (const Port port : {Port::Memory, Port::Link}) {
        Traffic& t = e.traffic[size_t(port)];
        while (t.issued < t.chunks && issue_point(e, t, t.issued) <= e.work + kSlackPs) {
            // Whole bytes that add up to the job's total.
            const double k = t.issued;
            const double bytes =
                std::floor(t.bytes * (k + 1) / t.chunks) - std::floor(t.bytes * k / t.chunks);
            issue.push_back({e.id, t.issued, bytes, port, t.chunks});
            ++t.issued;
        }
    }
}

void JobTable::reshare() {
    // One fair division per resource; a job advances at the pace of its scarcest share.
    const auto divide = [this](double Job::*demand) {
        std::vector<double> demands;
        for (const Entry& e : jobs_)
            demands.push_back(e.job.*demand);
        return fair_shares(demands);
    };
    const std::vector<double> compute = divide(&Job::compute);
    const std::vector<double> link = divide(&Job::link);
    const std::vector<double> copy = divide(&Job::copy);
    for (size_t i = 0; i < jobs_.size(); ++i) {
        Entry& e = jobs_[i];
        double rate = 1;
        if (e.job.compute > 0) rate = std::min(rate, compute_rate(e.job, compute[i]));
        if (e.job.link > 0) rate = std::min(rate, link[i] / e.job.link);
        if (e.job.copy > 0) rate = std::min(rate, copy[i] / e.job.copy);
        e.rate = rate;
    }
}

uint64_t JobTable::add(const Job& job, TimePs now, std::vector<ChunkRequest>& issue) {
    SIM_ASSERT(now == now_, "add() at a time advance() has not reached");
    SIM_ASSERT(job.duration.value() > 0, "a job must take time");
    SIM_ASSERT(job.memory_bytes >= 0 && job.compute >= 0 && job.compute <= 1 && job.link >= 0 &&
                   job.link <= 1 && job.copy >= 0 && job.copy <= 1,
               "job demands out of range");
    Entry e;
    e.id = next_id_++;
    e.job = job;
    // Traffic that crosses the link modules shares the links by what it sends there, not by a
    // whole link share of the device.
    if (!job.link_sends.empty()) e.job.link = 0;
    e.traffic[size_t(Port::Memory)] = chunked(job.memory_bytes, job.duration);
    double link_bytes = 0;
    for (const LinkSend& s : job.link_sends) {
        SIM_ASSERT(s.bytes > 0, "a link send must carry bytes");
        link_bytes += s.bytes;
    }
    e.traffic[size_t(Port::Link)] = chunked(link_bytes, job.duration);
    issue_reached(e, issue);
    jobs_.push_back(e);
    reshare();
    return jobs_.back().id;
}

void JobTable::advance(TimePs now,
                       std::vector<ChunkRequest>& issue,
                       std::vector<uint64_t>& finished) {
    SIM_ASSERT(now >= now_, "time went backwards");
    const double elapsed = double((now - now_).value());
    now_ = now;
    bool ended = false;
    for (Entry& e : jobs_) {
        e.work = std::min(e.work + elapsed * e.rate, limit_of(e));
        issue_reached(e, issue);
        if (all_answered(e) && e.work + kSlackPs >= double(e.job.duration.value())) {
            finished.push_back(e.id);
            ended = true;
        }
    }
    if (!ended) return;
    jobs_.erase(std::remove_if(jobs_.begin(), jobs_.end(),
                               [&](const Entry& e) {
                                   return std::find(finished.begin(), finished.end(), e.id) !=
                                          finished.end();
                               }),
                jobs_.end());
    reshare();
}

void JobTable::chunk_done(uint64_t job, Port port) {
    for (Entry& e : jobs_) {
        if (e.id != job) continue;
        Traffic& t = e.traffic[size_t(port)];
        SIM_ASSERT(t.answered < t.issued, "an answer to a chunk never asked for");
        ++t.answered;
        return;
    }
    SIM_ASSERT(false, "an answer for a job that is not running");
}

std::optional<TimePs> JobTable::next_event() const {
    std::optional<double> soonest;
    for (const Entry& e : jobs_) {
        std::optional<double> target;
        for (const Traffic& t : e.traffic) {
            if (t.issued < t.chunks) {
                const double point = issue_point(e, t, t.issued);
                target = target ? std::min(*target, point) : point;
            }
        }
        if (all_answered(e)) {
            const double end = double(e.job.duration.value());
            target = target ? std::min(*target, end) : end;
        }
        if (!target || *target > limit_of(e) + kSlackPs) continue;  // waits for memory first
        const double wait = std::max(0.0, std::ceil((*target - e.work - kSlackPs) / e.rate));
        soonest = soonest ? std::min(*soonest, wait) : wait;
    }
    if (!soonest) return std::nullopt;
    return now_ + TimePs{static_cast<uint64_t>(*soonest)};
}

double JobTable::rate_of(uint64_t job) const {
    for (const Entry& e : jobs_) {
        if (e.id == job) return e.rate;
    }
    return 0;
}

}  // namespace sim::exec
