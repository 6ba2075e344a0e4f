// SPDX-License-Identifier: MIT
// Physical address -> (stack, channel, pseudo-channel, bank group, bank, row, column). The
// layout lists the fields from the least significant end, e.g.
//   [offset, column:1, pseudo_channel, channel, stack, bank_group, bank, column, row]
// Decoding is mixed-radix: each entry takes (address mod its count) and divides the address
// by it, so counts need not be powers of two (five HBM stacks on an H100). "name:N" takes a
// 2^N part of a power-of-two field and a plain name takes the rest. Every field must be
// covered exactly once; row is last and takes what remains. An optional XOR hash folds low
// row bits into the bank-group and bank index (permutation-based interleaving, Zhang et al.,
// MICRO 2000) so that row conflicts spread over banks. An optional partition skew rotates the
// partition (stack, channel, pseudo-channel) index by the address bits above the partition
// fields, modulo the partition count, the way GPUs hash their memory partitions: otherwise a
// stride that is a multiple of the partition width (a matrix column, one 128-byte line per
// row) lands in a handful of the partitions ("partition camping") and the rest sit idle.
// A third option (column_xor) folds the column's bits, lowest first, into the pseudo-channel,
// stack ID, bank group, bank and row, each taking as many bits as its index has, as Ramulator
// 2's MOP4CLXOR mapper does after placing the two lowest column bits under them
// (docs/references.md [ramulator2]): consecutive 4-burst blocks of a row then go to different
// pseudo-channels and banks. HBM3 stack IDs (sid) are a field of their own; the bank group
// reported counts across them (sid * bank groups per sid + group).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace sim::hbm {

struct AddressParts {
    uint32_t stack = 0, channel = 0, pseudo_channel = 0;
    uint32_t bank_group = 0;  ///< across stack IDs: sid * bank groups per sid + group
    uint32_t bank = 0;
    uint64_t row = 0;
    uint32_t column = 0;  ///< burst index within the row
};

/// Field counts. Split fields (name:N) must be powers of two; rows may be anything.
struct MappingShape {
    uint32_t access_bytes = 32;
    uint32_t columns = 32;
    uint32_t stack_ids = 1;    ///< HBM3 SIDs per pseudo-channel
    uint32_t bank_groups = 4;  ///< per stack ID
    uint32_t banks_per_group = 4;
    uint32_t pseudo_channels = 2;
    uint32_t channels = 16;
    uint32_t stacks = 5;
    uint64_t rows = 32768;
};

class AddressMapping {
  public:
    /// Throws std::invalid_argument naming the problem (unknown field, overlap, a field not
    /// covered, a bad split, row not last).
    AddressMapping(const MappingShape& shape,
                   const std::vector<std::string>& layout,
                   bool xor_bank_with_row,
                   bool skew_partitions = false,
                   bool column_xor = false);

    AddressParts decode(uint64_t addr) const {
        AddressParts parts;
        decode_into(addr, parts);
        return parts;
    }
    /// decode() written straight into out, field by field. For the hot path: a struct returned
    /// and then copied is read back with wide loads from the narrow stores that wrote it, which
    /// the host cannot forward, so the copy waits until those stores (and every store before
    /// them, cache misses included) have reached the cache.
    void decode_into(uint64_t addr, AddressParts& out) const;
    /// Bytes addressable by the layout.
    uint64_t capacity() const;
    /// The product of the layout's lowest radices while they belong to offset and column: the
    /// addresses of one aligned block of this many bytes decode alike but for the column (a
    /// caller may decode a block once for several requests in it).
    uint64_t column_block_bytes() const { return column_block_bytes_; }
    /// log2 of column_block_bytes() when that is a power of two, else 0 (blocks of one byte):
    /// addresses equal above this many bits decode alike but for the column.
    uint32_t column_block_shift() const {
        const uint64_t b = column_block_bytes_;
        return (b & (b - 1)) == 0 ? static_cast<uint32_t>(__builtin_ctzll(b)) : 0;
    }

  private:
    enum Field {
        Offset,
        Column,
        BankGroup,
        Bank,
        PseudoChannel,
        Channel,
        Stack,
        Sid,
        Row,
        kFields
    };
    struct Digit {
        Field field;
        uint64_t radix;       // how many values this entry spans
        uint64_t multiplier;  // its weight inside the field's value
        bool power_of_two;
        uint32_t shift;  // log2(radix) when power_of_two
    };
    std::vector<Digit> digits_;
    uint64_t below_row_ = 1;  // product of all radices below the row
    uint64_t column_block_bytes_ = 1;
    uint32_t bg_count_ = 1, bank_count_ = 1;
    uint32_t bank_shift_ = 0;  ///< log2(bank_count_) (a power of two when xor_)
    uint64_t rows_mask_ = 0;   ///< rows - 1 when rows is a power of two, else 0
    bool xor_ = false;
    bool skew_ = false;
    /// column_xor: the fields the column's bits fold into, lowest bits first, and their widths.
    struct ColumnXor {
        Field field;
        uint32_t bits;
    };
    std::vector<ColumnXor> column_xor_;
    size_t partition_digits_end_ = 0;  ///< digits_ index after the last partition digit
    uint32_t partitions_ = 1;          ///< stacks x channels x pseudo-channels
    /// log2 of the pseudo-channel and channel counts when both are powers of two (else 0):
    /// the skew then splits the rotated partition index with shifts instead of divisions.
    uint32_t pc_bits_ = 0, channel_bits_ = 0;
    bool partition_shifts_ = false;
    MappingShape shape_;
};

}  // namespace sim::hbm
