// Each state guarded by what sets its path apart from the states after it in the group.
#include "merging/MergeEncoding.h"
#include "merging/PathDisjunction.h"

#include "cairn/expr/ExprUtil.h"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <vector>

namespace cairn::engine {

namespace {

class DisjunctiveEncoding final : public MergeEncoding {
public:
  DisjunctiveEncoding(ExprContext &ctx, const MergeContext &context, std::span<ExecutionState *const> group)
      : ctx_(ctx) {
    std::vector<std::vector<ExprRef>> suffixes;
    for (const ExecutionState *s : group)
      suffixes.emplace_back(s->constraints.exprs().begin() + context.prefixConstraints, s->constraints.exprs().end());
    guards_ = separatingGuards(suffixes);
    if (context.foldPaths)
      condition_ = foldedDisjunction(ctx, suffixes);
    if (!condition_) {
      condition_ = ctx.falseExpr();
      for (const std::vector<ExprRef> &suffix : suffixes)
        condition_ = ctx.lor(condition_, conjunction(ctx, suffix));
    }
  }

protected:
  // The last state's value needs no guard: the merged condition implies one holds.
  ExprRef combine(std::span<const ExprRef> values) override {
    ExprRef merged = values.back();
    for (size_t i = values.size() - 1; i-- > 0;)
      merged = ctx_.ite(guards_[i], values[i], merged);
    return merged;
  }

private:
  // The guard of state i in the chain ite(g0, v0, ite(g1, v1, ... v_last)) must hold on its path
  // and fail on the path of every state after it. Its whole suffix does; so does a conjunction
  // of its literals that has, for each later state, one whose negation that state's suffix
  // holds: the fork the two paths parted at, for states of one tree (c on one side, !c on the
  // other). Such a guard is a literal or two where the suffix is tens (a state merged with one
  // from another subtree, as dynamic merging pairs them), and so is every merged value and
  // every branch on one; the suffix stays where no literal parts two paths.
  std::vector<ExprRef> separatingGuards(const std::vector<std::vector<ExprRef>> &suffixes) {
    const size_t n = suffixes.size();
    std::vector<absl::flat_hash_set<const Expr *>> held(n);
    for (size_t j = 1; j < n; ++j)
      for (const ExprRef &l : suffixes[j])
        held[j].insert(l.get());
    std::vector<ExprRef> guards;
    for (size_t i = 0; i + 1 < n; ++i) {
      std::vector<ExprRef> negations;
      negations.reserve(suffixes[i].size());
      for (const ExprRef &l : suffixes[i])
        negations.push_back(ctx_.lnot(l));
      std::vector<size_t> chosen; // indices into suffixes[i]
      bool separated = true;
      for (size_t j = i + 1; j < n && separated; ++j) {
        auto parts = [&](size_t k) { return held[j].contains(negations[k].get()); };
        // A literal chosen for an earlier state may part this one too.
        separated = std::any_of(chosen.begin(), chosen.end(), parts);
        for (size_t k = 0; k < negations.size() && !separated; ++k)
          if (parts(k)) {
            chosen.push_back(k);
            separated = true;
          }
      }
      if (!separated) {
        guards.push_back(conjunction(ctx_, suffixes[i]));
        continue;
      }
      std::vector<ExprRef> literals;
      for (size_t k : chosen)
        literals.push_back(suffixes[i][k]);
      guards.push_back(conjunction(ctx_, literals));
    }
    return guards;
  }

  ExprContext &ctx_;
  std::vector<ExprRef> guards_;
};

} // namespace

std::unique_ptr<MergeEncoding> createDisjunctiveEncoding(ExprContext &ctx, const MergeContext &context,
                                                         std::span<ExecutionState *const> group) {
  return std::make_unique<DisjunctiveEncoding>(ctx, context, group);
}

} // namespace cairn::engine
