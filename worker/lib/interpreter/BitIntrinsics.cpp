// LLVM's bit and arithmetic intrinsics (ctpop, ctlz, bswap, funnel shifts, min/max, saturating
// and overflow-checking arithmetic) as expressions; constants fold as they are built.
#include "interpreter/ArithmeticOverflow.h"
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"

#include <array>

namespace cairn::engine {

namespace {

void bitIntrinsic(const SpecialCall &c) {
  ExprContext &ctx = c.engine.ctx;
  const Special kind = c.kind();
  const unsigned w = c.site.argWidths.empty() ? 0 : c.site.argWidths[0];
  auto x = [&](size_t i) { return c.args[i].expr(ctx, w); };
  ExprRef r;
  switch (kind) {
  case Special::Abs: {
    ExprRef v = x(0);
    // A true second argument makes the result poison for the minimum value: what an
    // overflowing C negation became (clang -O1 turns `x < 0 ? -x : x` into llvm.abs(x, true)).
    // Checked as that negation is.
    if (c.engine.options.checkOverflow && c.args.at(1).concrete() && c.args[1].bits) {
      auto [ok, overflow] = c.engine.branch(c.state, ctx.lnot(ctx.eq(v, ctx.constant(u128(1) << (w - 1), w))));
      if (overflow)
        c.engine.error(*overflow, "overflow", "signed-overflow", "signed integer overflow in abs of the minimum value");
      if (ok != &c.state)
        return;
    }
    r = ctx.ite(ctx.slt(v, ctx.constant(0, w)), ctx.neg(v), v);
    break;
  }
  case Special::Smin: r = ctx.ite(ctx.slt(x(0), x(1)), x(0), x(1)); break;
  case Special::Smax: r = ctx.ite(ctx.slt(x(0), x(1)), x(1), x(0)); break;
  case Special::Umin: r = ctx.ite(ctx.ult(x(0), x(1)), x(0), x(1)); break;
  case Special::Umax: r = ctx.ite(ctx.ult(x(0), x(1)), x(1), x(0)); break;
  case Special::UAddSat:
  case Special::USubSat:
  case Special::SAddSat:
  case Special::SSubSat: {
    bool isSigned = kind == Special::SAddSat || kind == Special::SSubSat;
    Kind op = kind == Special::UAddSat || kind == Special::SAddSat ? Kind::Add : Kind::Sub;
    ExprRef a = x(0), b = x(1);
    // Signed operations overflow towards the first operand's sign; unsigned additions up,
    // subtractions down.
    ExprRef limit = ctx.constant(op == Kind::Add ? widthMask(w) : 0, w);
    if (isSigned)
      limit = ctx.ite(ctx.slt(a, ctx.constant(0, w)), ctx.constant(u128(1) << (w - 1), w), ctx.constant(widthMask(w - 1), w));
    r = ctx.ite(overflowFlag(ctx, op, isSigned, a, b), limit, ctx.build(op, std::array{a, b}));
    break;
  }
  case Special::Bswap: {
    ExprRef v = x(0);
    r = ctx.extract(v, 0, 8);
    for (unsigned i = 1; i < w / 8; ++i)
      r = ctx.concat(r, ctx.extract(v, 8 * i, 8));
    break;
  }
  case Special::Ctpop: {
    ExprRef v = x(0);
    r = ctx.constant(0, w);
    for (unsigned i = 0; i < w; ++i)
      r = ctx.add(r, ctx.zext(ctx.extract(v, i, 1), w));
    break;
  }
  case Special::Ctlz:
  case Special::Cttz: {
    ExprRef v = x(0);
    bool leading = kind == Special::Ctlz;
    r = ctx.constant(w, w);
    // Innermost: the bit farthest from the counted end.
    for (unsigned k = 0; k < w; ++k) {
      unsigned i = leading ? k : w - 1 - k; // position of the bit tested at this level
      unsigned count = leading ? w - 1 - i : i;
      r = ctx.ite(ctx.eq(ctx.extract(v, i, 1), ctx.constant(1, 1)), ctx.constant(count, w), r);
    }
    break;
  }
  case Special::Fshl:
  case Special::Fshr: {
    ExprRef a = x(0), b = x(1), sh = ctx.urem(x(2), ctx.constant(w, w));
    ExprRef inv = ctx.sub(ctx.constant(w, w), sh);
    ExprRef isZero = ctx.eq(sh, ctx.constant(0, w));
    if (kind == Special::Fshl)
      r = ctx.ite(isZero, a, ctx.bvor(ctx.shl(a, sh), ctx.lshr(b, inv)));
    else
      r = ctx.ite(isZero, b, ctx.bvor(ctx.shl(a, inv), ctx.lshr(b, sh)));
    break;
  }
  default: { // the *.with.overflow intrinsics
    bool isSigned = kind == Special::SAddO || kind == Special::SSubO || kind == Special::SMulO;
    Kind op = (kind == Special::SAddO || kind == Special::UAddO)   ? Kind::Add
              : (kind == Special::SSubO || kind == Special::USubO) ? Kind::Sub
                                                                   : Kind::Mul;
    ExprRef result = ctx.build(op, std::array{x(0), x(1)});
    ExprRef overflow = overflowFlag(ctx, op, isSigned, x(0), x(1));
    if (c.instr.width == w) { // a register pair (Program.h): the flag goes to the next register
      c.result(Value(result));
      c.state.top().regs[c.instr.dst + 1] = Value(overflow);
      return;
    }
    r = ctx.concat(ctx.zext(overflow, c.instr.width - w), result);
    break;
  }
  }
  c.result(Value(r));
}

} // namespace

void addBitHandlers(SpecialHandlers &table) {
  for (Special k : {Special::Abs, Special::Smin, Special::Smax, Special::Umin, Special::Umax, Special::UAddSat,
                    Special::USubSat, Special::SAddSat, Special::SSubSat, Special::Bswap, Special::Ctpop, Special::Ctlz,
                    Special::Cttz, Special::Fshl, Special::Fshr, Special::SAddO, Special::UAddO, Special::SSubO,
                    Special::USubO, Special::SMulO, Special::UMulO})
    table[size_t(k)] = &bitIntrinsic;
}

} // namespace cairn::engine
