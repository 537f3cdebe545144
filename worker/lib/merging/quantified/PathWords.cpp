#include "merging/quantified/PathWords.h"

#include "merging/quantified/ZeroTests.h"

#include <algorithm>
#include <unordered_map>

namespace cairn::engine::quantified {

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

uint64_t constantHash(unsigned width) { return mix(mix(uint64_t(Kind::Constant) + 1, width), 0); }
// What a width-1 comparison node of `kind` with kids hashing `a` and `b` hashes to.
uint64_t comparisonHash(Kind kind, uint64_t a, uint64_t b) {
  return mix(mix(mix(mix(mix(uint64_t(kind) + 1, 1), 0), 0), a), b);
}

struct Hashing {
  std::unordered_map<const Expr *, uint64_t> memo;
  std::vector<ExprRef> made; // comparands rebuilt from byte-wise forms, alive while memo names them
};

// A comparison the simplifier wrote in another form at 0 (ZeroTests.h) hashes as the
// comparison it came from, so that a loop's first iteration hashes like the others; an
// equality with 0 is taken for y <= 0, as loop bounds are the comparisons that vary.
uint64_t hashOf(const Expr *e, Hashing &hs) {
  auto &memo = hs.memo;
  if (auto it = memo.find(e); it != memo.end())
    return it->second;
  if (e->kind() == Kind::Not)
    if (std::optional<ExprRef> y = zeroComparand(e->kid(0))) { // 0 < y
      hs.made.push_back(*y);
      const uint64_t h = comparisonHash(Kind::Ult, constantHash((*y)->width()), hashOf(y->get(), hs));
      return memo.emplace(e, h).first->second;
    }
  if (std::optional<ExprRef> y = zeroComparand(e)) { // y <= 0
    hs.made.push_back(*y);
    const uint64_t h = comparisonHash(Kind::Ule, hashOf(y->get(), hs), constantHash((*y)->width()));
    return memo.emplace(e, h).first->second;
  }
  uint64_t h = mix(mix(uint64_t(e->kind()) + 1, e->width()), e->domainWidth());
  switch (e->kind()) {
  case Kind::Constant: break; // every constant alike
  case Kind::Symbol:
  case Kind::ArraySymbol: h = mix(h, e->hash()); break;
  case Kind::ConstArray: h = mix(h, e->hash()); break;
  default:
    h = mix(h, e->aux());
    if (e->numKids() == 2 && isCommutative(e->kind())) {
      // The simplifier orders the operands by their hashes, constants included: (i <= n) ∧
      // (1 <= n + 1) is written in one order at i = 1 and the other at i = 2.
      const uint64_t a = hashOf(e->kid(0), hs), b = hashOf(e->kid(1), hs);
      h = mix(mix(h, std::min(a, b)), std::max(a, b));
      break;
    }
    for (unsigned k = 0; k < e->numKids(); ++k)
      h = mix(h, hashOf(e->kid(k), hs));
  }
  memo.emplace(e, h);
  return h;
}

// The first square of `w` from the front: the smallest start, then the shortest core, that
// repeats at least twice in a row; its repetitions taken as far as they go.
std::optional<PatternGroup> firstSquare(const Word &w) {
  for (size_t start = 0; start < w.size(); ++start)
    for (size_t len = 1; start + 2 * len <= w.size(); ++len) {
      size_t reps = 1;
      while (start + (reps + 1) * len <= w.size() &&
             std::equal(w.begin() + start, w.begin() + start + len, w.begin() + start + reps * len))
        ++reps;
      if (reps < 2)
        continue;
      PatternGroup p;
      p.prefix.assign(w.begin(), w.begin() + start);
      p.core.assign(w.begin() + start, w.begin() + start + len);
      p.suffix.assign(w.begin() + start + reps * len, w.end());
      p.counts.push_back(reps);
      return p;
    }
  return std::nullopt;
}

Word reversed(Word w) {
  std::reverse(w.begin(), w.end());
  return w;
}

// The k for which ω1 ω2^k ω3 is `w`, if any.
std::optional<uint64_t> generates(const PatternGroup &p, const Word &w) {
  const size_t fixed = p.prefix.size() + p.suffix.size();
  if (p.core.empty() || w.size() < fixed || (w.size() - fixed) % p.core.size() != 0)
    return std::nullopt;
  if (!std::equal(p.prefix.begin(), p.prefix.end(), w.begin()) ||
      !std::equal(p.suffix.begin(), p.suffix.end(), w.end() - std::ptrdiff_t(p.suffix.size())))
    return std::nullopt;
  const uint64_t k = (w.size() - fixed) / p.core.size();
  for (uint64_t i = 0; i < k; ++i)
    if (!std::equal(p.core.begin(), p.core.end(), w.begin() + std::ptrdiff_t(p.prefix.size() + i * p.core.size())))
      return std::nullopt;
  return k;
}

} // namespace

