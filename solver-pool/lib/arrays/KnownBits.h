// The bits of a bit-vector term that are the same for every value of its symbols (private to
// solver-pool/lib/arrays): a structural analysis, no solver call.
//
// Why: a read's index is often a sum of terms each of which moves a few bits only
// (`base + half * (t[base + half] < key)` in a binary search, `4 * i + k` for an element's
// byte, `20 * state + 4 * input` for a table row); the positions such an index can take are
// the few its unknown bits spell, and a lookup over those bits is what the read needs, not a
// tree over every bit of the table's index.
#pragma once

#include "cairn/expr/Expr.h"

#include <optional>
#include <unordered_map>

namespace cairn::arrays {

struct KnownBits {
  u128 zero = 0; // bits that are 0 for every value of the symbols
  u128 one = 0;  // bits that are 1 for every value
  u128 unknown(unsigned width) const { return widthMask(width) & ~(zero | one); }
  bool admits(u128 v) const { return (v & zero) == 0 && (v & one) == one; }
};

// The number of bits up to the highest 1 of v (0 for 0).
inline unsigned bitLength(u128 v) {
  unsigned n = 0;
  while (n < 128 && (v >> n) != 0)
    ++n;
  return n;
}

// `e` as x * 2^k: a product with a power of two (either side) or a shift by a constant below
// the width; none otherwise.
struct PowerOfTwoScaled {
  const Expr *x;
  unsigned k;
};
std::optional<PowerOfTwoScaled> powerOfTwoScaled(const Expr *e);

class KnownBitsAnalysis {
public:
  KnownBits of(const Expr *e) { return of(e, 0); }

private:
  KnownBits of(const Expr *e, unsigned depth);
  KnownBits compute(const Expr *e, unsigned depth);
  // What an element of the array term (stores over a root) may hold.
  KnownBits elementOf(const Expr *array, unsigned depth);
  std::unordered_map<const Expr *, KnownBits> memo_;
};

} // namespace cairn::arrays
