// A query as a set: its constraints and expression, sorted and without repeats. Two queries
// with the same key ask the same question. The key holds references, so its nodes stay alive.
#pragma once

#include "cairn/solver/Solver.h"

#include <algorithm>

namespace cairn {

struct ConstraintSetKey {
  std::vector<ExprRef> items;
  uint64_t hash = 0;

  static ConstraintSetKey of(const Query &q) {
    ConstraintSetKey k;
    k.items.reserve(q.constraints.size() + 1);
    for (const ExprRef &c : q.constraints)
      if (!c->isTrue())
        k.items.push_back(c);
    if (q.expr && !q.expr->isTrue())
      k.items.push_back(q.expr);
    std::sort(k.items.begin(), k.items.end(),
              [](const ExprRef &a, const ExprRef &b) { return exprLess(a.get(), b.get()); });
    k.items.erase(std::unique(k.items.begin(), k.items.end()), k.items.end());
    uint64_t h = 0x51ed27;
    for (const ExprRef &e : k.items)
      h = (h ^ e->hash()) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    k.hash = h;
    return k;
  }

  bool operator==(const ConstraintSetKey &o) const { return hash == o.hash && items == o.items; }
  // Both sorted by exprLess: does this set contain every item of `o`?
  bool includes(const ConstraintSetKey &o) const {
    return std::includes(items.begin(), items.end(), o.items.begin(), o.items.end(),
                         [](const ExprRef &a, const ExprRef &b) { return exprLess(a.get(), b.get()); });
  }
};

struct ConstraintSetKeyHash {
  size_t operator()(const ConstraintSetKey &k) const { return size_t(k.hash); }
};

} // namespace cairn
