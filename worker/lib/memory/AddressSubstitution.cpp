#include "memory/AddressSubstitution.h"

#include "cairn/expr/Fold.h"

#include <array>
#include <vector>

namespace cairn::engine {

std::optional<u128> AddressSubstitution::pointerValue(const Expr *e) const {
  u128 offset;
  const Expr *base = asBasePlusConstant(e, offset);
  if (!base)
    return std::nullopt;
  return (offset + lookup_(base->symbol())) & widthMask(e->width());
}

std::optional<bool> AddressSubstitution::comparisonValue(const Expr *e) const {
  if (e->kind() == Kind::Not && e->width() == 1) {
    std::optional<bool> v = comparisonValue(e->kid(0));
    return v ? std::optional<bool>(!*v) : std::nullopt;
  }
  if (!isComparison(e->kind()))
    return std::nullopt;
  auto operand = [&](const Expr *k) -> std::optional<u128> {
    return k->isConstant() ? std::optional<u128>(k->value()) : pointerValue(k);
  };
  std::optional<u128> a = operand(e->kid(0)), b;
  if (!a || !(b = operand(e->kid(1))))
    return std::nullopt;
  return foldBinary(e->kind(), *a, *b, e->kid(0)->width()) != 0;
}

std::optional<u128> AddressSubstitution::valueOf(const ExprRef &e) {
  if (std::optional<u128> v = pointerValue(e.get()))
    return v;
  if (std::optional<bool> v = comparisonValue(e.get()))
    return u128(*v);
  const ExprRef &substituted = e->mentionsAddress() ? apply(e) : e;
  return substituted->isConstant() ? std::optional<u128>(substituted->value()) : std::nullopt;
}

ExprRef AddressSubstitution::apply(const ExprRef &root) {
  if (!root || !root->mentionsAddress())
    return root;
  // Most of what is substituted is a pointer, or a comparison of pointers with each other or
  // with constants: one addition or one comparison away from its value, which is cheaper to
  // compute than to look up (and keeps the memo for the expressions that need it).
  if (std::optional<u128> v = pointerValue(root.get()))
    return ctx_.constant(*v, root->width());
  if (std::optional<bool> v = comparisonValue(root.get()))
    return ctx_.constant(*v, 1);
  if (auto it = memo_.find(root.get()); it != memo_.end())
    return it->second.second;
  // Post-order without recursion: store chains and long sums are deep.
  std::vector<std::pair<const Expr *, bool>> work{{root.get(), false}};
  while (!work.empty()) {
    auto [e, expanded] = work.back();
    if (!e->mentionsAddress() || memo_.count(e)) {
      work.pop_back();
      continue;
    }
    if (!expanded && e->kind() == Kind::Store && !unfoldable_.count(e)) {
      if (ExprRef folded = foldStoreChain(e)) {
        work.pop_back();
        memo_.emplace(e, std::pair{ExprRef(e), std::move(folded)});
        continue;
      }
    }
    if (!expanded) {
      work.back().second = true;
      for (unsigned i = 0; i < e->numKids(); ++i)
        if (const Expr *k = e->kid(i); k->mentionsAddress() && !pointerValue(k) && !memo_.count(k))
          work.emplace_back(k, false);
      continue;
    }
    work.pop_back();
    std::array<ExprRef, 3> kids;
    for (unsigned i = 0; i < e->numKids(); ++i) {
      const Expr *k = e->kid(i);
      if (!k->mentionsAddress())
        kids[i] = ExprRef(k);
      else if (std::optional<u128> v = pointerValue(k))
        kids[i] = ctx_.constant(*v, k->width());
      else
        kids[i] = memo_.at(k).second;
    }
    ExprRef rebuilt = ctx_.build(e->kind(), std::span<const ExprRef>(kids.data(), e->numKids()),
                                 e->width(), e->extractOffset());
    memo_.emplace(e, std::pair{ExprRef(e), std::move(rebuilt)});
  }
  return memo_.at(root.get()).second;
}

ExprRef AddressSubstitution::foldStoreChain(const Expr *top) {
  std::vector<const Expr *> chain;
  const Expr *base = top;
  for (; base->kind() == Kind::Store; base = base->kid(0))
    chain.push_back(base);
  auto fail = [&] {
    unfoldable_.insert(chain.begin(), chain.end());
    return ExprRef();
  };
  if (base->kind() != Kind::ConstArray)
    return fail();
  const ConstArrayData &data = *base->constArray();
  std::vector<u128> values = data.values;
  for (size_t i = chain.size(); i-- > 0;) { // the oldest store first
    ExprRef index = apply(ExprRef(chain[i]->kid(1))), value = apply(ExprRef(chain[i]->kid(2)));
    if (!index->isConstant() || !value->isConstant() || index->value() >= values.size())
      return fail();
    values[size_t(index->value())] = value->value();
  }
  return ctx_.constArray(values, data.width, data.domainWidth, data.defaultValue);
}

} // namespace cairn::engine
