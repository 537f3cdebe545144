// The merge encoding of state merging with quantifiers (MergeEncodingKind::Quantified): the
// group's path suffixes, as words of their conditions, must form one regular partition
// (PathWords.h) whose patterns synthesize (QuantifiedGroup.h). The merged condition then has a
// fresh k and a bounded universal; a value that fits a term t(x) is t[k/x], any other is chosen
// by k itself, ite(k = k_1, v_1, ite(k = k_2, v_2, ...)): under the merged condition k = k_j
// holds on leaf j's path alone (Theorem 6.2.7).
#include "merging/MergeEncoding.h"
#include "cairn/expr/ExprUtil.h"
#include "cairn/expr/Quantified.h"
#include "merging/quantified/QuantifiedGroup.h"

#include <spdlog/spdlog.h>

#include <numeric>
#include <string>

namespace cairn::engine {

namespace {

using namespace quantified;

// k and the bound variable: 64 bits, wide enough for any count of iterations and index term.
constexpr unsigned kCountWidth = 64;

class QuantifiedEncoding final : public MergeEncoding {
public:
  QuantifiedEncoding(ExprContext &ctx, PatternGroup pattern, std::vector<std::vector<ExprRef>> paths)
      : ctx_(ctx), pattern_(std::move(pattern)), paths_(std::move(paths)) {}

  bool quantified() const override { return true; }

  bool build() {
    count_ = ctx_.symbol(ctx_.declareSymbol("merge_k", kCountWidth, SymbolClass::Input));
    ExprRef bound = ctx_.symbol(ctx_.declareSymbol("merge_i", kCountWidth, SymbolClass::Bound));
    ExprRef x = ctx_.symbol(ctx_.declareSymbol("merge_x", kCountWidth, SymbolClass::Bound));
    group_ = QuantifiedGroup::build(ctx_, pattern_, paths_, count_, bound, x);
    if (!group_)
      return false;
    condition_ = group_->condition();
    if (spdlog::should_log(spdlog::level::debug))
      spdlog::debug("quantified merge: {} paths, condition {}", paths_.size(), describe(condition_.get()));
    return true;
  }

  // Theorem 6.2.7 leaf by leaf: at k = k_j the merged condition, its universal written out, is
  // leaf j's path (so the merged condition with k free is the disjunction of the paths), and
  // under that path every merged value is the leaf's own.
  std::vector<ExprRef> obligations() const override {
    std::vector<ExprRef> out;
    for (size_t j = 0; j < paths_.size(); ++j) {
      const uint64_t k = pattern_.counts[j];
      const ExprRef path = conjunction(ctx_, paths_[j]);
      ExprRef at = instantiate(ctx_, condition_, count_.get(), k);
      if (at != path)
        out.push_back(ctx_.lnot(ctx_.eq(at, path)));
      for (const auto &[merged, values] : merged_)
        if (ExprRef v = instantiate(ctx_, merged, count_.get(), k); v != values[j])
          out.push_back(ctx_.land(path, ctx_.lnot(ctx_.eq(v, values[j]))));
    }
    return out;
  }

protected:
  ExprRef combine(std::span<const ExprRef> values) override {
    ExprRef merged;
    if (std::optional<ExprRef> t = group_->value(values)) {
      merged = *t;
    } else {
      merged = values.back();
      for (size_t j = values.size() - 1; j-- > 0;)
        merged = ctx_.ite(ctx_.eq(count_, ctx_.constant(pattern_.counts[j], kCountWidth)), values[j], merged);
    }
    if (validate_)
      merged_.emplace_back(merged, std::vector<ExprRef>(values.begin(), values.end()));
    return merged;
  }

private:
  ExprContext &ctx_;
  PatternGroup pattern_;
  std::vector<std::vector<ExprRef>> paths_;
  ExprRef count_;
  std::optional<QuantifiedGroup> group_;
  std::vector<std::pair<ExprRef, std::vector<ExprRef>>> merged_; // with validation: each value and its parts
};

// Each state's conditions after the context's start, and their words.
struct Paths {
  std::vector<Word> words;
  std::vector<std::vector<ExprRef>> conditions;
};
Paths pathsOf(const MergeContext &context, std::span<ExecutionState *const> group) {
  Paths out;
  for (const ExecutionState *s : group) {
    Word &w = out.words.emplace_back();
    std::vector<ExprRef> &path = out.conditions.emplace_back();
    for (size_t i = context.prefixConstraints; i < s->constraints.size(); ++i) {
      w.push_back(conditionHash(s->constraints[i].get()));
      path.push_back(s->constraints[i]);
    }
  }
  return out;
}

} // namespace

std::vector<QuantifiedPart> quantifiedPartition(const MergeContext &context, std::span<ExecutionState *const> group) {
  std::vector<QuantifiedPart> out;
  std::optional<std::vector<PatternGroup>> groups = regularPartition(pathsOf(context, group).words);
  if (!groups) {
    out.emplace_back();
    for (size_t i = 0; i < group.size(); ++i)
      out.back().members.push_back(i);
    return out;
  }
  // Paths that repeat no pattern merge together the standard way.
  std::vector<size_t> rest;
  for (PatternGroup &g : *groups) {
    if (g.core.empty()) {
      rest.insert(rest.end(), g.leaves.begin(), g.leaves.end());
      continue;
    }
    spdlog::debug("quantified merge: a partition of {} paths (prefix {}, core {}, suffix {} conditions)", g.leaves.size(),
                  g.prefix.size(), g.core.size(), g.suffix.size());
    QuantifiedPart &part = out.emplace_back();
    part.members = std::move(g.leaves);
    if (part.members.size() > 1) { // the part's leaves are its members, in their order
      g.leaves.resize(part.members.size());
      std::iota(g.leaves.begin(), g.leaves.end(), size_t(0));
      part.pattern = std::make_shared<const PatternGroup>(std::move(g));
    }
  }
  if (!rest.empty())
    out.push_back({std::move(rest), nullptr});
  return out;
}

std::unique_ptr<MergeEncoding> createQuantifiedEncoding(ExprContext &ctx, const MergeContext &context,
                                                        std::span<ExecutionState *const> group,
                                                        const PatternGroup &pattern) {
  auto encoding = std::make_unique<QuantifiedEncoding>(ctx, pattern, pathsOf(context, group).conditions);
  if (!encoding->build()) {
    spdlog::debug("quantified merge: the patterns of {} paths do not synthesize", group.size());
    return nullptr;
  }
  return encoding;
}

} // namespace cairn::engine
