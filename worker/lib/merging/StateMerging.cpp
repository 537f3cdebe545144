#include "merging/StateMerging.h"

#include "cairn/expr/ExprUtil.h"
#include "merging/Snapshots.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace cairn::engine {

// --- Compatibility ------------------------------------------------------------------------------

std::string incompatibilityOutsideContexts(const ExecutionState &a, const ExecutionState &b) {
  if (a.stack.size() != b.stack.size())
    return "different call stacks";
  for (size_t i = 0; i < a.stack.size(); ++i) {
    const Frame &x = a.stack[i], &y = b.stack[i];
    if (x.function != y.function || x.block != y.block || x.pc != y.pc || x.callerDst != y.callerDst ||
        x.callLoc != y.callLoc || x.allocas != y.allocas || x.varargs != y.varargs ||
        x.regs.size() != y.regs.size())
      return "different call stacks";
  }
  const auto &ao = a.memory.objects(), &bo = b.memory.objects();
  if (ao.size() != bo.size())
    return "different objects allocated";
  for (auto i = ao.begin(), j = bo.begin(); i != ao.end(); ++i, ++j)
    if (i->first != j->first || i->second.object != j->second.object)
      return "different objects allocated";
  if (a.inputs.size() != b.inputs.size())
    return "different symbolic inputs";
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (a.inputs[i].array != b.inputs[i].array)
      return "different symbolic inputs";
  if (a.output.size() != b.output.size() || a.errorOutput.size() != b.errorOutput.size())
    return "different amounts of output printed";
  if (a.model.get() && b.model.get())
    if (const char *why = a.model.get()->incompatibility(*b.model.get()))
      return why;
  const bool sameSizes = a.sizeSymbols == b.sizeSymbols ||
                         (a.sizeSymbols && b.sizeSymbols && *a.sizeSymbols == *b.sizeSymbols);
  if (!sameSizes)
    return "different symbolic-size objects";
  if (a.forking != b.forking)
    return "forking on in one, off in the other (klee_set_forking)";
  if (a.aliases != b.aliases)
    return "different function aliases (klee_alias_function)";
  return {};
}

std::string incompatibility(const ExecutionState &a, const ExecutionState &b) {
  if (a.merges.size() != b.merges.size())
    return "different merge contexts";
  for (size_t i = 0; i < a.merges.size(); ++i)
    if (a.merges[i].context != b.merges[i].context)
      return "different merge contexts";
  return incompatibilityOutsideContexts(a, b);
}

// --- Merging ------------------------------------------------------------------------------------

bool sameValue(const Value &a, const Value &b) {
  return a.concrete() ? b.concrete() && a.bits == b.bits : a.sym == b.sym;
}

namespace {

// What a state printed, byte by byte: the character, or its expression where it was symbolic.
class PrintedBytes {
public:
  explicit PrintedBytes(const ExecutionState &s) : state_(s) {
    for (const ExecutionState::OutputByte &b : s.symbolicOutput)
      symbolic_[key(b.stream, b.position)] = b.byte;
  }
  static bool same(const ExecutionState &a, const ExecutionState &b) {
    return a.output == b.output && a.errorOutput == b.errorOutput && a.symbolicOutput == b.symbolicOutput;
  }
  ExprRef byte(ExprContext &ctx, uint8_t stream, uint32_t position) const {
    auto it = symbolic_.find(key(stream, position));
    if (it != symbolic_.end())
      return it->second;
    const std::string &text = stream == 2 ? state_.errorOutput : state_.output;
    return ctx.constant(uint8_t(text[position]), 8);
  }

private:
  static uint64_t key(uint8_t stream, uint32_t position) { return (uint64_t(stream) << 32) | position; }
  const ExecutionState &state_;
  std::unordered_map<uint64_t, ExprRef> symbolic_;
};

// Outputs of the same length merge byte by byte: a byte the states printed differently becomes
// a symbolic byte, each state's own under its path, which a test evaluates under its inputs.
void mergeOutputs(ExprContext &ctx, MergeEncoding &merger, std::span<ExecutionState *const> group) {
  auto samePrinted = [&](const ExecutionState *s) { return PrintedBytes::same(*s, *group.front()); };
  if (std::all_of(group.begin() + 1, group.end(), samePrinted))
    return;
  std::vector<PrintedBytes> printed;
  for (const ExecutionState *s : group)
    printed.emplace_back(*s);
  ExecutionState &first = *group.front();
  std::vector<ExecutionState::OutputByte> merged;
  std::vector<ExprRef> values(group.size());
  for (uint8_t stream : {uint8_t(1), uint8_t(2)}) {
    const uint32_t n = uint32_t((stream == 2 ? first.errorOutput : first.output).size());
    for (uint32_t p = 0; p < n; ++p) {
      bool differ = false;
      for (size_t i = 0; i < group.size(); ++i) {
        values[i] = printed[i].byte(ctx, stream, p);
        differ |= values[i] != values[0];
      }
      if (differ || !values[0]->isConstant())
        merged.push_back({stream, p, differ ? merger.merge(values) : values[0]});
    }
  }
  first.symbolicOutput = std::move(merged);
}

// Byte `b` is the same concrete byte in every state's contents: nothing to merge, and no
// expression to build to find that out.
bool sameConcreteByte(std::span<const AddressSpace::Entry> entries, uint64_t b) {
  const ObjectState &first = *entries.front().state;
  if (!first.isConcreteByte(b))
    return false;
  for (const AddressSpace::Entry &e : entries.subspan(1))
    if (!e.state->isConcreteByte(b) || e.state->concreteByte(b) != first.concreteByte(b))
      return false;
  return true;
}

// What the merged state counts of the paths it stands for: how many, how deep, what they covered.
void joinCounts(std::span<ExecutionState *const> group) {
  ExecutionState &first = *group.front();
  for (const ExecutionState *s : group) {
    first.depth = std::max(first.depth, s->depth);
    first.instructions = std::max(first.instructions, s->instructions);
    first.instructionsSinceNewCoverage =
        std::min(first.instructionsSinceNewCoverage, s->instructionsSinceNewCoverage);
    first.coveredNew = first.coveredNew || s->coveredNew;
    if (s != &first)
      first.multiplicity = addPaths(first.multiplicity, s->multiplicity);
  }
  first.merged = true;
}

} // namespace

