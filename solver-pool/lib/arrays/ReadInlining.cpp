#include "ReadInlining.h"

namespace cairn::arrays {

void ReadInlining::add(const ExprRef &variable, const WholeRead &whole) {
  valueOf_.emplace(variable.get(), whole.value);
  memo_.clear(); // what was rewritten before may hold the variable
}

ExprRef ReadInlining::apply(const ExprRef &e) {
  return valueOf_.empty() ? e : rewrite(e.get());
}

ExprRef ReadInlining::rewrite(const Expr *e) {
  if (auto it = memo_.find(e); it != memo_.end())
    return it->second;
  ExprRef out;
  if (auto v = valueOf_.find(e); v != valueOf_.end()) {
    out = rewrite(v->second.get()); // a value's index may hold another inlined read
  } else if (e->isArray() || e->numKids() == 0) {
    out = ExprRef(e);
  } else {
    ExprRef kids[3];
    bool changed = false;
    for (unsigned k = 0; k < e->numKids(); ++k) {
      kids[k] = rewrite(e->kid(k));
      changed |= kids[k].get() != e->kid(k);
    }
    out = changed ? e->context().build(e->kind(), std::span<const ExprRef>(kids, e->numKids()), e->width(), e->aux())
                  : ExprRef(e);
  }
  memo_.emplace(e, out);
  return out;
}

void ReadInlining::complete(Assignment &model) {
  for (const auto &[variable, value] : valueOf_)
    model.setScalar(variable->symbol(), evaluate(rewrite(variable).get(), model));
}

} // namespace cairn::arrays
