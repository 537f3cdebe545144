// What an expression reads: its scalar symbols, and its arrays either whole or element by
// element. Two constraints are independent when their footprints do not intersect, the basis of
// independence slicing (IndependentSolver.cpp, ConstraintPartition.cpp).
#pragma once

#include "cairn/expr/Expr.h"

#include <cstdint>
#include <map>
#include <vector>

namespace cairn {

class Footprint {
public:
  void addWhole(const SymbolDecl *s) { elements_[s].whole = true; }
  void addElement(const SymbolDecl *s, uint64_t index);
  // Sorts and deduplicates the element lists; done once a footprint is complete.
  void normalize();
  bool empty() const { return elements_.empty(); }
  // f(symbol, whole, indices): indices are meaningful when not whole.
  template <class F> void forEach(F &&f) const {
    for (const auto &[s, e] : elements_)
      f(s, e.whole, e.indices);
  }
  bool intersects(const Footprint &o) const;
  void merge(const Footprint &o);

private:
  struct Elements {
    bool whole = false;
    std::vector<uint64_t> indices; // sorted and unique after normalize()
  };
  std::map<const SymbolDecl *, Elements> elements_;
};

// Walks `root`, recording what it reads. An array reached through a select at a constant index
// is read at that element only; reached any other way, it is read whole.
Footprint computeFootprint(const Expr *root);

} // namespace cairn
