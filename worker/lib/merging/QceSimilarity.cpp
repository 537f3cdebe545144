#include "merging/QceSimilarity.h"

#include <algorithm>

namespace cairn::engine {

using analysis::MemoryVariable;
using analysis::QueryCounts;

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

} // namespace

QceSimilarity::QceSimilarity(const Program &program, analysis::QueryCountEstimate estimate)
    : program_(program), estimate_(std::move(estimate)) {}

const QueryCounts *QceSimilarity::countsAt(const std::vector<analysis::FunctionCounts> &of, const Frame &f,
                                           bool top) const {
  if (f.function >= of.size())
    return nullptr;
  const analysis::FunctionCounts &c = of[f.function];
  if (!c.analysed)
    return nullptr;
  if (top)
    return f.block < c.atBlock.size() ? &c.atBlock[f.block] : nullptr;
  auto it = c.afterCall.find(f.pc - 1);
  return it == c.afterCall.end() ? nullptr : &it->second;
}

PositionId QceSimilarity::position(const ExecutionState &s) {
  scratch_.clear();
  for (const Frame &f : s.stack)
    scratch_.push_back((uint64_t(f.function) << 32) | f.pc);
  auto [it, added] = ids_.try_emplace(scratch_, PositionId(at_.size()));
  if (added)
    at_.push_back(estimateAt(s));
  return it->second;
}

QceSimilarity::AtPosition QceSimilarity::estimateAt(const ExecutionState &s) const {
  std::vector<const QueryCounts *> counts(s.stack.size()), returned(s.stack.size());
  double total = 0;
  for (size_t i = 0; i < s.stack.size(); ++i) {
    const bool top = i + 1 == s.stack.size();
    counts[i] = countsAt(estimate_.functions, s.stack[i], top);
    returned[i] = countsAt(estimate_.returned, s.stack[i], top);
    if (counts[i])
      total += counts[i]->total;
  }
  // What the caller's count on the call's result is, frame by frame from the outermost: its
  // own (infinite where the result is hot whatever its count), plus what the result passes on
  // to the value the caller returns in turn.
  std::vector<double> returnWeight(s.stack.size(), 0);
  for (size_t i = 1; i < s.stack.size(); ++i) {
    const Frame &caller = s.stack[i - 1];
    const Function &fn = program_.functions[caller.function];
    if (!caller.pc || caller.pc > fn.instrs.size() || !counts[i - 1])
      continue;
    const uint32_t result = fn.instrs[caller.pc - 1].dst;
    returnWeight[i] = counts[i - 1]->countFor(result) +
                      (returned[i - 1] ? returned[i - 1]->addedFor(result) * returnWeight[i - 1] : 0);
  }
  AtPosition here;
  here.queriesAhead = total;
  const double alpha = estimate_.options.alpha, zeta = estimate_.options.zeta;
  std::vector<Counted> all;
  for (size_t i = 0; i < s.stack.size(); ++i)
    if (counts[i])
      for (const auto &[v, count] : analysis::variableCounts(*counts[i], returned[i], returnWeight[i])) {
        if (count > alpha * total)
          here.hot.push_back({uint32_t(i), v});
        if (zeta > 1)
          all.push_back({{uint32_t(i), v}, count});
      }
  // Under Eq. 7 a variable matters when, with the largest count of any as the other term, it
  // could tip the sum over alpha * Q_t.
  double largest = 0;
  for (const Counted &c : all)
    largest = std::max(largest, c.count);
  for (const Counted &c : all)
    if ((zeta - 1) * c.count + largest > alpha * total || c.count + (zeta - 1) * largest > alpha * total)
      here.counted.push_back(c);
  return here;
}

std::optional<u128> QceSimilarity::concreteValue(const ExecutionState &s, const Hot &h) const {
  const Frame &f = s.stack[h.frame];
  const analysis::FunctionCounts &c = estimate_.functions[f.function];
  if (h.variable < c.numRegs) {
    if (h.variable >= f.regs.size() || !f.regs[h.variable].concrete())
      return std::nullopt;
    return f.regs[h.variable].bits;
  }
  const MemoryVariable &m = c.memory[h.variable - c.numRegs];
  u128 base;
  if (m.base == MemoryVariable::Base::Global) {
    base = program_.globals[m.index].address;
  } else {
    if (m.index >= f.regs.size() || !f.regs[m.index].concrete())
      return std::nullopt;
    base = f.regs[m.index].bits;
  }
  const uint64_t address = uint64_t(base) + uint64_t(m.offset);
  const AddressSpace::Entry *e = s.memory.find(address);
  if (!e)
    return std::nullopt;
  const uint64_t offset = address - e->object->address;
  const uint32_t n = std::min<uint32_t>(m.size, 16);
  if (offset + n > e->state->size())
    return std::nullopt;
  u128 v = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!e->state->isConcreteByte(offset + i))
      return std::nullopt;
    v |= u128(e->state->concreteByte(offset + i)) << (8 * i);
  }
  return v;
}

