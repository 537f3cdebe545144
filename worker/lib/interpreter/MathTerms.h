// musl's math functions with an SMT meaning beyond one instruction, as floating-point terms
// (cairn/expr/Float.h): each follows musl's C code case for case, its NaN, zero and subnormal
// branches as ite terms instead of forks, its multiplications by the same constants, so that
// the terms compute musl's bits. The operands' width is the format (32, 64 or 80).
#pragma once

#include "cairn/expr/Expr.h"

#include <utility>

namespace cairn::engine {

// fmin and fmax: a NaN operand gives the other one; of two zeros, fmin is the negative one.
ExprRef minMaxTerm(ExprContext &ctx, bool max, const ExprRef &x, const ExprRef &y);

// fdim: x - y when x > y, else +0; a NaN operand is returned as it is.
ExprRef positiveDifferenceTerm(ExprContext &ctx, const ExprRef &x, const ExprRef &y);

// ldexp and scalbn: x * 2^n with one rounding, n a signed integer of up to 64 bits.
ExprRef scaledTerm(ExprContext &ctx, const ExprRef &x, const ExprRef &n);

// frexp: the fraction in [0.5, 1) with x's sign, and the exponent (32 bits); zero gives
// exponent 0; infinities and NaNs are returned as they are, with the exponent not written
// (keepsExponent: musl leaves *e as it was).
struct FrexpTerms {
  ExprRef fraction, exponent, keepsExponent;
};
FrexpTerms frexpTerms(ExprContext &ctx, const ExprRef &x);

// modf: {the fraction, the integral part (toward zero)}, each with x's sign; a NaN is both
// parts, an infinity is itself and a zero of its sign.
std::pair<ExprRef, ExprRef> modfTerms(ExprContext &ctx, const ExprRef &x);

} // namespace cairn::engine
