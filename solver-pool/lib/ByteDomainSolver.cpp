// A solver layer for the queries exploration of byte inputs asks most: those whose constraints
// all read one and the same byte of input (an array element at a constant index, or a scalar of
// at most 8 bits). Such a query has at most 256 candidate models, and the expression evaluator,
// the semantics every other layer checks models against, decides it by trying them in order:
// no backend call, and no backend context made for a run whose queries are all of this kind.
// Anything else goes to the next layer unchanged.
#include "ByteDomains.h"
#include "Footprint.h"

#include "cairn/expr/Assignment.h"
#include "cairn/solver/SolverChain.h"

#include <algorithm>
#include <stdexcept>

namespace cairn {

namespace {

class ByteDomainSolver final : public SolverLayer {
public:
  explicit ByteDomainSolver(std::unique_ptr<Solver> next) : SolverLayer(std::move(next)) {
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

  static std::optional<SolverResponse> decide(const Query &q, bool wantModel) {
    std::optional<InputByte> byte = onlyByte(q);
    if (!byte)
      return std::nullopt;
    std::optional<Assignment> candidate = byteCandidate(*byte);
    if (!candidate)
      return std::nullopt; // too large an array to copy here
    const unsigned values = 1u << byte->symbol->width;
    try {
      for (unsigned v = 0; v < values; ++v) {
        setByte(*candidate, *byte, v);
        if (!satisfies(q, *candidate))
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

  static bool satisfies(const Query &q, const Assignment &a) {
    for (const ExprRef &c : q.constraints)
      if (c && !evaluatesTrue(c.get(), a))
        return false;
    return !q.expr || evaluatesTrue(q.expr.get(), a);
  }
};

} // namespace

std::unique_ptr<Solver> createByteDomainSolver(std::unique_ptr<Solver> next) {
  return std::make_unique<ByteDomainSolver>(std::move(next));
}

} // namespace cairn
