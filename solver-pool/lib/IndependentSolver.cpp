// Constraint independence slicing: a query keeps only the constraints that share a variable,
// transitively, with its expression and terms. Array variables read at constant indices are
// tracked per element, so constraints on different bytes of one input stay apart.
//
// Sound under the engine's invariant that the path constraints alone are satisfiable: dropping
// a satisfiable, independent part cannot change the answer.
#include "cairn/expr/ExprUtil.h"
#include "cairn/solver/SolverChain.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace cairn {

namespace {

// The variables (and array elements) an expression reads.
class Footprint {
public:
  void addWhole(const SymbolDecl *s) { elements_[s].whole = true; }
  void addElement(const SymbolDecl *s, uint64_t index) {
    Elements &e = elements_[s];
    if (!e.whole)
      e.indices.push_back(index);
  }
  void normalize() {
    for (auto &[s, e] : elements_) {
      if (e.whole) {
        e.indices.clear();
        continue;
      }
      std::sort(e.indices.begin(), e.indices.end());
      e.indices.erase(std::unique(e.indices.begin(), e.indices.end()), e.indices.end());
    }
  }
  bool empty() const { return elements_.empty(); }
  // f(symbol, whole, indices): indices are meaningful when not whole.
  template <class F> void forEach(F &&f) const {
    for (const auto &[s, e] : elements_)
      f(s, e.whole, e.indices);
  }

  bool intersects(const Footprint &o) const {
    const Footprint &small = elements_.size() <= o.elements_.size() ? *this : o;
    const Footprint &large = &small == this ? o : *this;
    for (const auto &[s, e] : small.elements_) {
      auto it = large.elements_.find(s);
      if (it == large.elements_.end())
        continue;
      const Elements &f = it->second;
      if (e.whole || f.whole)
        return true;
      auto a = e.indices.begin(), b = f.indices.begin();
      while (a != e.indices.end() && b != f.indices.end()) {
        if (*a == *b)
          return true;
        *a < *b ? ++a : ++b;
      }
    }
    return false;
  }

  void merge(const Footprint &o) {
    for (const auto &[s, f] : o.elements_) {
      Elements &e = elements_[s];
      if (e.whole)
        continue;
      if (f.whole) {
        e.whole = true;
        e.indices.clear();
        continue;
      }
      std::vector<uint64_t> merged;
      merged.reserve(e.indices.size() + f.indices.size());
      std::set_union(e.indices.begin(), e.indices.end(), f.indices.begin(), f.indices.end(),
                     std::back_inserter(merged));
      e.indices.swap(merged);
    }
  }

private:
  struct Elements {
    bool whole = false;
    std::vector<uint64_t> indices; // sorted and unique after normalize()
  };
  std::map<const SymbolDecl *, Elements> elements_;
};

// Walks `root`, recording what it reads. An array reached through a select at a constant
// index is read at that element only; reached any other way, it is read whole.
Footprint computeFootprint(const Expr *root) {
  Footprint fp;
  constexpr uint64_t kWhole = ~uint64_t(0);
  struct Item {
    const Expr *e;
    uint64_t readAt; // for array-sorted nodes: the element read, or kWhole
    bool constIndex;
  };
  std::vector<Item> work{{root, kWhole, false}};
  std::unordered_set<const Expr *> visitedScalars;
  std::set<std::pair<const Expr *, uint64_t>> visitedArrays;
  while (!work.empty()) {
    Item it = work.back();
    work.pop_back();
    const Expr *e = it.e;
    if (e->isArray()) {
      uint64_t at = it.constIndex ? it.readAt : kWhole;
      if (!visitedArrays.insert({e, at}).second)
        continue;
      switch (e->kind()) {
      case Kind::ArraySymbol:
        if (at == kWhole)
          fp.addWhole(e->symbol());
        else
          fp.addElement(e->symbol(), at);
        continue;
      case Kind::ConstArray: continue;
      case Kind::Store:
        work.push_back({e->kid(1), kWhole, false});
        work.push_back({e->kid(2), kWhole, false});
        work.push_back({e->kid(0), at, at != kWhole});
        continue;
      case Kind::Ite:
        work.push_back({e->kid(0), kWhole, false});
        work.push_back({e->kid(1), at, at != kWhole});
        work.push_back({e->kid(2), at, at != kWhole});
        continue;
      default: break;
      }
    }
    if (!e->isArray() && !visitedScalars.insert(e).second)
      continue;
    switch (e->kind()) {
    case Kind::Constant: break;
    case Kind::Symbol: fp.addWhole(e->symbol()); break;
    case Kind::Select: {
      const Expr *index = e->kid(1);
      work.push_back({index, kWhole, false});
      if (index->isConstant())
        work.push_back({e->kid(0), uint64_t(index->value()), true});
      else
        work.push_back({e->kid(0), kWhole, false});
      break;
    }
    default:
      for (unsigned i = 0; i < e->numKids(); ++i)
        work.push_back({e->kid(i), kWhole, false});
    }
  }
  fp.normalize();
  return fp;
}

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
    if (wanted.empty()) // "are the constraints satisfiable?": nothing to slice against
      return forward(q, wantModel);

