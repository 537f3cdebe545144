// The floating-point builders: operand checks, and folding of constant operands through the
// semantics of Float.h.
#include "cairn/expr/Expr.h"
#include "cairn/expr/ExprContext.h"
#include "cairn/expr/Float.h"

#include <string>

namespace cairn {

namespace {

[[noreturn]] void malformed(Kind kind, const std::string &why) {
  throw MalformedExpr(std::string(kindName(kind)) + ": " + why);
}

} // namespace

ExprRef ExprContext::floatOp(Kind kind, std::span<const ExprRef> kids, unsigned width, unsigned aux) {
  if (!isFloatKind(kind))
    malformed(kind, "not a floating-point kind");
  if (kids.size() != floatArity(kind))
    malformed(kind, "wrong number of operands");
  for (const ExprRef &k : kids)
    if (!k || k->isArray())
      malformed(kind, "operands must be bit-vectors");
  const unsigned operandWidth = kids[0]->width();
  const bool takesInteger = kind == Kind::SIntToF || kind == Kind::UIntToF;
  if (!takesInteger)
    requireFloatFormat(operandWidth);
  for (const ExprRef &k : kids)
    if (k->width() != operandWidth)
      malformed(kind, "operands of different widths");
  switch (kind) {
  case Kind::FOeq:
  case Kind::FOlt:
  case Kind::FOle: width = 1; break;
  case Kind::FToSInt:
  case Kind::FToUInt:
    if (width < 1 || width > 128)
      malformed(kind, "integer width " + std::to_string(width));
    break;
  case Kind::FConvert:
  case Kind::SIntToF:
  case Kind::UIntToF: requireFloatFormat(width); break;
  default: width = operandWidth; break;
  }
  if (kind == Kind::FRound) {
    if (aux > unsigned(RoundingMode::TowardZero))
      malformed(kind, "rounding mode " + std::to_string(aux));
  } else if (aux != 0) {
    malformed(kind, "takes no auxiliary operand");
  }
  if (kind == Kind::FConvert && width == operandWidth)
    malformed(kind, "converts to its own format");

  bool allConstant = true;
  for (const ExprRef &k : kids)
    allConstant &= k->isConstant();
  if (simplify_ && allConstant) {
    const u128 a = kids[0]->value(), b = kids.size() > 1 ? kids[1]->value() : 0,
               c = kids.size() > 2 ? kids[2]->value() : 0;
    return constant(foldFloat(kind, width, operandWidth, aux, a, b, c), width);
  }
  return node(kind, width, kids[0], kids.size() > 1 ? kids[1] : ExprRef(),
              kids.size() > 2 ? kids[2] : ExprRef(), aux);
}

} // namespace cairn
