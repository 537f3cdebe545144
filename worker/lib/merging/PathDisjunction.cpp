#include "merging/PathDisjunction.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>

namespace cairn::engine {

namespace {

using Path = std::vector<const Expr *>; // a conjunction, literals sorted by exprLess, no repeats

// The paths as the states' constraints listed them, for a rebuilt conjunction's order.
using Listed = std::vector<std::vector<ExprRef>>;

class Folder {
public:
  explicit Folder(ExprContext &ctx) : ctx_(ctx) {}

  // Folds pairs (X & c) | (X & !c) into X, strengthens and drops paths by the others, until
  // nothing changes; true when a path became empty. `changed` says whether anything did.
  bool fold(std::vector<Path> &paths, bool &changed) {
    changed = false;
    do
      if (foldSiblings(paths, changed))
        return true;
    while (absorb(paths) && (changed = true));
    return false;
  }

private:
  // Pairs (X & c) | (X & !c) folded into X until none is left; true when a path became empty.
  bool foldSiblings(std::vector<Path> &paths, bool &foldedAny) {
    for (bool changed = true; changed;) {
      changed = false;
      dedupe(paths);
      for (const Path &p : paths)
        if (p.empty())
          return true;
      std::unordered_map<uint64_t, std::vector<std::pair<size_t, size_t>>> byRest;
      std::vector<bool> used(paths.size(), false);
      std::vector<Path> folded;
      for (size_t i = 0; i < paths.size(); ++i)
        for (size_t j = 0; j < paths[i].size() && !used[i]; ++j) {
          const uint64_t key = restHash(paths[i], j) ^ (canonical(paths[i][j])->hash() * 0x9e3779b97f4a7c15ull);
          std::vector<std::pair<size_t, size_t>> &bucket = byRest[key];
          for (auto [k, m] : bucket)
            if (!used[k] && complementary(paths[k][m], paths[i][j]) && sameRest(paths[k], m, paths[i], j)) {
              used[k] = used[i] = true;
              Path rest = paths[i];
              rest.erase(rest.begin() + j);
              folded.push_back(std::move(rest));
              break;
            }
          bucket.emplace_back(i, j);
        }
      if (folded.empty())
        break;
      changed = true;
      foldedAny = true;
      for (size_t i = 0; i < paths.size(); ++i)
        if (!used[i])
          folded.push_back(std::move(paths[i]));
      paths = std::move(folded);
    }
    return false;
  }

  // Resolution where one side's rest is a subset of the other's: in (X & c) | (X & Y & !c)
  // the second path needs no !c (the disjunction is (X & c) | (X & Y)); then a path that
  // holds all of another's literals adds nothing to it: X | (X & Y) is X. Merges of states
  // from different subtrees, as dynamic merging makes them, leave such pairs that the
  // sibling fold does not see. True when a path changed or went.
  bool absorb(std::vector<Path> &paths) {
    bool changed = false;
    for (size_t k = 0; k < paths.size(); ++k)
      for (size_t m = 0; m < paths[k].size(); ++m) {
        const Expr *opposite = negation(paths[k][m]);
        for (size_t i = 0; i < paths.size(); ++i) {
          Path &p = paths[i];
          auto at = std::lower_bound(p.begin(), p.end(), opposite, exprLess);
          if (i == k || at == p.end() || *at != opposite || !includesBut(p, paths[k], m))
            continue;
          p.erase(at);
          changed = true;
        }
      }
    std::vector<bool> implied(paths.size(), false);
    for (size_t i = 0; i < paths.size(); ++i)
      for (size_t k = 0; k < paths.size() && !implied[i]; ++k)
        if (k != i && !implied[k] && paths[k].size() <= paths[i].size() &&
            std::includes(paths[i].begin(), paths[i].end(), paths[k].begin(), paths[k].end(), exprLess))
          implied[i] = paths[k].size() < paths[i].size() || k < i; // of two equal paths, one stays
    size_t kept = 0;
    for (size_t i = 0; i < paths.size(); ++i)
      if (!implied[i] && kept++ != i)
        paths[kept - 1] = std::move(paths[i]);
    changed |= kept < paths.size();
    paths.resize(kept);
    return changed;
  }

  // Whether `p` holds every literal of `q` but its `skip`th.
  static bool includesBut(const Path &p, const Path &q, size_t skip) {
    for (size_t j = 0; j < q.size(); ++j)
      if (j != skip && !std::binary_search(p.begin(), p.end(), q[j], exprLess))
        return false;
    return true;
  }

  static void dedupe(std::vector<Path> &paths) {
    std::sort(paths.begin(), paths.end(), [](const Path &a, const Path &b) {
      return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(), exprLess);
    });
    paths.erase(std::unique(paths.begin(), paths.end()), paths.end());
  }

  static uint64_t restHash(const Path &p, size_t skip) {
    uint64_t h = p.size();
    for (size_t i = 0; i < p.size(); ++i)
      if (i != skip)
        h = h * 0x100000001b3ull ^ p[i]->hash();
    return h;
  }

