// Bit-vector semantics on concrete values, shared by constant folding and evaluation.
// Division by zero and over-wide shifts follow SMT-LIB, so folding agrees with the solvers.
#pragma once

#include "cairn/expr/Expr.h"

namespace cairn {

// The result of a binary bit-vector operation on `width`-bit operands. Comparisons return 0/1.
u128 foldBinary(Kind kind, u128 a, u128 b, unsigned width);

// Unary operations: Not, ZExt/SExt to `toWidth`, Extract of `toWidth` bits from `offset`.
u128 foldUnary(Kind kind, u128 a, unsigned width, unsigned toWidth, unsigned offset = 0);

} // namespace cairn
