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

// A width-1 expression as the atom it asserts or denies, read off its structure with no term
// built: !x denies x's atom, x <= y denies y < x (the negation ExprContext::lnot writes of a
// comparison). Two literals negate each other when their atoms are one and their signs differ.
struct Literal {
  Kind kind; // Ult or Slt for a comparison, Not for any other atom (`a` itself)
  const Expr *a, *b;
  bool denied;
  bool operator==(const Literal &) const = default;
  template <class H> friend H AbslHashValue(H h, const Literal &l) {
    return H::combine(std::move(h), l.kind, l.a, l.b, l.denied);
  }
  Literal negated() const { return {kind, a, b, !denied}; }
  Literal atom() const { return {kind, a, b, false}; }
};
Literal literalOf(const Expr *e);

// Expressions where every one of `known` (width 1) holds: each subterm that asserts one of them
// is true, each that denies one false (by their atoms: `x <= y` denies a known `y < x`), and the
// rest simplified around them. Made once for a set of facts, it rewrites many expressions, each
// shared subterm once.
class Assuming {
public:
  Assuming(ExprContext &ctx, std::span<const ExprRef> known);
  ExprRef operator()(const ExprRef &e);

private:
  static constexpr unsigned kWalked = 64; // nodes looked at before a rewrite, shared ones again
  bool mayHold(const Expr *e, unsigned &budget) const;

  ExprContext &ctx_;
  absl::flat_hash_map<Literal, bool> atoms_; // each known atom and whether it holds
  std::vector<ExprRef> known_;               // the atoms' nodes live while the map does
  std::vector<ExprRef> rewritten_;           // so do the nodes rebuilt_ is keyed by
  RebuildMemo rebuilt_;
};

// Number of distinct nodes below `e`.
size_t dagSize(const Expr *e);
// toString(e) for a log line when `e` has at most `maxNodes` distinct nodes, else its size:
// toString writes a shared subterm at each of its uses, which a merged state's formula can
// make exponentially long.
std::string describe(const Expr *e, size_t maxNodes = 500);

} // namespace cairn
