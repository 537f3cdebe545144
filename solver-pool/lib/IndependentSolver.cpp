// Constraint independence slicing: a query keeps only the constraints that share a variable,
// transitively, with its expression and terms. Array variables read at constant indices are
// tracked per element, so constraints on different bytes of one input stay apart.
//
// Sound under the engine's invariant that the path constraints alone are satisfiable: dropping
// a satisfiable, independent part cannot change the answer.
#include "ConstraintPartition.h"
#include "Footprint.h"

#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

#include <algorithm>
#include <map>
#include <span>
#include <unordered_map>

namespace cairn {

namespace {

class IndependentSolver final : public SolverLayer {
public:
  explicit IndependentSolver(std::unique_ptr<Solver> next) : SolverLayer(std::move(next)) {
    stats_.layer = "independence";
  }
  std::string name() const override { return "independence(" + next_->name() + ")"; }

  SolverResponse check(const Query &q, bool wantModel) override {
    ScopedSolverTimer timer(stats_);
    ++stats_.queries;
    if (q.expr && q.expr->isFalse()) {
      ++stats_.answered;
      return {SatResult::Unsat, {}, {}};
    }
    Footprint wanted;
    if (q.expr)
      wanted.merge(footprintOf(q.expr));
    for (const ExprRef &t : q.terms)
      wanted.merge(footprintOf(t));
    const ConstraintPartition *partition =
        q.path && q.path->size() == q.constraints.size() ? &q.path->partition() : nullptr;
    if (wanted.empty()) // "are the constraints satisfiable?": nothing to slice against
      return satisfiable(q, partition, wantModel);

    const std::vector<uint32_t> kept =
        partition ? keptByPartition(*partition, wanted) : keptByFixpoint(q, std::move(wanted));
    Query sliced;
    sliced.expr = q.expr;
    sliced.terms = q.terms;
    sliced.arrayTypes = q.arrayTypes;
    sliced.constraints.reserve(kept.size());
    for (uint32_t i : kept)
      sliced.constraints.push_back(q.constraints[i]);
    // The symbolic form follows the slice made on the concrete one: the same constraints.
    if (q.original) {
      auto form = std::make_shared<QueryForm>(QueryForm{{}, q.original->expr, q.original->concreteOnly});
      form->constraints.reserve(kept.size());
      for (uint32_t i : kept)
        form->constraints.push_back(q.original->constraints[i]);
      sliced.original = std::move(form);
    }
    // "May a && b hold?", where a and b read apart (a branch on a value merged from states that
    // took different bytes' sides): each conjunct with its own constraints is a query of its
    // own, as small as an unmerged path's, and the caches below have likely answered it.
    if (std::vector<ExprRef> items = withConjunctsApart(sliced); !items.empty())
      if (Components parts = componentsByPairs(items); parts.ends.size() > 1)
        return solveFactors(sliced, items, parts, wantModel);
    if (wantModel && !q.terms.empty())
      return solveFactors(sliced, itemsOf(sliced),
                          partition ? componentsByPartition(*partition, kept, sliced) : componentsByPairs(itemsOf(sliced)),
                          true);
    return forward(sliced, wantModel);
  }

private:
  // The groups the path keeps, in the path's order: the slice costs the size of those groups.
  static std::vector<uint32_t> keptByPartition(const ConstraintPartition &partition, const Footprint &wanted) {
    thread_local std::vector<uint32_t> groups;
    groups.clear();
    partition.groupsReading(wanted, groups);
    std::vector<uint32_t> kept = partition.falseConstraints();
    for (uint32_t g : groups)
      partition.members(g, kept);
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
    return kept;
  }

  // With no partition: the constraints that read what the query reads, grown to a fixpoint.
  std::vector<uint32_t> keptByFixpoint(const Query &q, Footprint wanted) {
    std::vector<const Footprint *> fps;
    fps.reserve(q.constraints.size());
    for (const ExprRef &c : q.constraints)
      fps.push_back(&footprintOf(c));
    std::vector<bool> taken(q.constraints.size(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < fps.size(); ++i) {
        if (taken[i])
          continue;
        if (q.constraints[i]->isFalse() || fps[i]->intersects(wanted)) {
          taken[i] = true;
          wanted.merge(*fps[i]);
          changed = true;
        }
      }
    }
    std::vector<uint32_t> kept;
    for (uint32_t i = 0; i < taken.size(); ++i)
      if (taken[i])
        kept.push_back(i);
    return kept;
  }

