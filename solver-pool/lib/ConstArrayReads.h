// Symbolic reads of constant arrays as ite trees over the index (private to solver-pool/lib; no
// solver headers): the callers supply the term constructors.
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>
#include <vector>

namespace cairn::backend {

// select(K, i) for a constant array K and a symbolic index i, as a balanced tree of index
// comparisons whose leaves are K's values (runs of equal values share one leaf). Bit-vector
// solvers decide such a tree in milliseconds, where the array encoding (a store per element)
// of a few hundred entries costs them seconds. `ult(i, c)`, `ite` and `value` build terms.
constexpr size_t kMaxLookupTree = 1 << 16;

template <class Term, class Ult, class Ite, class ValueOf>
Term constArrayLookup(const ConstArrayData &d, Ult &&ult, Ite &&ite, ValueOf &&value) {
  const size_t n = d.values.size();
  // [lo, hi): all one value, or split at the middle.
  auto build = [&](auto &&self, size_t lo, size_t hi) -> Term {
    bool uniform = true;
    for (size_t i = lo + 1; i < hi && uniform; ++i)
      uniform = d.values[i] == d.values[lo];
    if (uniform)
      return value(d.values[lo]);
    size_t mid = lo + (hi - lo) / 2;
    return ite(ult(mid), self(self, lo, mid), self(self, mid, hi));
  };
  if (n == 0)
    return value(d.defaultValue);
  return ite(ult(n), build(build, 0, n), value(d.defaultValue));
}

// select(store(..store(K, j1, v1).., jn, vn), i) for a constant array K, a symbolic index i
// and at most kMaxExpandedStores stores, as ite(i = jn, vn, .. ite(i = j1, v1, K[i]) ..) over
// the lookup tree of K. This keeps such reads out of the array theory, where a handful of
// stores over a table of a few hundred entries can cost a solver minutes. `ult(c)` compares i
// with a constant, `isIndex(j)` tests i = j; `termOf` gives the translated term of a node.
// nullopt when the select has another shape.
constexpr size_t kMaxExpandedStores = 256;

template <class Term, class Ult, class IsIndex, class Ite, class ValueOf, class TermOf>
std::optional<Term> expandSelect(const Expr *select, Ult &&ult, IsIndex &&isIndex, Ite &&ite,
                                 ValueOf &&value, TermOf &&termOf) {
  if (select->kid(1)->isConstant())
    return std::nullopt;
  std::vector<const Expr *> stores;
  const Expr *base = select->kid(0);
  for (; base->kind() == Kind::Store; base = base->kid(0))
    if (stores.size() == kMaxExpandedStores)
      return std::nullopt;
    else
      stores.push_back(base);
  if (base->kind() != Kind::ConstArray || base->constArray()->values.size() > kMaxLookupTree)
    return std::nullopt;
  Term result = constArrayLookup<Term>(*base->constArray(), ult, ite, value);
  for (size_t k = stores.size(); k-- > 0;) // the oldest store is innermost
    result = ite(isIndex(termOf(stores[k]->kid(1))), termOf(stores[k]->kid(2)), result);
  return result;
}

} // namespace cairn::backend
