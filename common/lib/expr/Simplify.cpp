// The simplifying builders: constant folding and canonicalisation at construction.
//
// Canonical forms the rest of Cairn may rely on:
//  - a constant operand of a commutative operation is on the left; otherwise operands are in
//    exprLess order;
//  - ne/ugt/uge/sgt/sge are expressed with eq/ult/ule/slt/sle (and not);
//  - a zero-extension is a ZExt, never a Concat with zero;
//  - x - c is (-c) + x.
#include "cairn/expr/Expr.h"
#include "cairn/expr/Fold.h"

#include <optional>
#include <string>

namespace cairn {

namespace {

bool isAllOnes(const ExprRef &e) {
  return e->isConstant() && e->value() == widthMask(e->width());
}

// `e` as base + offset (offset below kAddressCeiling): a pointer into the base's object or just
// past it, which no layout makes wrap.
bool asBasePlusOffset(const Expr *e, const Expr *&base, u128 &offset) {
  base = asBasePlusConstant(e, offset);
  return base && offset < kAddressCeiling;
}

// The comparison `kind` of two pointers into one object is the comparison of their offsets
// (signed or not: both sums stay below 2^63); nullopt for other operands.
std::optional<bool> compareWithinObject(Kind kind, const Expr *a, const Expr *b) {
  const Expr *baseA, *baseB;
  u128 offsetA, offsetB;
  if (!asBasePlusOffset(a, baseA, offsetA) || !asBasePlusOffset(b, baseB, offsetB) || baseA != baseB)
    return std::nullopt;
  switch (kind) {
  case Kind::Ult:
  case Kind::Slt: return offsetA < offsetB;
  default: return offsetA <= offsetB; // Ule, Sle
  }
}

[[noreturn]] void malformed(const char *op, const std::string &why) {
  throw MalformedExpr(std::string("malformed expression: ") + op + ": " + why);
}

// Checked in every build: one compare per construction, against a solver sort error later.
void require(bool ok, const char *op, const char *what) {
  if (!ok) [[unlikely]]
    malformed(op, what);
}

// Arrays are operands of eq and ite only (`arrays`).
void requireSameWidth(const char *op, const Expr *a, const Expr *b, bool arrays = false) {
  if (a->width() != b->width() || a->domainWidth() != b->domainWidth()) [[unlikely]]
    malformed(op, "operands of " + std::to_string(a->width()) + " and " + std::to_string(b->width()) +
                      " bits");
  if (!arrays && a->isArray()) [[unlikely]]
    malformed(op, "an array operand");
}

} // namespace

ExprRef ExprContext::foldBinary(Kind kind, const ExprRef &a, const ExprRef &b) {
  unsigned w = isComparison(kind) ? 1 : a->width();
  return constant(cairn::foldBinary(kind, a->value(), b->value(), a->width()), w);
}

// ---------------------------------------------------------------------------------------------
// Arrays

ExprRef ExprContext::select(const ExprRef &array, const ExprRef &index) {
  require(array->isArray() && index->width() == array->domainWidth(), "select", "an index that is not the array's");
  if (simplify_) {
    ExprRef a = array;
    // Read over write: skip stores to other constant indices, stop at one to this index.
    while (true) {
      if (a->kind() == Kind::ConstArray && index->isConstant())
        return constant(a->constArray()->at(index->value()), a->width());
      if (a->kind() != Kind::Store)
        break;
      const Expr *storeIndex = a->kid(1);
      if (storeIndex == index.get())
        return ExprRef(a->kid(2));
      if (storeIndex->isConstant() && index->isConstant())
        a = ExprRef(a->kid(0));
      else
        break;
    }
    return node(Kind::Select, array->width(), a, index);
  }
  return node(Kind::Select, array->width(), array, index);
}

ExprRef ExprContext::store(const ExprRef &array, const ExprRef &index, const ExprRef &value) {
  require(array->isArray() && index->width() == array->domainWidth() && value->width() == array->width(),
          "store", "an index or value that is not the array's");
  if (simplify_ && array->kind() == Kind::Store && array->kid(1) == index.get())
    return store(ExprRef(array->kid(0)), index, value); // the older write is dead
  return node(Kind::Store, array->width(), array, index, value);
}

// ---------------------------------------------------------------------------------------------
// Structure

ExprRef ExprContext::concat(const ExprRef &high, const ExprRef &low) {
  const unsigned w = high->width() + low->width();
  require(w <= 128 && !high->isArray() && !low->isArray(), "concat", "wider than 128 bits");
  if (simplify_) {
    if (high->isConstant() && low->isConstant())
      return constant((high->value() << low->width()) | low->value(), w);
    if (high->isZero())
      return zext(low, w);
    // Adjacent slices of one value join back together.
    auto joinable = [](const Expr *h, const Expr *l) {
      return h->kind() == Kind::Extract && l->kind() == Kind::Extract && h->kid(0) == l->kid(0) &&
             h->extractOffset() == l->extractOffset() + l->width();
    };
    if (joinable(high.get(), low.get()))
      return extract(ExprRef(low->kid(0)), low->extractOffset(), w);
    if (low->kind() == Kind::Concat && joinable(high.get(), low->kid(0))) {
      const Expr *mid = low->kid(0);
      return concat(extract(ExprRef(mid->kid(0)), mid->extractOffset(),
                            high->width() + mid->width()),
                    ExprRef(low->kid(1)));
    }
  }
  return node(Kind::Concat, w, high, low);
}

ExprRef ExprContext::extract(const ExprRef &e, unsigned offset, unsigned width) {
  require(width >= 1 && offset + width <= e->width() && !e->isArray(), "extract", "bits past the operand");
  if (simplify_) {
    if (offset == 0 && width == e->width())
      return e;
    if (e->isConstant())
      return constant(foldUnary(Kind::Extract, e->value(), e->width(), width, offset), width);
    switch (e->kind()) {
    case Kind::Extract: return extract(ExprRef(e->kid(0)), e->extractOffset() + offset, width);
    case Kind::Concat: {
      const Expr *hi = e->kid(0), *lo = e->kid(1);
      if (offset + width <= lo->width())
        return extract(ExprRef(lo), offset, width);
      if (offset >= lo->width())
        return extract(ExprRef(hi), offset - lo->width(), width);
      break;
    }
    case Kind::ZExt: {
      const Expr *inner = e->kid(0);
      if (offset + width <= inner->width())
        return extract(ExprRef(inner), offset, width);
      if (offset >= inner->width())
        return constant(0, width);
      break;
    }
    case Kind::SExt: {
      const Expr *inner = e->kid(0);
      if (offset + width <= inner->width())
        return extract(ExprRef(inner), offset, width);
      break;
    }
    default: break;
    }
  }
  return node(Kind::Extract, width, e, {}, {}, offset);
}

ExprRef ExprContext::zext(const ExprRef &e, unsigned width) {
  require(width >= e->width() && width <= 128 && !e->isArray(), "zext", "a narrowing");
  if (simplify_) {
    if (width == e->width())
      return e;
    if (e->isConstant())
      return constant(e->value(), width);
    if (e->kind() == Kind::ZExt)
      return zext(ExprRef(e->kid(0)), width);
  }
  return node(Kind::ZExt, width, e);
}

ExprRef ExprContext::sext(const ExprRef &e, unsigned width) {
  require(width >= e->width() && width <= 128 && !e->isArray(), "sext", "a narrowing");
  if (simplify_) {
    if (width == e->width())
      return e;
    if (e->isConstant())
      return constant(foldUnary(Kind::SExt, e->value(), e->width(), width), width);
    if (e->kind() == Kind::SExt)
      return sext(ExprRef(e->kid(0)), width);
    if (e->kind() == Kind::ZExt) // the sign bit of a true widening is zero
      return zext(ExprRef(e->kid(0)), width);
  }
  return node(Kind::SExt, width, e);
}

ExprRef ExprContext::zextOrTrunc(const ExprRef &e, unsigned width) {
  return width <= e->width() ? extract(e, 0, width) : zext(e, width);
}

ExprRef ExprContext::sextOrTrunc(const ExprRef &e, unsigned width) {
  return width <= e->width() ? extract(e, 0, width) : sext(e, width);
}

// ---------------------------------------------------------------------------------------------
// Arithmetic

ExprRef ExprContext::add(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("add", a.get(), b.get());
  if (!simplify_)
    return node(Kind::Add, a->width(), a, b);
  return simplifyAdd(a, b);
}

ExprRef ExprContext::addConstant(const ExprRef &a, u128 c) {
  const unsigned w = a->width();
  u128 offset;
  const Expr *base = simplify_ && w > 1 ? asBasePlusConstant(a.get(), offset) : nullptr;
  if (!base)
    return add(a, constant(c & widthMask(w), w));
  c = (c + offset) & widthMask(w);
  if (c == 0)
    return ExprRef(base);
  return basePlusConstant(base, c);
}

ExprRef ExprContext::simplifyAdd(const ExprRef &x, const ExprRef &y) {
  ExprRef a = x, b = y;
  if (b->isConstant() || (!a->isConstant() && exprLess(b.get(), a.get())))
    std::swap(a, b);
  if (a->isConstant()) {
    if (b->isConstant())
      return foldBinary(Kind::Add, a, b);
    if (a->isZero())
      return b;
    if (a->width() == 1)
      return bvxor(a, b);
    // c1 + (c2 + z) = (c1 + c2) + z
    if (b->kind() == Kind::Add && b->kid(0)->isConstant())
      return add(foldBinary(Kind::Add, a, ExprRef(b->kid(0))), ExprRef(b->kid(1)));
    // c1 + (c2 - z) = (c1 + c2) - z
    if (b->kind() == Kind::Sub && b->kid(0)->isConstant())
      return sub(foldBinary(Kind::Add, a, ExprRef(b->kid(0))), ExprRef(b->kid(1)));
    return node(Kind::Add, a->width(), a, b);
  }
  if (a->width() == 1)
    return bvxor(a, b);
  // Constants float to the top: (c + u) + v = c + (u + v).
  if (a->kind() == Kind::Add && a->kid(0)->isConstant())
    return add(ExprRef(a->kid(0)), add(ExprRef(a->kid(1)), b));
  if (b->kind() == Kind::Add && b->kid(0)->isConstant())
    return add(ExprRef(b->kid(0)), add(a, ExprRef(b->kid(1))));
  return node(Kind::Add, a->width(), a, b);
}

ExprRef ExprContext::sub(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("sub", a.get(), b.get());
  if (simplify_) {
    if (a->isConstant() && b->isConstant())
      return foldBinary(Kind::Sub, a, b);
    if (a == b)
      return constant(0, a->width());
    if (a->width() == 1)
      return bvxor(a, b);
    if (b->isConstant()) // x - c = (-c) + x
      return add(constant(cairn::foldBinary(Kind::Sub, 0, b->value(), b->width()), b->width()), a);
    // c1 - (c2 + z) = (c1 - c2) - z
    if (a->isConstant() && b->kind() == Kind::Add && b->kid(0)->isConstant())
      return sub(foldBinary(Kind::Sub, a, ExprRef(b->kid(0))), ExprRef(b->kid(1)));
    // (c1 + z) - (c2 + z) = c1 - c2: two pointers into one object of a symbolic base
    if (a->kind() == Kind::Add && b->kind() == Kind::Add && a->kid(0)->isConstant() &&
        b->kid(0)->isConstant() && a->kid(1) == b->kid(1))
      return foldBinary(Kind::Sub, ExprRef(a->kid(0)), ExprRef(b->kid(0)));
    // (c + z) - z = c, and z - (c + z) = -c
    if (a->kind() == Kind::Add && a->kid(0)->isConstant() && a->kid(1) == b.get())
      return ExprRef(a->kid(0));
    if (b->kind() == Kind::Add && b->kid(0)->isConstant() && b->kid(1) == a.get())
      return constant(cairn::foldBinary(Kind::Sub, 0, b->kid(0)->value(), a->width()),
                      a->width());
  }
  return node(Kind::Sub, a->width(), a, b);
}

ExprRef ExprContext::neg(const ExprRef &a) { return sub(constant(0, a->width()), a); }

ExprRef ExprContext::mul(const ExprRef &x, const ExprRef &y) {
  requireSameWidth("mul", x.get(), y.get());
  if (!simplify_)
    return node(Kind::Mul, x->width(), x, y);
  ExprRef a = x, b = y;
  if (b->isConstant() || (!a->isConstant() && exprLess(b.get(), a.get())))
    std::swap(a, b);
  if (a->isConstant()) {
    if (b->isConstant())
      return foldBinary(Kind::Mul, a, b);
    if (a->isZero())
      return a;
    if (a->value() == 1)
      return b;
    if (b->kind() == Kind::Mul && b->kid(0)->isConstant())
      return mul(foldBinary(Kind::Mul, a, ExprRef(b->kid(0))), ExprRef(b->kid(1)));
  }
  if (a->width() == 1)
    return bvand(a, b);
  return node(Kind::Mul, a->width(), a, b);
}

ExprRef ExprContext::divRem(Kind kind, const ExprRef &a, const ExprRef &b) {
  requireSameWidth(kindName(kind), a.get(), b.get());
  if (simplify_) {
    if (a->isConstant() && b->isConstant())
      return foldBinary(kind, a, b);
    if (b->isConstant() && b->value() == 1) // x / 1 = x, x % 1 = 0
      return kind == Kind::UDiv || kind == Kind::SDiv ? a : constant(0, a->width());
  }
  return node(kind, a->width(), a, b);
}

ExprRef ExprContext::udiv(const ExprRef &a, const ExprRef &b) { return divRem(Kind::UDiv, a, b); }
ExprRef ExprContext::sdiv(const ExprRef &a, const ExprRef &b) { return divRem(Kind::SDiv, a, b); }
ExprRef ExprContext::urem(const ExprRef &a, const ExprRef &b) { return divRem(Kind::URem, a, b); }
ExprRef ExprContext::srem(const ExprRef &a, const ExprRef &b) { return divRem(Kind::SRem, a, b); }

// ---------------------------------------------------------------------------------------------
// Bitwise

ExprRef ExprContext::bvnot(const ExprRef &a) {
  if (simplify_) {
    if (a->isConstant())
      return constant(foldUnary(Kind::Not, a->value(), a->width(), a->width()), a->width());
    if (a->kind() == Kind::Not)
      return ExprRef(a->kid(0));
    // !(x < y) = y <= x, and !(x <= y) = y < x.
    switch (a->kind()) {
    case Kind::Ult: return ule(ExprRef(a->kid(1)), ExprRef(a->kid(0)));
    case Kind::Ule: return ult(ExprRef(a->kid(1)), ExprRef(a->kid(0)));
    case Kind::Slt: return sle(ExprRef(a->kid(1)), ExprRef(a->kid(0)));
    case Kind::Sle: return slt(ExprRef(a->kid(1)), ExprRef(a->kid(0)));
    default: break;
    }
  }
  return node(Kind::Not, a->width(), a);
}

ExprRef ExprContext::bvand(const ExprRef &x, const ExprRef &y) {
  requireSameWidth("bvand", x.get(), y.get());
  if (!simplify_)
    return node(Kind::And, x->width(), x, y);
  ExprRef a = x, b = y;
  if (b->isConstant() || (!a->isConstant() && exprLess(b.get(), a.get())))
    std::swap(a, b);
  if (a->isConstant()) {
    if (b->isConstant())
      return foldBinary(Kind::And, a, b);
    if (a->isZero())
      return a;
    if (isAllOnes(a))
      return b;
  }
  if (a == b)
    return a;
  if ((a->kind() == Kind::Not && a->kid(0) == b.get()) ||
      (b->kind() == Kind::Not && b->kid(0) == a.get()))
    return constant(0, a->width());
  return node(Kind::And, a->width(), a, b);
}

ExprRef ExprContext::bvor(const ExprRef &x, const ExprRef &y) {
  requireSameWidth("bvor", x.get(), y.get());
  if (!simplify_)
    return node(Kind::Or, x->width(), x, y);
  ExprRef a = x, b = y;
  if (b->isConstant() || (!a->isConstant() && exprLess(b.get(), a.get())))
    std::swap(a, b);
  if (a->isConstant()) {
    if (b->isConstant())
      return foldBinary(Kind::Or, a, b);
    if (a->isZero())
      return b;
    if (isAllOnes(a))
      return a;
  }
  if (a == b)
    return a;
  if ((a->kind() == Kind::Not && a->kid(0) == b.get()) ||
      (b->kind() == Kind::Not && b->kid(0) == a.get()))
    return constant(widthMask(a->width()), a->width());
  return node(Kind::Or, a->width(), a, b);
}

ExprRef ExprContext::bvxor(const ExprRef &x, const ExprRef &y) {
  requireSameWidth("bvxor", x.get(), y.get());
  if (!simplify_)
    return node(Kind::Xor, x->width(), x, y);
  ExprRef a = x, b = y;
  if (b->isConstant() || (!a->isConstant() && exprLess(b.get(), a.get())))
    std::swap(a, b);
  if (a->isConstant()) {
    if (b->isConstant())
      return foldBinary(Kind::Xor, a, b);
    if (a->isZero())
      return b;
    if (isAllOnes(a))
      return bvnot(b);
  }
  if (a == b)
    return constant(0, a->width());
  return node(Kind::Xor, a->width(), a, b);
}

// Shifts by a constant: x << 0 = x, and shifting every bit out (shl, lshr) gives 0.
ExprRef ExprContext::logicalShift(Kind kind, const ExprRef &a, const ExprRef &b) {
  requireSameWidth(kindName(kind), a.get(), b.get());
  if (simplify_ && b->isConstant()) {
    if (a->isConstant())
      return foldBinary(kind, a, b);
    if (b->isZero())
      return a;
    if (b->value() >= a->width())
      return constant(0, a->width());
  }
  return node(kind, a->width(), a, b);
}

ExprRef ExprContext::shl(const ExprRef &a, const ExprRef &b) { return logicalShift(Kind::Shl, a, b); }
ExprRef ExprContext::lshr(const ExprRef &a, const ExprRef &b) {
  return logicalShift(Kind::LShr, a, b);
}

ExprRef ExprContext::ashr(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("ashr", a.get(), b.get());
  if (simplify_ && b->isConstant()) {
    if (a->isConstant())
      return foldBinary(Kind::AShr, a, b);
    if (b->isZero())
      return a;
  }
  return node(Kind::AShr, a->width(), a, b);
}

// ---------------------------------------------------------------------------------------------
// Comparisons

ExprRef ExprContext::eq(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("eq", a.get(), b.get(), true);
  if (!simplify_)
    return node(Kind::Eq, 1, a, b);
  return simplifyEq(a, b);
}

ExprRef ExprContext::simplifyEq(const ExprRef &x, const ExprRef &y) {
  ExprRef a = x, b = y;
  if (b->isConstant() || (!a->isConstant() && exprLess(b.get(), a.get())))
    std::swap(a, b);
  if (a == b)
    return trueExpr();
  if (!a->isConstant())
    return node(Kind::Eq, 1, a, b);
  if (b->isConstant())
    return foldBinary(Kind::Eq, a, b);
  const unsigned w = a->width();
  const u128 c = a->value();
  if (w == 1)
    return c ? b : bvnot(b);
  if (b->isAddressSymbol() && (c < kAddressFloor || c >= kAddressCeiling))
    return falseExpr(); // e.g. a null check: base + offset == 0 became base == -offset
  switch (b->kind()) {
  case Kind::Add: // c1 == c2 + z  <=>  c1 - c2 == z
    if (b->kid(0)->isConstant())
      return eq(foldBinary(Kind::Sub, a, ExprRef(b->kid(0))), ExprRef(b->kid(1)));
    break;
  case Kind::Xor:
    if (b->kid(0)->isConstant())
      return eq(foldBinary(Kind::Xor, a, ExprRef(b->kid(0))), ExprRef(b->kid(1)));
    break;
  case Kind::ZExt: {
    const Expr *inner = b->kid(0);
    if (c > widthMask(inner->width()))
      return falseExpr();
    return eq(constant(c, inner->width()), ExprRef(inner));
  }
  case Kind::SExt: {
    const Expr *inner = b->kid(0);
    u128 low = c & widthMask(inner->width());
    if (foldUnary(Kind::SExt, low, inner->width(), w) != c)
      return falseExpr();
    return eq(constant(low, inner->width()), ExprRef(inner));
  }
  case Kind::Concat: {
    const Expr *hi = b->kid(0), *lo = b->kid(1);
    return bvand(eq(constant(c >> lo->width(), hi->width()), ExprRef(hi)),
                 eq(constant(c, lo->width()), ExprRef(lo)));
  }
  default: break;
  }
  return node(Kind::Eq, 1, a, b);
}

ExprRef ExprContext::ne(const ExprRef &a, const ExprRef &b) { return bvnot(eq(a, b)); }

ExprRef ExprContext::ult(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("ult", a.get(), b.get());
  if (simplify_) {
    if (a->isConstant() && b->isConstant())
      return foldBinary(Kind::Ult, a, b);
    if (std::optional<bool> r = compareWithinObject(Kind::Ult, a.get(), b.get()))
      return boolean(*r);
    if (a == b || b->isZero() || isAllOnes(a))
      return falseExpr();
    if (a->width() == 1) // a < b  <=>  !a & b
      return bvand(bvnot(a), b);
    if (a->isZero()) // 0 < b  <=>  b != 0
      return bvnot(eq(a, b));
  }
  return node(Kind::Ult, 1, a, b);
}

ExprRef ExprContext::ule(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("ule", a.get(), b.get());
  if (simplify_) {
    if (a->isConstant() && b->isConstant())
      return foldBinary(Kind::Ule, a, b);
    if (std::optional<bool> r = compareWithinObject(Kind::Ule, a.get(), b.get()))
      return boolean(*r);
    if (a == b || a->isZero() || isAllOnes(b))
      return trueExpr();
    if (a->width() == 1) // a <= b  <=>  !a | b
      return bvor(bvnot(a), b);
    if (b->isZero())
      return eq(b, a);
  }
  return node(Kind::Ule, 1, a, b);
}

ExprRef ExprContext::slt(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("slt", a.get(), b.get());
  if (simplify_) {
    if (a->isConstant() && b->isConstant())
      return foldBinary(Kind::Slt, a, b);
    if (std::optional<bool> r = compareWithinObject(Kind::Slt, a.get(), b.get()))
      return boolean(*r);
    if (a == b)
      return falseExpr();
    if (a->width() == 1) // as signed 1-bit values, 1 is -1: a < b  <=>  a & !b
      return bvand(a, bvnot(b));
  }
  return node(Kind::Slt, 1, a, b);
}

ExprRef ExprContext::sle(const ExprRef &a, const ExprRef &b) {
  requireSameWidth("sle", a.get(), b.get());
  if (simplify_) {
    if (a->isConstant() && b->isConstant())
      return foldBinary(Kind::Sle, a, b);
    if (std::optional<bool> r = compareWithinObject(Kind::Sle, a.get(), b.get()))
      return boolean(*r);
    if (a == b)
      return trueExpr();
    if (a->width() == 1) // a <= b  <=>  a | !b
      return bvor(a, bvnot(b));
  }
  return node(Kind::Sle, 1, a, b);
}

ExprRef ExprContext::ite(const ExprRef &c, const ExprRef &t, const ExprRef &f) {
  require(c->isBool(), "ite", "a condition that is not boolean");
  requireSameWidth("ite", t.get(), f.get(), true);
  if (simplify_) {
    if (c->isConstant())
      return c->value() ? t : f;
    if (t == f)
      return t;
    if (c->kind() == Kind::Not)
      return ite(ExprRef(c->kid(0)), f, t);
    if (t->isBool()) {
      if (t->isConstant())
        return t->value() ? bvor(c, f) : bvand(bvnot(c), f);
      if (f->isConstant())
        return f->value() ? bvor(bvnot(c), t) : bvand(c, t);
    }
  }
  return node(Kind::Ite, t->width(), c, t, f);
}

ExprRef ExprContext::forall(const ExprRef &bound, const ExprRef &body) {
  require(bound->kind() == Kind::Symbol && body->isBool(), "forall", "a bound that is not a variable or a body that is not boolean");
  if (simplify_ && body->isConstant())
    return body;
  return node(Kind::Forall, 1, bound, body);
}

ExprRef ExprContext::exists(const ExprRef &bound, const ExprRef &body) {
  require(bound->kind() == Kind::Symbol && body->isBool(), "exists", "a bound that is not a variable or a body that is not boolean");
  if (simplify_ && body->isConstant())
    return body;
  return node(Kind::Exists, 1, bound, body);
}

} // namespace cairn
