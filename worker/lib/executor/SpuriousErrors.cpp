#include "executor/SpuriousErrors.h"

#include "executor/Engine.h"

namespace cairn::engine {

bool SpuriousErrors::intercept(ExecutionState &s, const Termination &t) {
  const uint32_t function = uint32_t(engine_.currentInstr >> 32), index = uint32_t(engine_.currentInstr);
  const Program &p = engine_.program;
  if (busy_ || !t.error || function >= p.functions.size() || s.stack.empty() || s.top().function != function)
    return false;
  const Function &fn = p.functions[function];
  if (index >= fn.guardOf.size() || fn.guardOf[index] == 0)
    return false;
  const InstrGuard &guard = fn.guards[fn.guardOf[index] - 1];
  busy_ = true;
  ExecutionState *rest = &s;
  for (uint32_t k = 0; k < guard.termCount && rest; ++k) {
    const GuardTerm &term = fn.guardTerms[guard.firstTerm + k];
    ExprRef holds = engine_.ctx.constant(1, 1);
    for (uint32_t l = 0; l < term.literalCount; ++l) {
      const GuardLiteral &literal = fn.guardLiterals[term.firstLiteral + l];
      ExprRef c = engine_.interpreter.eval(rest->top(), literal.cond).expr(engine_.ctx, 1);
      holds = engine_.ctx.land(holds, literal.positive ? c : engine_.ctx.lnot(c));
    }
    auto [real, other] = engine_.branch(*rest, holds);
    if (real && other) {
      // Split: the part where the instruction is the original one runs it again under that
      // constraint, which may decide the error (a model error for want of a fixed value may
      // not recur once the term fixes it); the error then comes back here, the term valid.
      real->top().pc = index;
    } else if (real) {
      // The original instruction at the term's line on the whole state: the error is there.
      const uint32_t here = engine_.currentLoc;
      engine_.currentLoc = term.loc ? term.loc : here;
      ErrorReport e = engine_.makeError(*real, t.error->type, t.error->kind, t.error->message);
      engine_.currentLoc = here;
      engine_.terminate(*real, Termination{std::move(e), t.partial, t.writeTest, t.reason});
    }
    rest = other;
  }
  busy_ = false;
  if (rest) {
    ++filtered_;
    const SourceLocation &at = p.locations[fn.instrs[index].loc];
    locations_.insert(p.files[at.file] + ":" + std::to_string(at.line));
    if (const Instr &in = fn.instrs[index]; in.dst != ~0u)
      rest->top().regs[in.dst] = Value(u128(0));
  }
  return true;
}

} // namespace cairn::engine