  // The independent parts of a sliced query, over its items (its constraints, then its expr when
  // that is not true): each part's items in order, the parts ordered by their first item.
  struct Components {
    std::vector<size_t> items; // part by part
    std::vector<size_t> ends;  // where each part's items end in `items`
  };

  // Parts from a label per item (labels below `labels`): one pass to number the labels in order
  // of first use, one to place the items, with no allocation per part.
  static Components componentsByLabel(const std::vector<uint32_t> &labelOf, size_t labels) {
    thread_local std::vector<uint32_t> partOfLabel;
    constexpr uint32_t kNone = ~uint32_t(0);
    partOfLabel.assign(labels, kNone);
    std::vector<uint32_t> partOf(labelOf.size());
    std::vector<size_t> sizes;
    for (size_t i = 0; i < labelOf.size(); ++i) {
      uint32_t &part = partOfLabel[labelOf[i]];
      if (part == kNone) {
        part = uint32_t(sizes.size());
        sizes.push_back(0);
      }
      partOf[i] = part;
      ++sizes[part];
    }
    Components c;
    c.ends.resize(sizes.size());
    for (size_t p = 0, end = 0; p < sizes.size(); ++p)
      c.ends[p] = end += sizes[p];
    c.items.resize(labelOf.size());
    std::vector<size_t> next(sizes.size());
    for (size_t p = 0; p < sizes.size(); ++p)
      next[p] = c.ends[p] - sizes[p];
    for (size_t i = 0; i < labelOf.size(); ++i)
      c.items[next[partOf[i]]++] = i;
    return c;
  }

  // From the path's groups: `kept[j]` is the path index of the query's constraint j.
  Components componentsByPartition(const ConstraintPartition &partition, const std::vector<uint32_t> &kept,
                                   const Query &q) {
    const bool withExpr = q.expr && !q.expr->isTrue();
    const uint32_t exprLabel = uint32_t(partition.size()); // the groups the expr reads join it
    std::vector<uint32_t> exprGroups;
    if (withExpr)
      partition.groupsReading(footprintOf(q.expr), exprGroups);
    std::vector<uint32_t> labelOf(kept.size() + withExpr);
    for (size_t j = 0; j < kept.size(); ++j) {
      uint32_t g = partition.group(kept[j]);
      labelOf[j] = std::binary_search(exprGroups.begin(), exprGroups.end(), g) ? exprLabel : g;
    }
    if (withExpr)
      labelOf.back() = exprLabel;
    return componentsByLabel(labelOf, partition.size() + 1);
  }

  // A query's items: its constraints, then its expr when that is not true.
  static std::vector<ExprRef> itemsOf(const Query &q) {
    std::vector<ExprRef> items = q.constraints;
    if (q.expr && !q.expr->isTrue())
      items.push_back(q.expr);
    return items;
  }

  // The constraints, then the conjuncts of an expr that is a conjunction; nothing when it is
  // not one, or when the query's symbolic form has an expr of its own that would need the same
  // split.
  static std::vector<ExprRef> withConjunctsApart(const Query &q) {
    if (!q.expr || q.expr->kind() != Kind::And || q.expr->width() != 1 || (q.original && q.original->expr != q.expr))
      return {};
    std::vector<ExprRef> items = q.constraints;
    conjuncts(q.expr.get(), items);
    return items;
  }

  // Without one: a union-find over the items, joined where footprints meet.
  Components componentsByPairs(const std::vector<ExprRef> &items) {
    std::vector<uint32_t> parent(items.size());
    for (uint32_t i = 0; i < items.size(); ++i)
      parent[i] = i;
    auto root = [&](uint32_t i) {
      while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
      return i;
    };
    for (uint32_t i = 0; i < items.size(); ++i)
      for (uint32_t j = i + 1; j < items.size(); ++j)
        if (root(i) != root(j) && footprintOf(items[i]).intersects(footprintOf(items[j])))
          parent[root(i)] = root(j);
    for (uint32_t i = 0; i < items.size(); ++i)
      parent[i] = root(i);
    return componentsByLabel(parent, items.size());
  }

