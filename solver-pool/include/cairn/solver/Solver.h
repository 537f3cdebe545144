// The one solver interface of Cairn. Backends (Z3, cvc5, a portfolio of both, a remote pool) and
// the layers in front of them (independence slicing, caches) all implement it, so the engine
// never knows what answers its queries.
#pragma once

#include "cairn/expr/Assignment.h"
#include "cairn/expr/Expr.h"
#include "cairn/solver/ArrayTypes.h"
#include "cairn/solver/ConstraintList.h"
#include "cairn/solver/SolverSession.h"

#include <chrono>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cairn {

enum class SatResult : uint8_t { Sat, Unsat, Unknown };
const char *satResultName(SatResult r);

// A query as the engine built it, before it substituted values for some of its symbols (the
// relocatable memory model substitutes each object's address for its symbolic base):
// constraints[i] became Query::constraints[i]. Queries equal in this form up to a renaming of
// the substituted symbols ask the same question, which a cache that knows those symbols can
// answer (the address-aware cache); every other layer passes the form on, sliced like the query.
struct QueryForm {
  std::vector<ExprRef> constraints;
  ExprRef expr;
  // The question is about the substituted values themselves (where objects lie): only the
  // substituted query answers it, never a renamed one.
  bool concreteOnly = false;
};

// The constraints of a path, as the KLEE-style questions below take them: what the solver
// solves, and, when the engine substituted values into them, what it built (QueryForm), one for
// one. A plain vector of constraints converts to one with no built form.
struct PathConstraints {
  PathConstraints(const std::vector<ExprRef> &solved) : solved(solved) {} // NOLINT: implicit on purpose
  PathConstraints(std::initializer_list<ExprRef> solved) : owned_(solved), solved(owned_) {}
  PathConstraints(const std::vector<ExprRef> &solved, const std::vector<ExprRef> &built, bool concreteOnly)
      : solved(solved), built(&built), concreteOnly(concreteOnly) {}
  PathConstraints(const ConstraintList &solved) : solved(solved.exprs()), list(&solved) {} // NOLINT
  PathConstraints(const ConstraintList &solved, const std::vector<ExprRef> &built, bool concreteOnly)
      : solved(solved.exprs()), built(&built), concreteOnly(concreteOnly), list(&solved) {}
  PathConstraints(const PathConstraints &) = delete; // `solved` may refer to the object's own list
  PathConstraints &operator=(const PathConstraints &) = delete;

private:
  std::vector<ExprRef> owned_;

public:
  const std::vector<ExprRef> &solved;
  const std::vector<ExprRef> *built = nullptr;
  bool concreteOnly = false;
  const ConstraintList *list = nullptr; // `solved`, with its independent groups
};

// Asks whether `constraints ∧ expr` is satisfiable. When a model is requested, a Sat response
// assigns every symbol of the constraints, `expr` and `terms` that the remaining constraints
// touch (independence slicing may drop constraints on unrelated symbols).
struct Query {
  std::vector<ExprRef> constraints; // each width 1
  ExprRef expr;                     // width 1
  std::vector<ExprRef> terms;       // expressions whose symbols the model must cover
  std::shared_ptr<const QueryForm> original; // may be null: the query is as the engine built it
  // The path `constraints` were copied from, whose independent groups it keeps up to date; null
  // when there is none. A layer that changes `constraints` passes on a query without it.
  const ConstraintList *path = nullptr;
  std::shared_ptr<const ArrayTypes> arrayTypes; // may be null: nothing known

  Query() = default;
  Query(std::vector<ExprRef> c, ExprRef e, std::vector<ExprRef> t = {})
      : constraints(std::move(c)), expr(std::move(e)), terms(std::move(t)) {}
};

// The context the query's expressions live in; null for a query with no expressions.
ExprContext *contextOf(const Query &query);

// Adds explicit defaults (zero) for every symbol of the query that `model` leaves out, so a
// model taken from a cache binds everything a fresh one would.
void completeModel(Assignment &model, const Query &query);

struct SolverResponse {
  SatResult result = SatResult::Unknown;
  std::string reason; // why the answer is Unknown (timeout, backend error, ...)
  Assignment model;   // for Sat with a model requested

