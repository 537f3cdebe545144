// A function's locals: stack objects, counted against the native stack (StackUsage.h), so a
// path whose frames outgrow it ends with the stack overflow the native program has.
#include "executor/Engine.h"
#include "interpreter/Interpreter.h"

#include <algorithm>

namespace cairn::engine {

void Interpreter::allocateLocal(ExecutionState &s, const Instr &in, const Function &fn) {
  const Frame &f = s.top();
  Value count = eval(f, in.a);
  Value size = count.concrete() ? Value(u128(uint64_t(count.bits) * in.imm))
                                : Value(ctx_.mul(ctx_.zextOrTrunc(count.sym, 64), ctx_.constant(in.imm, 64)));
  // The entry block's fixed locals were counted when the frame was pushed.
  const bool counted = StackUsage::countedWithFrame(f, in);
  const uint64_t stackSize = engine_.options.stackSizeBytes;
  if (!counted && size.concrete() &&
      !StackUsage::fits(s, StackUsage::objectBytes(uint64_t(std::min(size.bits, u128(1) << 62))), stackSize))
    return stackOverflow(s);
  engine_.sizes.allocate(s, size, ObjectKind::Stack, "local in " + fn.name, in.loc, [&](ExecutionState &st, uint64_t a) {
    if (!a) // too large: NULL, as KLEE's huge alloca
      return setReg(st, in, Value(u128(0)));
    st.top().allocas.push_back(a);
    if (!counted) { // a symbolic size has its value (or capacity) only now
      const uint64_t bytes = StackUsage::objectBytes(st.memory.findBase(a)->object->size);
      if (!StackUsage::fits(st, bytes, stackSize))
        return stackOverflow(st);
      StackUsage::add(st, st.top(), bytes);
    }
    setReg(st, in, engine_.memory.pointerTo(st, a));
  }, uint64_t(in.offset)); // the alloca's alignment
}

void Interpreter::stackOverflow(ExecutionState &s) {
  engine_.error(s, "exec", "stack-overflow",
                "stack overflow: this path's frames need more than the " +
                    std::to_string(engine_.options.stackSizeBytes) + "-byte native stack (--stack-size)");
}

} // namespace cairn::engine
