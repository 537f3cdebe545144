#include "analysis/TripCounts.h"

#include "cairn/expr/Fold.h"

#include <optional>

namespace cairn::engine::analysis {

namespace {

struct Induction {
  u128 init = 0;
  u128 step = 0; // added each iteration, modulo the width
};

const Instr *definitionOf(const Function &fn, const DataDependence &deps, const Operand &o) {
  if (o.constant || o.index >= fn.numRegs)
    return nullptr;
  const uint32_t d = deps.definition(o.index);
  return d == ~0u ? nullptr : &fn.instrs[d];
}

// `next` is `current + constant` or `current - constant`: the step, as an addition.
std::optional<u128> stepOf(const Program &program, const Instr &next, auto isCurrent) {
  if (next.op != Opcode::Binary || (next.kind != Kind::Add && next.kind != Kind::Sub))
    return std::nullopt;
  const u128 mask = next.width >= 128 ? ~u128(0) : (u128(1) << next.width) - 1;
  if (isCurrent(next.a) && next.b.constant) {
    const u128 c = program.constants[next.b.index];
    return next.kind == Kind::Add ? c & mask : (u128(0) - c) & mask;
  }
  if (next.kind == Kind::Add && isCurrent(next.b) && next.a.constant)
    return program.constants[next.a.index] & mask;
  return std::nullopt;
}

// The induction variable in an unescaping slot: a constant stored on the way into the loop
// (the header's one predecessor outside it, or the single-predecessor blocks before that), and
// one store of `slot +/- constant` by the loop's one latch.
std::optional<Induction> slotInduction(const Program &program, const Function &fn, const ControlFlow &cfg,
                                       DataDependence &deps, uint32_t loop, uint32_t slotReg) {
  const LoopInfo &l = cfg.loops()[loop];
  if (deps.escapes(slotReg))
    return std::nullopt;
  auto storesSlot = [&](const Instr &in) { return in.op == Opcode::Store && !in.b.constant && in.b.index == slotReg; };
  auto loadsSlot = [&](const Operand &o) {
    const Instr *d = definitionOf(fn, deps, o);
    return d && d->op == Opcode::Load && !d->a.constant && d->a.index == slotReg;
  };
  uint32_t outside = ~0u, latch = ~0u;
  for (uint32_t p : cfg.predecessors(l.header)) {
    uint32_t &which = cfg.inLoop(loop, p) ? latch : outside;
    if (which != ~0u)
      return std::nullopt;
    which = p;
  }
  if (outside == ~0u || latch == ~0u)
    return std::nullopt;
  std::optional<u128> step;
  for (uint32_t b : l.blocks)
    for (uint32_t i = fn.blocks[b].firstInstr; i < fn.blockEnd(b); ++i) {
      const Instr &in = fn.instrs[i];
      if (!storesSlot(in))
        continue;
      const Instr *next = definitionOf(fn, deps, in.a);
      if (b != latch || step || !next)
        return std::nullopt;
      step = stepOf(program, *next, loadsSlot);
      if (!step)
        return std::nullopt;
    }
  if (!step)
    return std::nullopt;
  for (uint32_t b = outside, hops = 0; hops < 8; ++hops) {
    for (uint32_t i = fn.blockEnd(b); i-- > fn.blocks[b].firstInstr;)
      if (storesSlot(fn.instrs[i])) {
        if (!fn.instrs[i].a.constant)
          return std::nullopt;
        return Induction{program.constants[fn.instrs[i].a.index], *step};
      }
    if (cfg.predecessors(b).size() != 1)
      return std::nullopt;
    b = cfg.predecessors(b).front();
  }
  return std::nullopt;
}

// The induction variable in a phi of the header: a constant from outside, `phi +/- constant`
// from the latch.
std::optional<Induction> phiInduction(const Program &program, const Function &fn, const ControlFlow &cfg,
                                      const DataDependence &deps, uint32_t loop, uint32_t phi) {
  const LoopInfo &l = cfg.loops()[loop];
  std::optional<u128> init, step;
  for (const BasicBlock::Edge &e : fn.blocks[l.header].edges)
    for (uint32_t k = 0; k < e.count; ++k) {
      const PhiMove &m = fn.phiMoves[e.first + k];
      if (m.dst != phi)
        continue;
      if (!cfg.inLoop(loop, e.from)) {
        if (!m.src.constant || (init && *init != program.constants[m.src.index]))
          return std::nullopt;
        init = program.constants[m.src.index];
        continue;
      }
      const Instr *next = definitionOf(fn, deps, m.src);
      std::optional<u128> s =
          next ? stepOf(program, *next, [&](const Operand &o) { return !o.constant && o.index == phi; }) : std::nullopt;
      if (!s || (step && *step != *s))
        return std::nullopt;
      step = s;
    }
  if (!init || !step)
    return std::nullopt;
  return Induction{*init, *step};
}

} // namespace

void findTripCounts(const Program &program, const Function &fn, ControlFlow &cfg, DataDependence &deps,
                    uint32_t limit) {
  for (uint32_t loop = 0; loop < cfg.loops().size(); ++loop) {
    const uint32_t header = cfg.loops()[loop].header;
    const Instr &t = cfg.terminator(header);
    if (t.op != Opcode::CondBr || cfg.inLoop(loop, t.target) == cfg.inLoop(loop, t.target2))
      continue;
    const bool staysWhen = cfg.inLoop(loop, t.target);
    const Instr *cmp = definitionOf(fn, deps, t.a);
    if (!cmp || cmp->op != Opcode::Compare || cmp->a.constant == cmp->b.constant)
      continue;
    const bool variableFirst = !cmp->a.constant;
    const Operand &var = variableFirst ? cmp->a : cmp->b;
    const u128 bound = program.constants[(variableFirst ? cmp->b : cmp->a).index];
    std::optional<Induction> ind;
    if (const Instr *d = definitionOf(fn, deps, var); d && d->op == Opcode::Load && !d->a.constant &&
                                                      deps.definition(d->a.index) != ~0u &&
                                                      fn.instrs[deps.definition(d->a.index)].op == Opcode::Alloca)
      ind = slotInduction(program, fn, cfg, deps, loop, d->a.index);
    else if (!d && var.index >= fn.numParams)
      ind = phiInduction(program, fn, cfg, deps, loop, var.index);
    if (!ind)
      continue;
    const unsigned width = cmp->imm;
    const u128 mask = width >= 128 ? ~u128(0) : (u128(1) << width) - 1;
    u128 v = ind->init & mask;
    for (uint32_t n = 0; n <= limit; ++n) {
      const bool holds = (foldBinary(cmp->kind, variableFirst ? v : bound, variableFirst ? bound : v, width) != 0) !=
                         cmp->negate;
      if (holds != staysWhen) {
        cfg.setTripCount(loop, n);
        break;
      }
      v = (v + ind->step) & mask;
    }
  }
}

} // namespace cairn::engine::analysis
