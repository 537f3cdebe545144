// Symbolic reads of constant arrays as decision trees over the bits of the index (private to
// solver-pool/lib; no solver headers): the callers supply the term constructors.
//
// Why not the array theory: a constant array is a store per element, and a symbolic read of a
// table of a few hundred entries costs a solver seconds that way. Why bits and not index
// comparisons: a tree of `i < mid` tests makes a full-width comparator per node (a 64-bit
// address offset: 4,096 comparators for a 4 KiB table, about a second of Z3's time), where a
// tree testing one index bit per level is a multiplexer, the cheapest circuit there is, and its
// equal subtrees are one term. And a read at `c + s * zext(x)` (an element of a word table:
// the bytes of `table[x]` at `4*x`, `4*x + 1`, ...) is a tree over x's few bits with the values
// at those positions as leaves: no adder, no multiplier, a quarter of the leaves per byte.
#pragma once

#include "cairn/expr/Expr.h"

#include <algorithm>
#include <vector>

namespace cairn::backend {

// The most leaves a lookup tree may have (a 64 KiB table read at a 16-bit index).
constexpr unsigned kMaxLookupBits = 16;
constexpr size_t kMaxLookupTree = size_t(1) << kMaxLookupBits;

// A read's index as `offset + scale * (narrow mod 2^bits)` modulo 2^width(index), with `bits`
// at most kMaxLookupBits: every value of those bits is one position, so the tree needs no range
// test. Null `narrow` when the index has no such form.
struct NarrowIndex {
  const Expr *narrow = nullptr;
  unsigned bits = 0;
  u128 offset = 0;
  u128 scale = 1;
};

// k when `mask` is 2^k - 1 (k > 0), 0 otherwise.
inline unsigned lowOnes(u128 mask) {
  unsigned k = 0;
  while (k < 128 && ((mask >> k) & 1))
    ++k;
  return k < 128 && (mask >> k) != 0 ? 0 : k;
}

inline NarrowIndex narrowIndex(const Expr *index) {
  const unsigned w = index->width();
  const u128 mask = widthMask(w);
  NarrowIndex r;
  // Through additions and multiplications by constants, all at the index's width (so the
  // arithmetic modulo 2^w composes)...
  const Expr *e = index;
  for (bool scaled = true; scaled;) {
    switch (e->kind()) {
    case Kind::Add:
      if ((scaled = e->kid(0)->isConstant())) {
        r.offset = (r.offset + r.scale * e->kid(0)->value()) & mask;
        e = e->kid(1);
      }
      break;
    case Kind::Mul:
      if ((scaled = e->kid(0)->isConstant())) {
        r.scale = (r.scale * e->kid(0)->value()) & mask;
        e = e->kid(1);
      }
      break;
    case Kind::Shl:
      if ((scaled = e->kid(1)->isConstant() && e->kid(1)->value() < w)) {
        r.scale = (r.scale << unsigned(e->kid(1)->value())) & mask;
        e = e->kid(0);
      }
      break;
    default: scaled = false;
    }
  }
  // ...down to the low bits of a value: a zero extension, a truncation, a mask of low bits
  // (`(unsigned char)c`, `x & 0xff`).
  unsigned bits = e->width();
  for (bool narrowed = true; narrowed;) {
    switch (e->kind()) {
    case Kind::ZExt:
    case Kind::Extract:
      if ((narrowed = e->kind() == Kind::ZExt || e->extractOffset() == 0)) {
        bits = std::min(bits, e->kid(0)->width());
        e = e->kid(0);
      }
      break;
    case Kind::And: {
      unsigned k = 0;
      unsigned c = e->kid(0)->isConstant() ? 0 : 1;
      if (e->kid(c)->isConstant())
        k = lowOnes(e->kid(c)->value());
      if ((narrowed = k > 0)) {
        bits = std::min(bits, k);
        e = e->kid(1 - c);
      }
      break;
    }
    default: narrowed = false;
    }
  }
  if (bits > kMaxLookupBits)
    return {};
  r.narrow = e;
  r.bits = bits;
  return r;
}

// The tree over the low `bits` bits of a term whose leaf for the value t is leaves[t] (runs of
// equal leaves are one leaf, equal halves one subtree). `bit(j)` tests bit j of the term,
// `ite` and `value` build terms.
template <class Term, class Bit, class Ite, class ValueOf>
Term bitLookupTree(const std::vector<u128> &leaves, unsigned bits, Bit &&bit, Ite &&ite, ValueOf &&value) {
  std::vector<Term> bitTerms;
  for (unsigned j = 0; j < bits; ++j)
    bitTerms.push_back(bit(j));
  // leaves[lo, lo + 2^level): one value, one half repeated, or a test of bit level-1.
  auto build = [&](auto &&self, size_t lo, unsigned level) -> Term {
    const size_t n = size_t(1) << level;
    bool uniform = true;
    for (size_t i = lo + 1; i < lo + n && uniform; ++i)
      uniform = leaves[i] == leaves[lo];
    if (uniform)
      return value(leaves[lo]);
    const size_t half = n / 2;
    bool repeated = true;
    for (size_t i = 0; i < half && repeated; ++i)
      repeated = leaves[lo + i] == leaves[lo + half + i];
    if (repeated)
      return self(self, lo, level - 1);
    Term low = self(self, lo, level - 1);
    Term high = self(self, lo + half, level - 1);
    return ite(bitTerms[level - 1], high, low);
  };
  return build(build, 0, bits);
}

// What a lookup needs from the translator: the terms of nodes and the constructors.
//   Term of(const Expr *)                          a node's bit-vector term
//   Term bit(const Term &t, unsigned j)            bit j of t, as a Bool
//   Term below(const Term &t, unsigned w, u128 n)  t < n, t of width w
//   Term equal(const Term &a, const Term &b)       bit-vectors a = b
//   Term ite(const Term &c, const Term &a, const Term &b)
//   Term value(u128 v)                             an element-width constant
//
// select(K, i) for a constant array K and a symbolic index i: a tree over the narrow part of
// the index when it has one, otherwise `i < n ? tree over i's low bits : default`.
template <class Term, class Ops>
Term constArrayLookup(const ConstArrayData &d, const Expr *index, Ops &ops) {
  auto ite = [&](const Term &c, const Term &a, const Term &b) { return ops.ite(c, a, b); };
  auto value = [&](u128 v) { return ops.value(v); };
  const unsigned w = index->width();
  if (NarrowIndex ni = narrowIndex(index); ni.narrow) {
    const unsigned bits = ni.bits;
    std::vector<u128> leaves(size_t(1) << bits);
    for (size_t t = 0; t < leaves.size(); ++t)
      leaves[t] = d.at((ni.offset + ni.scale * u128(t)) & widthMask(w));
    Term narrow = ops.of(ni.narrow);
    return bitLookupTree<Term>(leaves, bits, [&](unsigned j) { return ops.bit(narrow, j); }, ite, value);
  }
  const size_t n = d.values.size();
  if (n == 0)
    return ops.value(d.defaultValue);
  Term i = ops.of(index);
  unsigned bits = 0;
  while ((size_t(1) << bits) < n)
    ++bits;
  // Positions from n to 2^bits are behind the range test: they repeat the last value, which
  // lets the tree end early.
  std::vector<u128> leaves(d.values);
  leaves.resize(size_t(1) << bits, d.values.back());
  Term tree = bitLookupTree<Term>(leaves, bits, [&](unsigned j) { return ops.bit(i, j); }, ite, value);
  return ops.ite(ops.below(i, w, u128(n)), tree, ops.value(d.defaultValue));
}

// select(store(..store(K, j1, v1).., jn, vn), i) for a constant array K, a symbolic index i
// and at most kMaxExpandedStores stores becomes ite(i = jn, vn, .. ite(i = j1, v1, K[i]) ..)
// over the lookup tree of K. This keeps such reads out of the array theory, where a handful of
// stores over a table of a few hundred entries can cost a solver minutes.
constexpr size_t kMaxExpandedStores = 256;

// The constant array under the stores of `select`'s array when the select is read that way,
// null when it is left to the array theory.
inline const Expr *lookupBase(const Expr *select) {
  if (select->kind() != Kind::Select || select->kid(1)->isConstant())
    return nullptr;
  const Expr *base = select->kid(0);
  for (size_t stores = 0; base->kind() == Kind::Store; base = base->kid(0))
    if (++stores > kMaxExpandedStores)
      return nullptr;
  if (base->kind() != Kind::ConstArray)
    return nullptr;
  if (!narrowIndex(select->kid(1)).narrow && base->constArray()->values.size() > kMaxLookupTree)
    return nullptr;
  return base;
}

inline bool expandsSelect(const Expr *select) { return lookupBase(select) != nullptr; }

// The term of a select for which expandsSelect holds.
template <class Term, class Ops>
Term expandSelect(const Expr *select, Ops &ops) {
  const Expr *base = lookupBase(select);
  Term result = constArrayLookup<Term>(*base->constArray(), select->kid(1), ops);
  std::vector<const Expr *> stores;
  for (const Expr *a = select->kid(0); a != base; a = a->kid(0))
    stores.push_back(a);
  Term i = ops.of(select->kid(1));
  for (size_t k = stores.size(); k-- > 0;) // the oldest store is innermost
    result = ops.ite(ops.equal(i, ops.of(stores[k]->kid(1))), ops.of(stores[k]->kid(2)), result);
  return result;
}

} // namespace cairn::backend
