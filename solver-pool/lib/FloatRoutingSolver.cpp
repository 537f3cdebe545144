// The core for queries with floating-point terms: another backend than the one for the rest.
// Every FP operation is bit-blasted into a circuit, and the backends differ on those circuits
// far more than on bit-vector queries: on the float corpus, Z3 4.8.12 takes 45.6 s where cvc5
// takes 2.1 s (a sqrt), 7.9 s against 2.9 s (frexp/modf), 5.1 s against 0.8 s (a double
// round trip), while Z3 stays the faster for the exploration queries without floats.
#include "cairn/solver/SolverChain.h"

namespace cairn {

namespace {

bool mentionsFloat(const Query &q) {
  for (const ExprRef &c : q.constraints)
    if (c->mentionsFloat())
      return true;
  for (const ExprRef &t : q.terms)
    if (t->mentionsFloat())
      return true;
  return q.expr && q.expr->mentionsFloat();
}

class FloatRoutingSolver final : public SolverLayer {
public:
  FloatRoutingSolver(std::unique_ptr<Solver> core, std::unique_ptr<Solver> floatCore)
      : SolverLayer(std::move(core)), floatCore_(std::move(floatCore)) {
    stats_.layer = "float-routing";
  }

  std::string name() const override {
    return "float-routing(" + next_->name() + ", floats: " + floatCore_->name() + ")";
  }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    if (!mentionsFloat(q))
      return next_->check(q, wantModel);
    ++floatQueries_;
    return floatCore_->check(q, wantModel);
  }

  std::unique_ptr<SolverSession> openSession(const Query &q) override {
    ++stats_.queries;
    if (!mentionsFloat(q))
      return next_->openSession(q);
    ++floatQueries_;
    return floatCore_->openSession(q);
  }

  void setTimeout(double seconds) override {
    next_->setTimeout(seconds);
    floatCore_->setTimeout(seconds);
  }

  void interrupt() override {
    next_->interrupt();
    floatCore_->interrupt();
  }

  void collectStats(std::vector<SolverLayerStats> &out) const override {
    SolverLayerStats own = stats_;
    own.counters = {{"float_queries", floatQueries_}};
    out.push_back(std::move(own));
    next_->collectStats(out);
    floatCore_->collectStats(out);
  }

private:
  std::unique_ptr<Solver> floatCore_;
  uint64_t floatQueries_ = 0;
};

} // namespace

std::unique_ptr<Solver> createFloatRoutingSolver(std::unique_ptr<Solver> core,
                                                 std::unique_ptr<Solver> floatCore) {
  return std::make_unique<FloatRoutingSolver>(std::move(core), std::move(floatCore));
}

} // namespace cairn
