// A solver layer for the queries exploration of byte inputs asks most: those whose constraints
// all read one and the same byte of input (an array element at a constant index, or a scalar of
// at most 8 bits). Such a query has at most 256 candidate models, and the expression evaluator,
// the semantics every other layer checks models against, decides it by trying them in order:
// no backend call, and no backend context made for a run whose queries are all of this kind.
// A literal of few nodes is decided for all 256 values at once and remembered (ByteDomains.h):
// the same literals come back in query after query of a path, and trying each value against
// every constraint was most of a run's time on a tokenizer's merged states. The evaluator
// tries only the values they all allow, against the larger literals. Anything else goes to
// the next layer unchanged.
#include "ByteDomains.h"
#include "Footprint.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/SolverChain.h"

#include <algorithm>
#include <bitset>
#include <stdexcept>
#include <vector>

namespace cairn {

namespace {

class ByteDomainSolver final : public SolverLayer {
public:
  ByteDomainSolver(std::unique_ptr<Solver> next, std::shared_ptr<ByteDomains> domains)
      : SolverLayer(std::move(next)), domains_(domains ? std::move(domains) : std::make_shared<ByteDomains>()) {
    stats_.layer = "byte-domain";
  }
  std::string name() const override { return "byte-domain(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ++stats_.queries;
    std::optional<SolverResponse> r = decide(q, wantModel);
    if (!r)
      return next_->check(q, wantModel);
    ++stats_.answered;
    return std::move(*r);
  }

private:
  // The one byte the query reads; nothing when it reads more (or nothing at all: those are the
  // next layer's).
  static std::optional<InputByte> onlyByte(const Query &q) {
    Footprint fp;
    for (const ExprRef &c : q.constraints)
      if (c)
        fp.merge(computeFootprint(c.get()));
    if (q.expr)
      fp.merge(computeFootprint(q.expr.get()));
    return cairn::onlyByte(fp);
  }

  std::optional<SolverResponse> decide(const Query &q, bool wantModel) {
    std::optional<InputByte> byte = onlyByte(q);
    if (!byte)
      return std::nullopt;
    std::optional<Assignment> candidate = byteCandidate(*byte);
    if (!candidate)
      return std::nullopt; // too large an array to copy here
    // Every literal that reads a byte reads this one: the query reads no other.
    std::bitset<256> allowed = std::bitset<256>().set();
    residual_.clear();
    auto take = [&](const ExprRef &literal) {
      if (const std::bitset<256> *values = domains_->exactValuesOf(literal))
        allowed &= *values;
      else
        residual_.push_back(literal.get());
    };
    for (const ExprRef &c : q.constraints)
      if (c)
        take(c);
    if (q.expr)
      take(q.expr);
    const unsigned values = 1u << byte->symbol->width;
    try {
      for (unsigned v = 0; v < values; ++v) {
        if (!allowed[v])
          continue;
        setByte(*candidate, *byte, v);
        if (!satisfies(*candidate))
          continue;
        SolverResponse r;
        r.result = SatResult::Sat;
        if (wantModel) {
          r.model = std::move(*candidate);
          completeModel(r.model, q);
        }
        return r;
      }
    } catch (const std::domain_error &) { // a quantifier the evaluator cannot enumerate
      return std::nullopt;
    }
    return SolverResponse{SatResult::Unsat, {}, {}};
  }

  bool satisfies(const Assignment &a) const {
    return std::all_of(residual_.begin(), residual_.end(), [&](const Expr *l) { return evaluatesTrue(l, a); });
  }

  std::shared_ptr<ByteDomains> domains_;
  std::vector<const Expr *> residual_; // the query's literals no memo decides, in its order
};

} // namespace

std::unique_ptr<Solver> createByteDomainSolver(std::unique_ptr<Solver> next, std::shared_ptr<ByteDomains> domains) {
  return std::make_unique<ByteDomainSolver>(std::move(next), std::move(domains));
}

} // namespace cairn