bool QceSimilarity::sameValue(const ExecutionState &a, const ExecutionState &b, const Hot &h) const {
  const Frame &fa = a.stack[h.frame], &fb = b.stack[h.frame];
  const analysis::FunctionCounts &c = estimate_.functions[fa.function];
  if (h.variable < c.numRegs)
    return h.variable < fa.regs.size() && h.variable < fb.regs.size() && fa.regs[h.variable].sym &&
           fa.regs[h.variable].sym == fb.regs[h.variable].sym;
  // In memory: the same contents object (copy-on-write shares it until one state writes).
  const MemoryVariable &m = c.memory[h.variable - c.numRegs];
  if (m.base != MemoryVariable::Base::Global &&
      (m.index >= fa.regs.size() || m.index >= fb.regs.size() || !fa.regs[m.index].concrete() ||
       !fb.regs[m.index].concrete() || fa.regs[m.index].bits != fb.regs[m.index].bits))
    return false;
  const u128 base = m.base == MemoryVariable::Base::Global ? program_.globals[m.index].address : fa.regs[m.index].bits;
  const uint64_t address = uint64_t(base) + uint64_t(m.offset);
  const AddressSpace::Entry *x = a.memory.find(address), *y = b.memory.find(address);
  return x && y && x->state == y->state;
}

bool QceSimilarity::similarWithIteCost(const ExecutionState &a, const ExecutionState &b, const AtPosition &here) const {
  double concrete = 0, symbolic = 0;
  for (const Counted &c : here.counted) {
    std::optional<u128> x = concreteValue(a, c.variable), y = concreteValue(b, c.variable);
    if (x && y) {
      if (*x != *y)
        concrete = std::max(concrete, c.count);
    } else if (!sameValue(a, b, c.variable)) {
      symbolic = std::max(symbolic, c.count);
    }
  }
  return !((estimate_.options.zeta - 1) * symbolic + concrete > estimate_.options.alpha * here.queriesAhead);
}

bool QceSimilarity::similar(const ExecutionState &a, const ExecutionState &b, PositionId position) {
  if (estimate_.options.zeta > 1)
    return similarWithIteCost(a, b, at_[position]);
  for (const Hot &h : at_[position].hot) {
    std::optional<u128> x = concreteValue(a, h), y = concreteValue(b, h);
    if (x && y && *x != *y)
      return false;
  }
  return true;
}

uint64_t QceSimilarity::hash(const ExecutionState &s, PositionId position, bool &anySymbolic) {
  anySymbolic = false;
  uint64_t h = mix(0, position);
  for (const Hot &hot : at_[position].hot) {
    std::optional<u128> v = concreteValue(s, hot);
    anySymbolic |= !v;
    h = mix(h, v ? uint64_t(*v) ^ uint64_t(*v >> 64) : 0x5eed5eed5eed5eedull);
    h = mix(h, v ? 1 : 2);
  }
  return h;
}

std::vector<std::string> QceSimilarity::describeHot(const ExecutionState &s) {
  std::vector<std::string> out;
  for (const Hot &h : at_[position(s)].hot) {
    const Function &fn = program_.functions[s.stack[h.frame].function];
    const analysis::FunctionCounts &c = estimate_.functions[s.stack[h.frame].function];
    std::string name;
    if (h.variable < c.numRegs) {
      name = "%" + std::to_string(h.variable);
    } else {
      const MemoryVariable &m = c.memory[h.variable - c.numRegs];
      switch (m.base) {
      case MemoryVariable::Base::Global: name = program_.globals[m.index].name; break;
      case MemoryVariable::Base::Pointee: name = "*%" + std::to_string(m.index); break;
      case MemoryVariable::Base::Local:
        name = "%" + std::to_string(m.index);
        for (const auto &[reg, local] : fn.localNames)
          if (reg == m.index)
            name = local;
        break;
      }
      if (m.offset)
        name += "+" + std::to_string(m.offset);
    }
    out.push_back(fn.name + ":" + name);
  }
  return out;
}

} // namespace cairn::engine
