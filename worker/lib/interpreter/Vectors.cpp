// Fixed-width vector instructions: element-wise operations lane by lane, and the element
// moves (extract, insert, shuffle). Lane 0 is the lowest bits, as in LLVM's vector layout.
#include "executor/Engine.h"
#include "interpreter/Interpreter.h"
#include "cairn/expr/Fold.h"

#include <array>

namespace cairn::engine {

Value Interpreter::laneOf(const Value &v, unsigned laneBits, unsigned i) {
  if (v.concrete())
    return Value((v.bits >> (i * laneBits)) & widthMask(laneBits));
  return Value(ctx_.extract(v.sym, i * laneBits, laneBits));
}

Value Interpreter::pack(const std::vector<Value> &lanes, unsigned laneBits) {
  bool concrete = true;
  for (const Value &v : lanes)
    concrete &= v.concrete();
  if (concrete) {
    u128 r = 0;
    for (size_t i = lanes.size(); i-- > 0;)
      r = (r << laneBits) | (lanes[i].bits & widthMask(laneBits));
    return Value(r);
  }
  ExprRef r = lanes[0].expr(ctx_, laneBits);
  for (size_t i = 1; i < lanes.size(); ++i)
    r = ctx_.concat(lanes[i].expr(ctx_, laneBits), r);
  return Value(r);
}

// Element-wise arithmetic, comparisons, casts and selects.
void Interpreter::vectorOp(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  const unsigned L = in.lanes, out = in.width / L;
  Value a = eval(f, in.a), b = eval(f, in.b), c = eval(f, in.c);
  std::vector<Value> parts;
  for (unsigned i = 0; i < L; ++i) {
    switch (in.op) {
    case Opcode::Binary: {
      Value x = laneOf(a, out, i), y = laneOf(b, out, i);
      if (x.concrete() && y.concrete())
        parts.push_back(Value(foldBinary(in.kind, x.bits, y.bits, out)));
      else
        parts.push_back(Value(ctx_.build(in.kind, std::array{x.expr(ctx_, out), y.expr(ctx_, out)})));
      break;
    }
    case Opcode::Compare: {
      unsigned w = in.imm / L;
      Value x = laneOf(a, w, i), y = laneOf(b, w, i);
      if (x.concrete() && y.concrete()) {
        u128 r = foldBinary(in.kind, x.bits, y.bits, w);
        parts.push_back(Value(in.negate ? r ^ 1 : r));
      } else {
        ExprRef e = ctx_.build(in.kind, std::array{x.expr(ctx_, w), y.expr(ctx_, w)});
        parts.push_back(Value(in.negate ? ctx_.lnot(e) : e));
      }
      break;
    }
    case Opcode::ZExt:
    case Opcode::SExt:
    case Opcode::Trunc: {
      unsigned w = in.imm / L;
      Value x = laneOf(a, w, i);
      if (in.op == Opcode::Trunc)
        parts.push_back(laneOf(x, out, 0));
      else if (x.concrete())
        parts.push_back(Value(in.op == Opcode::ZExt ? x.bits : foldUnary(Kind::SExt, x.bits, w, out)));
      else
        parts.push_back(Value(in.op == Opcode::ZExt ? ctx_.zext(x.sym, out) : ctx_.sext(x.sym, out)));
      break;
    }
    case Opcode::Select: {
      Value cond = laneOf(a, 1, i), x = laneOf(b, out, i), y = laneOf(c, out, i);
      if (cond.concrete())
        parts.push_back(cond.bits ? x : y);
      else
        parts.push_back(Value(ctx_.ite(cond.sym, x.expr(ctx_, out), y.expr(ctx_, out))));
      break;
    }
    default: return engine_.error(s, "exec", "unsupported", "unsupported vector operation");
    }
  }
  setReg(s, in, pack(parts, out));
}

void Interpreter::extractElement(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  Value v = eval(f, in.a), idx = eval(f, in.b);
  unsigned lane = in.width;
  if (idx.concrete()) {
    if (idx.bits >= in.count)
      return setReg(s, in, Value(u128(0))); // poison in LLVM: any value will do
    return setReg(s, in, laneOf(v, lane, unsigned(idx.bits)));
  }
  ExprRef r = ctx_.constant(0, lane);
  for (unsigned i = in.count; i-- > 0;)
    r = ctx_.ite(ctx_.eq(idx.sym, ctx_.constant(i, in.imm)), laneOf(v, lane, i).expr(ctx_, lane), r);
  setReg(s, in, Value(r));
}

void Interpreter::insertElement(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  Value v = eval(f, in.a), e = eval(f, in.b), idx = eval(f, in.c);
  unsigned lane = in.count, lanes = in.width / lane;
  std::vector<Value> parts;
  for (unsigned i = 0; i < lanes; ++i) {
    Value old = laneOf(v, lane, i);
    if (idx.concrete())
      parts.push_back(idx.bits == i ? e : old);
    else
      parts.push_back(Value(ctx_.ite(ctx_.eq(idx.sym, ctx_.constant(i, in.imm)), e.expr(ctx_, lane), old.expr(ctx_, lane))));
  }
  setReg(s, in, pack(parts, lane));
}

void Interpreter::shuffle(ExecutionState &s, const Instr &in, const Function &fn) {
  Frame &f = s.top();
  Value a = eval(f, in.a), b = eval(f, in.b);
  unsigned lane = in.width / in.lanes;
  std::vector<Value> parts;
  for (unsigned i = 0; i < in.lanes; ++i) {
    int m = fn.shuffleMasks[in.imm + i];
    if (m < 0)
      parts.push_back(Value(u128(0)));
    else
      parts.push_back(unsigned(m) < in.count ? laneOf(a, lane, unsigned(m)) : laneOf(b, lane, unsigned(m) - in.count));
  }
  setReg(s, in, pack(parts, lane));
}

} // namespace cairn::engine
