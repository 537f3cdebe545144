#include "interpreter/SpecialFunctions.h"

#include "executor/Engine.h"

#include <algorithm>

namespace cairn::engine {

void SpecialCall::result(Value v) const { engine.interpreter.returnValue(state, instr, std::move(v)); }

Value SpecialCall::sizeArg(size_t i) const { return arg(i).resized(engine.ctx, argWidth(i), 64); }

void unsupportedSpecial(const SpecialCall &c) {
  c.engine.error(c.state, "exec", "unsupported", "unsupported call to " + c.site.calleeName);
}

const SpecialHandlers &specialHandlers() {
  static const SpecialHandlers table = [] {
    SpecialHandlers t;
    t.fill(&unsupportedSpecial);
    addKleeHandlers(t);
    addHeapHandlers(t);
    addOutputHandlers(t);
    addMemoryHandlers(t);
    addBitHandlers(t);
    addKleeStateHandlers(t);
    addEnvironmentHandlers(t);
    return t;
  }();
  return table;
}

SpecialFunctions::SpecialFunctions(Engine &engine) : engine_(engine), handlers_(specialHandlers()) {}

void SpecialFunctions::call(ExecutionState &s, const Instr &in, const CallSite &site, std::vector<Value> &args) {
  const SpecialCall c{engine_, s, in, site, args};
  (site.callee < handlers_.size() ? handlers_[site.callee] : &unsupportedSpecial)(c);
}

const SymbolDecl *SpecialFunctions::inputArray(const ExecutionState &s, const std::string &name, uint64_t size) {
  ExprContext &ctx = engine_.ctx;
  std::string unique = name;
  auto taken = [&](const std::string &n) {
    return std::any_of(s.inputs.begin(), s.inputs.end(), [&](const SymbolicInput &in) { return in.array->name == n; });
  };
  for (unsigned n = 1; taken(unique) || (inputArrays_.count({unique, size}) == 0 && ctx.findSymbol(unique)); ++n)
    unique = name + "_" + std::to_string(n);
  const SymbolDecl *&decl = inputArrays_[{unique, size}];
  if (!decl)
    decl = ctx.declareArray(unique, size, 64, 8);
  return decl;
}

} // namespace cairn::engine
