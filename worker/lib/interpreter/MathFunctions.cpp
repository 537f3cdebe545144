// The calls of the math functions: their results as the instructions' terms or musl's
// (MathTerms.h), so that a test found symbolically replays natively, or their arguments made
// concrete. A call with concrete arguments folds the same terms to constants: it is a call,
// not the interpreter's fast path.
#include "interpreter/MathFunctions.h"

#include "cairn/expr/Float.h"
#include "executor/Engine.h"
#include "interpreter/FloatInstructions.h"
#include "interpreter/HostMath.h"
#include "interpreter/MathTerms.h"

#include <spdlog/spdlog.h>

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>

namespace cairn::engine {

namespace {

// The instruction a function computes, where it is one.
std::optional<FloatOp> asInstruction(MathFunction m) {
  switch (m) {
  case MathFunction::Floor: return FloatOp::Floor;
  case MathFunction::Ceil: return FloatOp::Ceil;
  case MathFunction::Trunc: return FloatOp::Trunc;
  case MathFunction::Round: return FloatOp::Round;
  case MathFunction::Rint: return FloatOp::RoundEven;
  case MathFunction::Sqrt: return FloatOp::Sqrt;
  case MathFunction::Fabs: return FloatOp::Abs;
  case MathFunction::Copysign: return FloatOp::CopySign;
  case MathFunction::Fmod: return FloatOp::Rem;
  case MathFunction::Fma: return FloatOp::FusedMulAdd;
  case MathFunction::LRint: return FloatOp::LRint;
  case MathFunction::LRound: return FloatOp::LRound;
  default: return std::nullopt;
  }
}

// Writes what `merge` gives (it may read what was there) through `pointer`, `bytes` bytes, and
// sets the call's result on every state the write leaves.
template <class Merge>
void writeThrough(Engine &e, ExecutionState &s, const Instr &in, const Value &pointer, unsigned bytes,
                  const Value &result, Merge merge) {
  e.memory.resolve(s, pointer, bytes, true, [&](ExecutionState &st, const AddressSpace::Entry &entry, const Value &offset) {
    e.memory.writeAt(st, entry, offset, merge(st, entry, offset), bytes);
    if (!e.isTerminated(&st))
      e.interpreter.returnValue(st, in, result);
  });
}

// The host's result of `callee` (a declaration) on concrete arguments, if it has the function.
std::optional<u128> onHost(const Function &callee, const std::vector<Value> &args) {
  const unsigned w = callee.paramWidths[0];
  const std::string base = w == 64 ? callee.name : callee.name.substr(0, callee.name.size() - 1);
  const HostMathFunction *found = hostMathFunction(base);
  if (!found)
    return std::nullopt;
  const HostMathFunction &h = *found;
  const FloatFormat f = requireFloatFormat(w);
  const long double a = decodeFloat(args[0].bits, f), b = args.size() > 1 ? decodeFloat(args[1].bits, f) : 0;
  // Each format's own function: float's and double's results are exact as long doubles.
  long double r;
  if (h.arity == 1)
    r = w == 32 ? h.f(float(a)) : w == 64 ? h.d(double(a)) : h.l(a);
  else
    r = w == 32 ? h.f2(float(a), float(b)) : w == 64 ? h.d2(double(a), double(b)) : h.l2(a, b);
  return encodeFloat(r, f);
}

// A function with no SMT meaning: its symbolic arguments made concrete (constrained to the
// value the solver picks), counted, and reported once per call site.
bool callConcretised(Engine &e, ExecutionState &s, const Instr &in, const Function &callee,
                     const std::vector<Value> &args, std::vector<Value> &concretised) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].concrete())
      continue;
    if (concretised.empty())
      concretised = args;
    std::optional<u128> v = e.questions.concretize(s, args[i], callee.paramWidths[i], true);
    if (!v)
      return true; // the solver failed: the state is ended
    concretised[i] = Value(*v);
  }
  if (!concretised.empty()) {
    ++e.stats.floats.concretisedCalls;
    if (e.specials.firstAt(e.currentLoc))
      spdlog::warn("{}: {} has no SMT meaning: its symbolic argument made concrete", e.where(e.currentLoc),
                   callee.name);
  }
  if (!callee.declarationOnly)
    return false;
  std::optional<u128> result = onHost(callee, concretised.empty() ? args : concretised);
  if (!result)
    return false;
  e.interpreter.returnValue(s, in, Value(*result));
  return true;
}

} // namespace

