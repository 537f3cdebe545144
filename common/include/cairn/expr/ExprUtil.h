// Small traversals over expression DAGs.
#pragma once

#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprRewrite.h"
#include "cairn/support/PointerSet.h"

#include <span>
#include <string>
#include <vector>

namespace cairn {

// Collects the symbols (scalar and array) below the expressions it is given, each once, in
// first-visit order. Bound variables of quantifiers are included.
class SymbolCollector {
public:
  void add(const Expr *e);
  const std::vector<const SymbolDecl *> &symbols() const { return symbols_; }
  // Forgets what it collected and keeps its storage, for a collector reused query after query.
  void clear();

private:
  PointerSet<Expr> visited_;
  PointerSet<SymbolDecl> seen_;
  std::vector<const SymbolDecl *> symbols_;
  std::vector<const Expr *> work_;
};

// The leaves of the tree of width-1 Ands at `e` (e itself when it is no conjunction), appended.
void conjuncts(const Expr *e, std::vector<ExprRef> &out);
// The conjunction of `parts` in their order (true when there are none).
ExprRef conjunction(ExprContext &ctx, std::span<const ExprRef> parts);

// Expressions where every one of `known` (width 1) holds: each subterm that is one of them is
// true, each that is the negation of one false, and the rest simplified around them. Made once
// for a set of facts, it rewrites many expressions, each shared subterm once.
class Assuming {
public:
  Assuming(ExprContext &ctx, std::span<const ExprRef> known);
  ExprRef operator()(const ExprRef &e);

private:
  ExprContext &ctx_;
  absl::flat_hash_map<const Expr *, ExprRef> value_;
  std::vector<ExprRef> negations_; // the keys' nodes live while the map does
  RebuildMemo rebuilt_;
};

// Number of distinct nodes below `e`.
size_t dagSize(const Expr *e);
// toString(e) for a log line when `e` has at most `maxNodes` distinct nodes, else its size:
// toString writes a shared subterm at each of its uses, which a merged state's formula can
// make exponentially long.
std::string describe(const Expr *e, size_t maxNodes = 500);

} // namespace cairn
