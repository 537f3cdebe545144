// KLEE's API for steering a state and asking about its memory: klee_set_forking,
// klee_alias_function, klee_stack_trace, klee_check_memory_access, klee_define_fixed_object,
// klee_get_obj_size and klee_print_range.
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"

#include <spdlog/spdlog.h>

namespace cairn::engine {

namespace {

// KLEE wants a constant; a symbolic flag is fixed to one of its values instead, which the
// replay (where it is concrete) follows too.
void setForking(const SpecialCall &c) {
  if (std::optional<u128> enable = c.engine.questions.concretize(c.state, c.arg(0), c.argWidth(0), true))
    c.state.forking = *enable != 0;
}

// Calls by name to `fn` go to `alias` on this state from now on; the same name twice takes
// the alias back. Calls through function pointers are not redirected, as in KLEE.
void aliasFunction(const SpecialCall &c) {
  Engine &e = c.engine;
  std::string fn = e.memory.readString(c.state, c.arg(0));
  std::string alias = e.memory.readString(c.state, c.arg(1));
  if (fn == alias) {
    c.state.aliases.erase(fn);
    return;
  }
  const std::vector<Function> &functions = e.program.functions;
  for (uint32_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == alias && !functions[i].declarationOnly) {
      c.state.aliases[fn] = i;
      return;
    }
  e.error(c.state, "user", "alias-function",
          "klee_alias_function: no function named '" + alias + "' is defined in the program");
}

void stackTrace(const SpecialCall &c) {
  std::vector<std::string> frames = c.engine.stackTrace(c.state);
  spdlog::info("klee_stack_trace: {} frames", frames.size());
  for (size_t i = 0; i < frames.size(); ++i)
    spdlog::info("klee_stack_trace: #{} {}", i, frames[i]);
}

// As an access of that many bytes would be checked (the same errors), without the access.
void checkMemoryAccess(const SpecialCall &c) {
  Engine &e = c.engine;
  std::optional<u128> n = e.questions.concretize(c.state, c.arg(1), c.argWidth(1), true);
  if (!n)
    return;
  if (*n > UINT32_MAX)
    return e.error(c.state, "ptr", "out-of-bounds",
                   "klee_check_memory_access: " + std::to_string(uint64_t(*n)) + " bytes are no object's");
  e.memory.resolve(c.state, c.arg(0), unsigned(*n), false, [](ExecutionState &, const AddressSpace::Entry &, const Value &) {});
}

// KLEE wants constants; symbolic ones are fixed to one of their values.
void defineFixedObject(const SpecialCall &c) {
  Engine &e = c.engine;
  std::optional<u128> address = e.questions.concretize(c.state, c.arg(0), 64, true);
  if (!address)
    return;
  std::optional<u128> size = e.questions.concretize(c.state, c.arg(1), c.argWidth(1), true);
  if (!size)
    return;
  std::string why = e.memory.defineFixed(c.state, uint64_t(*address), uint64_t(*size), e.currentLoc);
  if (!why.empty())
    e.error(c.state, "user", "fixed-object", "klee_define_fixed_object: " + why);
}

// The size of the object the pointer points into, per object it may point into (a pointer into
// none is the access error a one-byte access there would be).
void getObjSize(const SpecialCall &c) {
  Engine &e = c.engine;
  e.memory.resolve(c.state, c.arg(0), 1, false, [&](ExecutionState &st, const AddressSpace::Entry &entry, const Value &offset) {
    uint64_t at = entry.object->address;
    if (entry.object->relocation && e.model->isMoved(*entry.object)) { // which member: a concrete address
      std::optional<u128> off = e.questions.concretize(st, offset, 64, true);
      if (!off)
        return;
      at += uint64_t(*off);
    } else if (offset.concrete()) {
      at += uint64_t(offset.bits);
    }
    e.interpreter.returnValue(st, c.instr, e.memory.objectSize(entry, at));
  });
}

// "name == v" when the value is known on this path, else one value and the (signed) range the
// path allows, found by bisection.
void printRange(const SpecialCall &c) {
  Engine &e = c.engine;
  ExecutionState &s = c.state;
  std::string name = e.memory.readString(s, c.arg(0));
  const unsigned w = std::min(c.argWidth(1), 64u);
  auto asSigned = [w](u128 v) { return w == 64 ? int64_t(uint64_t(v)) : int64_t(uint64_t(v) << (64 - w)) >> (64 - w); };
  const Value &v = c.arg(1);
  if (v.concrete())
    return (void)spdlog::info("klee_print_range: {} == {}", name, asSigned(v.bits));
  ExprContext &ctx = e.ctx;
  ExprRef x = ctx.zextOrTrunc(v.sym, w);
  std::optional<u128> sample = e.questions.concretize(s, v, w, false);
  if (!sample)
    return;
  std::optional<Validity> unique = e.questions.decide(s, ctx.eq(x, ctx.constant(*sample, w)));
  if (!unique)
    return;
  if (*unique == Validity::True)
    return (void)spdlog::info("klee_print_range: {} == {}", name, asSigned(*sample));
  // The least value m with x <= m feasible, and the greatest with x >= m feasible.
  auto bound = [&](bool lowest) -> std::optional<int64_t> {
    int64_t lo = lowest ? (w == 64 ? INT64_MIN : -(int64_t(1) << (w - 1))) : asSigned(*sample);
    int64_t hi = lowest ? asSigned(*sample) : (w == 64 ? INT64_MAX : (int64_t(1) << (w - 1)) - 1);
    while (lo < hi) {
      int64_t mid = lowest ? lo + int64_t((uint64_t(hi) - uint64_t(lo)) / 2) : hi - int64_t((uint64_t(hi) - uint64_t(lo)) / 2);
      ExprRef m = ctx.constant(u128(uint64_t(mid)) & widthMask(w), w);
      std::optional<Validity> beyond = e.questions.decide(s, lowest ? ctx.sle(x, m) : ctx.sge(x, m));
      if (!beyond)
        return std::nullopt;
      const bool feasible = *beyond != Validity::False;
      if (lowest && feasible)
        hi = mid;
      else if (lowest)
        lo = mid + 1;
      else if (feasible)
        lo = mid;
      else
        hi = mid - 1;
    }
    return lo;
  };
  std::optional<int64_t> min = bound(true);
  std::optional<int64_t> max = min ? bound(false) : std::nullopt;
  if (max)
    spdlog::info("klee_print_range: {} ~= {} (in [{}, {}])", name, asSigned(*sample), *min, *max);
}

} // namespace

void addKleeStateHandlers(SpecialHandlers &table) {
  table[size_t(Special::SetForking)] = &setForking;
  table[size_t(Special::AliasFunction)] = &aliasFunction;
  table[size_t(Special::StackTrace)] = &stackTrace;
  table[size_t(Special::CheckMemoryAccess)] = &checkMemoryAccess;
  table[size_t(Special::DefineFixedObject)] = &defineFixedObject;
  table[size_t(Special::GetObjSize)] = &getObjSize;
  table[size_t(Special::PrintRange)] = &printRange;
}

} // namespace cairn::engine