  static bool sameRest(const Path &a, size_t skipA, const Path &b, size_t skipB) {
    for (size_t i = 0, j = 0;; ++i, ++j) {
      i += i == skipA;
      j += j == skipB;
      if (i >= a.size() || j >= b.size())
        return i >= a.size() && j >= b.size();
      if (a[i] != b[j])
        return false;
    }
  }

  const Expr *negation(const Expr *e) {
    auto it = negations_.find(e);
    if (it == negations_.end())
      it = negations_.emplace(e, ctx_.lnot(ExprRef(e))).first;
    return it->second.get();
  }
  // One of c and !c, the same for both: the literal a fold removes is keyed by it.
  const Expr *canonical(const Expr *e) {
    const Expr *n = negation(e);
    return exprLess(n, e) ? n : e;
  }
  bool complementary(const Expr *a, const Expr *b) { return negation(a) == b; }

  ExprContext &ctx_;
  std::unordered_map<const Expr *, ExprRef> negations_;
};

// The literals of a path, sorted and without repeats.
Path pathOf(const std::vector<ExprRef> &literals) {
  Path p;
  p.reserve(literals.size());
  for (const ExprRef &l : literals)
    p.push_back(l.get());
  std::sort(p.begin(), p.end(), exprLess);
  p.erase(std::unique(p.begin(), p.end()), p.end());
  return p;
}

// A folded path as a conjunction, each literal where it first stands in the listed paths, so
// that it shares the nodes of the states' own constraints. Folds only drop literals: every one
// of `p` is listed. A walk with a binary search, not a map: the paths are tens of literals and
// a map's nodes were most of a pairwise merge's fold.
ExprRef conjunctionOf(ExprContext &ctx, const Path &p, const Listed &listed) {
  std::vector<bool> taken(p.size(), false);
  size_t left = p.size();
  ExprRef conjunction = ctx.trueExpr();
  for (const std::vector<ExprRef> &literals : listed)
    for (const ExprRef &l : literals) {
      if (left == 0)
        return conjunction;
      auto at = std::lower_bound(p.begin(), p.end(), l.get(), exprLess);
      if (at == p.end() || *at != l.get() || taken[at - p.begin()])
        continue;
      taken[at - p.begin()] = true;
      --left;
      conjunction = ctx.land(conjunction, l);
    }
  return conjunction;
}

// The fold of two paths, the case of every pairwise merge (dynamic merging's), without the
// general fold's hash maps, which were most of a merge's cost on a tokenizer of 9 characters.
// With two paths only these apply: one holding all of the other's literals goes
// (X | (X & Y) is X); siblings fold ((X & c) | (X & !c) is X); and resolution
// ((X & c) | (X & Y & !c) is (X & c) | (X & Y)), repeated while it changes something.
ExprRef foldedPair(ExprContext &ctx, Path a, Path b, const Listed &listed) {
  bool changed = false;
  Path onlyA, onlyB;
  for (;;) {
    onlyA.clear();
    onlyB.clear();
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(onlyA), exprLess);
    std::set_difference(b.begin(), b.end(), a.begin(), a.end(), std::back_inserter(onlyB), exprLess);
    if (onlyA.empty() || onlyB.empty()) { // one absorbs the other
      Path &kept = onlyA.empty() ? a : b;
      return conjunctionOf(ctx, kept, listed);
    }
    // Resolution on a side with one literal of its own, whose negation the other side holds.
    auto resolve = [&](const Path &single, Path &other, const Path &onlyOther) {
      if (single.size() != 1)
        return false;
      const ExprRef opposite = ctx.lnot(ExprRef(single.front()));
      if (!std::binary_search(onlyOther.begin(), onlyOther.end(), opposite.get(), exprLess))
        return false;
      other.erase(std::lower_bound(other.begin(), other.end(), opposite.get(), exprLess));
      return true;
    };
    if (!resolve(onlyA, b, onlyB) && !resolve(onlyB, a, onlyA))
      break;
    changed = true; // siblings end as one path holding the other: absorbed next round
  }
  if (!changed)
    return nullptr;
  return ctx.lor(conjunctionOf(ctx, a, listed), conjunctionOf(ctx, b, listed));
}

} // namespace

ExprRef foldedDisjunction(ExprContext &ctx, const std::vector<std::vector<ExprRef>> &paths) {
  std::vector<Path> all;
  all.reserve(paths.size());
  for (const std::vector<ExprRef> &literals : paths)
    all.push_back(pathOf(literals));
  if (all.size() == 2)
    return foldedPair(ctx, std::move(all[0]), std::move(all[1]), paths);
  bool changed = false;
  if (Folder(ctx).fold(all, changed))
    return ctx.trueExpr();
  if (!changed) // nothing folded: the suffixes as they came are smaller
    return nullptr;
  ExprRef result = ctx.falseExpr();
  for (Path &p : all)
    result = ctx.lor(result, conjunctionOf(ctx, p, paths));
  return result;
}

} // namespace cairn::engine
