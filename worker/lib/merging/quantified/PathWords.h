// The words of state merging with quantifiers (../shared/papers/digests/quantified_state_merging.md
// §2.2, Defs. 6.2.1-6.2.4): a path of a merge context's execution tree as the word of its
// branch conditions' hashes, with every constant abstracted, so that one loop iteration's
// conditions hash alike whatever the iteration (h(n > 0) = h(n > 2), h(s[0] = 97) =
// h(s[1] = 97)) while a condition and its negation hash apart; and the partition of the leaves'
// words into groups matching ω1 ω2^k ω3.
#pragma once

#include "cairn/expr/Expr.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace cairn::engine::quantified {

using Word = std::vector<uint64_t>;

// The hash of a branch condition with its constants abstracted (their widths kept).
uint64_t conditionHash(const Expr *condition);

// A regular pattern ω1 ω2^k ω3 (Def. 6.2.3), and the leaves matching it with their k.
struct PatternGroup {
  Word prefix, core, suffix; // ω1, ω2 (empty: no repetition), ω3
  std::vector<size_t> leaves;   // indices into the words partitioned
  std::vector<uint64_t> counts; // k of each leaf
};

struct PartitionLimits {
  // Leaves whose word is searched for a repetition of its own, which found the patterns; past
  // it a word can only join a pattern found (the search is quadratic in the word's length).
  size_t maxInitialMatches = 20;
  size_t maxPatterns = 10;
};

// A regular partitioning of `words` (Def. 6.2.4): every leaf in exactly one group. Words with
// a repetition (ω2 twice or more) found a pattern by their first square: scanned from the
// front, or with `backward` from the back (the core found nearest the end). A word without one
// joins the first pattern that generates it, or is paired with another such word that equals
// it with one segment inserted, or stays alone (a group of one, no core). Nothing when more
// than maxPatterns groups are left.
std::optional<std::vector<PatternGroup>> regularPartition(const std::vector<Word> &words, bool backward = false,
                                                          PartitionLimits limits = {});

} // namespace cairn::engine::quantified
