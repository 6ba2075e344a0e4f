// SPDX-License-Identifier: MIT
#include "models/hbm/core/address_mapping.h"

#include <array>

namespace sim::hbm {

namespace {

bool is_power_of_two(uint64_t v) {
    return v != 0 && (v & (v - 1)) == 0;
}

uint32_t log2_of(uint64_t v) {
    uint32_t b = 0;
    while ((uint64_t{1} << b) < v)
        ++b;
    return b;
}

constexpr std::array<const char*, 9> kNames{
    "offset", "column", "bank_group", "bank", "pseudo_channel", "channel", "stack", "sid", "row"};

}  // namespace

AddressMapping::AddressMapping(const MappingShape& shape,
                               const std::vector<std::string>& layout,
                               bool xor_bank_with_row,
                               bool skew_partitions,
                               bool column_xor)
    : bg_count_(shape.bank_groups),
      bank_count_(shape.banks_per_group),
      xor_(xor_bank_with_row),
      skew_(skew_partitions),
      partitions_(shape.stacks * shape.channels * shape.pseudo_channels),
      shape_(shape) {
    const std::array<uint64_t, kFields> count{
        shape.access_bytes,    shape.columns,         shape.bank_groups,
        shape.banks_per_group, shape.pseudo_channels, shape.channels,
        shape.stacks,          shape.stack_ids,       shape.rows};
    for (int f = 0; f < kFields; ++f) {
        if (count[static_cast<size_t>(f)] == 0) {
            throw std::invalid_argument(std::string(kNames[static_cast<size_t>(f)]) +
                                        " count must be at least 1");
        }
    }
    if (xor_ && !(is_power_of_two(shape.bank_groups) && is_power_of_two(shape.banks_per_group))) {
        throw std::invalid_argument("the XOR bank hash needs power-of-two bank groups and banks");
    }
    if (is_power_of_two(shape.rows)) rows_mask_ = shape.rows - 1;
    if (xor_) bank_shift_ = log2_of(shape.banks_per_group);
    partition_shifts_ = is_power_of_two(shape.pseudo_channels) && is_power_of_two(shape.channels);
    if (partition_shifts_) {
        pc_bits_ = log2_of(shape.pseudo_channels);
        channel_bits_ = log2_of(shape.channels);
    }
    std::array<uint64_t, kFields> covered{};
    covered.fill(1);
    bool row_seen = false;
    for (size_t i = 0; i < layout.size(); ++i) {
        const std::string& entry = layout[i];
        const size_t colon = entry.find(':');
        const std::string name = entry.substr(0, colon);
        int field = -1;
        for (int f = 0; f < kFields; ++f) {
            if (name == kNames[static_cast<size_t>(f)]) field = f;
        }
        if (field < 0) {
            throw std::invalid_argument(
                "'" + name +
                "' is not a field; expected offset, column, bank_group, bank, "
                "pseudo_channel, channel, stack, sid or row");
        }
        const auto f = static_cast<Field>(field);
        const uint64_t total = count[f];
        if (covered[f] == total && total > 1) {
            throw std::invalid_argument("'" + entry + "': " + name +
                                        " is already fully covered (fields overlap)");
        }
        if (f == Row) {
            if (i + 1 != layout.size())
                throw std::invalid_argument("row must be the last (most significant) field");
            if (colon != std::string::npos) throw std::invalid_argument("row cannot be split");
            row_seen = true;
            continue;
        }
        uint64_t radix = total / covered[f];
        if (colon != std::string::npos) {
            if (!is_power_of_two(total)) {
                throw std::invalid_argument("'" + entry +
                                            "': only power-of-two fields can be split (" + name +
                                            " has " + std::to_string(total) + ")");
            }
            uint32_t bits = 0;
            try {
                bits = static_cast<uint32_t>(std::stoul(entry.substr(colon + 1)));
            } catch (const std::exception&) {
                throw std::invalid_argument("'" + entry + "': expected name:bits");
            }
            radix = uint64_t{1} << bits;
            if (bits == 0 || bits >= 63 || covered[f] * radix > total) {
                throw std::invalid_argument("'" + entry + "' takes more bits than " + name +
                                            " has (" + std::to_string(log2_of(total)) + ")");
            }
        }
        if (radix > 1)
            digits_.push_back({f, radix, covered[f], is_power_of_two(radix), log2_of(radix)});
        covered[f] *= radix;
        if (__builtin_mul_overflow(below_row_, radix, &below_row_)) {
            throw std::invalid_argument("the layout spans more than 2^64 bytes");
        }
    }
    for (int f = 0; f < Row; ++f) {
        if (covered[static_cast<size_t>(f)] != count[static_cast<size_t>(f)]) {
            throw std::invalid_argument(std::string("the layout does not cover all of ") +
                                        kNames[static_cast<size_t>(f)]);
        }
    }
    if (!row_seen) throw std::invalid_argument("the layout does not cover row (it must be last)");
    for (size_t i = 0; i < digits_.size(); ++i) {
        const Field f = digits_[i].field;
        if (f == PseudoChannel || f == Channel || f == Stack) partition_digits_end_ = i + 1;
    }
    if (column_xor) {
        // As MOP4CLXOR: the column's bits go to the pseudo-channel, stack ID, bank group, bank
        // and row, in that order, as many to each as its index has; fields of one value take
        // none, and what is left of the column after the last field is unused.
        if (!is_power_of_two(shape.columns))
            throw std::invalid_argument("column_xor needs a power-of-two column count");
        uint32_t column_bits = log2_of(shape.columns);
        for (Field f : {PseudoChannel, Sid, BankGroup, Bank, Row}) {
            const uint64_t n = count[f];
            if (n <= 1 || column_bits == 0) continue;
            if (!is_power_of_two(n)) {
                throw std::invalid_argument(std::string("column_xor needs a power-of-two ") +
                                            kNames[f] + " count (it has " + std::to_string(n) +
                                            ")");
            }
            const uint32_t bits = log2_of(n);
            column_xor_.push_back({f, bits});
            column_bits = column_bits > bits ? column_bits - bits : 0;
        }
    }
    for (const Digit& d : digits_) {
        // With column_xor, every field may depend on the column.
        if ((d.field != Offset && d.field != Column) || (column_xor && d.field == Column)) break;
        column_block_bytes_ *= d.radix;
    }
    uint64_t capacity = 0;
    if (__builtin_mul_overflow(below_row_, shape.rows, &capacity) ||
        capacity > (uint64_t{1} << 56)) {
        throw std::invalid_argument("the organisation spans more than 2^56 bytes");
    }
    if (shape.access_bytes > 1 && (digits_.empty() || digits_.front().field != Offset)) {
        throw std::invalid_argument("offset must be the first (least significant) field");
    }
}

void AddressMapping::decode_into(uint64_t addr, AddressParts& out) const {
    std::array<uint64_t, kFields> value{};
    uint64_t v = addr;
    uint64_t above_partitions = 0;
    for (size_t i = 0; i < digits_.size(); ++i) {
        const Digit& d = digits_[i];
        if (i == partition_digits_end_) above_partitions = v;
        uint64_t part;
        if (d.power_of_two) {
            part = v & (d.radix - 1);
            v >>= d.shift;
        } else if (v <= UINT32_MAX) {
            // 32-bit division is several times faster than 64-bit, and decoding is on the
            // path of every request.
            const auto v32 = static_cast<uint32_t>(v);
            const auto r32 = static_cast<uint32_t>(d.radix);
            part = v32 % r32;
            v = v32 / r32;
        } else {
            part = v % d.radix;
            v /= d.radix;
        }
        value[d.field] += part * d.multiplier;
    }
    out.row = rows_mask_ != 0 ? v & rows_mask_ : v % shape_.rows;
    out.column = static_cast<uint32_t>(value[Column]);
    if (!column_xor_.empty()) {
        uint64_t column = value[Column];
        for (const ColumnXor& x : column_xor_) {
            const uint64_t bits = column & ((uint64_t{1} << x.bits) - 1);
            if (x.field == Row)
                out.row ^= bits;
            else
                value[x.field] ^= bits;
            column >>= x.bits;
        }
    }
    out.bank_group = static_cast<uint32_t>(value[BankGroup]);
    out.bank = static_cast<uint32_t>(value[Bank]);
    if (xor_) {
        // Consecutive rows of one bank land in different banks: conflicts spread out.
        out.bank ^= static_cast<uint32_t>(out.row & (bank_count_ - 1));
        out.bank_group ^= static_cast<uint32_t>((out.row >> bank_shift_) & (bg_count_ - 1));
    }
    if (shape_.stack_ids > 1) out.bank_group += static_cast<uint32_t>(value[Sid]) * bg_count_;
    if (skew_ && partitions_ > 1) {
        if (partition_digits_end_ == digits_.size()) above_partitions = v;
        // One index over all partitions, rotated by the address above them (a bijection:
        // within one value of the upper address, every partition appears once).
        const auto rotation = static_cast<uint32_t>(above_partitions % partitions_);
        if (rotation != 0) {
            const uint32_t pcs = shape_.pseudo_channels, channels = shape_.channels;
            auto index = static_cast<uint32_t>(value[PseudoChannel] +
                                               pcs * (value[Channel] + channels * value[Stack]));
            index += rotation;
            if (index >= partitions_) index -= partitions_;
            if (partition_shifts_) {
                value[PseudoChannel] = index & (pcs - 1);
                value[Channel] = (index >> pc_bits_) & (channels - 1);
                value[Stack] = index >> (pc_bits_ + channel_bits_);
            } else {
                value[PseudoChannel] = index % pcs;
                value[Channel] = index / pcs % channels;
                value[Stack] = index / pcs / channels;
            }
        }
    }
    out.pseudo_channel = static_cast<uint32_t>(value[PseudoChannel]);
    out.channel = static_cast<uint32_t>(value[Channel]);
    out.stack = static_cast<uint32_t>(value[Stack]);
}

uint64_t AddressMapping::capacity() const {
    return below_row_ * shape_.rows;
}

}  // namespace sim::hbm
