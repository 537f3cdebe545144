// A query's solver terms by expression node (private to solver-pool/lib).
#pragma once

#include "cairn/expr/Expr.h"

#include <deque>
#include <unordered_map>
#include <utility>

namespace cairn::backend {

// One query's solver terms by node. Terms are released in the order they were made, never in
// an order set by where the nodes lie in memory: Z3 recycles the ids of released terms and
// numbers the next query's terms with them, and its models follow that numbering. So equal
// query streams get equal models, whatever else the process allocated.
template <class Term> class TermMemo {
public:
  bool contains(const Expr *e) const { return index_.count(e) != 0; }
  const Term &at(const Expr *e) const { return terms_[index_.at(e)]; }
  void add(const Expr *e, Term t) {
    index_.emplace(e, terms_.size());
    terms_.push_back(std::move(t));
  }

private:
  std::unordered_map<const Expr *, size_t> index_;
  std::deque<Term> terms_; // no relocation while growing
};

} // namespace cairn::backend
