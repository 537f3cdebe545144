// memcpy, memmove and memset of a symbolic length under the symbolic-size model. Fixing the
// length to one value, as the concrete model does, would miss an overflow that only some
// lengths cause (a buffer of n bytes, memset over n, then p[4]: out of bounds for n = 3 and 4
// only). Here the bounds are checked for the length as an expression, so the state forks into
// the lengths that overflow (an error) and those that fit, and byte i of the destination
// becomes "i < len ? new : old" up to the largest length the path allows.
#include "memory/MemoryAccess.h"

#include "executor/Engine.h"
#include "memory/Extents.h"

#include <algorithm>
#include <climits>

namespace cairn::engine {

bool MemoryAccess::keepsLengthSymbolic(const Value &count) const {
  return !count.concrete() && engine_.options.sizeModel.symbolic();
}

// An object the relocatable model moved (a segment, a chunk) checks its accesses through the
// model byte by byte: the length is fixed there, as in the concrete model.
bool MemoryAccess::isMovedTarget(const ExecutionState &s, uint64_t address) const {
  const AddressSpace::Entry *e = s.memory.find(address);
  return e && e->object->relocation && model_.isMoved(*e->object);
}

// The bytes [address, address + len) within one object, for every length the state allows:
// the lengths that run past its size (or of a pointer into no object, any but 0) end with a
// memory error, and a write to read-only memory with that error. Returns the state where the
// range fits, null when none does.
ExecutionState *MemoryAccess::checkRange(ExecutionState &s, uint64_t address, const ExprRef &len, bool write) {
  const AddressSpace::Entry *e = s.memory.find(address);
  const std::shared_ptr<const MemoryObject> object = e ? e->object : nullptr;
  const ExprRef empty = ctx_.eq(len, ctx_.constant(0, 64));
  ExprRef fits = empty;
  if (object) {
    ExprRef size = sizeOf(ctx_, *object), offset = ctx_.constant(address - object->address, 64);
    fits = ctx_.lor(empty, ctx_.land(ctx_.ule(offset, size), ctx_.ule(len, ctx_.sub(size, offset))));
  }
  auto [ok, overflow] = engine_.branch(s, fits);
  if (overflow) {
    std::optional<u128> example = engine_.questions.concretize(*overflow, Value(len), 64, false);
    if (example)
      memoryError(*overflow, address, unsigned(std::min<u128>(*example, UINT_MAX)), overflow->memory.find(address));
  }
  if (ok && write && object && object->readOnly) {
    auto [nothing, written] = engine_.branch(*ok, empty);
    if (written)
      readOnlyError(*written, *object);
    ok = nothing;
  }
  return ok;
}

// The least and the largest length the state allows, the latter at most `most` (the checked
// range guarantees it): bytes below the least are written as they are, those up to the
// largest as if-then-else on the length. nullopt when the state ended (a solver failure).
std::optional<std::pair<uint64_t, uint64_t>> MemoryAccess::lengthRange(ExecutionState &s, const ExprRef &len,
                                                                       uint64_t most) {
  uint64_t lo = 0, hi = most;
  while (lo < hi) { // the largest: the least k with len <= k on every path
    uint64_t mid = lo + (hi - lo) / 2;
    std::optional<Validity> v = engine_.questions.decide(s, ctx_.ule(len, ctx_.constant(mid, 64)));
    if (!v)
      return std::nullopt;
    if (*v == Validity::True)
      hi = mid;
    else
      lo = mid + 1;
  }
  const uint64_t largest = hi;
  lo = 0;
  while (lo < hi) { // the least: the largest k with k <= len on every path
    uint64_t mid = lo + (hi - lo + 1) / 2;
    std::optional<Validity> v = engine_.questions.decide(s, ctx_.ule(ctx_.constant(mid, 64), len));
    if (!v)
      return std::nullopt;
    if (*v == Validity::True)
      lo = mid;
    else
      hi = mid - 1;
  }
  return std::make_pair(lo, largest);
}

// Writes `bytes[i]` at `offset + i` of the object at `object` where i < len, for i below the
// largest length: the bytes past the length keep their value.
void MemoryAccess::writeUpToLength(ExecutionState &s, uint64_t object, uint64_t offset, const std::vector<ExprRef> &bytes,
                                   const ExprRef &len, uint64_t least) {
  ObjectState &os = s.memory.writable(object);
  for (uint64_t i = 0; i < bytes.size(); ++i) {
    ExprRef byte = bytes[i];
    if (i >= least)
      byte = ctx_.ite(ctx_.ult(ctx_.constant(i, 64), len), byte, os.byteExpr(ctx_, offset + i));
    os.write(ctx_, offset + i, Value(byte), 1);
  }
}

void MemoryAccess::setSymbolicLength(ExecutionState &s, const Value &dstPtr, const Value &byte, const Value &count,
                                     unsigned w) {
  const ExprRef len = ctx_.zextOrTrunc(count.expr(ctx_, w), 64);
  forEachTarget(s, dstPtr, true, 1, [&](ExecutionState &st, const Value &dst) {
    const uint64_t d = uint64_t(dst.bits);
    if (isMovedTarget(st, d))
      return setConcretized(st, dst, byte, count, w);
    ExecutionState *ok = checkRange(st, d, len, true);
    const AddressSpace::Entry *e = ok ? ok->memory.find(d) : nullptr;
    if (!e) // only the empty range fits: nothing to write
      return;
    const uint64_t object = e->object->address, offset = d - object;
    std::optional<std::pair<uint64_t, uint64_t>> range = lengthRange(*ok, len, e->object->size - offset);
    if (!range)
      return;
    std::vector<ExprRef> bytes(range->second, byte.expr(ctx_, 8));
    writeUpToLength(*ok, object, offset, bytes, len, range->first);
  });
}

void MemoryAccess::copySymbolicLength(ExecutionState &s, const Value &dstPtr, const Value &srcPtr,
                                      const Value &count, unsigned w) {
  const ExprRef len = ctx_.zextOrTrunc(count.expr(ctx_, w), 64);
  forEachTarget(s, dstPtr, true, 1, [&](ExecutionState &st, const Value &dst) {
    forEachTarget(st, srcPtr, false, 1, [&](ExecutionState &from, const Value &src) {
      const uint64_t d = uint64_t(dst.bits), a = uint64_t(src.bits);
      if (isMovedTarget(from, d) || isMovedTarget(from, a))
        return copyConcretized(from, dst, src, count, w);
      // The source is read before the destination is written, as the byte loop would.
      ExecutionState *ok = checkRange(from, a, len, false);
      if (ok)
        ok = checkRange(*ok, d, len, true);
      const AddressSpace::Entry *to = ok ? ok->memory.find(d) : nullptr;
      const AddressSpace::Entry *in = ok ? ok->memory.find(a) : nullptr;
      if (!to || !in)
        return;
      const uint64_t object = to->object->address, offset = d - object;
      const uint64_t most = std::min(to->object->size - offset, in->object->size - (a - in->object->address));
      std::optional<std::pair<uint64_t, uint64_t>> range = lengthRange(*ok, len, most);
      if (!range)
        return;
      // All read first: the ranges may overlap (memmove).
      std::vector<ExprRef> bytes;
      bytes.reserve(range->second);
      for (uint64_t i = 0; i < range->second; ++i)
        bytes.push_back(in->state->byteExpr(ctx_, a - in->object->address + i));
      writeUpToLength(*ok, object, offset, bytes, len, range->first);
    });
  });
}

} // namespace cairn::engine
