// The C library's math functions that have no SMT meaning (sin, exp, pow, ...): the engine
// makes their arguments concrete and computes them. One table for the loader, which recognises
// them by name (loading/MathCallees.cpp), and for the interpreter, which calls the host's
// implementation for a program without the full libc (MathFunctions.cpp); the engine's replay
// links the same C library (glibc's libm), so both compute the same bits.
#pragma once

#include <span>
#include <string_view>

namespace cairn::engine {

struct HostMathFunction {
  std::string_view name; // the double version's; the f and l suffixes name the others
  unsigned arity;        // 1 or 2, every operand of the function's own type
  float (*f)(float);
  double (*d)(double);
  long double (*l)(long double);
  float (*f2)(float, float);
  double (*d2)(double, double);
  long double (*l2)(long double, long double);
};

std::span<const HostMathFunction> hostMathFunctions();
// The entry of a base name (without the suffix), or null.
const HostMathFunction *hostMathFunction(std::string_view name);

} // namespace cairn::engine