    std::vector<const Footprint *> fps;
    fps.reserve(q.constraints.size());
    for (const ExprRef &c : q.constraints)
      fps.push_back(&footprintOf(c));
    std::vector<bool> kept(q.constraints.size(), false);
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t i = 0; i < fps.size(); ++i) {
        if (kept[i])
          continue;
        if (q.constraints[i]->isFalse() || fps[i]->intersects(wanted)) {
          kept[i] = true;
          wanted.merge(*fps[i]);
          changed = true;
        }
      }
    }
    Query sliced;
    sliced.expr = q.expr;
    sliced.terms = q.terms;
    for (size_t i = 0; i < kept.size(); ++i)
      if (kept[i])
        sliced.constraints.push_back(q.constraints[i]);
    // The symbolic form follows the slice made on the concrete one: the same constraints.
    if (q.original) {
      auto form = std::make_shared<QueryForm>(QueryForm{{}, q.original->expr, q.original->concreteOnly});
      for (size_t i = 0; i < kept.size(); ++i)
        if (kept[i])
          form->constraints.push_back(q.original->constraints[i]);
      sliced.original = std::move(form);
    }
    if (wantModel && !q.terms.empty())
      return solveFactors(sliced);
    return forward(sliced, wantModel);
  }

private:
  // A model for a whole path (the terms ask for whole inputs) is the union of the models of
  // its independent parts, each a small query that repeats across paths and so hits the
  // caches below.
  SolverResponse solveFactors(const Query &q) {
    std::vector<ExprRef> items = q.constraints;
    if (q.expr && !q.expr->isTrue())
      items.push_back(q.expr);
    std::vector<ExprRef> symbolicItems;
    if (q.original) {
      symbolicItems = q.original->constraints;
      if (q.expr && !q.expr->isTrue())
        symbolicItems.push_back(q.original->expr);
    }
    // Components by shared elements, with a union-find over the items.
    std::vector<size_t> parent(items.size());
    for (size_t i = 0; i < items.size(); ++i)
      parent[i] = i;
    auto root = [&](size_t i) {
      while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
      return i;
    };
    for (size_t i = 0; i < items.size(); ++i)
      for (size_t j = i + 1; j < items.size(); ++j)
        if (root(i) != root(j) && footprintOf(items[i]).intersects(footprintOf(items[j])))
          parent[root(i)] = root(j);
    std::map<size_t, std::vector<size_t>> components;
    for (size_t i = 0; i < items.size(); ++i)
      components[root(i)].push_back(i);

    SolverResponse merged{SatResult::Sat, {}, {}};
    std::map<const SymbolDecl *, std::vector<u128>> arrays;
    for (const auto &[r, members] : components) {
      Query part;
      Footprint fp;
      for (size_t i : members) {
        part.constraints.push_back(items[i]);
        fp.merge(footprintOf(items[i]));
      }
      part.expr = items[members.front()]->context().trueExpr();
      if (q.original) {
        auto form = std::make_shared<QueryForm>(QueryForm{{}, part.expr, q.original->concreteOnly});
        for (size_t i : members)
          form->constraints.push_back(symbolicItems[i]);
        part.original = std::move(form);
      }
      SolverResponse answer = next_->check(part, true);
      if (answer.result != SatResult::Sat) {
        if (answer.result == SatResult::Unknown)
          ++stats_.unknown;
        return answer;
      }
      fp.forEach([&](const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
        if (!s->isArray()) {
          merged.model.setScalar(s, answer.model.scalar(s));
          return;
        }
        std::vector<u128> &values = arrays[s];
        values.resize(s->size, 0);
        if (whole) {
          for (uint64_t i = 0; i < s->size; ++i)
            values[i] = answer.model.element(s, i);
        } else {
          for (uint64_t i : indices)
            if (i < s->size)
              values[i] = answer.model.element(s, i);
        }
      });
    }
    for (auto &[s, values] : arrays)
      merged.model.setArray(s, std::move(values));
    completeModel(merged.model, q);
    return merged;
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
