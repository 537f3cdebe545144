#include "ReadInlining.h"

#include "cairn/expr/ExprRewrite.h"

namespace cairn::arrays {

void ReadInlining::add(const ExprRef &variable, const WholeRead &whole) {
  valueOf_.emplace(variable.get(), whole.value);
  memo_.clear(); // what was rewritten before may hold the variable
  applied_.clear();
}

ExprRef ReadInlining::apply(const ExprRef &e) {
  if (valueOf_.empty())
    return e;
  applied_.push_back(e);
  return rebuildWith(
      e->context(), e.get(),
      [&](const Expr *n, auto &&rebuild) -> ExprRef {
        if (n->isArray())
          return ExprRef(n); // known contents: no read's variable below
        auto v = valueOf_.find(n);
        return v == valueOf_.end() ? ExprRef() : rebuild(v->second.get()); // a value's index may hold another
      },
      memo_);
}

void ReadInlining::complete(Assignment &model) {
  for (const auto &[variable, value] : valueOf_)
    model.setScalar(variable->symbol(), evaluate(apply(ExprRef(variable)).get(), model));
}

} // namespace cairn::arrays
