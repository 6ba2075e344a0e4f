// SPDX-License-Identifier: MIT
#include "models/hbm/core/address_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>

namespace sim::hbm {
namespace {

using ::testing::HasSubstr;

MappingShape small() {
    MappingShape s;
    s.access_bytes = 32;
    s.columns = 32;
    s.bank_groups = 4;
    s.banks_per_group = 4;
    s.pseudo_channels = 2;
    s.channels = 2;
    s.stacks = 5;  // not a power of two, like an H100
    s.rows = 1000;
    return s;
}

const std::vector<std::string> kLayout{"offset",  "column:1", "pseudo_channel",
                                       "channel", "stack",    "bank_group",
                                       "bank",    "column",   "row"};

std::string error_of(const std::vector<std::string>& layout) {
    try {
        AddressMapping m(small(), layout, false);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return "no error";
}

TEST(AddressMapping, DecodesMixedRadixFields) {
    const AddressMapping m(small(), kLayout, false);
    EXPECT_EQ(m.capacity(), 32ull * 32 * 16 * 2 * 2 * 5 * 1000);
    const AddressParts a = m.decode(64);  // past offset + column:1 -> next pseudo-channel
    EXPECT_EQ(a.pseudo_channel, 1u);
    EXPECT_EQ(a.column, 0u);
    const AddressParts b = m.decode(32);
    EXPECT_EQ(b.column, 1u);
    const AddressParts c = m.decode(64 * 2 * 2 * 4);  // stack field: 4th stack
    EXPECT_EQ(c.stack, 4u);
    const AddressParts d = m.decode(64 * 2 * 2 * 5);  // wraps into the bank group
    EXPECT_EQ(d.stack, 0u);
    EXPECT_EQ(d.bank_group, 1u);
}

TEST(AddressMapping, EveryBurstOfTheCapacityIsDistinct) {
    MappingShape s = small();
    s.rows = 3;
    const AddressMapping m(s, kLayout, true);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t, uint32_t>> seen;
    for (uint64_t a = 0; a < m.capacity(); a += s.access_bytes) {
        const AddressParts p = m.decode(a);
        seen.insert({p.stack, p.channel, p.pseudo_channel, p.bank_group, p.bank, p.row, p.column});
    }
    EXPECT_EQ(seen.size(), m.capacity() / s.access_bytes);  // a bijection, with or without XOR
}

TEST(AddressMapping, PartitionSkewKeepsEveryBurstDistinct) {
    MappingShape s = small();
    s.rows = 3;
    // The partition fields low, high (just under the row) and split around the banks.
    const std::vector<std::vector<std::string>> layouts{
        kLayout,
        {"offset", "column", "bank_group", "bank", "pseudo_channel", "channel", "stack", "row"},
        {"offset", "pseudo_channel", "column", "bank_group", "channel", "bank", "stack", "row"}};
    for (const auto& layout : layouts) {
        const AddressMapping m(s, layout, true, true);
        std::set<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint64_t, uint32_t>>
            seen;
        for (uint64_t a = 0; a < m.capacity(); a += s.access_bytes) {
            const AddressParts p = m.decode(a);
            seen.insert(
                {p.stack, p.channel, p.pseudo_channel, p.bank_group, p.bank, p.row, p.column});
        }
        EXPECT_EQ(seen.size(), m.capacity() / s.access_bytes) << layout[1];
    }
}

// The skew is a rotation of the partition index (pseudo-channel fastest, then channel, then
// stack) by the address above the partition fields; everything else is left as it was. Checked
// with power-of-two channel counts (split by shifts) and others (split by divisions).
TEST(AddressMapping, PartitionSkewRotatesThePartitionIndex) {
    for (uint32_t channels : {2u, 3u, 4u}) {
        MappingShape s = small();
        s.channels = channels;
        const AddressMapping plain(s, kLayout, false);
        const AddressMapping skewed(s, kLayout, false, true);
        const uint64_t partitions = uint64_t{s.pseudo_channels} * channels * s.stacks;
        const uint64_t below = uint64_t{s.access_bytes} * 2 * partitions;  // offset, column:1
        const auto index = [&](const AddressParts& p) {
            return p.pseudo_channel + s.pseudo_channels * (p.channel + channels * p.stack);
        };
        for (uint64_t a = 0; a < 40 * below; a += s.access_bytes) {
            const AddressParts p = plain.decode(a), q = skewed.decode(a);
            ASSERT_EQ(index(q), (index(p) + a / below % partitions) % partitions)
                << channels << " channels, address " << a;
            EXPECT_EQ(q.bank_group, p.bank_group);
            EXPECT_EQ(q.bank, p.bank);
            EXPECT_EQ(q.row, p.row);
            EXPECT_EQ(q.column, p.column);
        }
    }
}

// decode() against mixed-radix arithmetic done by hand, for layouts without split fields:
// power-of-two fields and others in every order, the partition fields ending before a field
// taken by shifts, before one taken by a division (three bank groups) and at the row.
TEST(AddressMapping, DecodeMatchesMixedRadixArithmetic) {
    MappingShape s = small();
    s.bank_groups = 3;
    s.channels = 4;
    const std::vector<std::vector<std::string>> layouts{
        {"offset", "pseudo_channel", "channel", "stack", "bank_group", "bank", "column", "row"},
        {"offset", "pseudo_channel", "stack", "channel", "bank", "column", "bank_group", "row"},
        {"offset", "column", "bank_group", "bank", "channel", "stack", "pseudo_channel", "row"},
        {"offset", "bank_group", "stack", "column", "pseudo_channel", "bank", "channel", "row"}};
    const auto count_of = [&](const std::string& field) -> uint64_t {
        if (field == "offset") return s.access_bytes;
        if (field == "column") return s.columns;
        if (field == "bank_group") return s.bank_groups;
        if (field == "bank") return s.banks_per_group;
        if (field == "pseudo_channel") return s.pseudo_channels;
        if (field == "channel") return s.channels;
        return s.stacks;
    };
    const uint64_t partitions = uint64_t{s.pseudo_channels} * s.channels * s.stacks;
    for (const auto& layout : layouts) {
        const AddressMapping plain(s, layout, false);
        const AddressMapping skewed(s, layout, false, true);
        for (uint64_t a = 7; a < plain.capacity(); a += 4099 * 32 + 13) {
            std::map<std::string, uint64_t> part;
            uint64_t v = a, above = 0;
            for (size_t i = 0; i + 1 < layout.size(); ++i) {
                part[layout[i]] = v % count_of(layout[i]);
                v /= count_of(layout[i]);
                const std::string& f = layout[i];
                if (f == "pseudo_channel" || f == "channel" || f == "stack") above = v;
            }
            const AddressParts p = plain.decode(a), q = skewed.decode(a);
            ASSERT_EQ(p.column, part["column"]) << layout[1] << " address " << a;
            ASSERT_EQ(p.bank_group, part["bank_group"]) << layout[1] << " address " << a;
            ASSERT_EQ(p.bank, part["bank"]) << layout[1] << " address " << a;
            ASSERT_EQ(p.pseudo_channel, part["pseudo_channel"]) << layout[1] << " address " << a;
            ASSERT_EQ(p.channel, part["channel"]) << layout[1] << " address " << a;
            ASSERT_EQ(p.stack, part["stack"]) << layout[1] << " address " << a;
            ASSERT_EQ(p.row, v % s.rows) << layout[1] << " address " << a;
            const uint64_t index =
                part["pseudo_channel"] +
                s.pseudo_channels * (part["channel"] + s.channels * part["stack"]);
            const uint64_t rotated = (index + above % partitions) % partitions;
            ASSERT_EQ(q.pseudo_channel, rotated % s.pseudo_channels)
                << layout[1] << " address " << a;
            ASSERT_EQ(q.channel, rotated / s.pseudo_channels % s.channels)
                << layout[1] << " address " << a;
            ASSERT_EQ(q.stack, rotated / s.pseudo_channels / s.channels)
                << layout[1] << " address " << a;
        }
    }
}

TEST(AddressMapping, AColumnBlockDecodesAlikeButForTheColumn) {
    MappingShape s = small();
    const std::vector<std::pair<std::vector<std::string>, uint64_t>> layouts{
        {kLayout, 32 * 2},  // offset, column:1
        {{"offset", "column", "bank_group", "bank", "pseudo_channel", "channel", "stack", "row"},
         32 * 32},
        {{"offset", "pseudo_channel", "column", "bank_group", "channel", "bank", "stack", "row"},
         32}};
    for (const auto& [layout, block] : layouts) {
        for (bool skew : {false, true}) {
            const AddressMapping m(s, layout, true, skew);
            ASSERT_EQ(m.column_block_bytes(), block) << layout[1];
            for (uint64_t a = 0; a < 64 * block * 40; a += 32) {
                const AddressParts p = m.decode(a), first = m.decode(a / block * block);
                ASSERT_EQ(
                    std::tie(p.stack, p.channel, p.pseudo_channel, p.bank_group, p.bank, p.row),
                    std::tie(first.stack, first.channel, first.pseudo_channel, first.bank_group,
                             first.bank, first.row))
                    << layout[1] << " address " << a;
            }
            // The next block differs somewhere.
            const AddressParts a = m.decode(0), b = m.decode(block);
            EXPECT_NE(std::tie(a.stack, a.channel, a.pseudo_channel, a.bank_group, a.bank, a.row),
                      std::tie(b.stack, b.channel, b.pseudo_channel, b.bank_group, b.bank, b.row))
                << layout[1];
        }
    }
}

TEST(AddressMapping, PartitionSkewSpreadsAColumnWalkOverEveryPartition) {
    // A matrix column: one 64-byte access per row, rows 1 KiB apart (a multiple of the 64-byte
    // partition width). The small shape has 2 x 2 x 5 = 20 partitions.
    const AddressMapping plain(small(), kLayout, false);
    const AddressMapping skewed(small(), kLayout, false, true);
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> plain_parts, skewed_parts;
    for (uint64_t row = 0; row < 400; ++row) {
        const AddressParts a = plain.decode(row * 1024), b = skewed.decode(row * 1024);
        plain_parts.insert({a.stack, a.channel, a.pseudo_channel});
        skewed_parts.insert({b.stack, b.channel, b.pseudo_channel});
    }
    EXPECT_EQ(plain_parts.size(), 5u);  // 1 KiB = 16 partition widths: gcd(16, 20) = 4
    EXPECT_EQ(skewed_parts.size(), 20u);
    // Consecutive addresses still walk the partitions in turn (streams keep their spread).
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> stream;
    for (uint64_t a = 5000 * 64; a < 5020 * 64; a += 64) {
        const AddressParts p = skewed.decode(a);
        stream.insert({p.stack, p.channel, p.pseudo_channel});
    }
    EXPECT_EQ(stream.size(), 20u);
}

TEST(AddressMapping, XorHashSpreadsRowsOverBanks) {
    const AddressMapping plain(small(), kLayout, false);
    const AddressMapping hashed(small(), kLayout, true);
    const uint64_t row_stride = plain.capacity() / 1000;
    EXPECT_EQ(plain.decode(0).bank, plain.decode(row_stride).bank);
    EXPECT_NE(hashed.decode(0).bank, hashed.decode(row_stride).bank);
}

TEST(AddressMapping, RejectsOverlapGapsAndMisplacedFields) {
    EXPECT_THAT(error_of({"offset", "column", "column", "pseudo_channel", "channel", "stack",
                          "bank_group", "bank", "row"}),
                HasSubstr("overlap"));
    EXPECT_THAT(
        error_of({"offset", "column", "pseudo_channel", "channel", "stack", "bank_group", "row"}),
        HasSubstr("does not cover all of bank"));
    EXPECT_THAT(
        error_of({"offset", "column", "pseudo_channel", "channel", "stack", "bank_group", "bank"}),
        HasSubstr("does not cover row"));
    EXPECT_THAT(error_of({"offset", "row", "column", "pseudo_channel", "channel", "stack",
                          "bank_group", "bank"}),
                HasSubstr("row must be the last"));
    EXPECT_THAT(error_of({"column", "offset", "pseudo_channel", "channel", "stack", "bank_group",
                          "bank", "row"}),
                HasSubstr("offset must be the first"));
    EXPECT_THAT(error_of({"offset", "column:9", "pseudo_channel", "channel", "stack", "bank_group",
                          "bank", "row"}),
                HasSubstr("more bits"));
    EXPECT_THAT(error_of({"offset", "stack:1", "column", "pseudo_channel", "channel", "bank_group",
                          "bank", "row"}),
                HasSubstr("only power-of-two fields can be split"));
    EXPECT_THAT(error_of({"offset", "colum", "row"}), HasSubstr("'colum' is not a field"));
}

// Ramulator 2's HBM3 organisation on one channel: 2 pseudo-channels, 2 stack IDs, 4 bank
// groups, 4 banks, 32 bursts a row, 8192 rows.
MappingShape hbm3_channel() {
    MappingShape s;
    s.access_bytes = 32;
    s.columns = 32;
    s.stack_ids = 2;
    s.bank_groups = 4;
    s.banks_per_group = 4;
    s.pseudo_channels = 2;
    s.channels = 1;
    s.stacks = 1;
    s.rows = 8192;
    return s;
}

TEST(AddressMapping, ColumnXorFoldsColumnBitsLikeMop4clxor) {
    // MOP4CLXOR (ramulator2 mop4clxor.cpp) on the transaction index t = addr / 32: column bits
    // 0-1 = t[0:1], pc = t[2], sid = t[3], bg = t[4:5], bank = t[6:7], column bits 2-4 =
    // t[8:10], row = t >> 11; then pc ^= col[0], sid ^= col[1], bg ^= col[2:3], bank ^= col[4]
    // (the column has five bits), row unchanged.
    const AddressMapping m(
        hbm3_channel(),
        {"offset", "column:2", "pseudo_channel", "sid", "bank_group", "bank", "column", "row"},
        false, false, /*column_xor=*/true);
    for (uint64_t t : {0ull, 1ull, 3ull, 0x5aull, 0x7ffull, 0x1234ull, 0x3a5c7ull}) {
        const uint64_t col = (t & 3) | ((t >> 8) & 7) << 2;
        const uint64_t pc = ((t >> 2) & 1) ^ (col & 1);
        const uint64_t sid = ((t >> 3) & 1) ^ ((col >> 1) & 1);
        const uint64_t bg = ((t >> 4) & 3) ^ ((col >> 2) & 3);
        const uint64_t bank = ((t >> 6) & 3) ^ ((col >> 4) & 1);
        const AddressParts a = m.decode(t * 32 + 5);
        EXPECT_EQ(a.column, col) << t;
        EXPECT_EQ(a.pseudo_channel, pc) << t;
        EXPECT_EQ(a.bank_group, sid * 4 + bg) << t;  // counted across stack IDs
        EXPECT_EQ(a.bank, bank) << t;
        EXPECT_EQ(a.row, t >> 11) << t;
    }
    // Consecutive transactions of a row go to different pseudo-channels, then banks.
    EXPECT_NE(m.decode(0).pseudo_channel, m.decode(32).pseudo_channel);
    EXPECT_EQ(m.column_block_bytes(), 32u);
}

TEST(AddressMapping, RoBaRaCoChLayoutIsLinear) {
    // RoBaRaCoCh (ramulator2 ro_ba_ra_co_ch.cpp): column at the bottom, then pseudo-channel,
    // stack ID, bank group, bank and row, no hash: an address is its fields' digits.
    const AddressMapping m(
        hbm3_channel(), {"offset", "column", "pseudo_channel", "sid", "bank_group", "bank", "row"},
        false);
    const uint64_t t = (((((77 * 4 + 2) * 4 + 3) * 2 + 1) * 2 + 1) * 32) + 19;
    const AddressParts a = m.decode(t * 32);
    EXPECT_EQ(a.column, 19u);
    EXPECT_EQ(a.pseudo_channel, 1u);
    EXPECT_EQ(a.bank_group, 1u * 4 + 3);
    EXPECT_EQ(a.bank, 2u);
    EXPECT_EQ(a.row, 77u);
    EXPECT_EQ(m.capacity(), 32ull * 32 * 2 * 2 * 4 * 4 * 8192);
}

TEST(AddressMapping, ColumnXorNeedsPowerOfTwoFields) {
    MappingShape s = hbm3_channel();
    s.bank_groups = 3;
    EXPECT_THROW(AddressMapping(s,
                                {"offset", "column:2", "pseudo_channel", "sid", "bank_group",
                                 "bank", "column", "row"},
                                false, false, true),
                 std::invalid_argument);
}

}  // namespace
}  // namespace sim::hbm
