// The program's floating-point instructions (FloatOp) in the expression language's floating-
// point kinds (cairn/expr/Float.h, one semantics for folding and for the solvers): on concrete
// bits with no allocation, and as expressions when an operand is symbolic.
#pragma once

#include "cairn/engine/Program.h"
#include "cairn/engine/Value.h"

#include <span>

namespace cairn::engine {

// `op` on the bits of `a`, `b` and `c` (as many as it takes), whose width is `operandWidth`
// (32, 64 or 80, or an integer's width for FromSigned/FromUnsigned); the result is
// `resultWidth` bits wide.
u128 floatOnBits(FloatOp op, unsigned operandWidth, unsigned resultWidth, u128 a, u128 b, u128 c);

// The same on expressions (unused operands may be null).
ExprRef floatOnExprs(ExprContext &ctx, FloatOp op, unsigned operandWidth, unsigned resultWidth, const ExprRef &a,
                     const ExprRef &b, const ExprRef &c);

// The same on values (as many as `op` takes): on their bits when all are concrete, else as an
// expression.
Value floatOnValues(ExprContext &ctx, FloatOp op, unsigned operandWidth, unsigned resultWidth,
                    std::span<const Value> operands);

} // namespace cairn::engine
