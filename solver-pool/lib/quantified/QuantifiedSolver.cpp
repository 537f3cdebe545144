// The layer for queries with bounded universals (state merging with quantifiers): the thesis'
// Algorithm 7 (compute-model) over the core. The quantifier-free query strip(φ) is implied by
// φ, so its UNSAT is φ's; otherwise its model, the model duplicated, and the repaired model are
// each checked against φ instance by instance before one is trusted; only when all three fail
// does the core get φ with its quantifiers (Z3's quantifier engine). Queries without a bounded
// universal pass through untouched.
#include "cairn/solver/SolverChain.h"
#include "QuantifiedQuery.h"

#include <algorithm>
#include <chrono>

#include <spdlog/spdlog.h>

namespace cairn {

namespace {

using quantified::QuantifiedQuery;

class QuantifiedSolver final : public SolverLayer {
public:
  QuantifiedSolver(std::unique_ptr<Solver> next, bool validate) : SolverLayer(std::move(next)), validate_(validate) {
    stats_.layer = "quantified";
  }
  std::string name() const override { return "quantified(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    if (!hasUniversal(q)) // the common case, without taking the query apart
      return next_->check(q, wantModel);
    std::optional<QuantifiedQuery> qq = QuantifiedQuery::of(q);
    if (!qq)
      return next_->check(q, wantModel);
    ScopedSolverTimer timer(stats_);
    ++quantified_;
    const uint64_t fallbacks = fallback_;
    SolverResponse r = solve(q, *qq, wantModel);
    if (r.result == SatResult::Unknown)
      ++stats_.unknown;
    if (validate_ && fallback_ == fallbacks)
      checkAgainstCore(q, r.result);
    return r;
  }

  void collectStats(std::vector<SolverLayerStats> &out) const override {
    SolverLayerStats own = stats_;
    own.counters = {{"quantified_queries", quantified_},   {"unsat_by_strip", unsatByStrip_},
                    {"sat_by_strip", satByStrip_},         {"sat_by_duplicate", satByDuplicate_},
                    {"sat_by_repair", satByRepair_},       {"fallback", fallback_},
                    {"strip_ms", uint64_t(stripSeconds_ * 1000)}, {"repair_ms", uint64_t(repairSeconds_ * 1000)},
                    {"fallback_ms", uint64_t(fallbackSeconds_ * 1000)}};
    if (validate_) {
      own.counters.emplace_back("validated", validated_);
      own.counters.emplace_back("mismatches", mismatches_);
    }
    out.push_back(std::move(own));
    next_->collectStats(out);
  }

private:
  using Clock = std::chrono::steady_clock;
  static bool hasUniversal(const Query &q) {
    auto universal = [](const ExprRef &e) { return e && (e->kind() == Kind::Forall || e->kind() == Kind::And); };
    return universal(q.expr) || std::any_of(q.constraints.begin(), q.constraints.end(), universal);
  }
  static double since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
  }

  SolverResponse sat(const Query &q, Assignment model, uint64_t &counter) {
    ++counter;
    ++stats_.answered;
    completeModel(model, q);
    return SolverResponse{SatResult::Sat, {}, std::move(model)};
  }

  SolverResponse solve(const Query &q, const QuantifiedQuery &qq, bool wantModel) {
    Clock::time_point start = Clock::now();
    Query stripped(qq.strip(), qq.context().trueExpr(), q.terms);
    stripped.arrayTypes = q.arrayTypes;
    SolverResponse first = next_->check(stripped, true);
    stripSeconds_ += since(start);
    if (first.result == SatResult::Unsat) {
      ++unsatByStrip_;
      ++stats_.answered;
      return first;
    }
    if (first.result == SatResult::Sat) {
      if (qq.satisfiedBy(first.model))
        return sat(q, std::move(first.model), satByStrip_);
      start = Clock::now();
      Assignment duplicated = first.model;
      qq.duplicate(duplicated, {});
      if (qq.satisfiedBy(duplicated)) {
        repairSeconds_ += since(start);
        return sat(q, std::move(duplicated), satByDuplicate_);
      }
      if (std::optional<QuantifiedQuery::Repair> repair = qq.repair(duplicated)) {
        Query strengthened(std::move(repair->constraints), qq.context().trueExpr(), q.terms);
        strengthened.arrayTypes = q.arrayTypes;
        SolverResponse second = next_->check(strengthened, true);
        if (second.result == SatResult::Sat) {
          qq.duplicate(second.model, repair->conflicts);
          if (qq.satisfiedBy(second.model)) {
            repairSeconds_ += since(start);
            return sat(q, std::move(second.model), satByRepair_);
          }
        }
      }
      repairSeconds_ += since(start);
    }
    start = Clock::now();
    ++fallback_;
    SolverResponse r = next_->check(q, wantModel);
    fallbackSeconds_ += since(start);
    return r;
  }

  // The core with the quantifiers must not contradict the procedure (it may not know).
  void checkAgainstCore(const Query &q, SatResult answer) {
    SolverResponse core = next_->check(q, false);
    if (core.result == SatResult::Unknown)
      return;
    ++validated_;
    if (core.result == answer)
      return;
    ++mismatches_;
    spdlog::error("quantified layer validation: the procedure answered {} where the core says {}",
                  satResultName(answer), satResultName(core.result));
  }

  const bool validate_;
  uint64_t validated_ = 0, mismatches_ = 0;
  uint64_t quantified_ = 0, unsatByStrip_ = 0, satByStrip_ = 0, satByDuplicate_ = 0, satByRepair_ = 0,
           fallback_ = 0;
  double stripSeconds_ = 0, repairSeconds_ = 0, fallbackSeconds_ = 0;
};

} // namespace

std::unique_ptr<Solver> createQuantifiedSolver(std::unique_ptr<Solver> next, bool validate) {
  return std::make_unique<QuantifiedSolver>(std::move(next), validate);
}

} // namespace cairn
