#include "ReadLookup.h"

#include <vector>

namespace cairn::arrays {

namespace {

// The index bits a lookup tests, lowest first, and the bits it takes as given: the known bits,
// and the bits above the interval's top (zero in every value the query gives the index).
struct LookupBits {
  std::vector<unsigned> varying;
  u128 fixedMask = 0;
  u128 fixedValue = 0;
};

std::optional<LookupBits> lookupBits(const AbstractRead &r) {
  const unsigned w = r.index->width();
  const u128 m = widthMask(w);
  LookupBits b;
  b.fixedMask = (r.indexBits.zero | r.indexBits.one) & m;
  b.fixedValue = r.indexBits.one & m;
  if (r.interval.lo >= 0 && r.interval.hi >= 0 && u128(r.interval.hi) <= m) {
    const unsigned top = bitLength(u128(r.interval.hi));
    b.fixedMask |= m & ~widthMask(top);
    b.fixedValue &= widthMask(top);
  }
  for (unsigned j = 0; j < w; ++j)
    if (!((b.fixedMask >> j) & 1)) {
      if (b.varying.size() == kMaxLookupTreeBits)
        return std::nullopt;
      b.varying.push_back(j);
    }
  return b;
}

// The index value the leaf `t` stands for: the fixed bits, and t's bits spread over the varying.
u128 positionOf(const LookupBits &b, uint64_t t) {
  u128 p = b.fixedValue;
  for (size_t j = 0; j < b.varying.size(); ++j)
    if ((t >> j) & 1)
      p |= u128(1) << b.varying[j];
  return p;
}

// Whether the query lets the index be `p`: inside its interval and at its offset in an element.
bool admitted(const AbstractRead &r, u128 p) {
  return r.interval.contains(Int(p)) && p % r.modulus == r.offset % r.modulus;
}

// Bit j of `e` as a width-1 term, taken from the operand that decides it where the structure
// does (extensions, extracts, concatenations, shifts by constants, sums without carries into
// the bit): the core then reads the bit where it is made, with no adder or multiplier between.
class BitTerms {
public:
  explicit BitTerms(ExprContext &ctx) : ctx_(ctx) {}
  ExprRef bit(const Expr *e, unsigned j) {
    switch (e->kind()) {
    case Kind::Constant: return ctx_.constant((e->value() >> j) & 1, 1);
    case Kind::ZExt: return j < e->kid(0)->width() ? bit(e->kid(0), j) : ctx_.constant(0, 1);
    case Kind::Extract: return bit(e->kid(0), j + e->extractOffset());
    case Kind::Concat: {
      const unsigned low = e->kid(1)->width();
      return j < low ? bit(e->kid(1), j) : bit(e->kid(0), j - low);
    }
    case Kind::Mul:
    case Kind::Shl:
      if (std::optional<PowerOfTwoScaled> s = powerOfTwoScaled(e))
        return j < s->k ? ctx_.constant(0, 1) : bit(s->x, j - s->k);
      break;
    case Kind::Add: {
      // No two operand bits below j can both be 1: no carry reaches bit j.
      const KnownBits a = known_.of(e->kid(0)), b = known_.of(e->kid(1));
      const unsigned w = e->width();
      const u128 below = widthMask(j);
      if ((~a.zero & ~b.zero & below & widthMask(w)) == 0) {
        if ((a.zero >> j) & 1)
          return bit(e->kid(1), j);
        if ((b.zero >> j) & 1)
          return bit(e->kid(0), j);
        return ctx_.bvxor(bit(e->kid(0), j), bit(e->kid(1), j));
      }
      break;
    }
    default: break;
    }
    return ctx_.extract(ExprRef(e), j, 1);
  }

private:
  ExprContext &ctx_;
  KnownBitsAnalysis known_;
};

} // namespace

std::optional<uint64_t> lookupPositions(const AbstractRead &read) {
  std::optional<LookupBits> b = lookupBits(read);
  if (!b)
    return std::nullopt;
  uint64_t n = 0;
  for (uint64_t t = 0; t < (uint64_t(1) << b->varying.size()); ++t)
    n += admitted(read, positionOf(*b, t));
  return n;
}

std::optional<WholeRead> lookupRead(const AbstractRead &read) {
  std::optional<LookupBits> b = lookupBits(read);
  if (!b)
    return std::nullopt;
  // The leaves' values, and which are free.
  const size_t n = size_t(1) << b->varying.size();
  std::vector<u128> leaf(n, 0);
  std::vector<bool> free(n, true);
  for (size_t t = 0; t < n; ++t) {
    const u128 p = positionOf(*b, t);
    if (!admitted(read, p))
      continue;
    if (read.contents->at(p, leaf[t]))
      return std::nullopt; // a symbolic element: not a lookup of known contents
    free[t] = false;
  }
  ExprContext &ctx = read.index->context();
  const unsigned w = read.index->width();
  BitTerms bits(ctx);
  std::vector<ExprRef> tests(b->varying.size()); // of each level's bit, made when first needed
  // Leaves [lo, lo + 2^level): a null term where every leaf is free, a constant where the
  // others are free or equal to it (hash-consing makes equal subtrees one term), else a test of
  // the level's bit.
  auto build = [&](auto &&self, size_t lo, unsigned level) -> ExprRef {
    const size_t end = lo + (size_t(1) << level);
    size_t first = lo;
    while (first < end && free[first])
      ++first;
    if (first == end)
      return {};
    bool uniform = true;
    for (size_t t = first + 1; t < end && uniform; ++t)
      uniform = free[t] || leaf[t] == leaf[first];
    if (uniform)
      return ctx.constant(leaf[first], 8);
    ExprRef low = self(self, lo, level - 1);
    ExprRef high = self(self, lo + (size_t(1) << (level - 1)), level - 1);
    if (!low || high.get() == low.get())
      return high;
    if (!high)
      return low;
    ExprRef &test = tests[level - 1];
    if (!test)
      test = ctx.eq(bits.bit(read.index.get(), b->varying[level - 1]), ctx.constant(1, 1));
    return ctx.ite(test, high, low);
  };
  ExprRef value = build(build, 0, unsigned(b->varying.size()));
  if (!value) // no position at all: the query is unsatisfiable; any value ties the read
    value = ctx.constant(read.contents->defaultValue(), 8);
  // The bits the index's own terms fix (a zero extension's high bits) hold in every model of
  // any query: a fact of them would only be more for the core to take in (permutation: one per
  // read of a zero-extended byte).
  const KnownBits own = KnownBitsAnalysis().of(read.index.get());
  const u128 factMask = b->fixedMask & own.unknown(w);
  ExprRef facts = factMask == 0 ? ctx.trueExpr()
                                : ctx.eq(ctx.bvand(read.index, ctx.constant(factMask, w)),
                                         ctx.constant(b->fixedValue & factMask, w));
  return WholeRead{std::move(value), std::move(facts)};
}

ExprRef lookupTie(const AbstractRead &read) {
  std::optional<WholeRead> whole = lookupRead(read);
  return whole ? wholeReadExpr(read, *whole) : ExprRef();
}

} // namespace cairn::arrays
