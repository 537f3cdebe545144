// A query with bounded universals (Quantified.h) taken apart for the solving procedure of state
// merging with quantifiers (../shared/papers/digests/quantified_state_merging.md §2.8, the
// thesis' Algorithm 7): its quantifier-free clauses and its quantified ones, and the steps
// strip, duplicate and repair on them. The layer that runs them is QuantifiedSolver.cpp.
#pragma once

#include "cairn/expr/Assignment.h"
#include "cairn/expr/Quantified.h"
#include "cairn/solver/Solver.h"

#include <optional>
#include <unordered_set>
#include <vector>

namespace cairn::quantified {

// A cell of an array in a model: the semantic access pair (m(a), m(e)).
struct Cell {
  const SymbolDecl *array;
  u128 index;
  bool operator==(const Cell &) const = default;
};
struct CellHash {
  size_t operator()(const Cell &c) const;
};
using Cells = std::unordered_set<Cell, CellHash>;

class QuantifiedQuery {
public:
  // The query's clauses (constraints and expression, conjunctions split); nothing when none is
  // a bounded universal.
  static std::optional<QuantifiedQuery> of(const Query &q);

  // strip(φ): the quantifier-free clauses, and per universal `k ≥ 1 → ψ[1/i]` and
  // `¬(1 ≤ t ≤ k)` for each clause that is `¬ψ[t/i]` (of a conjunct of ψ). φ implies it.
  std::vector<ExprRef> strip() const;
  // m ⊨ φ, every universal checked on its instances 1..m(k). False where that cannot be done.
  bool satisfiedBy(const Assignment &m) const;
  // duplicate(φ, m, conflicts): the cells a universal reads at instances 2..m(k) take the value
  // its first read of that array has at instance 1, except the conflict cells.
  void duplicate(Assignment &m, const Cells &conflicts) const;

  // repair's query for a model that does not satisfy φ: the cells read by broken instances and
  // broken quantifier-free clauses, and strip(φ) with the instances that read those cells and
  // every closed term (scalars, reads of arrays no universal reads at the bound variable) fixed
  // to its value in m. Its model, duplicated around the conflicts, is the repaired model.
  struct Repair {
    Cells conflicts;
    std::vector<ExprRef> constraints;
  };
  std::optional<Repair> repair(const Assignment &m) const;

  ExprContext &context() const { return *ctx_; }
  size_t universals() const { return foralls_.size(); }

private:
  // m(k) of a universal, when it is small enough to enumerate.
  std::optional<uint64_t> instances(const BoundedForall &f, const Assignment &m) const;

  ExprContext *ctx_ = nullptr;
  std::vector<ExprRef> free_;
  std::vector<BoundedForall> foralls_;
};

} // namespace cairn::quantified
