// Equality of expressions up to a renaming of symbolic base addresses.
//
// Two queries of the relocatable memory model that differ only in which bases they mention ask
// the same question when one becomes the other by a one-to-one renaming of bases, each base
// renamed to one of an object of the same size (its symbol's tag): the address spaces they
// induce are isomorphic. Everything else must be equal: operators, constants, input symbols,
// and constant arrays (interned by contents, so equal contents are one node).
#pragma once

#include "cairn/expr/Expr.h"

#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace cairn {

// A growing one-to-one, size-preserving renaming of bases, shared by all the expressions of one
// query. Both sides must come from the same context and outlive the renaming (it remembers
// matched nodes by address).
class AddressRenaming {
public:
  // Extends the renaming so that `from` becomes `to`. On failure the renaming is as it was.
  bool match(const Expr *from, const Expr *to);
  // The base `from` is renamed to, or null.
  const SymbolDecl *image(const SymbolDecl *from) const;
  size_t size() const { return forward_.size(); }

private:
  bool matchNode(const Expr *a, const Expr *b);
  bool bind(const SymbolDecl *a, const SymbolDecl *b);
  void rollback(size_t mark);

  struct PairHash {
    size_t operator()(const std::pair<const Expr *, const Expr *> &p) const {
      return std::hash<const void *>()(p.first) * 31 + std::hash<const void *>()(p.second);
    }
  };
  // What was added, to undo a failed attempt (a commutative node tried the other way round).
  struct Step {
    const Expr *a;
    const Expr *b;
    const SymbolDecl *base; // set for a binding, null for a matched pair of nodes
  };
  std::unordered_map<const SymbolDecl *, const SymbolDecl *> forward_, backward_;
  std::unordered_set<std::pair<const Expr *, const Expr *>, PairHash> matched_;
  std::vector<Step> journal_;
};

} // namespace cairn
