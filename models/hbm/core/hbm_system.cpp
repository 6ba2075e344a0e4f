// SPDX-License-Identifier: MIT
#include "models/hbm/core/hbm_system.h"

#include <algorithm>
#include <random>

#include "sim/core/error.h"

namespace sim::hbm {

namespace {

/// Each pseudo-channel's first refresh, in [0, refi). The starts are spread evenly over tREFI,
/// one every refi / count cycles, so that as few pseudo-channels refresh at once as possible,
/// but they are dealt to the pseudo-channels in a shuffled order (a fixed seed, so that runs
/// repeat), not by index: with the phases rising with the index, an access stream that walks
/// the pseudo-channels at a steady pace (a pointer chase at some strides) kept arriving just as
/// each one started its refresh, and paid tRFC on nearly every access.
std::vector<uint64_t> refresh_phases(size_t count, uint64_t refi) {
    std::vector<uint64_t> phases(count);
    for (size_t i = 0; i < count; ++i)
        phases[i] = refi * i / std::max<size_t>(count, 1);
    std::mt19937_64 dealer(0x5eed'f00d'cafeULL);
    for (size_t i = count; i > 1; --i)  // Fisher-Yates, the same on every standard library
        std::swap(phases[i - 1], phases[dealer() % i]);
    return phases;
}

}  // namespace

MappingShape mapping_shape_of(const HbmCoreConfig& c) {
    MappingShape s;
    s.access_bytes = c.shape.access_bytes;
    s.columns = c.shape.columns;
    s.stack_ids = c.shape.stack_ids;
    s.bank_groups = c.shape.bank_groups / std::max(c.shape.stack_ids, 1u);
    s.banks_per_group = c.shape.banks_per_group;
    s.pseudo_channels = c.pseudo_channels_per_channel;
    s.channels = c.channels_per_stack;
    s.stacks = c.stacks;
    s.rows = c.shape.rows;
    return s;
}

HbmSystem::HbmSystem(const HbmCoreConfig& config)
    : config_(config),
      mapping_(mapping_shape_of(config),
               config.layout,
               config.xor_bank_with_row,
               config.skew_partitions,
               config.column_xor),
      calendar_(size_t{config.stacks} * config.channels_per_stack *
                config.pseudo_channels_per_channel) {
    const size_t count =
        size_t{config.stacks} * config.channels_per_stack * config.pseudo_channels_per_channel;
    const CommandBusConfig& bc = config.command_bus;
    const uint32_t pcs = config.pseudo_channels_per_channel;
    // Sized up front: the pseudo-channels keep pointers into them.
    const uint32_t bus_group = bc.shared ? pcs : 1;
    if (bc.modelled()) {
        buses_.resize(count / bus_group);
        for (CommandBus& b : buses_) {
            b.act_halves = bc.act_halves;
            b.pre_halves = bc.pre_halves;
        }
    }
    if (config.controller.queues_per_channel) shared_.resize(count / pcs);
    if (bc.shared || config.controller.queues_per_channel) {
        group_ = pcs;
        advanced_at_.assign(count, kNever);
    }
    channels_.reserve(count);
    const std::vector<uint64_t> phases = refresh_phases(count, config.timing.refi);
    for (size_t i = 0; i < count; ++i) {
        channels_.emplace_back(config.timing, config.shape, config.controller, phases[i],
                               buses_.empty() ? nullptr : &buses_[i / bus_group],
                               shared_.empty() ? nullptr : &shared_[i / pcs]);
    }
    scheduled_.assign(count, kNever);
    for (size_t i = 0; i < count; ++i)
        schedule(i);
    // Bytes that stay in one row of one pseudo-channel: decode consecutive bursts until the
    // pseudo-channel, bank or row changes.
    const AddressParts first = mapping_.decode(0);
    uint64_t bytes = config.shape.access_bytes;
    while (bytes < (uint64_t{1} << 20)) {
        const AddressParts p = mapping_.decode(bytes);
        if (p.stack != first.stack || p.channel != first.channel ||
            p.pseudo_channel != first.pseudo_channel || p.bank != first.bank ||
            p.bank_group != first.bank_group || p.row != first.row) {
            break;
        }
        bytes += config.shape.access_bytes;
    }
    granule_bytes_ = static_cast<uint32_t>(bytes);
}

void HbmSystem::schedule(size_t pc) {
    const uint64_t t = channels_[pc].next_event();
    if (t != scheduled_[pc]) {
        scheduled_[pc] = t;
        if (t != kNever) calendar_.push(t, static_cast<uint32_t>(pc));
    }
}

bool HbmSystem::try_enqueue(size_t pc, const MemRequest& r, uint64_t now) {
    PseudoChannel& ch = channels_[pc];
    if (!ch.can_accept(r.write)) return false;
    if (shared_.empty()) {
        ch.enqueue(r, now);
        ++queued_;
        schedule(pc);
        return true;
    }
    const uint64_t changes = drain_changes(pc);
    ch.enqueue(r, now);
    ++queued_;
    schedule(pc);
    wake_siblings_if_drain_changed(pc, changes, now);
    return true;
}

bool HbmSystem::try_send(size_t pc, const MemRequest& r, uint64_t arrival) {
    PseudoChannel& ch = channels_[pc];
    if (!ch.can_accept(r.write)) return false;
    const uint64_t changes = drain_changes(pc);
    ch.send(r, std::max(arrival, advanced_to_));
    ++queued_;
    schedule(pc);
    wake_siblings_if_drain_changed(pc, changes, advanced_to_);
    return true;
}

uint64_t HbmSystem::next_event() const {
    const uint64_t t = calendar_.next_time();
    return t == IndexCalendar::kEmpty ? kNever : t;
}

void HbmSystem::advance(uint64_t now, std::vector<Completion>& done, std::vector<size_t>* touched) {
    advanced_to_ = std::max(advanced_to_, now);
    while (!calendar_.empty() && calendar_.next_time() <= now) {
        due_.clear();
        const uint64_t t = calendar_.pop_earliest(due_);
        // Many controllers fall due at one cycle, and theirs is more state than the host's
        // caches hold: hint each one's state two steps and its arrays one step ahead.
        constexpr size_t kAhead = 4;
        for (size_t i = 0; i < due_.size() && i < 2 * kAhead; ++i)
            channels_[due_[i]].prefetch_state();
        for (size_t i = 0; i < due_.size() && i < kAhead; ++i)
            channels_[due_[i]].prefetch_arrays();
        for (size_t i = 0; i < due_.size(); ++i) {
            const uint32_t pc = due_[i];
            if (i + 2 * kAhead < due_.size()) channels_[due_[i + 2 * kAhead]].prefetch_state();
            if (i + kAhead < due_.size()) channels_[due_[i + kAhead]].prefetch_arrays();
            if (t != scheduled_[pc]) continue;  // stale entry
            if (group_ == 1) {
                // The path of every preset without shared buses or queues, kept as lean as
                // it was before they existed (the hottest loop of the GPU model).
                scheduled_[pc] = kNever;
                const size_t before = done.size();
                channels_[pc].advance(now, done);
                queued_ -= done.size() - before;
                schedule(pc);
                // Queue entries free only when a request completes.
                if (touched && done.size() > before) touched->push_back(pc);
                continue;
            }
            const size_t first = pc - pc % group_;
            for (uint32_t k = 0; k < group_; ++k)
                advance_one(first + (k + now) % group_, now, done, touched);
        }
    }
}

void HbmSystem::advance_one(size_t pc,
                            uint64_t now,
                            std::vector<Completion>& done,
                            std::vector<size_t>* touched) {
    if (advanced_at_[pc] == now) return;
    advanced_at_[pc] = now;
    scheduled_[pc] = kNever;
    const size_t before = done.size();
    const uint64_t changes = drain_changes(pc);
    channels_[pc].advance(now, done);
    queued_ -= done.size() - before;
    schedule(pc);
    wake_siblings_if_drain_changed(pc, changes, now);
    // Queue entries free only when a request completes; a shared queue's free for the whole
    // channel.
    if (touched && done.size() > before) {
        if (shared_.empty()) {
            touched->push_back(pc);
        } else {
            for (size_t q = pc - pc % group_; q < pc - pc % group_ + group_; ++q)
                touched->push_back(q);
        }
    }
}

void HbmSystem::wake_siblings_if_drain_changed(size_t pc, uint64_t changes_before, uint64_t now) {
    if (drain_changes(pc) == changes_before) return;
    const size_t first = pc - pc % group_;
    for (size_t q = first; q < first + group_; ++q) {
        if (q == pc) continue;
        channels_[q].wake_by(now + 1);
        schedule(q);
    }
}

void HbmSystem::skip_idle_refreshes(uint64_t now) {
    for (size_t pc = 0; pc < channels_.size(); ++pc) {
        channels_[pc].skip_idle_refreshes(now);
        schedule(pc);
    }
}

void HbmSystem::finish(uint64_t now) {
    for (auto& ch : channels_)
        ch.finish(now);
}

double HbmSystem::peak_bytes_per_cycle() const {
    return static_cast<double>(channels_.size()) * config_.shape.access_bytes /
           config_.timing.burst;
}

}  // namespace sim::hbm
