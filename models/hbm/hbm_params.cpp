// SPDX-License-Identifier: MIT
#include "models/hbm/hbm_params.h"

#include "models/energy/energy_params.h"
#include "models/hw/hw_params.h"
#include "sim/config/resolved.h"

#include <cctype>
#include <cmath>

namespace sim::hbm {

namespace {

// A timing in memory clocks: "14ns" converts (rounded up), a plain integer is already nCK.
bool get_cycles(const ConfigNode& n, const std::string& key, uint64_t clock_hz, uint32_t& out) {
    constexpr double kMostCycles = 1e9;  // ~1 s at 1 GHz: far beyond any DRAM timing
    std::string text;
    if (!n.get(key, text)) return false;
    if (!text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c));
        })) {
        if (text.size() > 10 || std::stoull(text) > kMostCycles)
            n.fail(key, "= " + text + " cycles is beyond any DRAM timing");
        out = static_cast<uint32_t>(std::stoull(text));
        return true;
    }
    double seconds = 0;
    try {
        seconds = parse_quantity(text, Dimension::Time);
    } catch (const std::invalid_argument& e) {
        n.fail(key, e.what());
    }
    const double cycles = std::ceil(seconds * static_cast<double>(clock_hz) - 1e-6);
    if (!(cycles <= kMostCycles)) n.fail(key, "= " + text + " is beyond any DRAM timing");
    out = static_cast<uint32_t>(std::max(cycles, 0.0));
    return true;
}

void require_at_least(const ConfigNode& n,
                      const std::string& key,
                      uint64_t value,
                      uint64_t minimum,
                      const std::string& why) {
    if (value < minimum) {
        n.fail(key, "= " + std::to_string(value) + " cycles cannot hold: must be >= " +
                        std::to_string(minimum) + " (" + why + ")");
    }
}

}  // namespace

ParamTable<ControllerParams> controller_param_table() {
    using P = ControllerParams;
    ParamTable<P> t;
    t.integer("read_queue", &P::read_queue, 1, kMaxQueueEntries, "requests",
              "read queue entries per pseudo-channel (per channel with queues: per_channel)");
    t.integer("write_queue", &P::write_queue, 1, kMaxQueueEntries, "requests",
              "write queue entries, as read_queue; on a GPU an L2 slice holds a store whose "
              "dirty victim finds its queue full");
    t.integer("write_high_watermark", &P::write_high_watermark, 1, kMaxQueueEntries, "requests",
              "queued writes that start a write drain (at most write_queue)");
    t.integer("write_low_watermark", &P::write_low_watermark, 0, kMaxQueueEntries - 1, "requests",
              "queued writes that end a drain (below write_high_watermark)");
    t.integer("frontend_cycles", &P::frontend_cycles, 1, 1000000, "memory clocks",
              "arrival to schedulable: decode and queue insert");
    t.options("row_policy", &P::open_row, {{"open", true}, {"closed", false}},
              "open: a row stays open until a request needs another; closed: closed as soon as "
              "no queued request hits it");
    t.options("refresh", &P::per_bank_refresh, {{"all_bank", false}, {"per_bank", true}},
              "all_bank: REFab to every bank each t_refi; per_bank: REFpb to one bank each "
              "t_refi / banks, round robin (JESD238)");
    t.options("queues", &P::queues_per_channel,
              {{"per_pseudo_channel", false}, {"per_channel", true}},
              "one read and one write queue per pseudo-channel, or per channel shared by its "
              "pseudo-channels (Ramulator 2)");
    return t;
}

