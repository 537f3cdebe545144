// A path's constraints, with their partition into independent groups kept up to date as the
// path grows. Independence slicing then costs the size of the query's group instead of the
// path's length. Forked states share the partition until one of them adds a constraint and
// asks again (copy on write).
#pragma once

#include "cairn/expr/Expr.h"
#include "cairn/solver/ArrayTypes.h"

#include <initializer_list>
#include <memory>
#include <vector>

namespace cairn {

class ConstraintPartition; // solver-pool/lib/ConstraintPartition.h

class ConstraintList {
public:
  ConstraintList() = default;
  ConstraintList(std::vector<ExprRef> exprs) : exprs_(std::move(exprs)) {} // NOLINT: a list is its constraints
  ConstraintList(std::initializer_list<ExprRef> exprs) : exprs_(exprs) {}

  size_t size() const { return exprs_.size(); }
  bool empty() const { return exprs_.empty(); }
  const ExprRef &operator[](size_t i) const { return exprs_[i]; }
  const ExprRef &back() const { return exprs_.back(); }
  auto begin() const { return exprs_.begin(); }
  auto end() const { return exprs_.end(); }
  const std::vector<ExprRef> &exprs() const { return exprs_; }
  operator const std::vector<ExprRef> &() const { return exprs_; } // NOLINT: read as a vector anywhere

  void push_back(ExprRef c) { exprs_.push_back(std::move(c)); }
  // Keeps the first `n` constraints.
  void truncate(size_t n);
  void clear() { truncate(0); }
  // The constraints in another order (`exprs` holds the same ones): merging puts those two
  // paths share first.
  void reorder(std::vector<ExprRef> exprs) {
    exprs_ = std::move(exprs);
    partition_.reset();
  }

  // The independent groups of the constraints, brought up to date with them.
  const ConstraintPartition &partition() const;

  // The element widths of the arrays the path read at symbolic indices (null: none), which
  // travel with its queries.
  const std::shared_ptr<const ArrayTypes> &arrayTypes() const { return arrayTypes_; }
  void noteArrayAccess(const Expr *root, uint32_t bytes) { arrayTypes_ = ArrayTypes::with(arrayTypes_, root, bytes); }

private:
  std::vector<ExprRef> exprs_;
  // Covers a prefix of exprs_; shared with the lists this one was copied from or to, and never
  // changed while shared.
  mutable std::shared_ptr<ConstraintPartition> partition_;
  std::shared_ptr<const ArrayTypes> arrayTypes_;
};

} // namespace cairn