void mergeEnding(std::span<ExecutionState *const> group) { joinCounts(group); }

MergeOutcome mergeStates(ExprContext &ctx, const Program &program, const MergeContext &context,
                         std::span<ExecutionState *const> group, EncodingChoice encoding, bool measure,
                         bool validate) {
  MergeOutcome out;
  ExecutionState &first = *group.front();
  for (size_t i = 1; i < group.size() && !context.groupCompatible; ++i)
    if (std::string why = incompatibility(first, *group[i]); !why.empty()) {
      out.refusal = why;
      return out;
    }
  std::unique_ptr<MergeEncoding> merger = createMergeEncoding(encoding, ctx, context, group);
  merger->measure(measure);
  merger->validate(validate);
  out.quantified = merger->quantified();
  std::vector<ExprRef> values(group.size());

  // Registers of every frame: those that differ, and their widths, are found before any is
  // merged, so that a refusal leaves the states as they were without a copy of the stack.
  struct Differing {
    uint32_t frame, reg;
    unsigned width;
  };
  std::vector<Differing> differing;
  for (size_t f = 0; f < first.stack.size(); ++f) {
    const Frame &frame = first.stack[f];
    const Function &fn = program.functions[frame.function];
    const std::vector<bool> *live = f < context.liveRegisters.size() ? context.liveRegisters[f] : nullptr;
    for (size_t r = 0; r < frame.regs.size(); ++r) {
      if (live && r < live->size() && !(*live)[r])
        continue; // never read again: the first state's value stands
      const Value &mine = frame.regs[r];
      bool same = true;
      for (const ExecutionState *s : group)
        same &= sameValue(s->stack[f].regs[r], mine);
      if (same)
        continue;
      unsigned width = r < fn.regWidths.size() ? fn.regWidths[r] : 0;
      for (size_t i = 0; i < group.size(); ++i) {
        const Value &v = group[i]->stack[f].regs[r];
        if (!width && v.sym)
          width = v.sym->width();
        if (v.sym && v.sym->width() != width) {
          out.refusal = "a register of " + fn.name + " differs in width";
          return out;
        }
      }
      if (!width) {
        out.refusal = "a register of " + fn.name + " wider than 128 bits differs";
        return out;
      }
      differing.push_back({uint32_t(f), uint32_t(r), width});
    }
  }
  std::vector<Value> mergedRegs;
  mergedRegs.reserve(differing.size());
  for (const Differing &d : differing) {
    for (size_t i = 0; i < group.size(); ++i)
      values[i] = group[i]->stack[d.frame].regs[d.reg].expr(ctx, d.width);
    mergedRegs.push_back(Value(merger->merge(values)));
  }

  // Memory: the objects are the same in every state; their contents may differ byte by byte.
  AddressSpace memory = first.memory;
  std::vector<AddressSpace::Entry> entries(group.size());
  for (const auto &[address, entry] : first.memory.objects()) {
    bool shared = true;
    for (size_t i = 0; i < group.size(); ++i) {
      entries[i] = *group[i]->memory.findBase(address);
      shared &= entries[i].state == entry.state;
    }
    if (shared)
      continue;
    auto contents = std::make_shared<ObjectState>(*entry.state);
    for (uint64_t b = 0; b < contents->size(); ++b) {
      if (sameConcreteByte(entries, b))
        continue;
      bool same = true;
      for (size_t i = 0; i < group.size(); ++i) {
        values[i] = entries[i].state->byteExpr(ctx, b);
        same &= values[i] == values[0];
      }
      if (!same)
        contents->write(ctx, b, Value(merger->merge(values)), 1);
    }
    memory.bind(entry.object, std::move(contents));
  }

  mergeOutputs(ctx, *merger, group);

  // The common prefix, then the disjunction of what the paths added after it.
  first.constraints.truncate(context.prefixConstraints);
  if (!merger->condition()->isTrue())
    first.constraints.push_back(merger->condition());
  first.decisions.resize(context.prefixDecisions);
  joinLineages(group);
  // Objects that lived and died on one path only (a callee's locals) leave their addresses
  // unused and remembered as freed: the merged state allocates past all of them.
  for (const ExecutionState *s : group) {
    first.nextAddress = std::max(first.nextAddress, s->nextAddress);
    if (s != &first)
      first.freed.insert(first.freed.end(), s->freed.begin(), s->freed.end());
  }
  std::sort(first.freed.begin(), first.freed.end());
  first.freed.erase(std::unique(first.freed.begin(), first.freed.end()), first.freed.end());
  for (const ExecutionState *s : group)
    if (first.model.get())
      first.model.get()->merged(*s->model.get());
  joinCounts(group);
  for (size_t k = 0; k < differing.size(); ++k)
    first.stack[differing[k].frame].regs[differing[k].reg] = std::move(mergedRegs[k]);
  first.memory = std::move(memory);
  out.merged = true;
  out.constraintNodes = measure ? dagSize(merger->condition().get()) : 0;
  out.valueNodes = merger->valueNodes();
  if (validate)
    out.obligations = merger->obligations();
  return out;
}

} // namespace cairn::engine
