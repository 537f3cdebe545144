// Building the solver chain: independence slicing -> query cache -> counterexample cache ->
// core solver. Each layer can be switched off.
#pragma once

#include "cairn/solver/Solver.h"

#include <string>
#include <vector>

namespace cairn {

enum class CoreSolverKind : uint8_t { Z3, Cvc5, Portfolio };
// Parses "z3", "cvc5" or "portfolio"; returns false for anything else.
bool parseCoreSolverKind(std::string_view name, CoreSolverKind &out);

struct SolverChainOptions {
  CoreSolverKind core = CoreSolverKind::Z3;
  double timeoutSeconds = 0; // per core-solver query; 0: none
  bool independence = true;
  bool queryCache = true;
  bool cexCache = true;
  // Run the core solver in a child process, so a solver crash or hang is an Unknown answer.
  bool isolateCore = false;
  // Solver pool replicas (HOST:PORT). When given, the core is a RemoteSolver: the layers above
  // stay in-process and only their misses travel; `core` (isolated if asked) answers in-process
  // while every replica is down.
  std::vector<std::string> poolEndpoints;
};

// Splits "HOST:PORT[,HOST:PORT...]"; returns false for an empty list or an entry without a
// host or a port.
bool parsePoolEndpoints(std::string_view list, std::vector<std::string> &out);

std::unique_ptr<Solver> createCoreSolver(CoreSolverKind kind, double timeoutSeconds);
std::unique_ptr<Solver> createSolverChain(const SolverChainOptions &options);

// The layers, for composing chains by hand.
std::unique_ptr<Solver> createIndependentSolver(std::unique_ptr<Solver> next);
std::unique_ptr<Solver> createQueryCachingSolver(std::unique_ptr<Solver> next,
                                                 size_t maxEntries = size_t(1) << 20);
std::unique_ptr<Solver> createCexCachingSolver(std::unique_ptr<Solver> next,
                                               size_t maxEntries = size_t(1) << 18);

} // namespace cairn
