// The solver layer of type- and interval-aware array solving (ISSTA '21), just above the core:
//   1. the pre-check (ArrayPrecheck.h) answers UNSAT where an integer over-approximation of
//      the query is infeasible, with no SMT call (Opt 1);
//   2. the CEGAR loop (Opt 2) asks the core about the query with its reads abstracted
//      (ReadAbstraction.h, QueryAbstraction.h), all rounds in one incremental session (SolverSession.h); UNSAT
//      there is UNSAT; a model is checked against the query itself and returned when it
//      satisfies it; otherwise the reads it got wrong are refined (ArrayAxioms.h: the pool
//      axioms they violate, or each read tied to its array whole) and the core asked again.
//      Where nothing in the pool explains the model, or the rounds run out, the query goes to
//      the core as it is: every answer is the query's own.
#include "ArrayAxioms.h"
#include "ArrayPrecheck.h"
#include "QueryAbstraction.h"

#include "cairn/solver/SolverChain.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace cairn {

namespace {

using namespace arrays;

class TypedArraySolver final : public SolverLayer {
public:
  TypedArraySolver(std::unique_ptr<Solver> next, ArraySolverOptions options)
      : SolverLayer(std::move(next)), options_(options), ilp_(options.bounds, options.ilpTimeoutMs) {
    stats_.layer = "typed-arrays";
  }
  std::string name() const override { return "typed-arrays(" + next_->name() + ")"; }

  void setTimeout(double seconds) override {
    timeoutSeconds_ = seconds > 0 ? seconds : 0;
    next_->setTimeout(seconds);
  }

