// How a merged state's formulas are written (thesis chapter 5, Algorithms 4-6): the merged
// path condition, and one value for each register or byte the merged states disagree on,
// equal to each state's own value under that state's path condition.
//
//  - disjunctive: the merged condition is the disjunction of the states' path-condition
//    suffixes psi_i; the guard of state i's value is a few literals of psi_i whose negations
//    the later states' suffixes hold (where they parted), or psi_i itself where none does.
//  - execution tree: the forks inside the context form a binary tree; the merged condition and
//    values are built bottom-up from the fork conditions, linear in the tree's size, and a
//    subtree all of whose leaves merge contributes just the condition of its root.
//  - quantified: paths that repeat one pattern (ω1 ω2^k ω3) become one condition with a fresh
//    k and a bounded universal over the repetitions; values t[k/x] (state merging with
//    quantifiers, ../shared/papers/digests/quantified_state_merging.md).
#pragma once

#include "merging/MergeContext.h"

#include <memory>
#include <span>
#include <vector>

namespace cairn::engine {

namespace quantified {
struct PatternGroup;
}

enum class MergeEncodingKind : uint8_t { Disjunctive, ExecutionTree, Quantified };

// The encoding a group merges with; for the quantified one, the group's regular partition
// (quantifiedPartition, its leaves numbered as the group): without one the group merges with
// the execution tree.
struct EncodingChoice {
  EncodingChoice(MergeEncodingKind kind, const quantified::PatternGroup *pattern = nullptr)
      : kind(kind), pattern(pattern) {}
  MergeEncodingKind kind;
  const quantified::PatternGroup *pattern;
};

class MergeEncoding {
public:
  virtual ~MergeEncoding() = default;
  // The disjunction of the group's path conditions after the context's common prefix.
  const ExprRef &condition() const { return condition_; }
  // The value that is `values[i]` on the path of the group's state i.
  ExprRef merge(std::span<const ExprRef> values);
  // Size of the merged values built so far (distinct nodes, summed), when measured.
  uint64_t valueNodes() const { return valueNodes_; }
  // Measuring walks each merged value: quadratic where merged values keep being merged again
  // (whole-state merging), so that merging leaves it off.
  void measure(bool on) { measure_ = on; }
  // Whether the merged state is written with a quantifier (QuantifiedEncoding).
  virtual bool quantified() const { return false; }
  // With validation on (before any merge): formulas each of which must be unsatisfiable for
  // the merged state to be exact (a quantified merge against its paths, Theorem 6.2.7).
  void validate(bool on) { validate_ = on; }
  virtual std::vector<ExprRef> obligations() const { return {}; }

protected:
  // `values` differ; the merged value.
  virtual ExprRef combine(std::span<const ExprRef> values) = 0;
  ExprRef condition_;
  bool validate_ = false;

private:
  uint64_t valueNodes_ = 0;
  bool measure_ = true;
};

// The encoding of `kind` for `group`, states of `context` waiting at the same instruction.
// The execution-tree encoding needs a tree that matches the states (context.treeExact); without
// one the disjunctive encoding is used.
std::unique_ptr<MergeEncoding> createMergeEncoding(EncodingChoice choice, ExprContext &ctx, const MergeContext &context,
                                                   std::span<ExecutionState *const> group);

// State merging with quantifiers (merging/quantified/QuantifiedEncoding.cpp): the group's
// paths are `pattern`'s leaves; null unless its patterns synthesize.
std::unique_ptr<MergeEncoding> createQuantifiedEncoding(ExprContext &ctx, const MergeContext &context,
                                                        std::span<ExecutionState *const> group,
                                                        const quantified::PatternGroup &pattern);
// The group split into its regular partitions (indices into `group`), each to be merged on its
// own, and one part of the paths that repeat no pattern; one part of everything when the
// partition gives up.
struct QuantifiedPart {
  std::vector<size_t> members;
  // The regular partition of more than one path, its leaves numbered as `members`; null for
  // the paths that repeat no pattern.
  std::shared_ptr<const quantified::PatternGroup> pattern;
};
std::vector<QuantifiedPart> quantifiedPartition(const MergeContext &context, std::span<ExecutionState *const> group);

std::unique_ptr<MergeEncoding> createDisjunctiveEncoding(ExprContext &ctx, const MergeContext &context,
                                                         std::span<ExecutionState *const> group);
std::unique_ptr<MergeEncoding> createTreeEncoding(ExprContext &ctx, const MergeContext &context,
                                                  std::span<ExecutionState *const> group);

} // namespace cairn::engine
