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
    for (const ExecutionState *s : group)
      suffixes_.emplace_back(s->constraints.exprs().begin() + context.prefixConstraints, s->constraints.exprs().end());
    wholes_.resize(suffixes_.size());
    if (context.foldPaths)
      condition_ = foldedDisjunction(ctx, suffixes_);
    if (!condition_) {
      condition_ = ctx.falseExpr();
      for (size_t i = 0; i < suffixes_.size(); ++i)
        condition_ = ctx.lor(condition_, whole(i));
    }
  }

protected:
  // The last state's value needs no guard: the merged condition implies one holds.
  ExprRef combine(std::span<const ExprRef> values) override {
    if (guards_.empty()) // made when a value first differs: states that only end need none
      guards_ = separatingGuards();
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
  std::vector<ExprRef> separatingGuards() {
    const size_t n = suffixes_.size();
    // Each later state's literals; looked up in a set where a suffix is long (a state after a
    // run of forks), scanned where it is short, as most are.
    constexpr size_t kScanned = 32;
    std::vector<std::vector<Literal>> literals(n);
    std::vector<absl::flat_hash_set<Literal>> held(n);
    for (size_t j = 1; j < n; ++j) {
      for (const ExprRef &l : suffixes_[j])
        literals[j].push_back(literalOf(l.get()));
      if (literals[j].size() > kScanned)
        held[j].insert(literals[j].begin(), literals[j].end());
    }
    auto holds = [&](size_t j, const Literal &l) {
      return literals[j].size() > kScanned ? held[j].contains(l)
                                           : std::find(literals[j].begin(), literals[j].end(), l) != literals[j].end();
    };
    std::vector<ExprRef> guards;
    std::vector<Literal> negations;
    std::vector<size_t> chosen; // indices into suffixes_[i]
    for (size_t i = 0; i + 1 < n; ++i) {
      negations.clear();
      for (const ExprRef &l : suffixes_[i])
        negations.push_back(literalOf(l.get()).negated());
      chosen.clear();
      bool separated = true;
      for (size_t j = i + 1; j < n && separated; ++j) {
        auto parts = [&](size_t k) { return holds(j, negations[k]); };
        // A literal chosen for an earlier state may part this one too.
        separated = std::any_of(chosen.begin(), chosen.end(), parts);
        for (size_t k = 0; k < negations.size() && !separated; ++k)
          if (parts(k)) {
            chosen.push_back(k);
            separated = true;
          }
      }
      if (!separated) {
        guards.push_back(whole(i));
        continue;
      }
      std::vector<ExprRef> parting;
      for (size_t k : chosen)
        parting.push_back(suffixes_[i][k]);
      guards.push_back(conjunction(ctx_, parting));
    }
    return guards;
  }

  // State i's suffix as one conjunction, made once for the merged condition and a guard.
  const ExprRef &whole(size_t i) {
    if (!wholes_[i])
      wholes_[i] = conjunction(ctx_, suffixes_[i]);
    return wholes_[i];
  }

  ExprContext &ctx_;
  std::vector<std::vector<ExprRef>> suffixes_; // each state's constraints after the shared ones
  std::vector<ExprRef> wholes_;
  std::vector<ExprRef> guards_;
};

} // namespace

std::unique_ptr<MergeEncoding> createDisjunctiveEncoding(ExprContext &ctx, const MergeContext &context,
                                                         std::span<ExecutionState *const> group) {
  return std::make_unique<DisjunctiveEncoding>(ctx, context, group);
}

} // namespace cairn::engine
