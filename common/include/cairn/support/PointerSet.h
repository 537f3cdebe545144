// A set of non-null pointers in one flat table (open addressing, linear probing). DAG walks
// insert a pointer per node they visit; this keeps that to a probe with no allocation, where a
// node-based set allocates on every insert. clear() keeps the table: a set reused walk after walk
// stops allocating once it has grown to the largest walk.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace cairn {

template <typename T> class PointerSet {
public:
  // True when `p` was not in the set yet.
  bool insert(const T *p) {
    if (2 * (size_ + 1) > slots_.size())
      grow();
    size_t i = slotOf(p);
    for (; slots_[i].generation == generation_; i = (i + 1) & (slots_.size() - 1))
      if (slots_[i].pointer == p)
        return false;
    slots_[i] = {p, generation_};
    ++size_;
    return true;
  }

  size_t size() const { return size_; }

  // Empties the set in O(1): entries of older generations count as free slots.
  void clear() {
    size_ = 0;
    if (++generation_ == 0) { // wrapped: old stamps could be mistaken for the new generation
      std::fill(slots_.begin(), slots_.end(), Slot{});
      generation_ = 1;
    }
  }

private:
  struct Slot {
    const T *pointer = nullptr;
    uint32_t generation = 0; // live in the set when equal to generation_
  };

  size_t slotOf(const T *p) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9e3779b97f4a7c15ull) >> shift_);
  }

  void grow() {
    std::vector<Slot> old = std::move(slots_);
    const uint32_t live = generation_;
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    shift_ = 64 - std::countr_zero(slots_.size());
    generation_ = 1;
    size_ = 0;
    for (const Slot &s : old)
      if (s.generation == live)
        insert(s.pointer);
  }

  std::vector<Slot> slots_;
  size_t size_ = 0;
  uint32_t generation_ = 1;
  unsigned shift_ = 64;
};

} // namespace cairn
