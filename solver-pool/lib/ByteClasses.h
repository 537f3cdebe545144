// The values of a query's input bytes that nothing in it tells apart. A merged path condition
// over two argument characters is an and/or tree of hundreds of comparisons, each of one
// character with a constant: the query depends on a character only through those comparisons,
// so two values that agree on all of them are one candidate, and the 65536 candidates of two
// bytes become the few dozen combinations of their classes (what Z3 took 20-90 ms each for on
// coreutils' tr under merging).
#pragma once

#include "ByteDomains.h"

#include <bitset>
#include <vector>

namespace cairn {

// Narrows `allowed[k]`, the values left to bytes[k], to one value of each class: values under
// which every largest subterm of `literals` that reads bytes[k] alone evaluates the same, so no
// literal tells them apart whatever the other bytes hold. Returns false, `allowed` unchanged,
// where a literal reads a byte otherwise (an array element stores may have written, a term too
// deep to walk) or the work would be too large.
bool keepOneValuePerClass(const std::vector<const Expr *> &literals, const std::vector<InputByte> &bytes,
                          std::vector<std::bitset<256>> &allowed, ByteDomains &domains);

} // namespace cairn
