// A set of non-null pointers in one flat table (open addressing, linear probing). DAG walks
// insert a pointer per node they visit; this keeps that to a probe and, until the table grows,
// no allocation, where a node-based set allocates on every insert.
#pragma once

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
    while (slots_[i]) {
      if (slots_[i] == p)
        return false;
      i = (i + 1) & (slots_.size() - 1);
    }
    slots_[i] = p;
    ++size_;
    return true;
  }

  size_t size() const { return size_; }

private:
  size_t slotOf(const T *p) const {
    return size_t((uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9e3779b97f4a7c15ull) >> shift_);
  }

  void grow() {
    std::vector<const T *> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, nullptr);
    shift_ = 64 - std::countr_zero(slots_.size());
    size_ = 0;
    for (const T *p : old)
      if (p)
        insert(p);
  }

  std::vector<const T *> slots_;
  size_t size_ = 0;
  unsigned shift_ = 64;
};

} // namespace cairn
