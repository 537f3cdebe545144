// Which heap blocks a path can still reach, for --check-leaks and --check-memcleanup: the
// blocks still allocated, and a traversal from the roots (globals, argv, and at exit() the live
// stack) through the pointers stored in the memory it reaches.
//
// Memory is read in aligned 8-byte words, as a native leak checker scans it: a pointer stored
// at an unaligned offset is not followed. A word points into a block when its value lies in the
// block's bytes (a pointer into the middle of a block keeps it reachable). A symbolic word whose
// value the layout determines (the relocatable model's base plus a constant) points where the
// layout puts it. Any other symbolic word is over-approximated, so that no block is called
// unreachable that some value of the path may reach: it reaches every block the solver finds it
// may point into. (Mentioning a base is not pointing into its block: a word read back from an
// object written at a symbolic offset mentions the bases in that offset.)
#pragma once

#include "cairn/engine/Memory.h"
#include "memory/MemoryModel.h"

#include <optional>
#include <vector>

namespace cairn::engine {

// A heap block the program allocated and has not freed, as the memory model keeps it: a whole
// heap object, a live member of a segment, or an object split into chunks (one block).
struct HeapBlock {
  uint64_t address = 0;
  uint64_t size = 0;
  const MemoryObject *object = nullptr; // the object that holds its first byte
};

// The live heap blocks of an address space, by address.
std::vector<HeapBlock> liveHeapBlocks(const AddressSpace &space, MemoryModel &model);

// What the traversal asks about a symbolic word: the memory model's and the solver's part.
class PointerQuestions {
public:
  virtual ~PointerQuestions() = default;
  // The value of `word` when the path's layout alone determines it (where its bases lie).
  virtual std::optional<uint64_t> layoutValue(const ExprRef &word) = 0;
  // Whether `word` may lie inside one of `blocks` on the path. True when that cannot be decided:
  // a block is then taken as reachable.
  virtual bool mayPointInto(const ExprRef &word, const std::vector<HeapBlock> &blocks) = 0;
};

class Reachability {
public:
  Reachability(ExprContext &ctx, const AddressSpace &space, MemoryModel &model, PointerQuestions &questions);

  // Roots: the bytes of every object of `kind`.
  void addRootObjects(ObjectKind kind);

  // Every live block, and whether the roots reach it (transitively, through reached blocks).
  const std::vector<HeapBlock> &blocks() const { return blocks_; }
  std::vector<HeapBlock> unreachable();

private:
  void scan(uint64_t address, uint64_t size);
  void follow(const Value &word);
  void followSymbolic(const ExprRef &word);
  void reach(uint64_t address);
  void reachBlock(size_t index);

  ExprContext &ctx_;
  const AddressSpace &space_;
  PointerQuestions &questions_;
  std::vector<HeapBlock> blocks_;
  std::vector<bool> reached_;
  std::vector<size_t> toScan_;
};

} // namespace cairn::engine
