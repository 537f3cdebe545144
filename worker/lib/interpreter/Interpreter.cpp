#include "interpreter/Interpreter.h"

#include "interpreter/FloatInstructions.h"
#include "interpreter/MathFunctions.h"
#include "executor/Engine.h"
#include "cairn/expr/Fold.h"

#include <algorithm>
#include <array>

namespace cairn::engine {

Interpreter::Interpreter(Engine &engine)
    : engine_(engine), program_(engine.program), ctx_(engine.ctx), stats_(engine.stats),
      locationSeen_(engine.program.locations.size(), 0), branchTaken_(engine.program.branchTargets.size(), 0),
      stack_(engine.program), checkOverflow_(engine.options.checkOverflow),
      checkOvershift_(engine.options.checkOvershift) {}

void Interpreter::enterBlock(Frame &f, uint32_t block, uint32_t from) {
  const Function &fn = program_.functions[f.function];
  const BasicBlock &b = fn.blocks[block];
  f.prevBlock = from;
  f.block = block;
  f.pc = b.firstInstr;
  for (const BasicBlock::Edge &e : b.edges) {
    if (e.from != from)
      continue;
    // Phi nodes read their sources before any of them is written.
    Value tmp[8];
    std::vector<Value> many;
    Value *vals = tmp;
    if (e.count > 8) {
      many.resize(e.count);
      vals = many.data();
    }
    for (uint32_t i = 0; i < e.count; ++i)
      vals[i] = eval(f, fn.phiMoves[e.first + i].src);
    for (uint32_t i = 0; i < e.count; ++i)
      f.regs[fn.phiMoves[e.first + i].dst] = std::move(vals[i]);
    break;
  }
}

void Interpreter::firstVisit(ExecutionState &s, uint32_t locId) {
  locationSeen_[locId] = 1;
  coverLine(s, locId);
  const Function &fn = program_.functions[uint32_t(engine_.currentInstr >> 32)];
  const uint32_t index = uint32_t(engine_.currentInstr);
  if (index < fn.guardOf.size() && fn.guardOf[index] && !coverMeldedLines(s, fn, fn.guards[fn.guardOf[index] - 1]))
    locationSeen_[locId] = 0; // a term not taken yet: looked at again on the next run
}

void Interpreter::coverLine(ExecutionState &s, uint32_t locId) {
  const SourceLocation &l = program_.locations[locId];
  if (!l.line)
    return;
  uint64_t key = (uint64_t(l.file) << 32) | l.line;
  if (covered_.insert(key).second) {
    s.instructionsSinceNewCoverage = 0;
    s.coveredNew = true;
  }
}

// A melded instruction stands for the original ones of its terms: a run covers a term's line
// unless one of its decisions is concretely the other way (a symbolic one may go either way on
// this path, the paper's merged-line coverage). True when every term's line is covered.
bool Interpreter::coverMeldedLines(ExecutionState &s, const Function &fn, const InstrGuard &guard) {
  bool all = true;
  for (uint32_t k = 0; k < guard.termCount; ++k) {
    const GuardTerm &term = fn.guardTerms[guard.firstTerm + k];
    bool taken = true;
    for (uint32_t l = 0; l < term.literalCount && taken; ++l) {
      const GuardLiteral &literal = fn.guardLiterals[term.firstLiteral + l];
      u128 bits;
      taken = !concreteOperand(s.top(), literal.cond, bits) || (bits != 0) == literal.positive;
    }
    if (taken)
      coverLine(s, term.loc);
    all &= taken;
  }
  return all;
}

void Interpreter::follow(ExecutionState &s, uint32_t to, uint32_t from) {
  Frame &f = s.top();
  takeBranch(program_.functions[f.function].blocks[from], to);
  if (engine_.options.onlyNewCoverageTests && branches_.take(f.function, from, to))
    s.coveredNew = true;
  enterBlock(f, to, from);
}

// What the concrete fast path (runConcrete) did not take: an operand is symbolic, a check is
// due, or the instruction calls, allocates, forks or ends the path. The frame's pc is past `in`.
void Interpreter::general(ExecutionState &s, Frame &f, const Function &fn, const Instr &in) {
  if (in.lanes > 1 && in.op != Opcode::Shuffle)
    return vectorOp(s, in);
  switch (in.op) {
  case Opcode::Binary: return binary(s, in);
  case Opcode::Compare: {
    Value a = eval(f, in.a), b = eval(f, in.b);
    ExprRef e = ctx_.build(in.kind, std::array{a.expr(ctx_, in.imm), b.expr(ctx_, in.imm)});
    return setReg(s, in, Value(in.negate ? ctx_.lnot(e) : e));
  }
  case Opcode::ZExt:
  case Opcode::Move: {
    return setReg(s, in, Value(ctx_.zextOrTrunc(eval(f, in.a).sym, in.width)));
  }
  case Opcode::SExt: {
    return setReg(s, in, Value(ctx_.sext(eval(f, in.a).sym, in.width)));
  }
  case Opcode::Trunc: {
    return setReg(s, in, Value(ctx_.extract(eval(f, in.a).sym, 0, in.width)));
  }
  case Opcode::Select: {
    return setReg(s, in, Value(ctx_.ite(eval(f, in.a).sym, eval(f, in.b).expr(ctx_, in.width), eval(f, in.c).expr(ctx_, in.width))));
  }
  case Opcode::ExtractBits: {
    return setReg(s, in, Value(ctx_.extract(eval(f, in.a).sym, in.imm, in.width)));
  }
  case Opcode::InsertBits: return insertBits(s, in);
  case Opcode::Alloca: return allocateLocal(s, in, fn);
  case Opcode::Load: {
    unsigned bytes = (in.width + 7) / 8;
    uint32_t dst = in.dst;
    unsigned width = in.width;
    engine_.memory.resolve(s, eval(f, in.a), bytes, false,
                           [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &offset) {
                             Value v = engine_.memory.readAt(st, e, offset, bytes);
                             if (width % 8 && v.concrete())
                               v.bits &= widthMask(width);
                             else if (width % 8)
                               v = Value(ctx_.extract(v.sym, 0, width));
                             st.top().regs[dst] = std::move(v);
                           });
    return;
  }
  case Opcode::Store: {
    unsigned bytes = (in.width + 7) / 8;
    Value v = eval(f, in.a);
    if (in.width % 8 && !v.concrete())
      v = Value(ctx_.zext(v.sym, bytes * 8));
    engine_.memory.resolve(s, eval(f, in.b), bytes, true,
                           [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &offset) {
                             engine_.memory.writeAt(st, e, offset, v, bytes);
                           });
    return;
  }
  case Opcode::Gep: return gep(s, in, fn);
  case Opcode::Br: return enterBlock(f, in.target, f.block);
  case Opcode::CondBr: {
    uint32_t from = f.block;
    auto [t, e] = engine_.branch(s, eval(f, in.a).sym);
    if (t)
      follow(*t, in.target, from);
    if (e)
      follow(*e, in.target2, from);
    if (t && e)
      engine_.merging.branched(*t, *e);
    return;
  }
  case Opcode::Switch:
  case Opcode::IndirectBr: return switchOn(s, in, fn);
  case Opcode::Ret: return ret(s, in);
  case Opcode::Unreachable: return engine_.error(s, "exec", "unreachable", "reached an unreachable instruction");
  case Opcode::Unsupported:
    return engine_.error(s, "model", "unsupported-instruction", fn.unsupported[in.imm]);
  case Opcode::Call: return call(s, in, fn);
  case Opcode::Float: return floatOp(s, in);
  case Opcode::AtomicRmw:
  case Opcode::CmpXchg: return atomic(s, in);
  case Opcode::ExtractElement: return extractElement(s, in);
  case Opcode::InsertElement: return insertElement(s, in);
  case Opcode::Shuffle: return shuffle(s, in, fn);
  }
}

// One thread: an atomic read-modify-write is a checked load, the operation and a store.
void Interpreter::atomic(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  const unsigned w = in.count, bytes = (w + 7) / 8;
  Value operand = eval(f, in.b), replacement = in.op == Opcode::CmpXchg ? eval(f, in.c) : Value();
  MemoryAccess &memory = engine_.memory;
  memory.resolve(s, eval(f, in.a), bytes, true, [&](ExecutionState &st, const AddressSpace::Entry &e, const Value &offset) {
    Value oldV = memory.readAt(st, e, offset, bytes);
    ExprRef old = oldV.expr(ctx_, w), x = operand.expr(ctx_, w);
    ExprRef next, result;
    if (in.op == Opcode::CmpXchg) {
      ExprRef same = ctx_.eq(old, x);
      next = ctx_.ite(same, replacement.expr(ctx_, w), old);
      // {old, success}: the flag sits right after the value's bytes.
      result = ctx_.concat(ctx_.zext(same, in.width - w), old);
    } else {
      switch (RmwOp(in.imm)) {
      case RmwOp::Xchg: next = x; break;
      case RmwOp::Add: next = ctx_.add(old, x); break;
      case RmwOp::Sub: next = ctx_.sub(old, x); break;
      case RmwOp::And: next = ctx_.bvand(old, x); break;
      case RmwOp::Nand: next = ctx_.bvnot(ctx_.bvand(old, x)); break;
      case RmwOp::Or: next = ctx_.bvor(old, x); break;
      case RmwOp::Xor: next = ctx_.bvxor(old, x); break;
      case RmwOp::Max: next = ctx_.ite(ctx_.slt(old, x), x, old); break;
      case RmwOp::Min: next = ctx_.ite(ctx_.slt(old, x), old, x); break;
      case RmwOp::UMax: next = ctx_.ite(ctx_.ult(old, x), x, old); break;
      case RmwOp::UMin: next = ctx_.ite(ctx_.ult(old, x), old, x); break;
      }
      result = old;
    }
    memory.writeAt(st, e, offset, Value(next), bytes);
    st.top().regs[in.dst] = Value(result);
  });
}

// Floating point: concrete operands run on the host's arithmetic, symbolic ones make float
// expressions (FloatInstructions.h). Under --float concrete, an operand the path has fixed to
// one value (an assumption x == 3, an earlier klee_get_value) runs as that value, and a truly
// symbolic operand ends the path with a model error.
void Interpreter::floatOp(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  const FloatOp op = FloatOp(in.imm);
  const unsigned n = floatOperandCount(op);
  Value operands[3] = {eval(f, in.a), n > 1 ? eval(f, in.b) : Value(), n > 2 ? eval(f, in.c) : Value()};
  const unsigned widths[3] = {in.count, in.count, in.count};
  if (!engine_.options.symbolicFloats && !fixFloatOperands(engine_, s, std::span(operands, n), widths))
    return;
  setReg(s, in, floatOnValues(ctx_, op, in.count, in.width, std::span(operands, n)));
}

void Interpreter::binary(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  Value a = eval(f, in.a), b = eval(f, in.b);
  const bool division = in.kind == Kind::UDiv || in.kind == Kind::SDiv || in.kind == Kind::URem || in.kind == Kind::SRem;
  const bool shift = in.kind == Kind::Shl || in.kind == Kind::LShr || in.kind == Kind::AShr;
  if (division) {
    if (b.concrete() && b.bits == 0)
      return engine_.error(s, "div", "division-by-zero", "division by zero");
    if (!b.concrete()) {
      ExprRef zero = ctx_.eq(b.sym, ctx_.constant(0, in.width));
      auto [bad, ok] = engine_.branch(s, zero);
      if (bad)
        engine_.error(*bad, "div", "division-by-zero", "division by zero");
      if (!ok)
        return;
      // `ok` is `s` or its fork; either way its registers are unchanged.
      Frame &fo = ok->top();
      a = eval(fo, in.a);
      b = eval(fo, in.b);
      ok->top().regs[in.dst] = Value(ctx_.build(in.kind, std::array{a.expr(ctx_, in.width), b.expr(ctx_, in.width)}));
      return;
    }
  }
  if (checkOverflow_ && in.noSignedWrap && !checkSignedOverflow(s, in, a, b))
    return;
  if (checkOvershift_ && shift && !checkOvershift(s, in, b))
    return;
  if (a.concrete() && b.concrete())
    return setReg(s, in, Value(foldBinary(in.kind, a.bits, b.bits, in.width)));
  setReg(s, in, Value(ctx_.build(in.kind, std::array{a.expr(ctx_, in.width), b.expr(ctx_, in.width)})));
}

// Forks off the states where the operation would overflow as signed integers; returns
// whether `s` goes on.
bool Interpreter::checkSignedOverflow(ExecutionState &s, const Instr &in, const Value &a, const Value &b) {
  if (in.kind != Kind::Add && in.kind != Kind::Sub && in.kind != Kind::Mul)
    return true;
  const unsigned w = in.width, wide = std::min(2 * w, 128u);
  if (w >= 128)
    return true;
  ExprRef exact = ctx_.build(in.kind, std::array{ctx_.sext(a.expr(ctx_, w), wide), ctx_.sext(b.expr(ctx_, w), wide)});
  ExprRef fits = ctx_.eq(ctx_.sext(ctx_.extract(exact, 0, w), wide), exact);
  auto [ok, overflow] = engine_.branch(s, fits);
  if (overflow)
    engine_.error(*overflow, "overflow", "signed-overflow", std::string("signed integer overflow in ") + kindName(in.kind));
  return ok == &s;
}

bool Interpreter::checkOvershift(ExecutionState &s, const Instr &in, const Value &amount) {
  ExprRef ok = ctx_.ult(amount.expr(ctx_, in.width), ctx_.constant(in.width, in.width));
  auto [fine, bad] = engine_.branch(s, ok);
  if (bad)
    engine_.error(*bad, "overflow", "overshift", "shift by the width of the value or more");
  return fine == &s;
}

void Interpreter::insertBits(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  Value a = eval(f, in.a), b = eval(f, in.b);
  if (a.concrete() && b.concrete()) {
    u128 mask = widthMask(in.count) << in.imm;
    return setReg(s, in, Value((a.bits & ~mask) | ((b.bits << in.imm) & mask)));
  }
  ExprRef whole = a.expr(ctx_, in.width), part = b.expr(ctx_, in.count);
  ExprRef r = part;
  if (in.imm > 0)
    r = ctx_.concat(r, ctx_.extract(whole, 0, in.imm));
  if (in.imm + in.count < in.width)
    r = ctx_.concat(ctx_.extract(whole, in.imm + in.count, in.width - in.imm - in.count), r);
  setReg(s, in, Value(r));
}

void Interpreter::gep(ExecutionState &s, const Instr &in, const Function &fn) {
  Frame &f = s.top();
  Value base = eval(f, in.a);
  u128 constant = (base.concrete() ? base.bits : 0) + u128(uint64_t(in.offset));
  bool concrete = base.concrete();
  ExprRef sum;
  for (uint32_t i = 0; i < in.count; ++i) {
    const GepTerm &t = fn.gepTerms[in.imm + i];
    Value idx = eval(f, t.index);
    if (idx.concrete()) {
      u128 v = foldUnary(Kind::SExt, idx.bits, t.indexWidth, 64);
      constant += v * u128(uint64_t(t.scale));
      continue;
    }
    concrete = false;
    ExprRef term = ctx_.mul(ctx_.sextOrTrunc(idx.sym, 64), ctx_.constant(uint64_t(t.scale), 64));
    sum = sum ? ctx_.add(sum, term) : term;
  }
  constant &= widthMask(64);
  if (concrete)
    return setReg(s, in, Value(constant));
  if (!sum) // a symbolic base moved by a constant (in relocatable: a pointer into its object)
    return setReg(s, in, Value(ctx_.addConstant(base.sym, constant)));
  ExprRef r = ctx_.constant(constant, 64);
  if (!base.concrete())
    r = ctx_.add(r, base.sym);
  if (sum)
    r = ctx_.add(r, sum);
  setReg(s, in, Value(r));
}

// Also an indirectbr: a switch on the address over the labels it may jump to, where an
// address that is none of them is a wild jump rather than a default (named as a native
// jump to a non-function is, so replay agrees).
void Interpreter::switchOn(ExecutionState &s, const Instr &in, const Function &fn) {
  Frame &f = s.top();
  Value v = eval(f, in.a);
  uint32_t from = f.block;
  const uint32_t cameFrom = f.prevBlock;
  auto otherwise = [&](ExecutionState &st) {
    if (in.op != Opcode::IndirectBr)
      return follow(st, in.target, from);
    // clang gives a function one indirectbr, with no location, that each computed goto
    // branches to: the error is that goto's.
    if (!program_.locations[in.loc].line && cameFrom < fn.blocks.size()) {
      size_t next = fn.blockEnd(cameFrom);
      engine_.currentLoc = fn.instrs[next - 1].loc;
    }
    engine_.error(st, "ptr", "invalid-function-pointer", "indirect branch to an address that is none of its labels");
  };
  if (v.concrete()) {
    for (uint32_t i = 0; i < in.count; ++i)
      if (fn.switchCases[in.imm + i].value == v.bits)
        return follow(s, fn.switchCases[in.imm + i].target, from);
    return otherwise(s);
  }
  // As KLEE: one fork per distinct target, on the disjunction of its case values, in the order
  // the targets first appear among the cases; a case that goes to the default is the default's.
  std::vector<std::pair<uint32_t, ExprRef>> targets;
  for (uint32_t i = 0; i < in.count; ++i) {
    const SwitchCase &c = fn.switchCases[in.imm + i];
    if (in.op == Opcode::Switch && c.target == in.target)
      continue;
    ExprRef match = ctx_.eq(v.sym, ctx_.constant(c.value, in.width));
    auto known = std::find_if(targets.begin(), targets.end(), [&](const auto &t) { return t.first == c.target; });
    if (known == targets.end())
      targets.emplace_back(c.target, match);
    else
      known->second = ctx_.lor(known->second, match);
  }
  ExecutionState *rest = &s;
  for (auto it = targets.begin(); it != targets.end() && rest; ++it) {
    auto [hit, miss] = engine_.branch(*rest, it->second);
    if (hit)
      follow(*hit, it->first, from);
    rest = miss;
  }
  if (rest)
    otherwise(*rest);
}

} // namespace cairn::engine
