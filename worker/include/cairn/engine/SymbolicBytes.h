// The symbolic bytes of one object: for each byte, the expression it holds (none while it is
// concrete) and which byte of that expression it is (a value written whole keeps its bytes as
// pieces of one expression). Stored by chunks of 64 bytes, each allocated when a byte of its
// first holds an expression: a large buffer with a few symbolic bytes (a program's 128 KiB stdio
// buffer after a read of symbolic stdin) costs its chunk table and those chunks in every copy a
// state makes of it, not nine bytes per byte.
#pragma once

#include "cairn/expr/Expr.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace cairn::engine {

class SymbolicBytes {
public:
  explicit SymbolicBytes(uint64_t size = 0) : size_(size) {}
  SymbolicBytes(const SymbolicBytes &other);
  SymbolicBytes &operator=(const SymbolicBytes &other);
  SymbolicBytes(SymbolicBytes &&) noexcept = default;
  SymbolicBytes &operator=(SymbolicBytes &&) noexcept = default;

  // No byte has held an expression yet: the concrete fast path's test.
  bool empty() const { return chunks_.empty(); }
  // The expression byte `i` holds, or null while it is concrete.
  const Expr *at(uint64_t i) const {
    const Chunk *c = chunks_.empty() ? nullptr : chunks_[i >> kChunkBits].get();
    return c ? c->expr[i & kChunkMask].get() : nullptr;
  }
  // Which byte of at(i) byte `i` is (0 for an 8-bit expression).
  uint8_t piece(uint64_t i) const { return chunks_[i >> kChunkBits]->piece[i & kChunkMask]; }

  // How many bytes from `i` on, at most `max`, are concrete: whole chunks with no expression are
  // skipped at once.
  uint64_t concreteRun(uint64_t i, uint64_t max) const;

  void set(uint64_t i, ExprRef e, uint8_t piece = 0);
  // Bytes [offset, offset + n) concrete again.
  void clear(uint64_t offset, uint64_t n);

private:
  static constexpr unsigned kChunkBits = 6;
  static constexpr uint64_t kChunkSize = uint64_t(1) << kChunkBits, kChunkMask = kChunkSize - 1;
  struct Chunk {
    ExprRef expr[kChunkSize];
    uint8_t piece[kChunkSize] = {};
  };

  uint64_t size_;
  std::vector<std::unique_ptr<Chunk>> chunks_; // empty until the first symbolic byte
};

} // namespace cairn::engine
