// Whether an integer operation overflows, as LLVM's *.with.overflow intrinsics define it, at
// every width up to 128 bits, where no wider bit-vector exists to compute the exact result in.
#pragma once

#include "cairn/expr/Expr.h"

namespace cairn::engine {

// True when `a op b` (op: Add, Sub or Mul; both operands of one width) is not representable in
// that width, as signed or as unsigned numbers.
ExprRef overflowFlag(ExprContext &ctx, Kind op, bool isSigned, const ExprRef &a, const ExprRef &b);

} // namespace cairn::engine
