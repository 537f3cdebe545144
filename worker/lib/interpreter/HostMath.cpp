#include "interpreter/HostMath.h"

#include <array>
#include <cmath>

namespace cairn::engine {

namespace {

#define CAIRN_HOST_UNARY(name) {#name, 1, ::name##f, ::name, ::name##l, nullptr, nullptr, nullptr}
#define CAIRN_HOST_BINARY(name) {#name, 2, nullptr, nullptr, nullptr, ::name##f, ::name, ::name##l}
const std::array<HostMathFunction, 30> kFunctions = {{
    CAIRN_HOST_UNARY(sin),    CAIRN_HOST_UNARY(cos),    CAIRN_HOST_UNARY(tan),      CAIRN_HOST_UNARY(asin),
    CAIRN_HOST_UNARY(acos),   CAIRN_HOST_UNARY(atan),   CAIRN_HOST_UNARY(sinh),     CAIRN_HOST_UNARY(cosh),
    CAIRN_HOST_UNARY(tanh),   CAIRN_HOST_UNARY(asinh),  CAIRN_HOST_UNARY(acosh),    CAIRN_HOST_UNARY(atanh),
    CAIRN_HOST_UNARY(exp),    CAIRN_HOST_UNARY(exp2),   CAIRN_HOST_UNARY(expm1),    CAIRN_HOST_UNARY(log),
    CAIRN_HOST_UNARY(log2),   CAIRN_HOST_UNARY(log10),  CAIRN_HOST_UNARY(log1p),    CAIRN_HOST_UNARY(logb),
    CAIRN_HOST_UNARY(cbrt),   CAIRN_HOST_UNARY(erf),    CAIRN_HOST_UNARY(erfc),     CAIRN_HOST_UNARY(lgamma),
    CAIRN_HOST_UNARY(tgamma), CAIRN_HOST_BINARY(atan2), CAIRN_HOST_BINARY(pow),     CAIRN_HOST_BINARY(hypot),
    CAIRN_HOST_BINARY(remainder), CAIRN_HOST_BINARY(nextafter),
}};
#undef CAIRN_HOST_UNARY
#undef CAIRN_HOST_BINARY

} // namespace

std::span<const HostMathFunction> hostMathFunctions() { return kFunctions; }

const HostMathFunction *hostMathFunction(std::string_view name) {
  for (const HostMathFunction &h : kFunctions)
    if (h.name == name)
      return &h;
  return nullptr;
}

} // namespace cairn::engine
