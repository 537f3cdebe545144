// The relocatable model's two ways of moving objects, as operations on one address space:
// merging objects into a segment and splitting an object into chunks (and undoing a split).
// Choosing addresses and base symbols, and recording where bases went, is the caller's part.
#pragma once

#include "cairn/engine/Memory.h"

#include <utility>
#include <vector>

namespace cairn::engine {

// An object moved into a segment, at `offset` within it.
struct SegmentMember {
  ExprRef base;
  uint64_t offset = 0;
  uint64_t size = 0;
  bool freed = false;
  std::string name;
};

// The object a chunk was split from. Its chunks lie back to back from `address` on; the first
// chunk keeps the object's base.
struct SplitOrigin {
  ExprRef base;
  uint64_t address = 0;
  uint64_t size = 0;
  uint64_t chunkSize = 0;
};

struct RelocationInfo {
  std::vector<SegmentMember> members;       // a segment's objects, by offset
  std::shared_ptr<const SplitOrigin> split; // set on the chunks of a split object
  bool splittable = true; // false once a split had to be undone for an access across chunks
  uint64_t allocContext = 0; // the allocation site and its callers (context-based resolution)
};

// What an object's relocation info says, read as "nothing moved" when it has none.
inline const std::vector<SegmentMember> &membersOf(const MemoryObject &mo) {
  static const std::vector<SegmentMember> none;
  return mo.relocation ? mo.relocation->members : none;
}
inline const SplitOrigin *splitOf(const MemoryObject &mo) {
  return mo.relocation ? mo.relocation->split.get() : nullptr;
}
inline bool isSegment(const MemoryObject &mo) { return !membersOf(mo).empty(); }
inline uint64_t allocContextOf(const MemoryObject &mo) { return mo.relocation ? mo.relocation->allocContext : 0; }
// The object's relocation info to change (a copy: other objects may share it).
RelocationInfo &editRelocation(MemoryObject &mo);

// Where a base symbol now stands: `address` is its new concrete address.
struct BaseMove {
  const SymbolDecl *base;
  uint64_t address;
};

// Offsets of objects laid out back to back in a segment, each at a multiple of its alignment
// (at least malloc's); `alignment` is set to the largest, which the segment's address must be
// a multiple of for every member to keep its own.
struct SegmentShape {
  uint64_t total = 0;
  uint64_t alignment = 0;
};
std::vector<uint64_t> segmentLayout(const std::vector<const MemoryObject *> &objects, SegmentShape &shape);

// Moves the objects at `targets` (their addresses) into `segment` (whose id, address, base, size
// and name the caller chose; `segment.size` and its alignment must be what segmentLayout gave). A target that is a
// segment itself brings its members along. Returns where every moved base now is.
std::vector<BaseMove> mergeIntoSegment(ExprContext &ctx, AddressSpace &space, MemoryObject segment,
                                       const std::vector<uint64_t> &targets);

// Splits the object at `address` into chunks of `chunkSize` bytes at the same addresses: the
// first chunk keeps the object's base, chunk i > 0 gets chunkBases[i - 1] and id firstId + i.
// No base moves.
void splitIntoChunks(ExprContext &ctx, AddressSpace &space, uint64_t address, uint64_t chunkSize,
                     const std::vector<ExprRef> &chunkBases, uint64_t firstId);
size_t chunkCount(uint64_t size, uint64_t chunkSize);

// Joins the chunks of a split object into one object again (marked not to be split again).
void joinChunks(ExprContext &ctx, AddressSpace &space, const SplitOrigin &origin);

} // namespace cairn::engine
