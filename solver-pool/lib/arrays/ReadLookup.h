// A read tied to its array whole, as a lookup over the positions its index can take (private to
// solver-pool/lib/arrays): a tree testing only the index bits that vary among those positions.
//
// The positions are the paper's pruned pool (Opt 2): inside the index's interval, at its offset
// within an element; and, within those, the ones its known bits allow (KnownBits.h). Every
// other position is one the query rules out, so its leaf is free: a subtree of such leaves
// disappears, and the tree is as deep as the index has varying bits, not as the table is
// wide. The core's own lookup (ConstArrayReads.h) knows neither the interval nor the bits an
// index cannot change, and tests every bit of the table's index for every read.
#pragma once

#include "ArrayAxioms.h"

namespace cairn::arrays {

// The most index bits a lookup tests (4,096 leaves); a read with more keeps its tie as before.
constexpr unsigned kMaxLookupTreeBits = 12;

// The positions the lookup of `read` distinguishes (leaves that are not free), or none when its
// index varies in more than kMaxLookupTreeBits bits.
std::optional<uint64_t> lookupPositions(const AbstractRead &read);

// The lookup as the read's value, with the known bits of the index, which every model of the
// query gives it, as the abstraction index's facts; none when lookupPositions is none.
std::optional<WholeRead> lookupRead(const AbstractRead &read);
// `read.variable` equal to the lookup, with its index facts; null when lookupRead is none.
ExprRef lookupTie(const AbstractRead &read);

} // namespace cairn::arrays
