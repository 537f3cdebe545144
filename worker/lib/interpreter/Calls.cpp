// Calls and returns: direct calls push a frame, indirect ones fork per function the pointer
// may name, special functions go to the handler table; byval arguments and the varargs area
// are objects of the callee's frame.
#include "executor/Engine.h"
#include "interpreter/Interpreter.h"
#include "interpreter/MathFunctions.h"
#include "interpreter/NativeStrings.h"
#include "memory/HeapAtExit.h"

namespace cairn::engine {

void Interpreter::call(ExecutionState &s, const Instr &in, const Function &fn) {
  const CallSite &site = fn.callSites[in.imm];
  Frame &f = s.top();
  std::vector<Value> args;
  args.reserve(site.numArgs);
  for (uint32_t i = 0; i < site.numArgs; ++i)
    args.push_back(eval(f, fn.callArgs[site.firstArg + i]));
  if (!s.aliases.empty() && site.kind != CallKind::Indirect)
    if (auto alias = s.aliases.find(site.calleeName); alias != s.aliases.end())
      return callAlias(s, in, fn, alias->second, args, site);
  switch (site.kind) {
  case CallKind::Special: return engine_.specials.call(s, in, site, args);
  case CallKind::Direct: return enterFunction(s, in, site.callee, args, site);
  case CallKind::Indirect: {
    Value target = eval(f, site.target);
    if (target.concrete())
      return callAddress(s, in, uint64_t(target.bits), args, site);
    // A symbolic function pointer: one path per function it can point to.
    ExecutionState *rest = &s;
    for (unsigned round = 0; rest && round < 64; ++round) {
      std::optional<u128> v = engine_.questions.concretize(*rest, target, 64, false);
      if (!v)
        return;
      auto [hit, miss] = engine_.branch(*rest, ctx_.eq(target.sym, ctx_.constant(*v, 64)));
      if (hit)
        callAddress(*hit, in, uint64_t(*v), args, site);
      rest = miss;
    }
    if (rest)
      engine_.terminate(*rest, Termination::partialPath("too many call targets"));
    return;
  }
  }
}

// klee_alias_function redirected this call: the function it goes to must take its arguments
// and give the result it expects, or the registers would get values of other widths.
void Interpreter::callAlias(ExecutionState &s, const Instr &in, const Function &caller, uint32_t index,
                            const std::vector<Value> &args, const CallSite &site) {
  const Function &alias = program_.functions[index];
  bool fits = alias.variadic ? args.size() >= alias.numParams : args.size() == alias.numParams;
  for (uint32_t i = 0; fits && i < alias.numParams; ++i)
    fits = site.argWidths[i] == alias.paramWidths[i];
  if (fits && in.dst != ~0u)
    fits = caller.regWidths[in.dst] == alias.returnWidth;
  if (!fits)
    return engine_.error(s, "user", "alias-function",
                         "klee_alias_function: " + alias.name + " does not fit the call to " + site.calleeName);
  enterFunction(s, in, index, args, site);
}

void Interpreter::callAddress(ExecutionState &s, const Instr &in, uint64_t address, const std::vector<Value> &args,
                              const CallSite &site) {
  uint64_t off = address - Program::kFunctionBase;
  if (address < Program::kFunctionBase || off % Program::kFunctionStride ||
      off / Program::kFunctionStride >= program_.functions.size())
    return engine_.error(s, "ptr", "invalid-function-pointer", "call through an invalid function pointer");
  enterFunction(s, in, uint32_t(off / Program::kFunctionStride), args, site);
}

void Interpreter::enterFunction(ExecutionState &s, const Instr &in, uint32_t index, const std::vector<Value> &args,
                                const CallSite &site) {
  const Function &callee = program_.functions[index];
  if (callee.math != MathFunction::None) {
    std::vector<Value> concretised;
    if (callMath(engine_, s, in, callee, args, concretised))
      return;
    if (!concretised.empty())
      return enterFunction(s, in, index, concretised, site);
  }
  if (callee.declarationOnly)
    return engine_.error(s, "external", "external-call",
                         "call to function '" + callee.name + "', which is neither defined nor modelled");
  // A limit of the exploration (KLEE's --max-stack-frames), not of the program: the path is
  // cut short. Only the native stack's size makes a recursion a stack overflow.
  const ExecutorOptions &o = engine_.options;
  if (o.maxStackFrames && s.stack.size() >= o.maxStackFrames)
    return engine_.terminate(s, Termination::partialPath("stack frame limit reached (--max-stack-frames)"));
  if (!StackUsage::fits(s, stack_.frameBytes(index), o.stackSizeBytes))
    return stackOverflow(s);
  // After the frame checks, which the C body's call would meet too.
  if (callee.native != NativeString::None && runNatively(engine_, s, in, callee.native, args))
    return;
  MemoryAccess &memory = engine_.memory;
  Frame f;
  f.function = index;
  StackUsage::add(s, f, stack_.frameBytes(index));
  f.callerDst = in.dst;
  f.callLoc = in.loc;
  f.regs.resize(callee.numRegs);
  for (uint32_t i = 0; i < callee.numParams && i < args.size(); ++i) {
    uint32_t copy = i < site.byValSizes.size() ? site.byValSizes[i] : 0;
    if (!copy) {
      f.regs[i] = args[i];
      continue;
    }
    // byval: the callee gets its own copy of the caller's object.
    uint64_t align = i < site.byValAligns.size() ? site.byValAligns[i] : 0;
    uint64_t mine = memory.allocate(s, copy, ObjectKind::Stack, "by-value argument of " + callee.name, in.loc, {},
                                    align);
    f.allocas.push_back(mine);
    StackUsage::add(s, f, StackUsage::objectBytes(copy));
    Value dst = memory.pointerTo(s, mine);
    Value count{u128(copy)};
    memory.copy(s, dst, args[i], count, 64);
    if (engine_.isTerminated(&s))
      return;
    f.regs[i] = dst;
  }
  // Natively, va_arg past the arguments passed reads the argument registers the named
  // parameters left unused, whatever they hold: libc code relies on it (musl's fcntl and ioctl
  // read their third argument always). Those slots follow the passed ones here, as zeros.
  const uint64_t unusedRegisters = callee.numParams < 6 ? 8 * (6 - callee.numParams) : 0;
  if (callee.variadic && (args.size() > callee.numParams || unusedRegisters)) {
    // The overflow area va_arg reads: each extra argument in 8-byte slots, a by-value
    // aggregate as its bytes (rounded up to 8), as the x86-64 ABI lays out the stack.
    std::vector<uint64_t> offsets;
    uint64_t size = 0;
    for (size_t i = callee.numParams; i < args.size(); ++i) {
      offsets.push_back(size);
      uint32_t copy = i < site.byValSizes.size() ? site.byValSizes[i] : 0;
      size += copy ? (copy + 7) / 8 * 8 : 8;
    }
    f.varargs = memory.allocate(s, size + unusedRegisters, ObjectKind::Stack, "varargs of " + callee.name, in.loc);
    StackUsage::add(s, f, StackUsage::objectBytes(size));
    for (size_t i = callee.numParams; i < args.size(); ++i) {
      uint64_t at = offsets[i - callee.numParams];
      uint32_t copy = i < site.byValSizes.size() ? site.byValSizes[i] : 0;
      if (copy) {
        memory.copy(s, Value{u128(f.varargs + at)}, args[i], Value{u128(copy)}, 64);
        if (engine_.isTerminated(&s))
          return;
        continue;
      }
      Value v = args[i];
      if (!v.concrete() && site.argWidths[i] < 64)
        v = Value(ctx_.zext(v.sym, 64));
      s.memory.writable(f.varargs).write(ctx_, at, v, 8);
    }
  }
  enterBlock(f, 0, ~0u);
  s.stack.push_back(std::move(f));
}

void Interpreter::ret(ExecutionState &s, const Instr &in) {
  Frame &f = s.top();
  Value result = in.hasValue ? eval(f, in.a) : Value();
  uint32_t dst = f.callerDst;
  for (uint64_t a : f.allocas) // the frame's objects go with it
    s.memory.unbind(a);
  if (f.varargs)
    s.memory.unbind(f.varargs);
  StackUsage::release(s, f);
  if (s.stack.size() == 1) { // the program ends; its heap is checked while the frame still says where
    std::optional<ErrorReport> heap = heapErrorAtEnd(engine_, s, ProgramEnd::Return);
    if (engine_.isTerminated(&s))
      return;
    s.stack.pop_back();
    return engine_.terminate(s, Termination::programEnd(std::move(heap)));
  }
  s.stack.pop_back();
  if (dst != ~0u)
    s.top().regs[dst] = std::move(result);
}

} // namespace cairn::engine