  void collectStats(std::vector<SolverLayerStats> &out) const override {
    SolverLayerStats s = stats_;
    s.counters = {{"prechecked", prechecked_},
                  {"precheck_unsat", precheckUnsat_},
                  {"precheck_skipped", precheckSkipped_},
                  {"ilp_calls", ilp_.calls()},
                  {"ilp_ms", uint64_t(ilp_.seconds() * 1000)},
                  {"own_ms", uint64_t(std::max(0.0, stats_.seconds - belowSeconds_) * 1000)},
                  {"cegar_queries", cegarQueries_},
                  {"refinement_rounds", rounds_},
                  {"axioms_added", axiomsAdded_},
                  {"reads_tied_whole", wholeReads_},
                  {"reads_tied_from_start", seededReads_},
                  {"axiom_pool", poolAxioms_},
                  {"axioms_unpruned", unprunedAxioms_},
                  {"untyped_reads", untypedReads_},
                  {"reads_left_to_core", concreteReads_},
                  {"fallbacks", fallbacks_},
                  {"constraints_reused", constraintsReused_},
                  {"models_exact", exactModels_},
                  {"reads_forgotten", fresh_.timesForgotten()}};
    out.push_back(std::move(s));
    next_->collectStats(out);
  }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    ScopedSolverTimer timer(stats_);
    std::vector<const Expr *> conjuncts;
    for (const ExprRef &c : q.constraints)
      conjuncts.push_back(c.get());
    conjuncts.push_back(q.expr.get());
    const QueryReads reads = collectReads(conjuncts);
    if (reads.empty())
      return ask(q, wantModel);
    PrecheckResult intervals;
    if (options_.precheck || options_.typed) {
      intervals = precheck(conjuncts, reads, q.arrayTypes.get(), ilp_);
      ++(intervals.outcome == PrecheckResult::Outcome::Skipped ? precheckSkipped_ : prechecked_);
      if (options_.precheck && intervals.outcome == PrecheckResult::Outcome::Unsat) {
        ++precheckUnsat_;
        ++stats_.answered;
        return SolverResponse{SatResult::Unsat, {}, {}};
      }
    }
    if (!options_.typed)
      return ask(q, wantModel);
    if (allLeftToCore(reads, intervals, q.arrayTypes.get())) {
      concreteReads_ += reads.reads.size();
      return ask(q, wantModel);
    }
    return refine(q, wantModel, intervals, reads);
  }

private:
  SolverResponse refine(const Query &q, bool wantModel, const PrecheckResult &intervals, const QueryReads &collected) {
    const auto start = std::chrono::steady_clock::now();
    fresh_.startQuery();
    AbstractQuery abstract = abstractQuery(q, intervals, fresh_, abstractions_,
                                           {options_.maxAxiomsPerRead, options_.axiomsBeforeWholeRead != ~0u});
    const std::vector<AbstractRead> &reads = abstract.reads;
    untypedReads_ += abstract.untypedReads;
    concreteReads_ += abstract.readsLeftToCore;
    constraintsReused_ += abstract.constraintsReused;
    if (reads.empty()) {
      rememberLeftToCore(collected, intervals, q.arrayTypes.get());
      return ask(q, wantModel);
    }
    ++cegarQueries_;
    seededReads_ += std::count(abstract.whole.begin(), abstract.whole.end(), true);
    std::vector<bool> &whole = abstract.whole;
    std::vector<unsigned> violations(reads.size(), 0); // of each read's element and beyond axioms
    ReadInlining &inlined = abstract.inlined;
    // With every read tied from the start no axiom of the pool could be added (a tied read
    // takes none), so the pool is only counted.
    AxiomPool pool = buildAxiomPool(reads, abstract.allTied ? PoolContents::CountOnly : PoolContents::Axioms);
    poolAxioms_ += pool.size;
    unprunedAxioms_ += pool.unpruned;
    std::vector<bool> added(pool.axioms.size(), false);
    std::unique_ptr<SolverSession> session = next_->openSession(abstract.query);
    for (unsigned round = 0; round < options_.maxRounds; ++round) {
      ++rounds_;
      SolverResponse r = timed([&] { return session->check(true); });
      if (r.result != SatResult::Sat)
        return r; // UNSAT of the abstraction is UNSAT of the query; Unknown stays Unknown
      if (abstract.exact)
        ++exactModels_; // the abstraction is the query: its model needs no check against it
      else
        inlined.complete(r.model);
      if (abstract.exact || satisfies(q, r.model)) {
        SolverResponse sat{SatResult::Sat, {}, {}};
        if (wantModel)
          sat.model = withoutFreshReads(r.model, q);
        return sat;
      }
      const ReadValues values = valuesUnder(reads, r.model);
      size_t refined = 0;
      for (size_t a = 0; a < pool.axioms.size(); ++a) {
        const Axiom &axiom = pool.axioms[a];
        if (added[a] || whole[axiom.read] || !violates(axiom, reads, values, r.model))
          continue;
        const bool positional = axiom.kind != Axiom::Kind::Congruence;
        if (positional && violations[axiom.read] >= options_.axiomsBeforeWholeRead) {
          session->add(inlined.apply(fresh_.tieOf(reads[axiom.read])));
          whole[axiom.read] = true;
          fresh_.tieWhole(reads[axiom.read].variable.get());
          ++wholeReads_;
        } else {
          session->add(inlined.apply(axiomExpr(axiom, reads)));
          added[a] = true;
          ++axiomsAdded_;
        }
        violations[axiom.read] += positional;
        ++refined;
      }
      if (refined == 0)
        break; // the pool cannot explain the spurious model: the full query decides
      if (timeoutSeconds_ > 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeoutSeconds_)
        return SolverResponse::unknown("typed-arrays: timeout during refinement");
    }
    session.reset(); // the next layer takes no other question while a session is open
    ++fallbacks_;
    return ask(q, wantModel);
  }

