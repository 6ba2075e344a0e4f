// SPDX-License-Identifier: MIT
// The jobs a device is running and how far each has got (pure C++; the device's SystemC module
// drives it). Each job advances through its duration at a rate set by its shares of the
// device's resources: max-min fair shares of the compute slots, the links and the copy engines
// among the jobs running (fair_share.h); alone a job advances at rate 1. Its traffic, through
// the memory port and through the link ports, is cut into chunks per port, issued as the job
// reaches them (a few ahead, as a kernel's loads run ahead of its use of the data) and answered
// by the memory or the peer device; a job may not pass the end of a chunk whose answer has not
// come back. Alone on an unloaded memory and idle links every answer comes back before it is
// needed (a job's bytes over its duration never exceed the bandwidth), so a job alone takes
// exactly its duration; behind other traffic, answers come late and the job stalls by exactly
// the queueing it met.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sim/exec/core/job.h"

namespace sim::exec {

struct JobTableParams {
    double min_chunk_bytes =
        256.0 * 1024;          ///< a job's traffic on a port is cut into chunks of at least this, B
    uint32_t max_chunks = 64;  ///< and into at most this many chunks, >= 1
    /// and into chunks that take at least this much of the job's time alone, ps (> 0): a
    /// memory interleaves concurrent jobs' traffic chunk by chunk, and a microsecond is fine
    /// enough a grain for sharing over any span that matters, where 64 chunks of a 10 us
    /// kernel only cost events
    double min_chunk_ps = 1e6;
    uint32_t lookahead = 2;  ///< chunks a job may have asked for beyond the one it is using, >= 1

    void validate() const;  ///< throws SimBug
};

/// How fast a job that fills `compute` of the slots alone advances when it holds `share` of
/// them: share / compute, or for a grid the ratio of its waves alone to its waves now.
double compute_rate(const Job& job, double share);

/// The ports a job's traffic leaves by.
enum class Port : uint8_t { Memory, Link };

/// A chunk of a job's traffic to send through one port; a link chunk carries the same share of
/// each of the job's LinkSends.
struct ChunkRequest {
    uint64_t job = 0;
    uint32_t index = 0;
    double bytes = 0;
    Port port = Port::Memory;
    uint32_t chunks = 1;  ///< the job's chunks on that port (bytes is index's share of them)
};

class JobTable {
  public:
    explicit JobTable(const JobTableParams& params = {});

    /// Starts a job at now (after advance(now)); its first chunks are appended to issue.
    uint64_t add(const Job& job, TimePs now, std::vector<ChunkRequest>& issue);
    /// Advances every job to now: chunks they reached are appended to issue, jobs that ended
    /// to finished. now never goes backwards.
    void advance(TimePs now, std::vector<ChunkRequest>& issue, std::vector<uint64_t>& finished);
    /// The answer to one of job's chunks on port came back (call advance(now) first).
    void chunk_done(uint64_t job, Port port = Port::Memory);
    /// The earliest time something happens without new input (a chunk to issue, a job's end);
    /// nullopt while every job waits for memory, or when there are none.
    std::optional<TimePs> next_event() const;
    size_t active() const { return jobs_.size(); }
    /// The progress rate of a running job (1: as fast as alone), for tests and stats.
    double rate_of(uint64_t job) const;

  private:
    struct Traffic {  ///< a job's chunks on one port
        double bytes = 0;
        uint32_t chunks = 0, issued = 0, answered = 0;
    };
    struct Entry {
        uint64_t id = 0;
        Job job;
        double work = 0;     ///< ps of its duration done
        double rate = 1;     ///< ps of duration per ps of time
        Traffic traffic[2];  ///< by Port
    };
    double issue_point(const Entry& e, const Traffic& t, uint32_t chunk) const;
    double limit_of(const Entry& e) const;
    bool all_answered(const Entry& e) const;
    Traffic chunked(double bytes, TimePs duration) const;
    void issue_reached(Entry& e, std::vector<ChunkRequest>& issue);
    void reshare();

    JobTableParams params_;
    TimePs now_{0};
    uint64_t next_id_ = 1;
    std::vector<Entry> jobs_;
};

}  // namespace sim::exec
