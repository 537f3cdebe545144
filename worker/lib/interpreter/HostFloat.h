// Floating-point instructions on concrete operands, computed with the host's arithmetic:
// float and double through double, x86_fp80 through the host's long double (the x87 format).
#pragma once

#include "cairn/engine/Program.h"

namespace cairn::engine {

// `op` on the bits of `a`, `b` and `c` (as many as it takes), whose width is `operandWidth`
// (32, 64 or 80, or an integer's width for FromSigned/FromUnsigned); the result is
// `resultWidth` bits wide.
u128 hostFloatOp(FloatOp op, unsigned operandWidth, unsigned resultWidth, u128 a, u128 b, u128 c);

} // namespace cairn::engine
