// Query count estimation (Kuznetsov et al., PLDI'12, section 3): before exploration, for each
// function, how many solver queries a state at a point is expected to ask before the function
// returns (Q_t), and how many of them depend on each variable of the frame (Q_add). A state is
// at the entry of a block or, in a caller's frame, at the return point after a call.
//
// The recursion (the paper's Eq. 3):
//   q(l) = beta * sum over successors s of q(s) + c(l)   at a branch (a switch counts each
//                                                        distinct target as a side)
//        = 0                                             at a return (local counts: callers
//                                                        add theirs at run time)
//        = q(next)                                       elsewhere
// with c = 1 for Q_t and, for Q_add(l, v), 1 when the branch condition at l' may depend on the
// value v has at l. Queries are asked by conditional branches, switches, klee_assume, and
// (countMemoryAccesses) loads and stores through pointers: an address that is not a constant
// offset from a frame's alloca or a global is a query point on the pointer and its indices,
// since a state whose pointer became symbolic asks where it points at each access. Loops run their static trip count (TripCounts.h), else kappa iterations; after
// the last one a path leaves the loop without asking at its header (to the header's exit, or
// to each exit in equal shares). A call adds its callee's counts at entry, the callee's
// parameters and the memory they point to mapped to the caller's arguments; callees are
// summarised first (bottom-up over the call graph; a recursive call adds the summary its
// callee had after one round). A call into the runtime (the libc) adds the callee's counts on
// its parameters, pointees and globals but not its Q_t: the library's branches are on
// concrete state nearly always (the paper's example takes putchar and strcmp not to fork),
// and their count, exponential in the library's depth, would make every variable of the
// caller cold.
//
// Dependence is data flow through registers and through the frame's memory variables: a
// store moves the dependence of the variable it overwrites to what the stored value was
// computed from, so `i = 0` ends i's dependence and `x = y` passes x's on to y.
#pragma once

#include "analysis/DataDependence.h"

#include <unordered_map>
#include <vector>

namespace cairn::engine::analysis {

struct QceOptions {
  double alpha = 1e-12; // H(l) = { v : Q_add(l, v) > alpha * Q_t(l) } (a strict >, as in Eq. 2)
  double zeta = 1;      // the cost of a query with a merged ite (MergeOptions::qceZeta)
  double beta = 0.8;    // the chance that each side of a branch is feasible
  uint32_t kappa = 10;  // iterations of a loop whose trip count is not static
  bool countMemoryAccesses = true;
  // A variable whose value reaches the address of an access through a pointer ahead is hot
  // wherever it does, whatever its count (with countMemoryAccesses). Eq. 2 weighs such an
  // access as one query, like a branch, against a Q_t that grows exponentially with the code
  // ahead: an inner loop's index reaches a few hundred against 1e17 and is cold, so states in
  // different iterations merge, and every later access through the merged index is a read at a
  // symbolic offset that the next exit test splits again. false: Eq. 2 alone.
  bool addressesHot = true;
  // A variable whose value reaches a query computed by a floating-point operation (a branch on
  // an fcmp, on a conversion to an integer) is hot wherever it does, whatever its count. Such a
  // query over a merged value is a floating-point formula, seconds of the solver's time where
  // the same query of each path alone is decided on constants: coreutils' sleep, its parsed
  // interval merged inside strtod, asked ten of them and ran past 30 s against 0.1 s without
  // merging. false: Eq. 2 alone.
  bool floatsHot = true;
  // Unrolled copies of blocks evaluated for one function; above it the function is estimated
  // again with kappa halved (and static trip counts cut to it), down to 1.
  uint64_t maxCopiesPerFunction = 1u << 17;
};

// Local counts at one point: Q_t, and Q_add of each variable with a count above zero.
struct QueryCounts {
  double total = 0;
  std::vector<std::pair<uint32_t, double>> added; // (variable id, count), by variable id
  // The variables hot whatever their count, by id: the value reaches an address ahead
  // (QceOptions::addressesHot) or a floating-point query (floatsHot).
  std::vector<uint32_t> alwaysHot;
  double addedFor(uint32_t variable) const;
  bool isAlwaysHot(uint32_t variable) const;
  // addedFor, or infinitely many for a variable of alwaysHot.
  double countFor(uint32_t variable) const;
};

struct FunctionCounts {
  bool analysed = false;
  uint32_t numRegs = 0;
  std::vector<MemoryVariable> memory; // variable ids numRegs + i
  std::vector<QueryCounts> atBlock;   // at each block's entry
  std::unordered_map<uint32_t, QueryCounts> afterCall; // by the call's instruction index
  uint32_t kappa = 0;                  // the iteration bound used
  uint64_t copies = 0;                 // unrolled block copies evaluated
};

struct QueryCountEstimate {
  QceOptions options;
  std::vector<FunctionCounts> functions; // by function index
  // Per function, the same recursion with one count at each `ret` on the value returned and
  // none at query points: how much the returned value depends on each variable. The caller's
  // count on the call's result reaches the callee's variables through it at run time: a
  // length computed in a loop and returned is hot there when the caller indexes with it.
  std::vector<FunctionCounts> returned;
  double seconds = 0;
  uint64_t functionsAnalysed = 0;
};

// Each variable's count where a frame stands, by id: its Q_add in `at` plus its count in
// `returned` times `returnWeight` (the caller's count on the value the frame returns); those of
// at.alwaysHot count infinitely many.
std::vector<std::pair<uint32_t, double>> variableCounts(const QueryCounts &at, const QueryCounts *returned = nullptr,
                                                        double returnWeight = 0);

// H: the variables whose variableCounts is above alpha * total (the state's Q_t, which adds
// the callers' counts at their return points), by id.
std::vector<uint32_t> hotVariables(const QueryCounts &at, double total, double alpha,
                                   const QueryCounts *returned = nullptr, double returnWeight = 0);

// Estimates every function reachable through direct calls from the entry, the constructors
// and the functions whose address is taken (those an indirect call may reach).
QueryCountEstimate estimateQueryCounts(const Program &program, const QceOptions &options);

} // namespace cairn::engine::analysis
