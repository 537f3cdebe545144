// The one solver interface of Cairn. Backends (Z3, cvc5, a portfolio of both, a remote pool) and
// the layers in front of them (independence slicing, caches) all implement it, so the engine
// never knows what answers its queries.
#pragma once

#include "cairn/expr/Assignment.h"
#include "cairn/expr/Expr.h"

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cairn {

enum class SatResult : uint8_t { Sat, Unsat, Unknown };
const char *satResultName(SatResult r);

// Relocatable memory model: a query as the engine built it, before the concrete address of
// each symbolic base was substituted. constraints[i] became Query::constraints[i]. Queries
// equal in this form up to a renaming of bases ask the same question (address-aware cache).
struct AddressForm {
  std::vector<ExprRef> constraints;
  ExprRef expr;
  // An engine-internal question about the layout itself (does a pointer land in another
  // object?): only its concrete form answers it, never a renamed one.
  bool layoutDependent = false;
};

// What the engine hands the KLEE-style questions below to give a query its AddressForm.
struct AddressQuestion {
  const std::vector<ExprRef> &constraints; // parallel to the substituted constraints
  ExprRef expr;                            // the question before substitution
  bool layoutDependent = false;
};

// Asks whether `constraints ∧ expr` is satisfiable. When a model is requested, a Sat response
// assigns every symbol of the constraints, `expr` and `terms` that the remaining constraints
// touch (independence slicing may drop constraints on unrelated symbols).
struct Query {
  std::vector<ExprRef> constraints; // each width 1
  ExprRef expr;                     // width 1
  std::vector<ExprRef> terms;       // expressions whose symbols the model must cover
  std::shared_ptr<const AddressForm> symbolic; // relocatable model only; may be null

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
// and below.
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

  // KLEE-style questions, built on check(). `symbolic`, when given, is the question before
  // address substitution (its expression is ignored by getValue and getInitialValues).
  Answer<bool> mustBeTrue(const std::vector<ExprRef> &constraints, const ExprRef &e,
                          const AddressQuestion *symbolic = nullptr);
  Answer<bool> mustBeFalse(const std::vector<ExprRef> &constraints, const ExprRef &e,
                           const AddressQuestion *symbolic = nullptr);
  Answer<bool> mayBeTrue(const std::vector<ExprRef> &constraints, const ExprRef &e,
                         const AddressQuestion *symbolic = nullptr);
  Answer<bool> mayBeFalse(const std::vector<ExprRef> &constraints, const ExprRef &e,
                          const AddressQuestion *symbolic = nullptr);
  Answer<Validity> evaluate(const std::vector<ExprRef> &constraints, const ExprRef &e,
                            const AddressQuestion *symbolic = nullptr);
  // A value `e` can take under the constraints.
  Answer<u128> getValue(const std::vector<ExprRef> &constraints, const ExprRef &e,
                        const AddressQuestion *symbolic = nullptr);
  // Values for the given symbol expressions (scalars or arrays) satisfying the constraints.
  Answer<Assignment> getInitialValues(const std::vector<ExprRef> &constraints,
                                      const std::vector<ExprRef> &symbols,
                                      const AddressQuestion *symbolic = nullptr);
};

// A layer that forwards to another solver; the chain is built from these.
class SolverLayer : public Solver {
public:
  explicit SolverLayer(std::unique_ptr<Solver> next) : next_(std::move(next)) {}
  void setTimeout(double seconds) override { next_->setTimeout(seconds); }
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
