// Building the solver chain: independence slicing -> address-aware cache -> query cache ->
// counterexample cache -> core solver. Each layer can be switched off (the address-aware cache
// is off unless asked for).
#pragma once

#include "cairn/solver/Solver.h"

#include <optional>
#include <string>
#include <vector>

namespace cairn {

enum class CoreSolverKind : uint8_t { Z3, Cvc5, Portfolio };
// Parses "z3", "cvc5" or "portfolio"; returns false for anything else.
bool parseCoreSolverKind(std::string_view name, CoreSolverKind &out);

struct AddressCacheOptions {
  size_t maxEntries = size_t(1) << 18;
  // Every hit is also asked of the next layer, whose answer is used; a different answer is
  // logged as an error and counted (`mismatches`).
  bool validate = false;
  // Answer model queries too, with the model of the matching query (checked by evaluation).
  bool reuseModels = true;
};

// How the array layer bounds indices: by propagating bounds through the linearised constraints
// (no solver), by optimising over the linear relaxation (Z3, rational simplex), or by integer
// optimisation (Z3). Each is sound; each later one is tighter and costlier. Glpk: the linear
// relaxation by GLPK's exact simplex instead of Z3's (arrays/GlpkBounds.h), to compare them.
enum class ArrayBounds : uint8_t { Propagation, Relaxed, Integer, Glpk, Cbc };
bool parseArrayBounds(std::string_view name, ArrayBounds &out);
// --array-refinement reads|axioms: ArraySolverOptions::axiomsBeforeWholeRead 0 or ~0u.
bool parseArrayRefinement(std::string_view name, unsigned &axiomsBeforeWholeRead);

// Type- and interval-aware array solving (solver-pool/lib/arrays), a layer just above the core.
struct ArraySolverOptions {
  // Opt 1: answer UNSAT where an integer over-approximation of the query is infeasible.
  bool precheck = false;
  // Opt 2: solve array reads by abstraction and refinement with the pruned axiom pool.
  bool typed = false;
  unsigned maxRounds = 64;       // refinements before the query goes to the core as it is
  // A read with more element axioms than this (a wide index into a large table) is left to
  // the core's encoding rather than abstracted.
  uint64_t maxAxiomsPerRead = 64;
  // After this many element axioms of one read, a model that violates another ties the read
  // to its array whole (read = the array's element at the index, which the core encodes as a
  // lookup over the contents) instead of adding one axiom more: the rounds then grow with the
  // depth of nested reads, not with every position a model visits. ~0u: axioms only (the
  // paper's refinement).
  unsigned axiomsBeforeWholeRead = 0;
  unsigned ilpTimeoutMs = 1000;  // per integer program; past it the pre-check gives up
  ArrayBounds bounds = ArrayBounds::Propagation;
  bool enabled() const { return precheck || typed; }
};

struct SolverChainOptions {
  CoreSolverKind core = CoreSolverKind::Z3;
  // The core for queries with floating-point terms; none: cvc5 when `core` is Z3 (it solves
  // float circuits several times faster), else `core`.
  std::optional<CoreSolverKind> floatCore;
  double timeoutSeconds = 0; // per core-solver query; 0: none
  bool independence = true;
  bool queryCache = true;
  bool cexCache = true;
  bool byteDomain = true; // queries reading one byte of input: decided without the core solver
  bool disjunctSplit = true; // a merged state's model: one of its paths' first
  bool quantified = true;    // bounded universals: strip, duplicate, repair before the core's own
  // Each answer of the quantified layer checked against the core's with the quantifiers.
  bool validateQuantified = false;
  ArraySolverOptions arrays;
  // Relocatable memory model: answer queries equal up to a renaming of symbolic bases to one
  // decided before (they need a QueryForm, which the engine gives them).
  bool addressCache = false;
  AddressCacheOptions addressCacheOptions;
  // Run the core solver in a child process, so a solver crash or hang is an Unknown answer.
  bool isolateCore = false;
  // Solver pool replicas (HOST:PORT). When given, the core is a RemoteSolver: the layers above
  // stay in-process and only their misses travel; `core` (isolated if asked) answers in-process
  // while every replica is down.
  std::vector<std::string> poolEndpoints;
  std::string poolToken; // what the replicas accept (their --token-file's); empty: none sent
};

// Splits "HOST:PORT[,HOST:PORT...]"; returns false for an empty list or an entry without a
// host or a port.
bool parsePoolEndpoints(std::string_view list, std::vector<std::string> &out);

std::unique_ptr<Solver> createCoreSolver(CoreSolverKind kind, double timeoutSeconds);
// The in-process core of a chain: `kind`, with queries that mention floats sent to `floatKind`
// when it differs (FloatRoutingSolver.cpp); each in a child process when `isolate`, and a
// cvc5 float core always.
std::unique_ptr<Solver> createLocalCore(CoreSolverKind kind, std::optional<CoreSolverKind> floatKind,
                                        bool isolate, double timeoutSeconds);
// What floatCore defaults to for `core`.
CoreSolverKind floatCoreFor(CoreSolverKind core, std::optional<CoreSolverKind> floatCore);
std::unique_ptr<Solver> createSolverChain(const SolverChainOptions &options);

// The layers, for composing chains by hand.
std::unique_ptr<Solver> createFloatRoutingSolver(std::unique_ptr<Solver> core,
                                                 std::unique_ptr<Solver> floatCore);
std::unique_ptr<Solver> createIndependentSolver(std::unique_ptr<Solver> next);
std::unique_ptr<Solver> createQueryCachingSolver(std::unique_ptr<Solver> next,
                                                 size_t maxEntries = size_t(1) << 20);
std::unique_ptr<Solver> createAddressCachingSolver(std::unique_ptr<Solver> next,
                                                   AddressCacheOptions options = {});
std::unique_ptr<Solver> createCexCachingSolver(std::unique_ptr<Solver> next,
                                               size_t maxEntries = size_t(1) << 18);
// What single input bytes' literals allow, remembered per literal (solver-pool/lib/ByteDomains.h);
// the two layers below that use it share one in a chain, so that a literal is worked out once.
class ByteDomains;
// Models of path conditions with disjunctions (merged states) from one disjunct first
// (DisjunctSplitSolver.cpp). Null `domains`: its own.
std::unique_ptr<Solver> createDisjunctSplitSolver(std::unique_ptr<Solver> next,
                                                  std::shared_ptr<ByteDomains> domains = nullptr);
// Decides the queries that read one byte of input by trying its 256 values (ByteDomainSolver.cpp).
std::unique_ptr<Solver> createByteDomainSolver(std::unique_ptr<Solver> next,
                                               std::shared_ptr<ByteDomains> domains = nullptr);
// Queries with bounded universals (state merging with quantifiers): strip, duplicate, repair,
// then the core with the quantifiers (solver-pool/lib/quantified/QuantifiedSolver.cpp). With
// `validate` every answer of its own is checked against the core's (counter "mismatches").
std::unique_ptr<Solver> createQuantifiedSolver(std::unique_ptr<Solver> next, bool validate = false);
// The array pre-check and CEGAR layer (solver-pool/lib/arrays/TypedArraySolver.cpp).
std::unique_ptr<Solver> createTypedArraySolver(std::unique_ptr<Solver> next, ArraySolverOptions options);

} // namespace cairn
