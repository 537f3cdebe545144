// A register value: concrete bits, or a symbolic expression. Concrete values never allocate.
#pragma once

#include "cairn/expr/Expr.h"

#include <algorithm>
#include <string>

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
  // The value as an expression of `width` bits, which a symbolic value must already have: a
  // caller that asks for another width has mixed up its operands (a 32-bit size_t's argument
  // read as a 64-bit size), and is told so here, not by a solver's sort error later.
  ExprRef expr(ExprContext &ctx, unsigned width) const {
    if (!sym)
      return ctx.constant(bits, width);
    if (sym->width() != width) [[unlikely]]
      throw MalformedExpr("malformed expression: a " + std::to_string(sym->width()) + "-bit value used as " +
                          std::to_string(width) + " bits");
    return sym;
  }
  // The value zero-extended or truncated to `width` bits, from `from` bits (a concrete value's
  // width is not recorded).
  Value resized(ExprContext &ctx, unsigned from, unsigned width) const {
    if (!sym) {
      u128 mask = std::min(from, width) >= 128 ? ~u128(0) : (u128(1) << std::min(from, width)) - 1;
      return Value(bits & mask);
    }
    return Value(ctx.zextOrTrunc(sym, width));
  }
};

} // namespace cairn::engine
