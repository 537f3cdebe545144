// Assignment: concrete values for symbols (a model), and evaluation of expressions under it.
#pragma once

#include "cairn/expr/Expr.h"

#include <unordered_map>
#include <vector>

namespace cairn {

class Assignment {
public:
  // Scalars default to 0 and array elements to 0 when not assigned.
  void setScalar(const SymbolDecl *s, u128 v) { scalars_[s] = v; }
  void setArray(const SymbolDecl *a, std::vector<u128> values) { arrays_[a] = std::move(values); }
  // One element of `a` (the elements before it, if unassigned, become 0).
  void setElement(const SymbolDecl *a, uint64_t index, u128 v) {
    std::vector<u128> &values = arrays_[a];
    if (values.size() <= index)
      values.resize(index + 1, 0);
    values[index] = v;
  }

  u128 scalar(const SymbolDecl *s) const;
  u128 element(const SymbolDecl *a, u128 index) const;
  const std::vector<u128> *array(const SymbolDecl *a) const;
  bool has(const SymbolDecl *s) const { return scalars_.count(s) || arrays_.count(s); }
  bool empty() const { return scalars_.empty() && arrays_.empty(); }

  // Copies every binding of `other` into this one (later bindings win).
  void merge(const Assignment &other);

  const std::unordered_map<const SymbolDecl *, u128> &scalars() const { return scalars_; }
  const std::unordered_map<const SymbolDecl *, std::vector<u128>> &arrays() const {
    return arrays_;
  }

private:
  std::unordered_map<const SymbolDecl *, u128> scalars_;
  std::unordered_map<const SymbolDecl *, std::vector<u128>> arrays_;
};

// Evaluates a bit-vector expression under `a`. A bounded universal (Quantified.h) is evaluated on
// its instances 1..k (up to 2^20 of them); other quantifiers by enumeration when their bound
// variable is at most 16 bits wide. Beyond either: std::domain_error.
u128 evaluate(const Expr *e, const Assignment &a);
inline bool evaluatesTrue(const Expr *e, const Assignment &a) { return evaluate(e, a) != 0; }

} // namespace cairn
