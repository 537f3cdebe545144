// KLEE's API as programs call it: klee_make_symbolic, klee_assume, klee_report_error and the
// other klee_* functions, exit and abort, and merge regions.
#include "executor/Engine.h"
#include "interpreter/SpecialFunctions.h"
#include "memory/HeapAtExit.h"

#include <spdlog/spdlog.h>

namespace cairn::engine {

namespace {

void makeSymbolicAt(const SpecialCall &c, ExecutionState &s, u128 address);

// The memory is resolved like an access: one state per object a symbolic address may point into.
void makeSymbolic(const SpecialCall &c) {
  c.engine.memory.forEachTarget(c.state, c.arg(0), false, 1, [&](ExecutionState &st, const Value &address) {
    makeSymbolicAt(c, st, address.bits);
  });
}

void makeSymbolicAt(const SpecialCall &c, ExecutionState &s, u128 address) {
  Engine &e = c.engine;
  ExprContext &ctx = e.ctx;
  const uint64_t addr = uint64_t(address);
  // A symbolic-size object made symbolic by its size expression: all of its capacity.
  const AddressSpace::Entry *whole = s.memory.findBase(addr);
  std::optional<u128> size = whole && whole->object->sizeExpr && !c.arg(1).concrete() &&
                                     ctx.zextOrTrunc(c.arg(1).sym, 64) == whole->object->sizeExpr
                                 ? std::optional<u128>(whole->object->size)
                                 : e.questions.concretize(s, c.arg(1), 64, true);
  if (!size)
    return;
  std::string name = e.memory.readString(s, c.arg(2));
  const AddressSpace::Entry *entry = s.memory.find(addr);
  if (!entry || addr - entry->object->address + uint64_t(*size) > entry->object->size)
    return e.error(s, "user", "make-symbolic", "klee_make_symbolic: the memory is not one object of that size");
  if (entry->object->readOnly) // a constant global or a string literal (KLEE refuses it too)
    return e.error(s, "user", "make-symbolic", "klee_make_symbolic: cannot make read-only object " + entry->object->name + " symbolic");
  if (name.empty())
    name = "unnamed";
  const SymbolDecl *decl = e.specials.inputArray(s, name, uint64_t(*size));
  ExprRef array = ctx.symbol(decl);
  ObjectState &os = s.memory.writable(entry->object->address);
  uint64_t off = addr - entry->object->address;
  if (off == 0 && *size == entry->object->size) {
    os.makeSymbolic(ctx, array);
  } else {
    for (uint64_t i = 0; i < *size; ++i)
      os.write(ctx, off + i, Value(ctx.select(array, ctx.constant(i, 64))), 1);
  }
  s.inputs.push_back({name, decl, uint64_t(*size)});
}

void assume(const SpecialCall &c) {
  Engine &e = c.engine;
  const Value &v = c.arg(0);
  ExprRef cond = v.concrete() ? e.ctx.boolean(v.bits != 0) : e.ctx.lnot(e.ctx.eq(v.sym, e.ctx.constant(0, c.argWidth(0))));
  if (cond->isFalse())
    return e.error(c.state, "user", "assume", "klee_assume: the condition is provably false");
  if (cond->isTrue())
    return;
  std::optional<Validity> valid = e.questions.decide(c.state, cond);
  if (!valid)
    return;
  if (*valid == Validity::False)
    return e.error(c.state, "user", "assume", "klee_assume: the condition is provably false");
  e.addConstraint(c.state, cond);
}

void reportError(const SpecialCall &c) {
  Engine &e = c.engine;
  ExecutionState &s = c.state;
  std::string file = e.memory.readString(s, c.arg(0));
  std::optional<u128> line = e.questions.concretize(s, c.arg(1), c.argWidth(1), false);
  std::string message = e.memory.readString(s, c.arg(2));
  std::string suffix = e.memory.readString(s, c.arg(3));
  if (!line)
    return;
  std::string type = suffix.substr(0, suffix.find('.'));
  if (type.empty())
    type = "user";
  ErrorReport report = e.makeError(s, type, type == "assert" ? "assertion-failure" : type, message);
  if (c.arg(0).concrete() && c.arg(0).bits && *line) { // the caller named the place
    report.file = file;
    report.line = uint32_t(*line);
  }
  e.reportError(s, std::move(report));
}

// klee_warning and klee_warning_once: the message in the run's log and on stderr, with where it
// came from; the _once kind once per call site in the run.
void warning(const SpecialCall &c) {
  Engine &e = c.engine;
  if (c.kind() == Special::WarningOnce && !e.specials.firstAt(e.currentLoc))
    return;
  spdlog::warn("{}: klee_warning: {}", e.where(e.currentLoc), e.memory.readString(c.state, c.arg(0)));
}

// klee_print_expr(message, value): the message and the value as the path has it (a number, or
// the expression when it is symbolic), in the run's log.
void printExpr(const SpecialCall &c) {
  Engine &e = c.engine;
  std::string message = e.memory.readString(c.state, c.arg(0));
  if (c.args.size() < 2)
    return (void)spdlog::info("klee_print_expr: {}", message);
  const Value &v = c.arg(1);
  spdlog::info("klee_print_expr: {}: {}", message,
               v.concrete() ? std::to_string(uint64_t(v.bits)) : toString(v.sym.get()));
}

void getValue(const SpecialCall &c) {
  std::optional<u128> v = c.engine.questions.concretize(c.state, c.arg(0), c.argWidth(0), true);
  if (v)
    c.result(Value(*v));
}

} // namespace

void addKleeHandlers(SpecialHandlers &table) {
  table[size_t(Special::MakeSymbolic)] = &makeSymbolic;
  table[size_t(Special::Assume)] = &assume;
  table[size_t(Special::Abort)] = [](const SpecialCall &c) { c.engine.error(c.state, "abort", "abort", "abort() called"); };
  table[size_t(Special::SilentExit)] = [](const SpecialCall &c) {
    c.engine.terminate(c.state, Termination{std::nullopt, false, false, {}});
  };
  table[size_t(Special::Exit)] = [](const SpecialCall &c) {
    if (!c.args.empty())
      c.state.exitStatus = c.arg(0);
    std::optional<ErrorReport> heap = heapErrorAtEnd(c.engine, c.state, ProgramEnd::Exit);
    if (!c.engine.isTerminated(&c.state))
      c.engine.terminate(c.state, Termination::programEnd(std::move(heap)));
  };
  table[size_t(Special::ReportError)] = &reportError;
  table[size_t(Special::IsSymbolic)] = [](const SpecialCall &c) { c.result(Value(u128(c.arg(0).concrete() ? 0 : 1))); };
  table[size_t(Special::GetValue)] = &getValue;
  table[size_t(Special::OpenMerge)] = [](const SpecialCall &c) { c.engine.merging.openRegion(c.state); };
  table[size_t(Special::CloseMerge)] = [](const SpecialCall &c) { c.engine.merging.closeRegion(c.state); };
  table[size_t(Special::Ignored)] = [](const SpecialCall &) {};
  table[size_t(Special::Identity)] = [](const SpecialCall &c) { c.result(c.arg(0)); };
  table[size_t(Special::Warning)] = &warning;
  table[size_t(Special::WarningOnce)] = &warning;
  table[size_t(Special::PrintExpr)] = &printExpr;
  table[size_t(Special::IsReplay)] = [](const SpecialCall &c) { c.result(Value(u128(0))); }; // the replay's is 1
  table[size_t(Special::InlineAsm)] = [](const SpecialCall &c) {
    c.engine.error(c.state, "model", "inline-assembly", "inline assembly is not supported");
  };
}

} // namespace cairn::engine
