// Queries for comparing solvers: random comparisons over bit-vectors of several widths and a
// byte array, and interval questions that are unsat about half the time. Deterministic for a
// seed, built in the caller's context.
#pragma once

#include "cairn/solver/Solver.h"

#include <random>

namespace cairn::testing {

class RandomQueries {
public:
  RandomQueries(ExprContext &ctx, uint32_t seed) : ctx_(ctx), rng_(seed) {
    a_ = ctx.symbol(ctx.declareSymbol("a", 8, SymbolClass::Input));
    b_ = ctx.symbol(ctx.declareSymbol("b", 16, SymbolClass::Input));
    c_ = ctx.symbol(ctx.declareSymbol("c", 32, SymbolClass::Input));
    buf_ = ctx.symbol(ctx.declareArray("buf", 4));
  }

  // Every third query an interval question; the others random comparisons.
  Query next() {
    ++count_;
    return count_ % 3 == 0 ? interval() : comparisons();
  }

private:
  unsigned pick(unsigned n) { return unsigned(rng_() % n); }
  unsigned width() {
    static const unsigned widths[] = {8, 16, 32};
    return widths[pick(3)];
  }

  ExprRef leaf(unsigned w) {
    switch (pick(5)) {
    case 0: return ctx_.zextOrTrunc(a_, w);
    case 1: return ctx_.zextOrTrunc(b_, w);
    case 2: return ctx_.zextOrTrunc(c_, w);
    case 3: return ctx_.zextOrTrunc(ctx_.select(buf_, ctx_.constant(pick(4), 32)), w);
    default: return ctx_.constant(pick(2) ? pick(16) : rng_(), w);
    }
  }

  ExprRef term(unsigned w, int depth) {
    if (depth == 0 || pick(3) == 0)
      return leaf(w);
    ExprRef x = term(w, depth - 1), y = term(w, depth - 1);
    switch (pick(10)) {
    case 0: return ctx_.add(x, y);
    case 1: return ctx_.sub(x, y);
    case 2: return ctx_.mul(x, y);
    case 3: return ctx_.bvand(x, y);
    case 4: return ctx_.bvor(x, y);
    case 5: return ctx_.bvxor(x, y);
    case 6: return ctx_.shl(x, ctx_.constant(pick(w), w));
    case 7: return ctx_.lshr(x, ctx_.constant(pick(w), w));
    case 8: return ctx_.urem(x, y);
    default: return ctx_.ite(comparison(depth - 1), x, y);
    }
  }

  ExprRef comparison(int depth) {
    unsigned w = width();
    ExprRef x = term(w, depth), y = term(w, depth);
    switch (pick(6)) {
    case 0: return ctx_.eq(x, y);
    case 1: return ctx_.ne(x, y);
    case 2: return ctx_.ult(x, y);
    case 3: return ctx_.ule(x, y);
    case 4: return ctx_.slt(x, y);
    default: return ctx_.sle(x, y);
    }
  }

  Query comparisons() {
    std::vector<ExprRef> pc;
    for (unsigned i = pick(5); i > 0; --i)
      pc.push_back(comparison(2));
    return Query(pc, comparison(2));
  }

  // lo < f(x) < hi for a linear f, then a question on a byte tied to x: empty about half the
  // time, and tight enough that a model must be exact.
  Query interval() {
    ExprRef x = pick(2) ? b_ : c_;
    const unsigned w = x->width();
    ExprRef f = ctx_.add(ctx_.mul(x, ctx_.constant(1 + 2 * pick(4), w)), ctx_.constant(pick(64), w));
    const unsigned lo = pick(1000), hi = lo + pick(6);
    std::vector<ExprRef> pc = {ctx_.ult(ctx_.constant(lo, w), f), ctx_.ult(f, ctx_.constant(hi, w)),
                               ctx_.ult(x, ctx_.constant(1 << 12, w))};
    ExprRef byte = ctx_.select(buf_, ctx_.constant(pick(4), 32));
    return Query(pc, ctx_.eq(ctx_.zext(byte, w), ctx_.urem(x, ctx_.constant(256, w))));
  }

  ExprContext &ctx_;
  std::mt19937 rng_;
  ExprRef a_, b_, c_, buf_;
  unsigned count_ = 0;
};

} // namespace cairn::testing
