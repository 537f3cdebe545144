// memcpy, memmove and memset, and the varargs intrinsics, whose va_list lives in memory.
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"

namespace cairn::engine {

namespace {

// x86-64 va_list: gp_offset, fp_offset, overflow_arg_area, reg_save_area. Every register is
// marked used, so va_arg reads from the frame's overflow area (Calls.cpp).
void vaStart(const SpecialCall &c) {
  Engine &e = c.engine;
  const uint64_t area = c.state.top().varargs;
  e.memory.resolve(c.state, c.args[0], 24, true, [&](ExecutionState &st, const AddressSpace::Entry &entry, const Value &off) {
    if (!off.concrete())
      return;
    ObjectState &os = st.memory.writable(entry.object->address);
    uint64_t o = uint64_t(off.bits);
    os.write(e.ctx, o, Value(u128(48)), 4);
    os.write(e.ctx, o + 4, Value(u128(304)), 4);
    os.write(e.ctx, o + 8, Value(u128(area)), 8);
    os.write(e.ctx, o + 16, Value(u128(0)), 8);
  });
}

// llvm.load.relative(ptr, offset): ptr plus the 32-bit signed offset stored at ptr + offset,
// the lookup tables of switches and string tables an optimised position-independent build has.
void loadRelative(const SpecialCall &c) {
  Engine &e = c.engine;
  const Value base = c.arg(0), offset = c.arg(1);
  Value where = base.concrete() && offset.concrete() ? Value((base.bits + offset.bits) & widthMask(64))
                                                     : Value(e.ctx.add(base.expr(e.ctx, 64), offset.expr(e.ctx, 64)));
  e.memory.resolve(c.state, where, 4, false, [&](ExecutionState &st, const AddressSpace::Entry &entry, const Value &off) {
    Value rel = e.memory.readAt(st, entry, off, 4);
    Value target = rel.concrete() && base.concrete()
                       ? Value((base.bits + u128(uint64_t(int64_t(int32_t(uint32_t(rel.bits)))))) & widthMask(64))
                       : Value(e.ctx.add(base.expr(e.ctx, 64), e.ctx.sext(rel.expr(e.ctx, 32), 64)));
    e.interpreter.returnValue(st, c.instr, std::move(target));
  });
}

} // namespace

void addMemoryHandlers(SpecialHandlers &table) {
  auto copy = [](const SpecialCall &c) { c.engine.memory.copy(c.state, c.arg(0), c.arg(1), c.arg(2), c.argWidth(2)); };
  table[size_t(Special::Memcpy)] = copy;
  table[size_t(Special::Memmove)] = copy;
  table[size_t(Special::Memset)] = [](const SpecialCall &c) {
    c.engine.memory.set(c.state, c.arg(0), c.arg(1), c.arg(2), c.argWidth(2));
  };
  table[size_t(Special::VaStart)] = &vaStart;
  table[size_t(Special::LoadRelative)] = &loadRelative;
  table[size_t(Special::VaCopy)] = [](const SpecialCall &c) {
    c.engine.memory.copy(c.state, c.args[0], c.args[1], Value(u128(24)), 64);
  };
  table[size_t(Special::VaEnd)] = [](const SpecialCall &) {};
}

} // namespace cairn::engine