  // A query over independent parts (`items` of `q`, its constraints first) is satisfiable when
  // each part is, and a model for it (the terms ask for whole inputs) is the union of the
  // parts' models; each part is a small query that repeats across paths and so hits the
  // caches below.
  SolverResponse solveFactors(const Query &q, const std::vector<ExprRef> &items, const Components &components,
                              bool wantModel) {
    std::vector<ExprRef> symbolicItems;
    if (q.original) {
      symbolicItems = q.original->constraints;
      if (items.size() == q.constraints.size() + 1 && items.back() == q.expr)
        symbolicItems.push_back(q.original->expr);
      else // the expr's conjuncts, split only where the symbolic form's expr is q's
        symbolicItems.insert(symbolicItems.end(), items.begin() + q.constraints.size(), items.end());
    }
    SolverResponse merged{SatResult::Sat, {}, {}};
    std::map<const SymbolDecl *, std::vector<u128>> arrays;
    for (size_t p = 0, begin = 0; p < components.ends.size(); begin = components.ends[p++]) {
      const std::span<const size_t> members(components.items.data() + begin, components.ends[p] - begin);
      Query part;
      part.constraints.reserve(members.size());
      for (size_t i : members)
        part.constraints.push_back(items[i]);
      part.expr = items[members.front()]->context().trueExpr();
      part.arrayTypes = q.arrayTypes;
      if (q.original) {
        auto form = std::make_shared<QueryForm>(QueryForm{{}, part.expr, q.original->concreteOnly});
        for (size_t i : members)
          form->constraints.push_back(symbolicItems[i]);
        part.original = std::move(form);
      }
      SolverResponse answer = next_->check(part, wantModel);
      if (answer.result != SatResult::Sat) {
        if (answer.result == SatResult::Unknown)
          ++stats_.unknown;
        return answer;
      }
      if (!wantModel)
        continue;
      // What the part's members read is the part's: copied member by member (parts read
      // disjoint elements, so no copy overwrites another part's).
      for (size_t i : members)
        footprintOf(items[i]).forEach([&](const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
          if (!s->isArray()) {
            merged.model.setScalar(s, answer.model.scalar(s));
            return;
          }
          std::vector<u128> &values = arrays[s];
          values.resize(s->size, 0);
          if (whole) {
            for (uint64_t e = 0; e < s->size; ++e)
              values[e] = answer.model.element(s, e);
          } else {
            for (uint64_t e : indices)
              if (e < s->size)
                values[e] = answer.model.element(s, e);
          }
        });
    }
    if (!wantModel)
      return merged;
    for (auto &[s, values] : arrays)
      merged.model.setArray(s, std::move(values));
    completeModel(merged.model, q);
    return merged;
  }

  // Whether the constraints hold together: where they fall into independent parts (the
  // constraints of a merged path's case, each byte's apart), whether each part does.
  SolverResponse satisfiable(const Query &q, const ConstraintPartition *partition, bool wantModel) {
    constexpr size_t kMostPairs = 128; // beyond, without a partition, the pairs cost more than the parts save
    std::vector<ExprRef> items = itemsOf(q);
    if (items.size() > 1 && (partition || items.size() <= kMostPairs)) {
      std::vector<uint32_t> all(q.constraints.size());
      for (uint32_t i = 0; i < all.size(); ++i)
        all[i] = i;
      Components parts = partition ? componentsByPartition(*partition, all, q) : componentsByPairs(items);
      if (parts.ends.size() > 1)
        return solveFactors(q, items, parts, wantModel);
    }
    return forward(q, wantModel);
  }

  SolverResponse forward(const Query &q, bool wantModel) {
    SolverResponse r = next_->check(q, wantModel);
    if (r.result == SatResult::Unknown)
      ++stats_.unknown;
    return r;
  }

  const Footprint &footprintOf(const ExprRef &e) {
    auto it = cache_.find(e.get());
    if (it != cache_.end())
      return it->second.second;
    if (cache_.size() >= kMaxCached)
      cache_.clear();
    return cache_.emplace(e.get(), std::make_pair(e, computeFootprint(e.get())))
        .first->second.second;
  }

  static constexpr size_t kMaxCached = 1 << 16;
  // Keyed by node; the ExprRef keeps the node (and so the key) alive.
  std::unordered_map<const Expr *, std::pair<ExprRef, Footprint>> cache_;
};

} // namespace

std::unique_ptr<Solver> createIndependentSolver(std::unique_ptr<Solver> next) {
  return std::make_unique<IndependentSolver>(std::move(next));
}

} // namespace cairn
