// The translation of Cairn expressions into solver terms, written once for every backend
// (private to solver-pool/lib; no solver headers). The translator walks a query's expression
// DAG and decides, for each expression kind, which terms make it; a backend's TermBuilder
// supplies only the constructors of those terms.
#pragma once

#include "BackendUtil.h"
#include "ConstArrayReads.h"
#include "FloatTranslation.h"
#include "TermMemo.h"
#include "cairn/expr/Expr.h"

#include <concepts>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cairn::backend {

// The order in which a backend makes the terms of a node's operands (their constants and
// Bool/bit-vector conversions). A solver numbers terms as they are made and its models follow
// that numbering, so each backend keeps the order it has always had: Z3's came from the
// right-to-left argument evaluation of GCC, cvc5's from braced lists.
enum class OperandOrder { LeftToRight, RightToLeft };

// The term constructors of a backend. Bit-vector operands and results are of equal widths
// unless said otherwise; Bool-valued constructors take and make Bool terms.
template <class B>
concept TermBuilder = requires(B b, const typename B::Term &t, const SymbolDecl *s, u128 v,
                               unsigned n, bool flag, FpOp op, RoundingMode rm,
                               std::initializer_list<typename B::Term> ts, FpSort fs) {
  typename B::Term;
  { B::kOperandOrder } -> std::convertible_to<OperandOrder>;
  { b.mkBool(flag) } -> std::same_as<typename B::Term>;
  { b.mkBv(v, n) } -> std::same_as<typename B::Term>; // `v` modulo 2^n, width n
  { b.mkSymbol(s) } -> std::same_as<typename B::Term>; // the same term for the same declaration
  { b.mkConstArray(n, n, v) } -> std::same_as<typename B::Term>; // domain width, width, value
  { b.mkStore(t, t, t) } -> std::same_as<typename B::Term>;
  { b.mkSelect(t, t) } -> std::same_as<typename B::Term>;
  { b.mkConcat(t, t) } -> std::same_as<typename B::Term>;
  { b.mkExtract(n, n, t) } -> std::same_as<typename B::Term>; // bits hi..lo
  { b.mkZeroExt(n, t) } -> std::same_as<typename B::Term>;    // by n bits
  { b.mkSignExt(n, t) } -> std::same_as<typename B::Term>;
  { b.mkBvAdd(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvSub(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvMul(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvUDiv(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvSDiv(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvURem(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvSRem(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvShl(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvLShr(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvAShr(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvNot(t) } -> std::same_as<typename B::Term>;
  { b.mkBvAnd(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvOr(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvXor(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvUlt(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvUle(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvSlt(t, t) } -> std::same_as<typename B::Term>;
  { b.mkBvSle(t, t) } -> std::same_as<typename B::Term>;
  { b.mkNot(t) } -> std::same_as<typename B::Term>;
  { b.mkAnd(t, t) } -> std::same_as<typename B::Term>;
  { b.mkOr(t, t) } -> std::same_as<typename B::Term>;
  { b.mkXor(t, t) } -> std::same_as<typename B::Term>;
  { b.mkEq(t, t) } -> std::same_as<typename B::Term>; // of any sort
  { b.mkIte(t, t, t) } -> std::same_as<typename B::Term>;
  { b.boolToBv(t) } -> std::same_as<typename B::Term>; // #b1 / #b0
  { b.bvToBool(t) } -> std::same_as<typename B::Term>; // = #b1
  // A quantifier over the symbol `s`, whose constant `t` stands for it in the body: the
  // variable the quantifier binds; the body with the constant replaced by that variable; the
  // quantifier (forall when `flag`) of variable and body.
  { b.boundVariable(t, s) } -> std::same_as<typename B::Term>;
  { b.abstractBound(t, t, t) } -> std::same_as<typename B::Term>; // (body, constant, variable)
  { b.mkQuantifier(flag, t, t) } -> std::same_as<typename B::Term>; // (forall, variable, body)
  // Floating point (FloatTranslation.h): an FP operation on FP terms (or on a bit-vector for
  // FromSigned/FromUnsigned), with the rounding mode where it takes one, the result sort `fs`
  // where it makes a float and the width `n` where it makes a bit-vector; Bool-valued for the
  // comparisons and tests.
  { b.mkFp(op, rm, ts, fs, n) } -> std::same_as<typename B::Term>;
  { b.mkFpFromBits(t, fs) } -> std::same_as<typename B::Term>; // the interchange encoding's value
  { b.mkFpToBits(t, fs) } -> std::same_as<typename B::Term>;   // its encoding (unspecified for NaN)
  { b.mkFpNaN(fs) } -> std::same_as<typename B::Term>;
};

// Whether the backends translate a width-1 node to a Bool term (true) or to a 1-bit
// bit-vector (false). Either form is converted to the other where a use needs it.
inline bool naturallyBool(const Expr *e) {
  if (!e->isBool())
    return false;
  switch (e->kind()) {
  case Kind::Not:
  case Kind::And:
  case Kind::Or:
  case Kind::Xor:
  case Kind::Eq:
  case Kind::Ult:
  case Kind::Ule:
  case Kind::Slt:
  case Kind::Sle:
  case Kind::Ite:
  case Kind::Forall:
  case Kind::Exists:
  case Kind::FOeq:
  case Kind::FOlt:
  case Kind::FOle:
    return true;
  default:
    return false;
  }
}

// Translates the expressions of one query; the memo is keyed by node and lives for the query.
template <TermBuilder B> class ExprTranslator {
public:
  using Term = typename B::Term;

  explicit ExprTranslator(B &builder) : b_(builder) {}

  // The term of a width-1 expression as a Bool.
  Term asBool(const Expr *e) {
    if (e->kind() == Kind::Constant)
      return b_.mkBool(e->value() != 0);
    Term t = translate(e);
    if (naturallyBool(e))
      return t;
    return b_.bvToBool(t);
  }

  // The term of a bit-vector expression as a bit-vector (width-1 Bools become #b1/#b0).
  Term asBV(const Expr *e) {
    if (e->kind() == Kind::Constant)
      return b_.mkBv(e->value(), e->width());
    Term t = translate(e);
    if (!naturallyBool(e))
      return t;
    return b_.boolToBv(t);
  }

  // The term of `e` in its natural form (see naturallyBool), built bottom-up, each node once.
  // The array of a select that becomes a lookup tree is not translated, only what the tree
  // uses: a table's store per element would be made for nothing, and Z3 (4.8) then spends
  // seconds deleting its context at exit (8 s after one read of a 4 KiB table).
  Term translate(const Expr *root) {
    if (!memo_.contains(root)) // the common case is a kid translated before: no walk
      forEachPostOrder(
          root, [&](const Expr *e) { return memo_.contains(e); },
          [&](const Expr *e) { memo_.add(e, build(e)); },
          [](const Expr *e, unsigned i) { return i == 0 && e->kind() == Kind::Select && expandsSelect(e); });
    return memo_.at(root);
  }

private:
  // Kids are already translated when these run.
  Term k(const Expr *e, unsigned i) { return memo_.at(e->kid(i)); }
  Term bv(const Expr *e, unsigned i) { return asBV(e->kid(i)); }
  Term bl(const Expr *e, unsigned i) { return asBool(e->kid(i)); }

  // first() and second(), made in the backend's operand order.
  template <class First, class Second> std::pair<Term, Term> ordered(First &&first, Second &&second) {
    if constexpr (B::kOperandOrder == OperandOrder::LeftToRight) {
      Term a = first();
      Term b = second();
      return {std::move(a), std::move(b)};
    } else {
      Term b = second();
      Term a = first();
      return {std::move(a), std::move(b)};
    }
  }
  std::pair<Term, Term> bvPair(const Expr *e, unsigned i, unsigned j) {
    return ordered([&] { return bv(e, i); }, [&] { return bv(e, j); });
  }
  std::pair<Term, Term> boolPair(const Expr *e, unsigned i, unsigned j) {
    return ordered([&] { return bl(e, i); }, [&] { return bl(e, j); });
  }

  // A binary bit-vector operation on the first two kids.
  template <class Make> Term binary(const Expr *e, Make make) {
    auto [a, b] = bvPair(e, 0, 1);
    return (b_.*make)(a, b);
  }

  Term constArray(const ConstArrayData &d) {
    Term arr = b_.mkConstArray(d.domainWidth, d.width, d.defaultValue);
    for (size_t i = 0; i < d.values.size(); ++i)
      if (d.values[i] != d.defaultValue) {
        auto [index, value] = ordered([&] { return b_.mkBv(u128(i), d.domainWidth); },
                                      [&] { return b_.mkBv(d.values[i], d.width); });
        arr = b_.mkStore(arr, index, value);
      }
    return arr;
  }

  // The constructors a constant-array lookup needs (ConstArrayReads.h).
  struct LookupOps {
    ExprTranslator &tr;
    unsigned width; // of the elements
    Term of(const Expr *x) { return tr.asBV(x); }
    Term bit(const Term &t, unsigned j) { return tr.b_.bvToBool(tr.b_.mkExtract(j, j, t)); }
    Term below(const Term &t, unsigned w, u128 n) {
      return n >> w ? tr.b_.mkBool(true) : tr.b_.mkBvUlt(t, tr.b_.mkBv(n, w));
    }
    Term equal(const Term &a, const Term &b) { return tr.b_.mkEq(a, b); }
    Term ite(const Term &c, const Term &a, const Term &b) { return tr.b_.mkIte(c, a, b); }
    Term value(u128 v) { return tr.b_.mkBv(v, width); }
  };

  Term select(const Expr *e) {
    if (expandsSelect(e)) {
      LookupOps ops{*this, e->width()};
      return expandSelect<Term>(e, ops);
    }
    return b_.mkSelect(k(e, 0), bv(e, 1));
  }

  Term extend(const Expr *e) {
    const unsigned w = e->width(), from = e->kid(0)->width();
    Term t = bv(e, 0);
    if (w == from)
      return t;
    if (w < from)
      return b_.mkExtract(w - 1, 0, t);
    return e->kind() == Kind::ZExt ? b_.mkZeroExt(w - from, t) : b_.mkSignExt(w - from, t);
  }

  Term build(const Expr *e) {
    switch (e->kind()) {
    case Kind::Constant: return b_.mkBv(e->value(), e->width());
    case Kind::Symbol:
    case Kind::ArraySymbol: return b_.mkSymbol(e->symbol());
    case Kind::ConstArray: return constArray(*e->constArray());
    case Kind::Store: {
      auto [index, value] = bvPair(e, 1, 2);
      return b_.mkStore(k(e, 0), index, value);
    }
    case Kind::Select: return select(e);
    case Kind::Concat: return binary(e, &B::mkConcat);
    case Kind::Extract: {
      unsigned lo = e->extractOffset();
      return b_.mkExtract(lo + e->width() - 1, lo, bv(e, 0));
    }
    case Kind::ZExt:
    case Kind::SExt: return extend(e);
    case Kind::Add: return binary(e, &B::mkBvAdd);
    case Kind::Sub: return binary(e, &B::mkBvSub);
    case Kind::Mul: return binary(e, &B::mkBvMul);
    case Kind::UDiv: return binary(e, &B::mkBvUDiv);
    case Kind::SDiv: return binary(e, &B::mkBvSDiv);
    case Kind::URem: return binary(e, &B::mkBvURem);
    case Kind::SRem: return binary(e, &B::mkBvSRem);
    case Kind::Shl: return binary(e, &B::mkBvShl);
    case Kind::LShr: return binary(e, &B::mkBvLShr);
    case Kind::AShr: return binary(e, &B::mkBvAShr);
    case Kind::Not: return e->isBool() ? b_.mkNot(bl(e, 0)) : b_.mkBvNot(bv(e, 0));
    case Kind::And:
    case Kind::Or: {
      if (!e->isBool())
        return binary(e, e->kind() == Kind::And ? &B::mkBvAnd : &B::mkBvOr);
      // Left to right in every backend (Z3's were named, so they stay referenced while Z3
      // builds the node).
      Term a = bl(e, 0), b = bl(e, 1);
      return e->kind() == Kind::And ? b_.mkAnd(a, b) : b_.mkOr(a, b);
    }
    case Kind::Xor: {
      if (!e->isBool())
        return binary(e, &B::mkBvXor);
      auto [a, b] = boolPair(e, 0, 1);
      return b_.mkXor(a, b);
    }
    case Kind::Eq: {
      const Expr *a = e->kid(0), *b = e->kid(1);
      if (a->isArray() || (a->isBool() && naturallyBool(a) && naturallyBool(b)))
        return b_.mkEq(k(e, 0), k(e, 1));
      return binary(e, &B::mkEq);
    }
    case Kind::Ult: return binary(e, &B::mkBvUlt);
    case Kind::Ule: return binary(e, &B::mkBvUle);
    case Kind::Slt: return binary(e, &B::mkBvSlt);
    case Kind::Sle: return binary(e, &B::mkBvSle);
    case Kind::Ite: {
      Term cond = bl(e, 0);
      if (e->isArray())
        return b_.mkIte(cond, k(e, 1), k(e, 2));
      auto [a, b] = e->isBool() ? boolPair(e, 1, 2) : bvPair(e, 1, 2);
      return b_.mkIte(cond, a, b);
    }
    case Kind::Forall:
    case Kind::Exists: {
      // The bound symbol was translated as a constant, like a free one.
      Term bound = k(e, 0);
      Term var = b_.boundVariable(bound, e->kid(0)->symbol());
      Term body = b_.abstractBound(bl(e, 1), bound, var);
      return b_.mkQuantifier(e->kind() == Kind::Forall, var, body);
    }
    default:
      if (isFloatKind(e->kind()))
        return floats_.build(e, [&](const Expr *x) { return asBV(x); });
      break;
    }
    throw std::invalid_argument(std::string("unsupported expression kind ") + kindName(e->kind()));
  }

  B &b_;
  TermMemo<Term> memo_;
  FloatTranslation<B> floats_{b_};
};

} // namespace cairn::backend
