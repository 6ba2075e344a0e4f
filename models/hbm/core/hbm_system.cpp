// SPDX-License-Identifier: MIT
#include "models/hbm/core/hbm_system.h"

#include "sim/core/error.h"

namespace sim::hbm {

MappingShape mapping_shape_of(const HbmCoreConfig& c) {
    MappingShape s;
    s.access_bytes = c.shape.access_bytes;
    s.columns = c.shape.columns;
    s.bank_groups = c.shape.bank_groups;
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
               config.skew_partitions) {
    const size_t count =
        size_t{config.stacks} * config.channels_per_stack * config.pseudo_channels_per_channel;
    channels_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        // Stagger refresh so that the channels do not all lock at once.
        const uint64_t phase = config.timing.refi * i / count;
        channels_.emplace_back(config.timing, config.shape, config.controller, phase);
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
    ch.enqueue(r, now);
    ++queued_;
    schedule(pc);
    return true;
}

bool HbmSystem::try_send(size_t pc, const MemRequest& r, uint64_t arrival) {
    PseudoChannel& ch = channels_[pc];
    if (!ch.can_accept(r.write)) return false;
    ch.send(r, std::max(arrival, advanced_to_));
    ++queued_;
    schedule(pc);
    return true;
}

uint64_t HbmSystem::next_event() const {
    const uint64_t t = calendar_.next_time();
    return t == CalendarQueue::kEmpty ? kNever : t;
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
            scheduled_[pc] = kNever;
            const size_t before = done.size();
            channels_[pc].advance(now, done);
            queued_ -= done.size() - before;
            schedule(pc);
            // Queue entries free only when a request completes.
            if (touched && done.size() > before) touched->push_back(pc);
        }
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
