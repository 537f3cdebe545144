#include "AddressSubstitution.h"

#include <array>
#include <vector>

namespace cairn::engine {

ExprRef AddressSubstitution::apply(const ExprRef &root) {
  if (!root || !root->mentionsAddress())
    return root;
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
    if (e->kind() == Kind::Symbol && e->symbol()->renameable()) {
      work.pop_back();
      memo_.emplace(e, std::pair{ExprRef(e), ctx_.constant(lookup_(e->symbol()), e->width())});
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
        if (e->kid(i)->mentionsAddress() && !memo_.count(e->kid(i)))
          work.emplace_back(e->kid(i), false);
      continue;
    }
    work.pop_back();
    std::array<ExprRef, 3> kids;
    for (unsigned i = 0; i < e->numKids(); ++i) {
      const Expr *k = e->kid(i);
      kids[i] = k->mentionsAddress() ? memo_.at(k).second : ExprRef(k);
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