bool fixFloatOperands(Engine &engine, ExecutionState &s, std::span<Value> values, std::span<const unsigned> widths) {
  for (size_t i = 0; i < values.size(); ++i) {
    Value &v = values[i];
    if (v.concrete())
      continue;
    std::optional<u128> only;
    if (!engine.questions.onlyValue(s, v, widths[i], only))
      return false; // the solver failed: the state is ended
    if (!only) {
      engine.error(s, "model", "symbolic-float", "floating-point operation on a symbolic value");
      return false;
    }
    v = Value(*only);
  }
  return true;
}

bool callMath(Engine &e, ExecutionState &s, const Instr &in, const Function &callee, const std::vector<Value> &args,
              std::vector<Value> &concretised) {
  if (args.size() != callee.numParams)
    return false; // a call that does not fit the function: its body, or the external call, says so
  if (callee.math == MathFunction::Concretised)
    return callConcretised(e, s, in, callee, args, concretised);
  ++e.stats.floats.libraryCalls;
  const unsigned w = callee.paramWidths[0];
  std::array<Value, 3> v;
  std::array<unsigned, 3> widths{};
  for (size_t i = 0; i < args.size(); ++i) {
    v[i] = args[i];
    widths[i] = callee.paramWidths[i];
  }
  // Under --float concrete, as the instructions: the pointer operand is concrete or resolved.
  const size_t floats = callee.math == MathFunction::Frexp || callee.math == MathFunction::Modf ? 1 : args.size();
  if (!e.options.symbolicFloats && !fixFloatOperands(e, s, std::span(v.data(), floats), widths))
    return true;
  ExprContext &ctx = e.ctx;
  if (std::optional<FloatOp> op = asInstruction(callee.math)) {
    e.interpreter.returnValue(s, in, floatOnValues(ctx, *op, w, callee.returnWidth, std::span(v.data(), args.size())));
    return true;
  }
  const ExprRef x = v[0].expr(ctx, w);
  switch (callee.math) {
  case MathFunction::Fmin:
  case MathFunction::Fmax:
    e.interpreter.returnValue(s, in, Value(minMaxTerm(ctx, callee.math == MathFunction::Fmax, x, v[1].expr(ctx, w))));
    return true;
  case MathFunction::Fdim: e.interpreter.returnValue(s, in, Value(positiveDifferenceTerm(ctx, x, v[1].expr(ctx, w)))); return true;
  case MathFunction::Ldexp:
    e.interpreter.returnValue(s, in, Value(scaledTerm(ctx, x, v[1].expr(ctx, widths[1]))));
    return true;
  case MathFunction::Frexp: {
    const FrexpTerms d = frexpTerms(ctx, x);
    writeThrough(e, s, in, v[1], 4, Value(d.fraction),
                 [&](ExecutionState &st, const AddressSpace::Entry &entry, const Value &offset) {
                   if (d.keepsExponent->isFalse())
                     return Value(d.exponent);
                   ExprRef old = e.memory.readAt(st, entry, offset, 4).expr(ctx, 32);
                   return Value(ctx.ite(d.keepsExponent, old, d.exponent));
                 });
    return true;
  }
  case MathFunction::Modf: {
    const auto [fraction, integral] = modfTerms(ctx, x);
    writeThrough(e, s, in, v[1], (w + 7) / 8, Value(fraction),
                 [&](ExecutionState &, const AddressSpace::Entry &, const Value &) { return Value(integral); });
    return true;
  }
  default: return false;
  }
}

} // namespace cairn::engine
