// Reads tied to their arrays from a query's start, inlined (private to solver-pool/lib/arrays):
// each one's variable replaced by its value (the lookup over the table, or the if-then-else
// over the pool's positions) wherever it occurs, as the core's own encoding has a read, instead
// of a fresh variable and an equality per read that the core must propagate through. A read
// whose index holds an inlined read's variable gets the value in its index too.
#pragma once

#include "ArrayAxioms.h"

#include "cairn/expr/ExprRewrite.h"

#include <unordered_map>

namespace cairn::arrays {

class ReadInlining {
public:
  void add(const ExprRef &variable, const WholeRead &whole);
  bool empty() const { return valueOf_.empty(); }
  // `e` with every inlined variable replaced by its value, transitively.
  ExprRef apply(const ExprRef &e);
  // The model with each inlined variable given the value its read takes under it, so that
  // what is evaluated of the abstraction (the reads' indices and values) sees them.
  void complete(Assignment &model);

private:
  std::unordered_map<const Expr *, ExprRef> valueOf_; // variable -> its read's value
  RebuildMemo memo_;                                  // of apply, across a query's expressions
  // What apply was given, held: the memo's keys are their nodes, and a node freed while its
  // address is a key would give a new node at that address its result.
  std::vector<ExprRef> applied_;
};

} // namespace cairn::arrays
