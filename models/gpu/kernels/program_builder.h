// SPDX-License-Identifier: MIT
// Writes warp programs the way a CUDA kernel reads: registers by name, loops, a block-wide
// reduction. Every kernel of the library is built with it. Pure C++.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "models/gpu/core/warp_program.h"

namespace sim::gpu {

class ProgramBuilder {
  public:
    uint8_t reg() {
        if (next_reg_ >= kMaxRegs) throw std::logic_error("warp program uses too many registers");
        return next_reg_++;
    }
    /// count dependent (chains = 1) or independent warp-instructions of one kind.
    ProgramBuilder& op(Opcode code,
                       uint32_t count,
                       uint32_t chains,
                       uint8_t dst,
                       uint8_t a = kNoReg,
                       uint8_t b = kNoReg) {
        if (count == 0) return *this;
        Instr in;
        in.op = code;
        in.count = count;
        in.chains = chains;
        in.dst = dst;
        in.src = {a, b};
        program_.push_back(in);
        return *this;
    }
    /// A load of stream; `unrolled` selects the copy of an unrolled loop (its iteration).
    ProgramBuilder& ldg(uint8_t dst, uint8_t stream, uint8_t address, uint32_t unrolled = 0) {
        Instr in;
        in.unrolled = unrolled;
        in.op = Opcode::Ldg;
        in.dst = dst;
        in.src = {address, kNoReg};
        in.stream = stream;
        program_.push_back(in);
        return *this;
    }
    /// An unrolled loop's loads, all issued before any is used so that they are in flight
    /// together: `count` fresh registers, copy i loading iteration i of stream.
    std::vector<uint8_t> ldg_unrolled(uint8_t stream, uint8_t address, uint32_t count) {
        std::vector<uint8_t> regs;
        for (uint32_t i = 0; i < count; ++i)
            regs.push_back(reg());
        for (uint32_t i = 0; i < count; ++i)
            ldg(regs[i], stream, address, i);
        return regs;
    }
    ProgramBuilder& stg(uint8_t stream, uint8_t value, uint8_t address, uint32_t unrolled = 0) {
        Instr in;
        in.unrolled = unrolled;
        in.op = Opcode::Stg;
        in.src = {value, address};
        in.stream = stream;
        program_.push_back(in);
        return *this;
    }
    ProgramBuilder& marker(Opcode code, uint32_t count = 1) {
        Instr in;
        in.op = code;
        in.count = count;
        program_.push_back(in);
        return *this;
    }
    ProgramBuilder& bar() { return marker(Opcode::Bar); }
    /// A bulk copy of a tile stream into shared memory, done when dst is ready; `parts` warps
    /// share it (1: a TMA issued by one warp; the warp count: cp.async by every warp).
    ProgramBuilder& tma(uint8_t stream, uint8_t dst, uint32_t parts, uint32_t unrolled = 0) {
        Instr in;
        in.op = Opcode::Tma;
        in.stream = stream;
        in.dst = dst;
        in.count = parts;
        in.unrolled = unrolled;
        program_.push_back(in);
        return *this;
    }
    ProgramBuilder& tma_store(uint8_t stream, uint32_t parts) {
        Instr in;
        in.op = Opcode::TmaStore;
        in.stream = stream;
        in.count = parts;
        program_.push_back(in);
        return *this;
    }
    /// The leader warp sends a value to every CTA of the cluster (distributed shared memory);
    /// arrived is done when every member's value is in.
    ProgramBuilder& cluster_exchange(uint8_t arrived) {
        Instr in;
        in.op = Opcode::ClusterExchange;
        in.dst = arrived;
        in.leader = true;
        program_.push_back(in);
        return *this;
    }
    /// Gives the last instruction (an Lds or Sts) its shared-memory wavefronts per
    /// warp-instruction (Instr::shared_wavefronts).
    ProgramBuilder& wavefronts(uint8_t n) {
        program_.back().shared_wavefronts = n;
        return *this;
    }
    /// Marks the last instruction as run by warp 0 of each CTA only.
    ProgramBuilder& leader_only() {
        program_.back().leader = true;
        return *this;
    }
    /// Makes the last instruction (a leader's Tma) a TMA multicast to the CTA's cluster.
    ProgramBuilder& multicast() {
        program_.back().multicast = true;
        return *this;
    }
    /// Marks the last instruction (a LoopBegin) as a loop whose loads a later loop reads again.
    ProgramBuilder& reread_later() {
        program_.back().reread_later = true;
        return *this;
    }
    /// Gives the last instruction rotating registers (stage = iteration % stages).
    ProgramBuilder& rotating(uint32_t stages) {
        program_.back().rotate = static_cast<uint8_t>(stages);
        return *this;
    }
    /// Marks the last instruction (an Mma) as running the kernel's MmaCost `kind`.
    ProgramBuilder& mma_kind(uint8_t kind) {
        program_.back().stream = kind;
        return *this;
    }
    /// Marks the last instruction (a LoopBegin) as walking the CTA's own trips
    /// (TileGrid::trips).
    ProgramBuilder& grid_trips() {
        program_.back().grid_trips = true;
        return *this;
    }
    /// Marks the last instruction as run by stream-K units only.
    ProgramBuilder& stream_k_only() {
        program_.back().stream_k_only = true;
        return *this;
    }
    /// A causal loop: trips = min(count, (the CTA's M tile + 1) x step).
    ProgramBuilder& triangular_loop(uint32_t count, uint32_t step) {
        marker(Opcode::LoopBegin, count);
        program_.back().chains = step;
        program_.back().triangular = true;
        return *this;
    }
    /// A loop of count - (the CTA's M tile x step) trips: from the diagonal to the end.
    ProgramBuilder& from_diagonal_loop(uint32_t count, uint32_t step) {
        marker(Opcode::LoopBegin, count);
        program_.back().chains = step;
        program_.back().from_diagonal = true;
        return *this;
    }
    /// `count` consecutive fresh registers; returns the first.
    uint8_t regs(uint32_t count) {
        const uint8_t first = reg();
        for (uint32_t i = 1; i < count; ++i)
            reg();
        return first;
    }
    /// A tree reduction of value across the CTA: five shuffle+op steps inside each warp, the
    /// warp results through shared memory and a barrier, five more steps, a barrier.
    ProgramBuilder& block_reduce(uint8_t value, uint32_t warps) {
        const uint8_t t = reg();
        for (int i = 0; i < 5; ++i)
            op(Opcode::Shfl, 1, 1, t, value).op(Opcode::Falu, 1, 1, value, value, t);
        if (warps > 1) {
            op(Opcode::Sts, 1, 1, kNoReg, value).bar().op(Opcode::Lds, 1, 1, value);
            for (int i = 0; i < 5; ++i)
                op(Opcode::Shfl, 1, 1, t, value).op(Opcode::Falu, 1, 1, value, value, t);
            op(Opcode::Sts, 1, 1, kNoReg, value).bar().op(Opcode::Lds, 1, 1, value);
        }
        return *this;
    }
    std::vector<Instr> finish() {
        marker(Opcode::Exit);
        return std::move(program_);
    }

  private:
    std::vector<Instr> program_;
    uint8_t next_reg_ = 0;
};

}  // namespace sim::gpu