ParamTable<HbmCoreConfig> organisation_param_table() {
    using P = HbmCoreConfig;
    ParamTable<P> t;
    // Bounds keep every product in range (and the model's 64-bank masks valid).
    t.integer("channels_per_stack", &P::channels_per_stack, 1, 64, "channels",
              "channels of one stack")
        .required();
    t.integer("pseudo_channels_per_channel", &P::pseudo_channels_per_channel, 1, 8,
              "pseudo-channels", "independent halves of a channel, each with its controller")
        .required();
    // The shape's fields sit one struct down.
    const auto shape = [](auto PseudoChannelShape::*member) {
        return [member](P & p) -> auto& {
            return p.shape.*member;
        };
    };
    t.integer_at<uint32_t>("bank_groups", shape(&PseudoChannelShape::bank_groups), 1, 64, "",
                           "bank groups per stack ID (the model counts them across stack IDs)")
        .required();
    t.integer_at<uint32_t>("stack_ids", shape(&PseudoChannelShape::stack_ids), 1, 8, "",
                           "HBM3 stack IDs (SIDs) a pseudo-channel spans (8-high stacks: 2)");
    t.integer_at<uint32_t>("banks_per_group", shape(&PseudoChannelShape::banks_per_group), 1, 64,
                           "",
                           "banks per bank group; at most 64 banks per pseudo-channel are "
                           "modelled")
        .required();
    t.integer_at<uint64_t>("rows_per_bank", shape(&PseudoChannelShape::rows), 1, kMaxRows, "rows",
                           "rows of each bank")
        .required();
    return t;
}

ParamTable<BurstKeys> burst_param_table() {
    using P = BurstKeys;
    ParamTable<P> t;
    t.integer("burst_length", &P::burst_length, 1, 64, "beats", "data beats of one burst (BL)")
        .required();
    t.integer("beats_per_clock", &P::beats_per_clock, 1, 16, "beats",
              "data beats per memory clock (2: DDR); must divide burst_length")
        .required();
    return t;
}

ParamTable<CommandBusConfig> command_bus_param_table() {
    using P = CommandBusConfig;
    ParamTable<P> t;
    t.flag("shared_by_pseudo_channels", &P::shared,
           "one row and one column command bus per channel, shared by its pseudo-channels "
           "(JESD235/JESD238), instead of a pair each");
    // Held in half clocks; the key is in clocks, a whole number of halves.
    const auto halves = [&t](const char* key, uint32_t P::*member, const char* description) {
        t.custom({key, "number", format_number((P{}.*member) / 2.0), "0.5 .. 4, in steps of 0.5",
                  "memory clocks", description},
                 [key, member](const ConfigNode& n, P& p) {
                     double v = (p.*member) / 2.0;
                     if (!n.get(key, v)) return;
                     if (!(v >= 0.5 && v <= 4) || std::fmod(v * 2, 1.0) != 0)
                         n.fail(key, "must be a whole number of half clocks from 0.5 to 4");
                     p.*member = static_cast<uint32_t>(v * 2);
                 });
    };
    halves("act_cycles", &P::act_halves, "clocks an ACT holds the row bus (HBM2: 2)");
    halves("pre_cycles", &P::pre_halves, "clocks a PRE or REF holds the row bus");
    return t;
}