  static SolverResponse unknown(std::string why) { return {SatResult::Unknown, std::move(why), {}}; }
};

// Per-layer counters: what reached the layer, what it answered itself, and the time spent in it
// and below (for the caches: on their misses; their hits are not clocked).
struct SolverLayerStats {
  std::string layer;
  uint64_t queries = 0;
  uint64_t answered = 0; // answered without asking the next layer (cache hits, trivial)
  uint64_t unknown = 0;
  double seconds = 0;
  // Counters of the layer's own (e.g. a cache's size), by name, for logs and summaries.
  std::vector<std::pair<std::string, uint64_t>> counters;
};

// The answer to a yes/no question, with the reason when the solver could not decide.
template <class T> struct Answer {
  std::optional<T> value;
  std::string reason;
  bool known() const { return value.has_value(); }
  const T &operator*() const { return *value; }
  const T *operator->() const { return &*value; }
};

enum class Validity : uint8_t { True, False, Either }; // always true / always false / both possible

// Caching layers keep the expressions of past queries alive: destroy a solver before the
// ExprContext its queries were built in.
class Solver {
public:
  virtual ~Solver();
  virtual SolverResponse check(const Query &query, bool wantModel) = 0;
  virtual std::string name() const = 0;
  // Appends this layer's statistics, then those of the layers below it.
  virtual void collectStats(std::vector<SolverLayerStats> &out) const = 0;
  // Per-query time limit in seconds (0: none); layers pass it down to the backends.
  virtual void setTimeout(double seconds) = 0;
  // A session that starts from `query` (SolverSession.h). The solver must outlive it, and no
  // other question may be put to the solver while it is open. This default asks check() for
  // the whole query every time; backends with incremental solving override it.
  virtual std::unique_ptr<SolverSession> openSession(const Query &query);
  // Ends the query this solver is answering now, from another thread: it answers Unknown
  // ("interrupted"). Does nothing between queries. A backend that cannot be interrupted
  // (cvc5 1.0 in process) lets the query run on to its time limit.
  virtual void interrupt() {}

  // KLEE-style questions, built on check(). `built` is `e` before substitution, used when the
  // path has a built form (PathConstraints).
  Answer<bool> mustBeTrue(const PathConstraints &path, const ExprRef &e, const ExprRef &built = {});
  Answer<bool> mustBeFalse(const PathConstraints &path, const ExprRef &e, const ExprRef &built = {});
  Answer<bool> mayBeTrue(const PathConstraints &path, const ExprRef &e, const ExprRef &built = {});
  Answer<bool> mayBeFalse(const PathConstraints &path, const ExprRef &e, const ExprRef &built = {});
  Answer<Validity> evaluate(const PathConstraints &path, const ExprRef &e, const ExprRef &built = {});
  // A value `e` can take under the constraints.
  Answer<u128> getValue(const PathConstraints &path, const ExprRef &e);
  // Values for the given symbol expressions (scalars or arrays) satisfying the constraints.
  Answer<Assignment> getInitialValues(const PathConstraints &path, const std::vector<ExprRef> &symbols);
};

// A layer that forwards to another solver; the chain is built from these.
class SolverLayer : public Solver {
public:
  explicit SolverLayer(std::unique_ptr<Solver> next) : next_(std::move(next)) {}
  void setTimeout(double seconds) override { next_->setTimeout(seconds); }
  void interrupt() override { next_->interrupt(); }
  void collectStats(std::vector<SolverLayerStats> &out) const override {
    out.push_back(stats_);
    next_->collectStats(out);
  }
  Solver &next() { return *next_; }

protected:
  std::unique_ptr<Solver> next_;
  SolverLayerStats stats_;
};

// Measures the time a scope takes into a stats record.
class ScopedSolverTimer {
public:
  explicit ScopedSolverTimer(SolverLayerStats &s)
      : stats_(s), start_(std::chrono::steady_clock::now()) {}
  ~ScopedSolverTimer() {
    stats_.seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

private:
  SolverLayerStats &stats_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace cairn
