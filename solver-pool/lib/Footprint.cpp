#include "Footprint.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <unordered_set>

namespace cairn {

void Footprint::addElement(const SymbolDecl *s, uint64_t index) {
  Elements &e = elements_[s];
  if (!e.whole)
    e.indices.push_back(index);
}

void Footprint::normalize() {
  for (auto &[s, e] : elements_) {
    if (e.whole) {
      e.indices.clear();
      continue;
    }
    std::sort(e.indices.begin(), e.indices.end());
    e.indices.erase(std::unique(e.indices.begin(), e.indices.end()), e.indices.end());
  }
}

bool Footprint::intersects(const Footprint &o) const {
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

void Footprint::merge(const Footprint &o) {
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

} // namespace cairn
