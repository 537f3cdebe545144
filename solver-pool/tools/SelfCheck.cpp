// cairn-solver-selfcheck: exercises the solver stack end to end on a small example and exits
// non-zero when any backend gives a wrong answer. Used by the README's first command until the
// engine runs programs, and handy to check an installation.
//
// The example: the three paths of `int sign(int x)` and the input bytes that reach each one,
// asked of Z3, cvc5 and the portfolio, each behind the full chain.
#include "cairn/solver/SolverChain.h"

#include <cstdio>

using namespace cairn;

namespace {

bool runExample(const char *label, CoreSolverKind kind) {
  ExprContext ctx;
  const SymbolDecl *input = ctx.declareArray("x", 4);
  ExprRef bytes = ctx.symbol(input);
  ExprRef x = ctx.readLE(bytes, ctx.constant(0, 32), 4);
  ExprRef zero = ctx.constant(0, 32);
  struct Path {
    const char *name;
    std::vector<ExprRef> constraints;
    int expectedSign;
  } paths[] = {
      {"x < 0", {ctx.slt(x, zero)}, -1},
      {"x == 0", {ctx.lnot(ctx.slt(x, zero)), ctx.eq(x, zero)}, 0},
      {"x > 0", {ctx.lnot(ctx.slt(x, zero)), ctx.lnot(ctx.eq(x, zero))}, 1},
  };
  SolverChainOptions options;
  options.core = kind;
  options.timeoutSeconds = 10;
  std::unique_ptr<Solver> solver = createSolverChain(options);
  bool ok = true;
  for (const Path &p : paths) {
    Answer<Assignment> model = solver->getInitialValues(p.constraints, {bytes});
    if (!model.known()) {
      std::printf("  %-9s %-8s no answer: %s\n", label, p.name, model.reason.c_str());
      ok = false;
      continue;
    }
    int32_t value = int32_t(uint32_t(evaluate(x.get(), *model)));
    int sign = value < 0 ? -1 : value > 0 ? 1 : 0;
    bool right = sign == p.expectedSign;
    ok &= right;
    std::printf("  %-9s %-8s x = %-11d %s\n", label, p.name, value, right ? "ok" : "WRONG");
  }
  // The fourth combination is infeasible: x < 0 and x == 0.
  Answer<bool> feasible = solver->mayBeTrue({ctx.slt(x, zero)}, ctx.eq(x, zero));
  bool right = feasible.known() && !*feasible;
  ok &= right;
  std::printf("  %-9s x < 0 && x == 0 is %s\n", label,
              !feasible.known() ? "undecided" : *feasible ? "feasible (WRONG)" : "infeasible (ok)");
  return ok;
}

} // namespace

int main() {
  std::printf("cairn solver self-check: the paths of sign(x) on a 4-byte symbolic input\n");
  bool ok = runExample("z3", CoreSolverKind::Z3);
  ok &= runExample("cvc5", CoreSolverKind::Cvc5);
  ok &= runExample("portfolio", CoreSolverKind::Portfolio);
  std::printf(ok ? "all backends agree\n" : "self-check FAILED\n");
  return ok ? 0 : 1;
}
