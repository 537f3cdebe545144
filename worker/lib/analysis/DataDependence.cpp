#include "analysis/DataDependence.h"

#include <algorithm>

namespace cairn::engine::analysis {

namespace {

// The operands an instruction computes its result from (not the callee's arguments: calls are
// leaves), calling `f` on each.
template <class F> void forEachValueOperand(const Function &fn, const Instr &in, F f) {
  switch (in.op) {
  case Opcode::Binary: case Opcode::Compare: case Opcode::InsertBits: case Opcode::ExtractElement:
  case Opcode::Shuffle:
    f(in.a);
    f(in.b);
    return;
  case Opcode::ZExt: case Opcode::SExt: case Opcode::Trunc: case Opcode::Move: case Opcode::ExtractBits:
    f(in.a);
    return;
  case Opcode::Select: case Opcode::InsertElement:
    f(in.a);
    f(in.b);
    f(in.c);
    return;
  case Opcode::Float:
    f(in.a);
    if (floatOperandCount(FloatOp(in.imm)) > 1)
      f(in.b);
    if (floatOperandCount(FloatOp(in.imm)) > 2)
      f(in.c);
    return;
  case Opcode::Gep:
    f(in.a);
    for (uint32_t k = 0; k < in.count; ++k)
      f(fn.gepTerms[in.imm + k].index);
    return;
  default:
    return;
  }
}

int64_t signExtend(u128 v, unsigned width) {
  if (width >= 64)
    return int64_t(uint64_t(v));
  const uint64_t x = uint64_t(v) & ((uint64_t(1) << width) - 1);
  const uint64_t sign = uint64_t(1) << (width - 1);
  return int64_t((x ^ sign) - sign);
}

} // namespace

GlobalIndex::GlobalIndex(const Program &program) : program_(program) {
  for (uint32_t i = 0; i < program.globals.size(); ++i)
    if (program.globals[i].size)
      byAddress_.push_back({program.globals[i].address, i});
  std::sort(byAddress_.begin(), byAddress_.end());
}

std::optional<std::pair<uint32_t, uint64_t>> GlobalIndex::find(u128 address) const {
  auto it = std::upper_bound(byAddress_.begin(), byAddress_.end(), std::pair{uint64_t(address), ~0u});
  if (it == byAddress_.begin() || address >> 64)
    return std::nullopt;
  --it;
  const GlobalObject &g = program_.globals[it->second];
  if (uint64_t(address) - g.address >= g.size)
    return std::nullopt;
  return std::pair{it->second, uint64_t(address) - g.address};
}

DataDependence::DataDependence(const Program &program, const Function &fn, const GlobalIndex &globals)
    : program_(program), fn_(fn), globals_(globals), def_(fn.numRegs, ~0u), escapes_(fn.numRegs, 0) {
  for (uint32_t i = 0; i < fn.instrs.size(); ++i)
    if (fn.instrs[i].dst < fn.numRegs)
      def_[fn.instrs[i].dst] = i;
  auto isAlloca = [&](const Operand &o) {
    return !o.constant && o.index < fn.numRegs && def_[o.index] != ~0u && fn.instrs[def_[o.index]].op == Opcode::Alloca;
  };
  auto escape = [&](const Operand &o) {
    if (isAlloca(o))
      escapes_[o.index] = 1;
  };
  for (const Instr &in : fn.instrs) {
    switch (in.op) {
    case Opcode::Load: break;
    case Opcode::Store: escape(in.a); break;
    case Opcode::Call: {
      const CallSite &c = fn.callSites[in.imm];
      for (uint32_t k = 0; k < c.numArgs; ++k)
        escape(fn.callArgs[c.firstArg + k]);
      break;
    }
    case Opcode::Ret: escape(in.a); break;
    case Opcode::AtomicRmw: case Opcode::CmpXchg:
      escape(in.a);
      escape(in.b);
      escape(in.c);
      break;
    default: forEachValueOperand(fn, in, escape);
    }
  }
  for (const PhiMove &m : fn.phiMoves)
    escape(m.src);
  findParameterSlots();
}

// A slot stored once, on entry, with a parameter, and whose address stays in the function.
void DataDependence::findParameterSlots() {
  std::unordered_map<uint32_t, uint32_t> stores; // alloca register -> stores to it
  std::unordered_map<uint32_t, uint32_t> stored; // alloca register -> the parameter, when stored on entry
  const uint32_t entryEnd = fn_.blockEnd(0);
  for (uint32_t i = 0; i < fn_.instrs.size(); ++i) {
    const Instr &in = fn_.instrs[i];
    if (in.op != Opcode::Store || in.b.constant || in.b.index >= fn_.numRegs)
      continue;
    ++stores[in.b.index];
    if (i < entryEnd && !in.a.constant && in.a.index < fn_.numParams)
      stored[in.b.index] = in.a.index;
  }
  for (const auto &[slot, param] : stored)
    if (stores[slot] == 1 && !escapes_[slot] && def_[slot] != ~0u && fn_.instrs[def_[slot]].op == Opcode::Alloca)
      paramSlots_[slot] = param;
}

uint32_t DataDependence::parameterInSlot(uint32_t allocaReg) const {
  auto it = paramSlots_.find(allocaReg);
  return it == paramSlots_.end() ? ~0u : it->second;
}

bool DataDependence::escapes(uint32_t allocaReg) const { return allocaReg >= escapes_.size() || escapes_[allocaReg]; }

uint32_t DataDependence::leafOf(uint32_t reg) const {
  const uint32_t d = def_[reg];
  if (d == ~0u)
    return reg;
  const Instr &in = fn_.instrs[d];
  if (in.op == Opcode::Load && !in.a.constant)
    if (uint32_t p = parameterInSlot(in.a.index); p != ~0u)
      return p;
  return reg;
}

std::optional<uint32_t> DataDependence::find(const MemoryVariable &v) const {
  auto it = std::find(memory_.begin(), memory_.end(), v);
  if (it == memory_.end())
    return std::nullopt;
  return fn_.numRegs + uint32_t(it - memory_.begin());
}

uint32_t DataDependence::intern(const MemoryVariable &v) {
  if (std::optional<uint32_t> id = find(v))
    return *id;
  memory_.push_back(v);
  return fn_.numRegs + uint32_t(memory_.size() - 1);
}

std::optional<MemoryVariable> DataDependence::addressOf(const Operand &address) const {
  int64_t offset = 0;
  Operand o = address;
  for (unsigned steps = 0; steps < 64; ++steps) {
    if (o.constant) {
      auto g = globals_.find(program_.constants[o.index] + u128(offset));
      if (!g)
        return std::nullopt;
      return MemoryVariable{MemoryVariable::Base::Global, g->first, int64_t(g->second), 0};
    }
    if (o.index >= fn_.numRegs)
      return std::nullopt;
    const uint32_t reg = leafOf(o.index);
    if (reg < fn_.numParams)
      return MemoryVariable{MemoryVariable::Base::Pointee, reg, offset, 0};
    const uint32_t d = def_[reg];
    if (d == ~0u)
      return std::nullopt;
    const Instr &in = fn_.instrs[d];
    if (in.op == Opcode::Alloca)
      return MemoryVariable{MemoryVariable::Base::Local, reg, offset, 0};
    if (in.op == Opcode::Move) {
      o = in.a;
      continue;
    }
    if (in.op != Opcode::Gep)
      return std::nullopt;
    offset += in.offset;
    for (uint32_t k = 0; k < in.count; ++k) {
      const GepTerm &t = fn_.gepTerms[in.imm + k];
      if (!t.index.constant)
        return std::nullopt;
      offset += signExtend(program_.constants[t.index.index], t.indexWidth) * t.scale;
    }
    o = in.a;
  }
  return std::nullopt;
}

std::optional<uint32_t> DataDependence::slot(const Operand &address, uint32_t size) {
  std::optional<MemoryVariable> v = addressOf(address);
  if (!v)
    return std::nullopt;
  v->size = size;
  return intern(*v);
}

std::optional<uint32_t> DataDependence::existingSlot(const Operand &address, uint32_t size) const {
  std::optional<MemoryVariable> v = addressOf(address);
  if (!v)
    return std::nullopt;
  v->size = size;
  return find(*v);
}

std::span<const uint32_t> DataDependence::sources(const Operand &value) {
  if (value.constant || value.index >= fn_.numRegs)
    return {};
  return walk(value).variables;
}

bool DataDependence::computedInFloat(const Operand &value) {
  return !value.constant && value.index < fn_.numRegs && walk(value).viaFloat;
}

const DataDependence::Sources &DataDependence::walk(const Operand &value) {
  auto [it, fresh] = sourceCache_.try_emplace(value.index);
  if (!fresh)
    return it->second;
  Sources found;
  std::vector<uint32_t> &out = found.variables;
  std::vector<uint32_t> work{value.index}, seen;
  while (!work.empty()) {
    const uint32_t r = work.back();
    work.pop_back();
    if (std::find(seen.begin(), seen.end(), r) != seen.end())
      continue;
    seen.push_back(r);
    const uint32_t d = def_[r];
    const Instr *in = d == ~0u ? nullptr : &fn_.instrs[d];
    if (in && in->op == Opcode::Alloca)
      continue; // an address of this frame: the same in every state
    bool leaf = !in;
    if (in)
      switch (in->op) {
      case Opcode::Load: case Opcode::Call: case Opcode::AtomicRmw: case Opcode::CmpXchg:
        leaf = true;
        break;
      default:
        found.viaFloat |= in->op == Opcode::Float;
        forEachValueOperand(fn_, *in, [&](const Operand &o) {
          if (!o.constant && o.index < fn_.numRegs)
            work.push_back(o.index);
        });
      }
    if (leaf) {
      const uint32_t l = leafOf(r);
      if (std::find(out.begin(), out.end(), l) == out.end())
        out.push_back(l);
    }
  }
  std::sort(out.begin(), out.end());
  // sourceCache_ may have rehashed: look the entry up again.
  return sourceCache_[value.index] = std::move(found);
}

} // namespace cairn::engine::analysis
