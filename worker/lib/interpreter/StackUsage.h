// How much native stack a path's frames would take, so that a recursion too deep for the
// native stack is a stack overflow where the native program overflows, while a deep but legal
// one is not. A frame takes a fixed overhead (return address, saved frame pointer and
// callee-saved registers, alignment: kFrameOverhead) plus its objects: the fixed-size locals
// of the entry block (counted when the frame is pushed, as the native prologue reserves
// them), by-value arguments and the varargs area, and every other alloca when it runs.
#pragma once

#include "cairn/engine/ExecutionState.h"
#include "cairn/engine/Program.h"

#include <cstdint>
#include <vector>

namespace cairn::engine {

class StackUsage {
public:
  static constexpr uint64_t kFrameOverhead = 64;

  explicit StackUsage(const Program &program);

  // The bytes a new frame of `function` takes before it runs: the overhead and its fixed locals.
  uint64_t frameBytes(uint32_t function) const { return frameBytes_[function]; }
  // An alloca of the fixed part, already counted with its frame.
  static bool countedWithFrame(const Frame &f, const Instr &alloca) { return f.block == 0 && alloca.a.constant; }
  // Whether `more` bytes still fit in a stack of `stackSize` bytes (0: unlimited).
  static bool fits(const ExecutionState &s, uint64_t more, uint64_t stackSize) {
    return !stackSize || (more <= stackSize && s.stackBytes <= stackSize - more);
  }
  // `bytes` more on the top frame (`f`, before it is pushed, or the running one).
  static void add(ExecutionState &s, Frame &f, uint64_t bytes) {
    f.stackBytes += bytes;
    s.stackBytes += bytes;
  }
  // The frame `f` leaves the stack.
  static void release(ExecutionState &s, const Frame &f) { s.stackBytes -= f.stackBytes; }
  // An object's bytes as the native stack holds them: 16-byte aligned.
  static uint64_t objectBytes(uint64_t size) { return (size + 15) / 16 * 16; }

private:
  std::vector<uint64_t> frameBytes_;
};

} // namespace cairn::engine
