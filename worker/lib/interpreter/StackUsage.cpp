#include "interpreter/StackUsage.h"

#include <algorithm>

namespace cairn::engine {

namespace {
// A fixed local larger than any stack: its frame overflows however it is rounded.
constexpr u128 kHuge = u128(1) << 62;
} // namespace

StackUsage::StackUsage(const Program &program) {
  frameBytes_.reserve(program.functions.size());
  for (const Function &fn : program.functions) {
    uint64_t bytes = kFrameOverhead;
    if (!fn.blocks.empty()) {
      // The entry block's instructions: up to where the next block begins.
      const uint32_t begin = fn.blocks[0].firstInstr;
      uint32_t end = uint32_t(fn.instrs.size());
      for (const BasicBlock &b : fn.blocks)
        if (b.firstInstr > begin)
          end = std::min(end, b.firstInstr);
      for (uint32_t i = begin; i < end; ++i) {
        const Instr &in = fn.instrs[i];
        if (in.op != Opcode::Alloca || !in.a.constant)
          continue;
        const u128 size = std::min(program.constants[in.a.index], kHuge) * in.imm;
        bytes = uint64_t(std::min(u128(bytes) + objectBytes(uint64_t(std::min(size, kHuge))), kHuge));
      }
    }
    frameBytes_.push_back(bytes);
  }
}

} // namespace cairn::engine