  // Whether every read of the query is one the abstraction left to the core's own encoding in
  // an earlier query (a table read at a raw byte: every position possible), with the same
  // interval and element width: the decision is the read's alone, so the query would come out
  // of the abstraction unchanged, and building it (a rewrite of every constraint) is skipped.
  // Leaving a read to the core is always sound; this only spares the work of finding so.
  struct ReadKey {
    ExprRef select;
    Interval interval;
    uint32_t bytes;
    bool operator==(const ReadKey &o) const {
      return select == o.select && interval.lo == o.interval.lo && interval.hi == o.interval.hi && bytes == o.bytes;
    }
    template <class H> friend H AbslHashValue(H h, const ReadKey &k) {
      const auto lo = static_cast<unsigned __int128>(k.interval.lo), hi = static_cast<unsigned __int128>(k.interval.hi);
      return H::combine(std::move(h), k.select.get(), uint64_t(lo), uint64_t(lo >> 64), uint64_t(hi),
                        uint64_t(hi >> 64), k.bytes);
    }
  };
  static ReadKey keyOf(const ArrayRead &r, const PrecheckResult &intervals, const ArrayTypes *types) {
    return {ExprRef(r.select), intervalOf(intervals, r.index), elementBytes(types, r.root)};
  }
  bool allLeftToCore(const QueryReads &reads, const PrecheckResult &intervals, const ArrayTypes *types) const {
    if (reads.symbolicWrite || leftToCore_.empty())
      return false;
    return std::all_of(reads.reads.begin(), reads.reads.end(),
                       [&](const ArrayRead &r) { return leftToCore_.contains(keyOf(r, intervals, types)); });
  }
  void rememberLeftToCore(const QueryReads &reads, const PrecheckResult &intervals, const ArrayTypes *types) {
    if (reads.symbolicWrite)
      return;
    if (leftToCore_.size() > kLeftToCoreKept)
      leftToCore_.clear(); // the reads of long-gone paths, and the nodes they hold
    for (const ArrayRead &r : reads.reads)
      leftToCore_.insert(keyOf(r, intervals, types));
  }
  static constexpr size_t kLeftToCoreKept = 1 << 16;

  // The next layer's answer, its time kept apart from the layer's own.
  SolverResponse ask(const Query &q, bool wantModel) {
    return timed([&] { return next_->check(q, wantModel); });
  }
  template <class Ask> SolverResponse timed(Ask &&ask) {
    const auto start = std::chrono::steady_clock::now();
    SolverResponse r = ask();
    belowSeconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

  static bool satisfies(const Query &q, const Assignment &model) {
    try {
      for (const ExprRef &c : q.constraints)
        if (c && !evaluatesTrue(c.get(), model))
          return false;
      return !q.expr || evaluatesTrue(q.expr.get(), model);
    } catch (const std::domain_error &) { // a quantifier the evaluator cannot enumerate
      return false;
    }
  }

  Assignment withoutFreshReads(const Assignment &model, const Query &q) const {
    Assignment out;
    for (const auto &[s, v] : model.scalars())
      if (!fresh_.isFresh(s))
        out.setScalar(s, v);
    for (const auto &[s, v] : model.arrays())
      out.setArray(s, v);
    completeModel(out, q);
    return out;
  }

  ArraySolverOptions options_;
  IntegerProgramSolver ilp_;
  FreshReads fresh_;
  AbstractionCache abstractions_;
  double timeoutSeconds_ = 0;
  double belowSeconds_ = 0;
  uint64_t prechecked_ = 0, precheckUnsat_ = 0, precheckSkipped_ = 0;
  uint64_t cegarQueries_ = 0, rounds_ = 0, axiomsAdded_ = 0, wholeReads_ = 0, poolAxioms_ = 0;
  uint64_t unprunedAxioms_ = 0, seededReads_ = 0;
  uint64_t untypedReads_ = 0, concreteReads_ = 0, fallbacks_ = 0;
  uint64_t constraintsReused_ = 0, exactModels_ = 0;
  absl::flat_hash_set<ReadKey> leftToCore_;
};

} // namespace

std::unique_ptr<Solver> createTypedArraySolver(std::unique_ptr<Solver> next, ArraySolverOptions options) {
  return std::make_unique<TypedArraySolver>(std::move(next), options);
}

} // namespace cairn
