// Bit-vector semantics on concrete values, shared by constant folding and evaluation.
// Division by zero and over-wide shifts follow SMT-LIB, so folding agrees with the solvers.
#pragma once

#include "cairn/expr/Expr.h"

namespace cairn {

// Any binary operation in 128-bit arithmetic (foldBinary's general case).
u128 foldBinaryWide(Kind kind, u128 a, u128 b, unsigned width);

// The result of a binary bit-vector operation on `width`-bit operands. Comparisons return 0/1.
// Inline, with the common operations at 64 bits or fewer in native arithmetic: the interpreter
// folds every concrete operation of a program through here.
inline u128 foldBinary(Kind kind, u128 a, u128 b, unsigned width) {
  if (width <= 64) {
    const uint64_t x = uint64_t(a), y = uint64_t(b), m = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    switch (kind) {
    case Kind::Add: return (x + y) & m;
    case Kind::Sub: return (x - y) & m;
    case Kind::Mul: return (x * y) & m;
    case Kind::And: return x & y;
    case Kind::Or: return x | y;
    case Kind::Xor: return x ^ y;
    case Kind::Shl: return y >= width ? 0 : (x << y) & m;
    case Kind::LShr: return y >= width ? 0 : x >> y;
    case Kind::Eq: return x == y;
    case Kind::Ult: return x < y;
    case Kind::Ule: return x <= y;
    case Kind::Slt:
    case Kind::Sle: { // signed order is unsigned order with the sign bits flipped
      const uint64_t sign = uint64_t(1) << (width - 1);
      return kind == Kind::Slt ? (x ^ sign) < (y ^ sign) : (x ^ sign) <= (y ^ sign);
    }
    default: break;
    }
  }
  return foldBinaryWide(kind, a, b, width);
}

// Unary operations: Not, ZExt/SExt to `toWidth`, Extract of `toWidth` bits from `offset`.
u128 foldUnary(Kind kind, u128 a, unsigned width, unsigned toWidth, unsigned offset = 0);

} // namespace cairn
