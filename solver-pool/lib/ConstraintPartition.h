// The independent groups of a list of constraints, built one constraint at a time: a union-find
// over the constraints, joined through an index from each symbol (and each array element read
// at a constant index) to a constraint that reads it. Two constraints are in one group exactly
// when a chain of shared footprints (Footprint.h) links them.
//
// Flat vectors only: states fork often and each keeps its own copy once it adds a constraint,
// so a copy must be a few allocations, not a node per entry.
#pragma once

#include "Footprint.h"

#include <cstdint>
#include <vector>

namespace cairn {

class ConstraintPartition {
public:
  size_t size() const { return nodes_.size(); }
  // Adds the constraint at index size().
  void add(const ExprRef &c);

  // The group of constraint `i`, as the index of its representative.
  uint32_t group(uint32_t i) const;
  // The groups of the constraints that read something `wanted` reads, sorted, each once.
  void groupsReading(const Footprint &wanted, std::vector<uint32_t> &groups) const;
  // Appends the members of `group`, in no particular order.
  void members(uint32_t group, std::vector<uint32_t> &out) const;
  // Constraints that are false: no footprint, yet every slice keeps them.
  const std::vector<uint32_t> &falseConstraints() const { return false_; }

private:
  static constexpr uint64_t kWhole = ~uint64_t(0);
  // A constraint that reads `symbol` at `index` (kWhole: reads it whole; then it is the
  // symbol's only entry, and every reader of the symbol is in its group).
  struct Entry {
    const SymbolDecl *symbol;
    uint64_t index;
    uint32_t constraint;
    bool operator<(const Entry &o) const { return symbol != o.symbol ? symbol < o.symbol : index < o.index; }
  };
  struct Node {
    uint32_t parent; // union by size keeps the trees shallow: finds never write
    uint32_t weight;
    uint32_t next; // each group's members as a cycle, spliced in O(1) on a join
  };

  void join(uint32_t a, uint32_t b);
  void addRead(uint32_t constraint, const SymbolDecl *s, bool whole, const std::vector<uint64_t> &indices);
  // The entries of `s`, sorted by index.
  std::pair<std::vector<Entry>::const_iterator, std::vector<Entry>::const_iterator> entriesOf(const SymbolDecl *s) const;

  std::vector<Node> nodes_;
  std::vector<Entry> entries_; // sorted
  std::vector<uint32_t> false_;
};

} // namespace cairn
