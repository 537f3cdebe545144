// The extent of an object as expressions: where it starts, how large it is, and whether a
// pointer lies in it; and how much address space an allocation takes.
#pragma once

#include "cairn/engine/Memory.h"

#include <algorithm>

namespace cairn::engine {

// Accesses below this are null dereferences; no object lies there.
constexpr uint64_t kNullPage = 4096;

// Between objects, so small overflows land nowhere.
constexpr uint64_t kAllocGap = 16;

// The address space an object of `size` bytes takes, with the gap after it, 16-byte aligned.
inline uint64_t paddedSize(uint64_t size) { return (std::max<uint64_t>(size, 1) + kAllocGap + 15) / 16 * 16; }

// Every object is at least as aligned as malloc's results (glibc's MALLOC_ALIGNMENT); an object
// asking for more (an alloca's or a global's align, memalign's argument) gets a multiple of
// its alignment, which is a power of two.
constexpr uint64_t kMinAlignment = 16;
inline uint64_t alignUp(uint64_t address, uint64_t alignment) {
  alignment = std::max(alignment, kMinAlignment);
  return (address + alignment - 1) & ~(alignment - 1);
}

inline ExprRef baseOf(ExprContext &ctx, const MemoryObject &mo) {
  return mo.base ? mo.base : ctx.constant(mo.address, 64);
}
inline ExprRef sizeOf(ExprContext &ctx, const MemoryObject &mo) {
  return mo.sizeExpr ? mo.sizeExpr : ctx.constant(mo.size, 64);
}

// `p` lies in the object's extent (a zero-sized object still owns its first byte).
inline ExprRef inObject(ExprContext &ctx, const ExprRef &p, const MemoryObject &mo) {
  return ctx.ult(ctx.sub(p, baseOf(ctx, mo)), ctx.constant(std::max<uint64_t>(mo.size, 1), 64));
}

// `p` lies in one of the objects of `space`; null when there are too many objects to say so in
// one formula (the caller then rules out one address at a time).
ExprRef pointsIntoSomeObject(ExprContext &ctx, const AddressSpace &space, const ExprRef &p);

} // namespace cairn::engine
