#include "cairn/solver/SolverChain.h"

#include "ByteDomains.h"

#include "CoreSolverName.h"
#include "cairn/solver/Backends.h"
#include "cairn/solver/IsolatedSolver.h"
#include "cairn/solver/RemoteSolver.h"

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

bool parseArrayBounds(std::string_view name, ArrayBounds &out) {
  if (name == "propagation")
    out = ArrayBounds::Propagation;
  else if (name == "relaxed")
    out = ArrayBounds::Relaxed;
  else if (name == "integer")
    out = ArrayBounds::Integer;
  else if (name == "glpk")
    out = ArrayBounds::Glpk;
  else if (name == "cbc")
    out = ArrayBounds::Cbc;
  else
    return false;
  return true;
}

bool parseArrayRefinement(std::string_view name, unsigned &axiomsBeforeWholeRead) {
  if (name != "reads" && name != "axioms")
    return false;
  axiomsBeforeWholeRead = name == "reads" ? 0 : ~0u;
  return true;
}

const char *coreName(CoreSolverKind k) {
  switch (k) {
  case CoreSolverKind::Z3: return "z3";
  case CoreSolverKind::Cvc5: return "cvc5";
  case CoreSolverKind::Portfolio: return "portfolio";
  }
  return "?";
}

bool parsePoolEndpoints(std::string_view list, std::vector<std::string> &out) {
  std::vector<std::string> endpoints;
  while (true) {
    size_t comma = list.find(',');
    std::string_view item = list.substr(0, comma);
    size_t colon = item.rfind(':');
    if (colon == std::string_view::npos || colon == 0 || colon + 1 == item.size())
      return false;
    for (char c : item.substr(colon + 1))
      if (c < '0' || c > '9')
        return false;
    endpoints.emplace_back(item);
    if (comma == std::string_view::npos)
      break;
    list.remove_prefix(comma + 1);
  }
  out = std::move(endpoints);
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

CoreSolverKind floatCoreFor(CoreSolverKind core, std::optional<CoreSolverKind> floatCore) {
  if (floatCore)
    return *floatCore;
  return core == CoreSolverKind::Z3 ? CoreSolverKind::Cvc5 : core;
}

std::unique_ptr<Solver> createLocalCore(CoreSolverKind kind, std::optional<CoreSolverKind> floatKind,
                                        bool isolate, double timeoutSeconds) {
  auto make = [&](CoreSolverKind k) -> std::unique_ptr<Solver> {
    if (isolate)
      return std::make_unique<IsolatedSolver>(k, timeoutSeconds);
    return createCoreSolver(k, timeoutSeconds);
  };
  const CoreSolverKind floats = floatCoreFor(kind, floatKind);
  // cvc5 checks its time limit rarely while it bit-blasts float operations (a strtod query ran
  // 273 s past a 15 s limit) and cannot be interrupted in process: for float queries it runs in
  // a child process, which ends at the limit (and on interrupt()) whatever the solver does.
  if (floats == CoreSolverKind::Cvc5 && !isolate)
    return createFloatRoutingSolver(make(kind), std::make_unique<IsolatedSolver>(floats, timeoutSeconds));
  if (floats == kind)
    return make(kind);
  return createFloatRoutingSolver(make(kind), make(floats));
}

std::unique_ptr<Solver> createSolverChain(const SolverChainOptions &o) {
  std::unique_ptr<Solver> s;
  if (!o.poolEndpoints.empty()) {
    RemoteSolverOptions remote;
    remote.endpoints = o.poolEndpoints;
    remote.timeoutSeconds = o.timeoutSeconds;
    remote.fallback = o.core;
    remote.floatFallback = o.floatCore;
    remote.isolateFallback = o.isolateCore;
    remote.token = o.poolToken;
    s = std::make_unique<RemoteSolver>(std::move(remote));
  } else {
    s = createLocalCore(o.core, o.floatCore, o.isolateCore, o.timeoutSeconds);
  }
  // With a pool its lanes run the quantified procedure (and the in-process fallback its own):
  // the queries travel whole.
  if (o.quantified && o.poolEndpoints.empty())
    s = createQuantifiedSolver(std::move(s), o.validateQuantified);
  if (o.arrays.enabled())
    s = createTypedArraySolver(std::move(s), o.arrays);
  auto domains = std::make_shared<ByteDomains>();
  if (o.byteDomain)
    s = createByteDomainSolver(std::move(s), domains);
  if (o.cexCache)
    s = createCexCachingSolver(std::move(s));
  if (o.queryCache)
    s = createQueryCachingSolver(std::move(s));
  if (o.addressCache)
    s = createAddressCachingSolver(std::move(s), o.addressCacheOptions);
  if (o.independence)
    s = createIndependentSolver(std::move(s));
  // Above the slicing: the one path a merged state's model is solved from then falls apart
  // into its independent parts, each likely answered by a cache or the byte domain, and the
  // disjunction's footprint is never computed where that path is satisfiable.
  if (o.disjunctSplit)
    s = createDisjunctSplitSolver(std::move(s), domains);
  return s;
}

} // namespace cairn
