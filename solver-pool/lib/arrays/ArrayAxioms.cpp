#include "ArrayAxioms.h"
#include "ReadLookup.h"

#include <algorithm>
#include <map>

namespace cairn::arrays {

namespace {

struct ElementOf {
  const Expr *expr; // a symbolic element, else null and `value`
  u128 value;
};

ElementOf elementAt(const AbstractRead &r, uint64_t position) {
  ElementOf e{nullptr, 0};
  e.expr = r.contents->at(position, e.value);
  return e;
}

// The positions of the array the read's element axioms are about: inside its index's interval
// and the array, at its offset within an element (the first such position, then one per
// element).
template <class Each> void forEachElementPosition(const AbstractRead &read, Each &&each) {
  const Int lo = std::max<Int>(read.interval.lo, 0);
  const Int hi = std::min<Int>(read.interval.hi, Int(read.contents->size()) - 1);
  for (Int j = lo + Int((read.offset + read.modulus - u128(lo) % read.modulus) % read.modulus); j <= hi;
       j += Int(read.modulus))
    each(uint64_t(j));
}

std::vector<uint64_t> elementPositions(const AbstractRead &read) {
  std::vector<uint64_t> positions;
  forEachElementPosition(read, [&](uint64_t j) { positions.push_back(j); });
  return positions;
}

} // namespace

AxiomPool buildAxiomPool(const std::vector<AbstractRead> &reads, PoolContents contents) {
  AxiomPool pool;
  auto add = [&](Axiom a) {
    ++pool.size;
    if (contents == PoolContents::Axioms)
      pool.axioms.push_back(a);
  };
  std::map<const Expr *, std::vector<uint32_t>> byArray;
  for (uint32_t r = 0; r < reads.size(); ++r)
    byArray[reads[r].array].push_back(r);
  for (const auto &[array, members] : byArray) {
    const uint64_t size = reads[members.front()].contents->size();
    pool.unpruned += size * members.size() + members.size() * (members.size() - 1) / 2;
    for (uint32_t r : members) {
      const AbstractRead &read = reads[r];
      forEachElementPosition(read, [&](uint64_t j) { add({Axiom::Kind::Element, r, 0, j}); });
      if (read.interval.hi >= Int(size))
        add({Axiom::Kind::Beyond, r, 0, 0});
    }
    for (size_t a = 0; a < members.size(); ++a)
      for (size_t b = a + 1; b < members.size(); ++b) {
        const AbstractRead &x = reads[members[a]], &y = reads[members[b]];
        // Both offsets are modulo the larger element width of the two only when one width
        // divides the other, which powers of two always do.
        const u128 m = std::min(x.modulus, y.modulus);
        if (x.offset % m != y.offset % m)
          continue;
        if (x.interval.hi < y.interval.lo || y.interval.hi < x.interval.lo)
          continue; // the indices can never be equal
        add({Axiom::Kind::Congruence, members[a], members[b], 0});
      }
  }
  return pool;
}

ReadValues valuesUnder(const std::vector<AbstractRead> &reads, const Assignment &model) {
  ReadValues v;
  for (const AbstractRead &r : reads) {
    v.index.push_back(evaluate(r.index.get(), model));
    v.value.push_back(evaluate(r.variable.get(), model));
  }
  return v;
}

bool violates(const Axiom &axiom, const std::vector<AbstractRead> &reads, const ReadValues &values,
              const Assignment &model) {
  const AbstractRead &r = reads[axiom.read];
  const u128 index = values.index[axiom.read], value = values.value[axiom.read];
  switch (axiom.kind) {
  case Axiom::Kind::Element: {
    if (index != axiom.position)
      return false;
    ElementOf e = elementAt(r, axiom.position);
    return value != (e.expr ? evaluate(e.expr, model) : e.value);
  }
  case Axiom::Kind::Beyond: return index >= r.contents->size() && value != r.contents->defaultValue();
  case Axiom::Kind::Congruence:
    return index == values.index[axiom.other] && value != values.value[axiom.other];
  }
  return false;
}

ExprRef axiomExpr(const Axiom &axiom, const std::vector<AbstractRead> &reads) {
  const AbstractRead &r = reads[axiom.read];
  ExprContext &ctx = r.index->context();
  const unsigned w = r.index->width();
  switch (axiom.kind) {
  case Axiom::Kind::Element: {
    ElementOf e = elementAt(r, axiom.position);
    ExprRef element = e.expr ? ExprRef(e.expr) : ctx.constant(e.value, 8);
    return ctx.implies(ctx.eq(r.index, ctx.constant(axiom.position, w)), ctx.eq(r.variable, element));
  }
  case Axiom::Kind::Beyond: {
    ExprRef beyond = ctx.uge(r.index, ctx.constant(r.contents->size(), w));
    return ctx.implies(beyond, ctx.eq(r.variable, ctx.constant(r.contents->defaultValue(), 8)));
  }
  case Axiom::Kind::Congruence: {
    const AbstractRead &o = reads[axiom.other];
    ExprRef sameIndex = ctx.eq(r.index, ctx.zextOrTrunc(o.index, w));
    return ctx.implies(sameIndex, ctx.eq(r.variable, o.variable));
  }
  }
  return ctx.trueExpr();
}

WholeRead wholeRead(const AbstractRead &read) {
  ExprContext &ctx = read.index->context();
  if (!read.contents->symbolic()) {
    if (std::optional<WholeRead> lookup = lookupRead(read))
      return std::move(*lookup);
    return {ctx.select(ExprRef(read.array), read.index), ctx.trueExpr()};
  }
  // The positions the query lets the index take (its interval, at its offset within an
  // element): the query rules every other index out, as it does for the pool's axioms.
  const unsigned w = read.index->width();
  std::vector<uint64_t> positions = elementPositions(read);
  auto valueAt = [&](uint64_t position) {
    ElementOf e = elementAt(read, position);
    return e.expr ? ExprRef(e.expr) : ctx.constant(e.value, 8);
  };
  // The final case: the default where the index may lie past the end, else the last position.
  ExprRef value = ctx.constant(read.contents->defaultValue(), 8);
  if (read.interval.hi < Int(read.contents->size()) && !positions.empty()) {
    value = valueAt(positions.back());
    positions.pop_back();
  }
  for (size_t k = positions.size(); k-- > 0;)
    value = ctx.ite(ctx.eq(read.index, ctx.constant(positions[k], w)), valueAt(positions[k]), value);
  return {std::move(value), ctx.trueExpr()};
}

ExprRef wholeReadExpr(const AbstractRead &read, const WholeRead &whole) {
  ExprContext &ctx = read.index->context();
  return ctx.land(ctx.eq(read.variable, whole.value), whole.indexFacts);
}

} // namespace cairn::arrays
