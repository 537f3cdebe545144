// A host floating-point value's bits as the engine holds them (float 32, double 64, x87 long
// double 80 of its 16 bytes), and back: what the float tests compare the engine's results with.
#pragma once

#include "cairn/expr/Expr.h"

#include <cstring>
#include <type_traits>

namespace cairn::engine::unit {

template <typename F> constexpr unsigned widthOf() {
  return std::is_same_v<F, float> ? 32 : std::is_same_v<F, double> ? 64 : 80;
}

template <typename F> u128 bitsOf(F x) {
  u128 v = 0;
  std::memcpy(&v, &x, widthOf<F>() / 8);
  return v;
}

template <typename F> F valueOf(u128 bits) {
  F x{};
  std::memcpy(&x, &bits, widthOf<F>() / 8);
  return x;
}

} // namespace cairn::engine::unit