ParamTable<HbmCoreConfig> timing_param_table() {
    using P = HbmCoreConfig;
    ParamTable<P> t;
    // A timing is read in memory clocks (HbmCoreConfig::clock_hz, from the pin rate): "14ns"
    // rounds up, a plain integer is already clocks.
    const auto timing = [&t](const char* key, uint32_t DramTiming::*member, bool required,
                             const char* description) {
        const std::string fallback =
            required ? "required" : std::to_string(DramTiming{}.*member) + " nCK";
        t.custom({key, "time", fallback, "a time (14ns) or whole memory clocks (14)", "s or nCK",
                  description},
                 [key, member, required](const ConfigNode& n, P& p) {
                     if (!get_cycles(n, key, p.clock_hz, p.timing.*member) && required)
                         n.fail(key, "required key is missing; expected a time such as 14ns");
                 });
    };
    timing("t_rcd", &DramTiming::rcd, true, "ACT to RD, same bank (tRCDRD)");
    timing("t_rcd_wr", &DramTiming::rcd_wr, false, "ACT to WR, same bank (tRCDWR); 0: t_rcd");
    timing("t_rp", &DramTiming::rp, true, "PRE to ACT, same bank");
    timing("t_ras", &DramTiming::ras, true, "ACT to PRE, same bank");
    t.custom({"t_rc", "time", "t_ras + t_rp", "a time (14ns) or whole memory clocks (14)",
              "s or nCK", "ACT to ACT, same bank"},
             [](const ConfigNode& n, P& p) {
                 p.timing.rc = p.timing.ras + p.timing.rp;
                 get_cycles(n, "t_rc", p.clock_hz, p.timing.rc);
             });
    timing("t_cl", &DramTiming::cl, true, "RD to first data");
    timing("t_cwl", &DramTiming::cwl, true, "WR to first data");
    timing("t_ccd_s", &DramTiming::ccd_s, true, "column to column, different bank groups");
    timing("t_ccd_l", &DramTiming::ccd_l, true, "column to column, same bank group");
    timing("t_rrd_s", &DramTiming::rrd_s, true, "ACT to ACT, different bank groups");
    timing("t_rrd_l", &DramTiming::rrd_l, true, "ACT to ACT, same bank group");
    timing("t_faw", &DramTiming::faw, true, "window holding at most four ACTs");
    timing("t_wtr_s", &DramTiming::wtr_s, true, "end of write data to RD, different bank groups");
    timing("t_wtr_l", &DramTiming::wtr_l, true, "end of write data to RD, same bank group");
    timing("t_rtp", &DramTiming::rtp, true, "RD to PRE, same bank");
    timing("t_wr", &DramTiming::wr, true, "end of write data to PRE (write recovery)");
    timing("t_rfc", &DramTiming::rfc, true, "all-bank REF to ACT");
    timing("t_refi", &DramTiming::refi, true, "average interval between refreshes");
    timing("t_rtw", &DramTiming::rtw, false,
           "RD to WR, same pseudo-channel; 0: t_cl + burst + 2 - t_cwl");
    timing("t_ccd_r", &DramTiming::ccd_r, false,
           "RD to RD, different stack IDs (HBM3 tCCD_R; organisation.stack_ids >= 2); 0: t_ccd_s");
    timing("t_ppd", &DramTiming::ppd, false, "PRE to PRE, same pseudo-channel (HBM3 tPPD)");
    timing("t_rfc_pb", &DramTiming::rfc_pb, false,
           "per-bank REFpb to ACT of that bank; required with controller.refresh: per_bank");
    timing("t_rrefd", &DramTiming::rrefd, false,
           "REFpb to REFpb or ACT of another bank; required with controller.refresh: per_bank");
    return t;
}

ParamTable<HbmCoreConfig> mapping_param_table() {
    using P = HbmCoreConfig;
    ParamTable<P> t;
    t.custom({"layout", "list", "required",
              "offset, column[:bits], pseudo_channel, channel, stack, sid, bank_group, "
              "bank, row (last); each field once, a name:N part of it before",
              "",
              "the address's fields from the least significant bit; name:N takes 2^N of that "
              "field there and the plain name the rest"},
             [](const ConfigNode& n, P& p) { n.require("layout", p.layout); });
    t.flag("xor_bank_with_row", &P::xor_bank_with_row,
           "XOR the row's low bits into the bank and bank-group bits, so that consecutive rows "
           "of one bank land in different banks");
    t.flag("skew_partitions", &P::skew_partitions,
           "rotate the stack, channel and pseudo-channel index by the address above them");
    t.flag("column_xor", &P::column_xor,
           "XOR the column bits into the pseudo-channel, stack ID, bank group, bank and row "
           "bits (as Ramulator 2's MOP4CLXOR)");
    return t;
}

