// Replaces symbolic base addresses by the concrete addresses they stand for.
//
// In the relocatable memory model a state's expressions mention base symbols; a query reaches
// the solver with each base replaced by its concrete address (and simplified), which keeps
// solving as cheap as with concrete addresses.
#pragma once

#include "cairn/expr/Expr.h"

#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace cairn::engine {

class AddressSubstitution {
public:
  using Lookup = std::function<uint64_t(const SymbolDecl *)>;

  // `lookup` gives the concrete address of a base symbol.
  AddressSubstitution(ExprContext &ctx, Lookup lookup) : ctx_(ctx), lookup_(std::move(lookup)) {}

  // `e` with every base symbol replaced. Results are remembered until clear().
  ExprRef apply(const ExprRef &e);
  // The value of `e` with every base replaced, when that is a constant: for a pointer, or a
  // comparison of pointers, computed without building (and then dropping) the constant.
  std::optional<u128> valueOf(const ExprRef &e);
  void clear() {
    memo_.clear();
    unfoldable_.clear();
  }
  size_t remembered() const { return memo_.size(); }

private:
  // The value of a base or of base + constant; nullopt for other expressions.
  std::optional<u128> pointerValue(const Expr *e) const;
  // The value of a (negated) comparison between such pointers and constants; nullopt for
  // other expressions.
  std::optional<bool> comparisonValue(const Expr *e) const;

  // A chain of stores over a constant array whose indices and values all become constants is
  // one constant array after substitution: what the solver reads fastest (pointers stored in
  // a table are such stores). Null when the chain does not fold.
  ExprRef foldStoreChain(const Expr *top);

  ExprContext &ctx_;
  Lookup lookup_;
  // Keyed by the node, which the key's reference keeps alive (so its address is not reused).
  std::unordered_map<const Expr *, std::pair<ExprRef, ExprRef>> memo_;
  std::unordered_set<const Expr *> unfoldable_; // stores of chains that did not fold (in memo_)
};

} // namespace cairn::engine
