// A register value: concrete bits, or a symbolic expression. Concrete values never allocate.
#pragma once

#include "cairn/expr/Expr.h"

namespace cairn::engine {

struct Value {
  u128 bits = 0;
  ExprRef sym; // null for a concrete value

  Value() = default;
  explicit Value(u128 b) : bits(b) {}
  explicit Value(ExprRef e) {
    if (e->isConstant())
      bits = e->value();
    else
      sym = std::move(e);
  }
  bool concrete() const { return !sym; }
  // The value as an expression of `width` bits.
  ExprRef expr(ExprContext &ctx, unsigned width) const {
    return sym ? sym : ctx.constant(bits, width);
  }
};

} // namespace cairn::engine