HbmParams HbmParams::from_config(const ConfigNode& root) {
    HbmParams p;
    HbmCoreConfig& c = p.core;
    const ConfigNode hbm = root.child("hbm");
    // The figures every model shares (generation, stacks, bus width, pin rate, capacity, row
    // size) are read once into hw::HbmParams; this struct adds the organisation and timing.
    const hw::HbmParams& figures = resolved<hw::HbmParams>(root);
    p.generation = figures.generation;
    c.stacks = figures.stacks;
    const uint32_t bus_width = figures.bus_width_bits;
    const double pin_rate = figures.pin_rate_bps;
    p.capacity_bytes = figures.capacity_bytes;

    const ConfigNode org = hbm.child("organisation");
    organisation_param_table().read(org, c);
    const uint64_t row_bytes = figures.row_bytes;
    if (row_bytes == 0) org.fail("row_bytes", "required key is missing; expected e.g. 1KiB");
    BurstKeys bursts;
    burst_param_table().read(org, bursts);
    const uint32_t burst_length = bursts.burst_length, beats_per_clock = bursts.beats_per_clock;
    if (c.stacks == 0 || c.stacks > 64) hbm.fail("stacks", "must be between 1 and 64");
    // The model counts bank groups across stack IDs (organisation.bank_groups is per SID).
    c.shape.bank_groups *= c.shape.stack_ids;
    if (c.shape.banks() > kMaxBanks) {
        org.fail("banks_per_group",
                 "at most " + std::to_string(kMaxBanks) + " banks per pseudo-channel are modelled");
    }
    const uint32_t pcs = c.channels_per_stack * c.pseudo_channels_per_channel;
    if (bus_width == 0 || bus_width % pcs != 0) {
        hbm.fail("bus_width_bits", std::to_string(bus_width) + " bits do not split evenly over " +
                                       std::to_string(pcs) + " pseudo-channels");
    }
    const uint32_t pc_width = bus_width / pcs;
    if ((pc_width * burst_length) % 8 != 0)
        org.fail("burst_length", "a burst must move whole bytes");
    c.shape.access_bytes = pc_width * burst_length / 8;
    if (burst_length % beats_per_clock != 0)
        org.fail("beats_per_clock", "must divide burst_length");
    if (c.shape.access_bytes == 0) org.fail("burst_length", "a burst must move at least one byte");
    if (row_bytes % c.shape.access_bytes != 0 || row_bytes == 0 ||
        row_bytes > (uint64_t{1} << 30)) {
        org.fail("row_bytes",
                 "must be a multiple of the " + std::to_string(c.shape.access_bytes) + " B burst");
    }
    c.shape.columns = static_cast<uint32_t>(row_bytes / c.shape.access_bytes);
    if (!(pin_rate > 0) || pin_rate > 1e12)
        hbm.fail("pin_rate", "must be greater than 0 and at most 1000Gbps");
    const double clock = pin_rate / beats_per_clock;
    c.clock_hz = static_cast<uint64_t>(std::llround(clock));
    if (c.clock_hz == 0) hbm.fail("pin_rate", "gives a memory clock of 0 Hz");

    DramTiming& t = c.timing;
    t.burst = burst_length / beats_per_clock;
    const ConfigNode tn = hbm.child("timing");
    timing_param_table().read(tn, c);
    require_at_least(tn, "t_rcd", t.rcd, 1, "an ACT takes time");
    require_at_least(tn, "t_ras", t.ras, t.rcd,
                     "a row must stay open until it can be read: t_ras >= t_rcd");
    if (tn.has("t_rcd_wr")) {
        require_at_least(tn, "t_rcd_wr", t.rcd_wr, 1, "an ACT takes time");
        require_at_least(tn, "t_ras", t.ras, t.rcd_wr,
                         "a row must stay open until it can be written: t_ras >= t_rcd_wr");
    }
    if (tn.has("t_rtw")) require_at_least(tn, "t_rtw", t.rtw, 1, "a turnaround takes time");
    if (tn.has("t_ccd_r")) {
        if (c.shape.stack_ids < 2)
            tn.fail("t_ccd_r", "applies only with organisation.stack_ids of 2 or more");
        require_at_least(tn, "t_ccd_r", t.ccd_r, t.burst, "bursts on the data bus cannot overlap");
    }
    require_at_least(tn, "t_rc", t.rc, uint64_t{t.ras} + t.rp, "t_rc >= t_ras + t_rp");
    require_at_least(tn, "t_ccd_s", t.ccd_s, t.burst, "bursts on the data bus cannot overlap");
    require_at_least(tn, "t_ccd_l", t.ccd_l, t.ccd_s, "t_ccd_l >= t_ccd_s");
    require_at_least(tn, "t_rrd_l", t.rrd_l, t.rrd_s, "t_rrd_l >= t_rrd_s");
    require_at_least(tn, "t_wtr_l", t.wtr_l, t.wtr_s, "t_wtr_l >= t_wtr_s");
    require_at_least(tn, "t_refi", t.refi, uint64_t{t.rfc} + 1,
                     "a refresh must end before the next is due");

    const ConfigNode ctl = hbm.child("controller");
    ControllerParams& cp = c.controller;
    controller_param_table().read(ctl, cp);
    if (cp.write_high_watermark > cp.write_queue) {
        ctl.fail("write_high_watermark",
                 "must be between 1 and write_queue (" + std::to_string(cp.write_queue) + ")");
    }
    if (cp.write_low_watermark >= cp.write_high_watermark) {
        ctl.fail("write_low_watermark", "must be below write_high_watermark (" +
                                            std::to_string(cp.write_high_watermark) + ")");
    }
    if (cp.per_bank_refresh) {
        // JESD238 per-bank refresh: each REFpb locks one bank for tRFCpb, one every tREFI / banks.
        for (const char* key : {"t_rfc_pb", "t_rrefd"}) {
            if (!tn.has(key)) {
                tn.fail(key,
                        "required with hbm.controller.refresh: per_bank; expected a time "
                        "such as 200ns");
            }
        }
        require_at_least(tn, "t_rfc_pb", t.rfc_pb, 1, "a refresh takes time");
        require_at_least(tn, "t_refi", t.refi, uint64_t{t.rrefd} * c.shape.banks(),
                         "one REFpb a bank every t_refi needs t_refi >= banks x t_rrefd");
    }

    // The command buses: shared by the pseudo-channels of a channel (JESD235/JESD238), with an
    // ACT taking act_cycles clocks of the row bus. Without the section: no bus model.
    if (const auto bus = hbm.optional_child("command_bus")) {
        CommandBusConfig& bc = c.command_bus;
        command_bus_param_table().read(*bus, bc);
        // JEDEC counts from the ACT's last (half) clock; column commands go on a rising edge.
        t.act_extra = (bc.act_halves + 1) / 2 - 1;
    }

    const ConfigNode map = hbm.child("mapping");
    mapping_param_table().read(map, c);
    try {
        const AddressMapping mapping(mapping_shape_of(c), c.layout, c.xor_bank_with_row,
                                     c.skew_partitions, c.column_xor);
        if (p.capacity_bytes > 0 && mapping.capacity() < p.capacity_bytes) {
            org.fail("rows_per_bank", "the organisation holds " +
                                          std::to_string(mapping.capacity()) +
                                          " B, less than hbm.capacity");
        }
    } catch (const std::invalid_argument& e) {
        map.fail("layout", e.what());
    }

    const auto& energy = resolved<energy::HbmEnergyParams>(root).per_event;
    if (!energy) hbm.fail("energy", "required section is missing; expected a map");
    p.energy = *energy;
    return p;
}

double HbmParams::peak_bandwidth() const {
    const double pcs =
        double(core.stacks) * core.channels_per_stack * core.pseudo_channels_per_channel;
    return pcs * core.shape.access_bytes / core.timing.burst * static_cast<double>(core.clock_hz);
}

}  // namespace sim::hbm
