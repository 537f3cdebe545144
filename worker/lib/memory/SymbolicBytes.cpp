#include "cairn/engine/SymbolicBytes.h"

#include <algorithm>

namespace cairn::engine {

SymbolicBytes::SymbolicBytes(const SymbolicBytes &other) : size_(other.size_) {
  if (other.chunks_.empty())
    return;
  chunks_.resize(other.chunks_.size());
  for (size_t c = 0; c < chunks_.size(); ++c)
    if (other.chunks_[c])
      chunks_[c] = std::make_unique<Chunk>(*other.chunks_[c]);
}

SymbolicBytes &SymbolicBytes::operator=(const SymbolicBytes &other) {
  if (this != &other)
    *this = SymbolicBytes(other);
  return *this;
}

uint64_t SymbolicBytes::concreteRun(uint64_t i, uint64_t max) const {
  if (chunks_.empty())
    return max;
  uint64_t n = 0;
  while (n < max) {
    const Chunk *c = chunks_[(i + n) >> kChunkBits].get();
    uint64_t inChunk = std::min(kChunkSize - ((i + n) & kChunkMask), max - n);
    if (!c) {
      n += inChunk;
      continue;
    }
    for (uint64_t k = 0; k < inChunk; ++k, ++n)
      if (c->expr[(i + n) & kChunkMask])
        return n;
  }
  return max;
}

void SymbolicBytes::set(uint64_t i, ExprRef e, uint8_t piece) {
  if (chunks_.empty())
    chunks_.resize((size_ + kChunkMask) >> kChunkBits);
  std::unique_ptr<Chunk> &c = chunks_[i >> kChunkBits];
  if (!c)
    c = std::make_unique<Chunk>();
  c->expr[i & kChunkMask] = std::move(e);
  c->piece[i & kChunkMask] = piece;
}

void SymbolicBytes::clear(uint64_t offset, uint64_t n) {
  if (chunks_.empty())
    return;
  for (uint64_t i = offset; i < offset + n; ++i) {
    std::unique_ptr<Chunk> &c = chunks_[i >> kChunkBits];
    if ((i & kChunkMask) == 0 && offset + n - i >= kChunkSize) { // the whole chunk
      c.reset();
      i += kChunkMask;
    } else if (c) {
      c->expr[i & kChunkMask] = ExprRef();
    }
  }
}

} // namespace cairn::engine
