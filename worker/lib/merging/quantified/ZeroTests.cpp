#include "merging/quantified/ZeroTests.h"

#include "cairn/expr/ExprUtil.h"

#include <map>
#include <vector>

namespace cairn::engine::quantified {

std::optional<ExprRef> zeroComparand(const Expr *e) {
  if (e->kind() == Kind::Eq && e->kid(0)->isZero() && e->kid(1)->width() > 1)
    return ExprRef(e->kid(1));
  if (e->kind() != Kind::And || e->width() != 1)
    return std::nullopt;
  // (0 = a[c]) ∧ (0 = a[c+1]) ∧ ...: the little-endian value a[c..c+n) equals 0.
  std::vector<ExprRef> parts;
  conjuncts(e, parts);
  const Expr *array = nullptr;
  std::map<u128, const Expr *> bytes;
  for (const ExprRef &part : parts) {
    const Expr *p = part.get();
    if (p->kind() != Kind::Eq || !p->kid(0)->isZero() || p->kid(1)->kind() != Kind::Select || p->kid(1)->width() != 8 ||
        !p->kid(1)->kid(1)->isConstant())
      return std::nullopt;
    const Expr *select = p->kid(1);
    if (array && select->kid(0) != array)
      return std::nullopt;
    array = select->kid(0);
    bytes.emplace(select->kid(1)->value(), select);
  }
  if (bytes.size() < 2 || bytes.size() != parts.size() || bytes.rbegin()->first - bytes.begin()->first + 1 != bytes.size())
    return std::nullopt;
  ExprContext &ctx = e->context();
  ExprRef value(bytes.begin()->second);
  for (auto it = std::next(bytes.begin()); it != bytes.end(); ++it)
    value = ctx.concat(ExprRef(it->second), value);
  return value;
}

} // namespace cairn::engine::quantified
