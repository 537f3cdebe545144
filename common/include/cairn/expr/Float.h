// Floating point in the expression language: the formats, and the one definition of what each
// floating-point kind computes, bit for bit.
//
// A float value is a bit-vector holding its encoding: IEEE-754 binary32 and binary64, and x87's
// 80-bit extended format for x86-64's long double (an explicit integer bit at bit 63). Nothing
// else in the language knows a value is a float; only the F* kinds read and make encodings.
//
// The semantics is the host's (x86-64, SSE for float and double, x87 for long double) wherever
// IEEE-754 leaves a choice, so that a test found symbolically replays natively:
// - Arithmetic rounds to nearest, ties to even.
// - A NaN result is the first NaN operand (in operand order), made quiet; with no NaN operand
//   (an invalid operation: 0/0, inf-inf, sqrt(-1), ...) it is the default NaN: sign set,
//   quiet bit set, the rest of the fraction zero. x87 encodings that are not valid numbers
//   (unnormals, pseudo-infinities and pseudo-NaNs) count as NaN operands and quiet to the
//   default NaN; pseudo-denormals are denormals.
// - FConvert keeps a NaN's sign and the top bits of its payload, made quiet.
// - FToSInt truncates toward zero. Results of 32 bits or fewer are converted at 32 bits and cut
//   (cvttsd2si), of 33 to 64 bits at 64 bits; out of range or NaN gives the "integer
//   indefinite", the most negative value of the conversion's width.
// - FToUInt, as clang lowers it: up to 16 bits a signed 32-bit conversion, up to 32 bits a
//   signed 64-bit one, cut; at 64 bits the signed conversion r, or'ed with the signed conversion
//   of x - 2^63 (in x's format) when r came out negative. Wider: in range, else 0.
// The solver translations implement exactly this, and the folder computes it with the host's
// arithmetic; tests hold the three to agree.
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>

namespace cairn {

enum class RoundingMode : uint8_t { NearestEven, NearestAway, Upward, Downward, TowardZero };

struct FloatFormat {
  unsigned width = 0;        // bits of the encoding: 32, 64 or 80
  unsigned exponentBits = 0; // 8, 11, 15
  unsigned fractionBits = 0; // stored fraction bits below the integer bit: 23, 52, 63
  bool explicitInteger = false; // x87: the integer bit is stored, at bit 63

  unsigned significandBits() const { return fractionBits + 1; } // SMT-LIB's sb
  unsigned interchangeWidth() const { return exponentBits + significandBits(); } // no integer bit
  u128 signBit() const { return u128(1) << (width - 1); }
  u128 exponentMask() const { return widthMask(exponentBits); } // after shifting down
  u128 fractionMask() const { return widthMask(fractionBits); }
  u128 quietBit() const { return u128(1) << (fractionBits - 1); }
  u128 integerBit() const { return explicitInteger ? u128(1) << fractionBits : 0; }
};

// The float format encoded in `width` bits (32, 64 or 80), or nothing.
std::optional<FloatFormat> floatFormat(unsigned width);
// The format of `width`, which must be a float width (MalformedExpr otherwise).
FloatFormat requireFloatFormat(unsigned width);

// Kinds whose result is a float encoding, and all floating-point kinds.
bool isFloatValued(Kind k);
bool isFloatKind(Kind k);
// How many operands a floating-point kind takes (1 to 3).
unsigned floatArity(Kind k);
// The width x86-64 converts a float to before cutting it to an integer of `width` bits: 32
// for 32 bits or fewer, 64 up to 64, the width itself beyond.
inline unsigned signedConversionWidth(unsigned width) { return width <= 32 ? 32 : width <= 64 ? 64 : width; }

// The encoding's fields.
inline unsigned biasedExponent(u128 bits, const FloatFormat &f) {
  return unsigned((bits >> (f.width - 1 - f.exponentBits)) & f.exponentMask());
}
// True for NaNs, and for the x87 encodings that are not numbers.
bool isNaNEncoding(u128 bits, const FloatFormat &f);
u128 defaultNaN(const FloatFormat &f);
// `bits`, a NaN encoding, made quiet (an x87 non-number becomes the default NaN).
u128 quietNaN(u128 bits, const FloatFormat &f);
// A NaN of format `from` as FConvert makes it in format `to`.
u128 convertNaN(u128 bits, const FloatFormat &from, const FloatFormat &to);
// The encoding of `value` (exactly representable in the format, or rounded to nearest).
u128 encodeFloat(long double value, const FloatFormat &f);
// The host's value of an encoding (exact: every float and double is a long double).
long double decodeFloat(u128 bits, const FloatFormat &f);

// The result of a floating-point kind on concrete operands. `width` is the node's width,
// `operandWidth` the first operand's, `aux` the node's aux (FRound's rounding mode).
u128 foldFloat(Kind kind, unsigned width, unsigned operandWidth, unsigned aux, u128 a, u128 b = 0,
               u128 c = 0);

} // namespace cairn