uint64_t conditionHash(const Expr *condition) {
  Hashing hs;
  return hashOf(condition, hs);
}

std::optional<std::vector<PatternGroup>> regularPartition(const std::vector<Word> &words, bool backward,
                                                          PartitionLimits limits) {
  std::vector<PatternGroup> groups;
  std::vector<size_t> coreless;
  size_t initial = 0;
  for (size_t i = 0; i < words.size(); ++i) {
    if (initial == limits.maxInitialMatches) { // past the limit a word only joins a pattern found
      coreless.push_back(i);
      continue;
    }
    std::optional<PatternGroup> found = firstSquare(backward ? reversed(words[i]) : words[i]);
    if (!found) {
      coreless.push_back(i);
      continue;
    }
    ++initial;
    if (backward) { // the pattern of the reversed word, read forwards
      std::swap(found->prefix, found->suffix);
      found->prefix = reversed(found->prefix);
      found->core = reversed(found->core);
      found->suffix = reversed(found->suffix);
    }
    auto same = std::find_if(groups.begin(), groups.end(), [&](const PatternGroup &g) {
      return g.prefix == found->prefix && g.core == found->core && g.suffix == found->suffix;
    });
    if (same == groups.end()) {
      found->leaves.push_back(i);
      groups.push_back(std::move(*found));
    } else {
      same->leaves.push_back(i);
      same->counts.push_back(found->counts.front());
    }
  }
  // A word whose own square made a pattern no other word has joins a pattern that generates it
  // too: G Y G Z, a mismatch that repeats its last letters, is ω1 (G M)^0 ω3 of the longer
  // mismatches' pattern rather than (G Y)^2 alone.
  for (size_t g = 0; g < groups.size();) {
    bool moved = false;
    if (groups[g].leaves.size() == 1)
      for (size_t h = 0; h < groups.size() && !moved; ++h)
        if (h != g)
          if (std::optional<uint64_t> k = generates(groups[h], words[groups[g].leaves.front()])) {
            groups[h].leaves.push_back(groups[g].leaves.front());
            groups[h].counts.push_back(*k);
            moved = true;
          }
    if (moved)
      groups.erase(groups.begin() + std::ptrdiff_t(g));
    else
      ++g;
  }
  // Words without a repetition, or past the limit: absorbed by a pattern, until nothing changes
  // (a pattern made by pairing below can absorb more).
  std::vector<size_t> left;
  auto absorb = [&](std::vector<size_t> &pending) {
    std::vector<size_t> rest;
    for (size_t i : pending) {
      bool joined = false;
      for (PatternGroup &g : groups)
        if (!g.core.empty())
          if (std::optional<uint64_t> k = generates(g, words[i])) {
            g.leaves.push_back(i);
            g.counts.push_back(*k);
            joined = true;
            break;
          }
      if (!joined)
        rest.push_back(i);
    }
    pending = std::move(rest);
  };
  absorb(coreless);
  // Pairs: the shorter word ω1 ω3 and the longer ω1 ω2 ω3 (ω1 their longest common prefix).
  while (true) {
    bool paired = false;
    for (size_t a = 0; a < coreless.size() && !paired; ++a)
      for (size_t b = 0; b < coreless.size() && !paired; ++b) {
        const Word &s = words[coreless[a]], &l = words[coreless[b]];
        if (a == b || l.size() <= s.size())
          continue;
        size_t common = 0;
        while (common < s.size() && s[common] == l[common])
          ++common;
        const size_t inserted = l.size() - s.size();
        if (!std::equal(s.begin() + common, s.end(), l.begin() + common + inserted))
          continue;
        PatternGroup g;
        g.prefix.assign(s.begin(), s.begin() + common);
        g.core.assign(l.begin() + common, l.begin() + common + inserted);
        g.suffix.assign(s.begin() + common, s.end());
        g.leaves = {coreless[a], coreless[b]};
        g.counts = {0, 1};
        const size_t first = std::max(a, b), second = std::min(a, b);
        coreless.erase(coreless.begin() + first);
        coreless.erase(coreless.begin() + second);
        groups.push_back(std::move(g));
        paired = true;
      }
    if (!paired)
      break;
    absorb(coreless);
  }
  for (size_t i : coreless) { // alone
    PatternGroup g;
    g.prefix = words[i];
    g.leaves = {i};
    g.counts = {0};
    groups.push_back(std::move(g));
  }
  if (groups.size() > limits.maxPatterns)
    return std::nullopt;
  return groups;
}

} // namespace cairn::engine::quantified
