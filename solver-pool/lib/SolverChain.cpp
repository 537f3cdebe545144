#include "cairn/solver/SolverChain.h"

#include "cairn/solver/Backends.h"
#include "cairn/solver/IsolatedSolver.h"

namespace cairn {

bool parseCoreSolverKind(std::string_view name, CoreSolverKind &out) {
  if (name == "z3")
    out = CoreSolverKind::Z3;
  else if (name == "cvc5")
    out = CoreSolverKind::Cvc5;
  else if (name == "portfolio")
    out = CoreSolverKind::Portfolio;
  else
    return false;
  return true;
}

std::unique_ptr<Solver> createCoreSolver(CoreSolverKind kind, double timeoutSeconds) {
  switch (kind) {
  case CoreSolverKind::Z3: return createZ3Solver(timeoutSeconds);
  case CoreSolverKind::Cvc5: return createCvc5Solver(timeoutSeconds);
  case CoreSolverKind::Portfolio: return createPortfolioSolver(timeoutSeconds);
  }
  return nullptr;
}

std::unique_ptr<Solver> createSolverChain(const SolverChainOptions &o) {
  std::unique_ptr<Solver> s = o.isolateCore
                                  ? std::make_unique<IsolatedSolver>(o.core, o.timeoutSeconds)
                                  : createCoreSolver(o.core, o.timeoutSeconds);
  if (o.cexCache)
    s = createCexCachingSolver(std::move(s));
  if (o.queryCache)
    s = createQueryCachingSolver(std::move(s));
  if (o.independence)
    s = createIndependentSolver(std::move(s));
  return s;
}

} // namespace cairn
