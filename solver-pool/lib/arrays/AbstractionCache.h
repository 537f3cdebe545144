// Constraints abstracted and inlined once for the many queries that share them (private to
// solver-pool/lib/arrays).
//
// A path's queries repeat its path condition, and where no index has an interval (the
// pre-check skipped for a symbolic write: every index over its whole range) a constraint's
// abstraction depends on the constraint, the arrays' element widths and which of its reads are
// tied whole, nothing else of the query. Re-abstracting the whole path condition query after
// query was most of the layer's own time on such programs. A constraint is kept only when every
// read in it is tied, and so inlined: ties are only added until FreshReads forgets its reads,
// so its inlined form stays what a new abstraction would give.
#pragma once

#include "ArrayAxioms.h"

#include "cairn/solver/ArrayTypes.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace cairn::arrays {

class AbstractionCache {
public:
  explicit AbstractionCache(size_t capacity = size_t(1) << 15) : capacity_(capacity) {}

  struct Entry {
    ExprRef constraint;                  // held, so that its address stays its own
    ExprRef inlined;                     // abstracted, every read inlined
    std::vector<const Expr *> variables; // its reads' (read(v) gives each)
    std::vector<ExprRef> leftToCore;     // its reads left to the core's encoding
  };

  // Before a query that uses the cache: forgets everything when FreshReads has forgotten its
  // reads since (`generation` is its count of forgettings) or an array the cache read has
  // another element width under `types`.
  void startQuery(const std::shared_ptr<const ArrayTypes> &types, uint64_t generation);
  const Entry *find(const Expr *constraint) const;
  const AbstractRead &read(const Expr *variable) const { return reads_.at(variable); }
  // `reads` are the entry's, in the order of its `variables`.
  void add(Entry entry, const std::vector<const AbstractRead *> &reads);

private:
  void clear();

  size_t capacity_;
  std::unordered_map<const Expr *, Entry> entries_;
  std::unordered_map<const Expr *, AbstractRead> reads_;      // by variable
  std::unordered_map<const Expr *, uint32_t> elementBytes_;   // by array root, as the reads used it
  std::shared_ptr<const ArrayTypes> types_;                   // the widths last checked against
  uint64_t generation_ = 0;
};

} // namespace cairn::arrays
