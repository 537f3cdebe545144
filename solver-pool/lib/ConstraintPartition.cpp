#include "ConstraintPartition.h"

#include "cairn/solver/ConstraintList.h"

#include <algorithm>

namespace cairn {

void ConstraintList::truncate(size_t n) {
  if (n >= exprs_.size())
    return;
  exprs_.erase(exprs_.begin() + std::ptrdiff_t(n), exprs_.end());
  if (partition_ && partition_->size() > n)
    partition_.reset(); // rebuilt on the next question; only merges cut a path back
}

const ConstraintPartition &ConstraintList::partition() const {
  if (!partition_)
    partition_ = std::make_shared<ConstraintPartition>();
  else if (partition_->size() < exprs_.size() && partition_.use_count() > 1)
    partition_ = std::make_shared<ConstraintPartition>(*partition_);
  for (size_t i = partition_->size(); i < exprs_.size(); ++i)
    partition_->add(exprs_[i]);
  return *partition_;
}

uint32_t ConstraintPartition::group(uint32_t i) const {
  while (nodes_[i].parent != i)
    i = nodes_[i].parent;
  return i;
}

void ConstraintPartition::join(uint32_t a, uint32_t b) {
  uint32_t ra = group(a), rb = group(b);
  if (ra == rb)
    return;
  if (nodes_[ra].weight < nodes_[rb].weight)
    std::swap(ra, rb);
  nodes_[rb].parent = ra;
  nodes_[ra].weight += nodes_[rb].weight;
  std::swap(nodes_[ra].next, nodes_[rb].next); // the two member cycles become one
}

std::pair<std::vector<ConstraintPartition::Entry>::const_iterator, std::vector<ConstraintPartition::Entry>::const_iterator>
ConstraintPartition::entriesOf(const SymbolDecl *s) const {
  auto first = std::lower_bound(entries_.begin(), entries_.end(), Entry{s, 0, 0});
  auto last = first;
  while (last != entries_.end() && last->symbol == s)
    ++last;
  return {first, last};
}

void ConstraintPartition::add(const ExprRef &c) {
  const uint32_t k = uint32_t(nodes_.size());
  nodes_.push_back({k, 1, k});
  if (c->isFalse()) {
    false_.push_back(k);
    return;
  }
  computeFootprint(c.get()).forEach([&](const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
    addRead(k, s, whole, indices);
  });
}

void ConstraintPartition::addRead(uint32_t k, const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
  auto [first, last] = entriesOf(s);
  if (first != last && std::prev(last)->index == kWhole) { // read whole before: one group
    join(k, std::prev(last)->constraint);
    return;
  }
  if (whole) { // every reader joins k, whose entry replaces theirs
    for (auto e = first; e != last; ++e)
      join(k, e->constraint);
    auto at = entries_.erase(first, last);
    entries_.insert(at, Entry{s, kWhole, k});
    return;
  }
  // Indices ascend, as the entries do: each search starts where the last one ended.
  size_t from = size_t(first - entries_.cbegin());
  for (uint64_t i : indices) {
    auto at = std::lower_bound(entries_.begin() + std::ptrdiff_t(from), entries_.end(), Entry{s, i, 0});
    if (at != entries_.end() && at->symbol == s && at->index == i)
      join(k, at->constraint);
    else
      at = entries_.insert(at, Entry{s, i, k});
    from = size_t(at - entries_.begin()) + 1;
  }
}

void ConstraintPartition::groupsReading(const Footprint &wanted, std::vector<uint32_t> &groups) const {
  wanted.forEach([&](const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices) {
    auto [first, last] = entriesOf(s);
    if (first == last)
      return;
    if (whole || std::prev(last)->index == kWhole) {
      for (auto e = first; e != last; ++e)
        groups.push_back(group(e->constraint));
      return;
    }
    for (uint64_t i : indices) {
      first = std::lower_bound(first, last, Entry{s, i, 0});
      if (first == last)
        break;
      if (first->index == i)
        groups.push_back(group(first->constraint));
    }
  });
  std::sort(groups.begin(), groups.end());
  groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
}

void ConstraintPartition::members(uint32_t group, std::vector<uint32_t> &out) const {
  uint32_t i = group;
  do {
    out.push_back(i);
    i = nodes_[i].next;
  } while (i != group);
}

} // namespace cairn
