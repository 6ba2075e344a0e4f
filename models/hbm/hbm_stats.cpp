// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_stats.h"

namespace sim::hbm {

namespace {

void publish_rows(StatGroup& g, const ChannelCounters& c) {
    const double starts = double(c.row_hits + c.row_misses + c.row_conflicts);
    g.add_scalar("row_hit_rate", "ratio", "requests whose row was already open")
        .set(starts ? c.row_hits / starts : 0);
    g.add_scalar("row_miss_rate", "ratio", "requests that found their bank closed (ACT)")
        .set(starts ? c.row_misses / starts : 0);
    g.add_scalar("row_conflict_rate", "ratio", "requests that found another row open (PRE + ACT)")
        .set(starts ? c.row_conflicts / starts : 0);
}

void add_counters(ChannelCounters& sum, const ChannelCounters& c) {
    sum.reads += c.reads;
    sum.writes += c.writes;
    sum.read_bursts += c.read_bursts;
    sum.write_bursts += c.write_bursts;
    sum.activates += c.activates;
    sum.precharges += c.precharges;
    sum.refreshes += c.refreshes;
    sum.row_hits += c.row_hits;
    sum.row_misses += c.row_misses;
    sum.row_conflicts += c.row_conflicts;
    sum.refresh_cycles += c.refresh_cycles;
    sum.bank_refreshes += c.bank_refreshes;
    sum.bank_refresh_cycles += c.bank_refresh_cycles;
    sum.queue_integral += c.queue_integral;
}

// A REFpb refreshes the rows of one bank: a share 1 / banks of what a REFab refreshes.
double refresh_energy(const HbmParams& p, const ChannelCounters& c) {
    return c.refreshes * p.energy.refresh +
           (c.bank_refreshes ? c.bank_refreshes * p.energy.refresh / p.core.shape.banks() : 0.0);
}

double energy_of(const HbmParams& p, const ChannelCounters& c) {
    const double bits_per_burst = 8.0 * p.core.shape.access_bytes;
    return c.activates * p.energy.activate +
           c.read_bursts * bits_per_burst * p.energy.read_per_bit +
           c.write_bursts * bits_per_burst * p.energy.write_per_bit + refresh_energy(p, c);
}

// Pseudo-channel-cycles locked by refresh: all of it for a REFab, a bank's share for a REFpb.
double refresh_locked(const HbmParams& p, const ChannelCounters& c) {
    return c.refresh_cycles + double(c.bank_refresh_cycles) / p.core.shape.banks();
}

}  // namespace

double hbm_energy(const HbmParams& params, const HbmSystem& system) {
    double joules = 0;
    for (size_t i = 0; i < system.pseudo_channel_count(); ++i)
        joules += energy_of(params, system.pseudo_channel(i).counters());
    return joules;
}

void publish_hbm_run(StatGroup& g,
                     const HbmParams& params,
                     const HbmSystem& system,
                     const TrafficResult& r) {
    const double clock = static_cast<double>(params.core.clock_hz);
    const double seconds = r.cycles / clock;
    const double ns_per_cycle = 1e9 / clock;
    const double pc_count = static_cast<double>(system.pseudo_channel_count());
    const double peak = params.peak_bandwidth();
    const double bytes = double(r.bytes_read + r.bytes_written);

    g.add_counter("requests", "count", "requests completed") += r.requests;
    g.add_scalar("bytes_read", "B", "bytes read").set(double(r.bytes_read));
    g.add_scalar("bytes_written", "B", "bytes written").set(double(r.bytes_written));
    g.add_scalar("sim_time", "s", "simulated time until the last data beat").set(seconds);
    g.add_scalar("peak_bandwidth", "B/s", "all pseudo-channels moving a burst every burst time")
        .set(peak);
    g.add_scalar("achieved_bandwidth", "B/s", "bytes / simulated time")
        .set(seconds > 0 ? bytes / seconds : 0);
    g.add_scalar("bandwidth_utilisation", "ratio", "achieved / peak bandwidth")
        .set(seconds > 0 ? bytes / seconds / peak : 0);
    g.add_counter("stalled_enqueues", "count",
                  "requests refused by a full controller queue (back-pressure)") +=
        r.stalled_enqueues;
    for (const auto& [name, h] :
         {std::pair<const char*, const LatencyHistogram*>{"read_latency", &r.read_latency},
          {"write_latency", &r.write_latency}}) {
        StatGroup& l = g.add_group(name);
        l.add_counter("count", "count", "requests measured") += h->count();
        l.add_scalar("mean", "ns", "arrival at the controller to last data beat, mean")
            .set(h->mean() * ns_per_cycle);
        l.add_scalar("p50", "ns", "median").set(double(h->quantile(0.5)) * ns_per_cycle);
        l.add_scalar("p99", "ns", "99th percentile").set(double(h->quantile(0.99)) * ns_per_cycle);
        l.add_scalar("max", "ns", "maximum").set(double(h->max()) * ns_per_cycle);
    }

    ChannelCounters total;
    for (size_t i = 0; i < system.pseudo_channel_count(); ++i)
        add_counters(total, system.pseudo_channel(i).counters());
    g.add_counter("activates", "count", "ACT commands") += total.activates;
    g.add_counter("precharges", "count", "PRE commands (explicit and for refresh)") +=
        total.precharges;
    g.add_counter("refreshes", "count", "all-bank REF commands") += total.refreshes;
    if (params.core.controller.per_bank_refresh)
        g.add_counter("bank_refreshes", "count", "per-bank REFpb commands") += total.bank_refreshes;
    publish_rows(g, total);
    g.add_scalar("queue_occupancy", "requests", "time-averaged queued requests per pseudo-channel")
        .set(r.cycles ? total.queue_integral / double(r.cycles) / pc_count : 0);
    g.add_scalar("refresh_time_share", "ratio", "share of pseudo-channel time locked by refresh")
        .set(r.cycles ? refresh_locked(params, total) / double(r.cycles) / pc_count : 0);
    StatGroup& e = g.add_group("energy");
    const double bits_per_burst = 8.0 * params.core.shape.access_bytes;
    e.add_scalar("activate", "J", "ACT/PRE energy").set(total.activates * params.energy.activate);
    e.add_scalar("read", "J", "read data energy")
        .set(total.read_bursts * bits_per_burst * params.energy.read_per_bit);
    e.add_scalar("write", "J", "write data energy")
        .set(total.write_bursts * bits_per_burst * params.energy.write_per_bit);
    e.add_scalar("refresh", "J", "refresh energy").set(refresh_energy(params, total));
    const double joules = energy_of(params, total);
    e.add_scalar("total", "J", "all HBM energy").set(joules);
    e.add_scalar("per_bit", "J/bit", "energy per data bit moved")
        .set(bytes > 0 ? joules / (bytes * 8) : 0);

    StatGroup& per = g.add_group("pseudo_channels");
    for (size_t i = 0; i < system.pseudo_channel_count(); ++i) {
        const ChannelCounters& c = system.pseudo_channel(i).counters();
        StatGroup& pc = per.add_group("pc" + std::to_string(i));
        const double pc_bytes =
            double(c.read_bursts + c.write_bursts) * params.core.shape.access_bytes;
        pc.add_scalar("bytes", "B", "bytes moved").set(pc_bytes);
        pc.add_scalar("bandwidth_utilisation", "ratio", "achieved / peak of this pseudo-channel")
            .set(seconds > 0 ? pc_bytes / seconds / (peak / pc_count) : 0);
        pc.add_counter("activates", "count", "ACT commands") += c.activates;
        pc.add_counter("refreshes", "count", "REF commands") += c.refreshes;
        if (params.core.controller.per_bank_refresh)
            pc.add_counter("bank_refreshes", "count", "per-bank REFpb commands") +=
                c.bank_refreshes;
        publish_rows(pc, c);
        pc.add_scalar("queue_occupancy", "requests", "time-averaged queued requests")
            .set(r.cycles ? c.queue_integral / double(r.cycles) : 0);
        pc.add_scalar("energy", "J", "energy of this pseudo-channel").set(energy_of(params, c));
    }
}

}  // namespace sim::hbm
