#include "BoundPropagation.h"

namespace cairn::arrays {

namespace {

Int floorDiv(Int a, Int b) { // b != 0
  Int q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}
Int ceilDiv(Int a, Int b) {
  Int q = a / b;
  return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
}

// The least value of coefficient * x over x's interval.
std::optional<Int> leastOf(Int coefficient, const Interval &x) {
  return checkedMul(coefficient, coefficient > 0 ? x.lo : x.hi);
}

// Tightens the variables of sum(terms) + constant <= 0 (sign 1) or >= 0 (sign -1); false when
// a variable's interval becomes empty.
bool tighten(const LinearExpr &e, Int sign, std::vector<Interval> &bounds, bool &changed) {
  // sign * (sum + constant) <= 0: each a*x <= -c - (the least of the others).
  Int least = 0;
  unsigned unknown = 0; // terms whose least value overflowed
  for (const auto &[v, c] : e.terms) {
    std::optional<Int> l = leastOf(sign * c, bounds[v]);
    std::optional<Int> sum = l ? checkedAdd(least, *l) : std::nullopt;
    if (!sum) {
      ++unknown;
      continue;
    }
    least = *sum;
  }
  std::optional<Int> minusConstant = checkedMul(-sign, e.constant);
  if (!minusConstant)
    return true;
  for (const auto &[v, c] : e.terms) {
    const Int a = sign * c;
    std::optional<Int> own = leastOf(a, bounds[v]);
    if (!own || unknown > 0)
      continue; // the others' least value is not known exactly: no bound from this one
    std::optional<Int> rest = checkedAdd(least, -*own);
    std::optional<Int> limit = rest ? checkedAdd(*minusConstant, -*rest) : std::nullopt;
    if (!limit)
      continue;
    Interval &x = bounds[v];
    if (a > 0) {
      const Int hi = floorDiv(*limit, a);
      if (hi < x.hi) {
        x.hi = hi;
        changed = true;
      }
    } else {
      const Int lo = ceilDiv(*limit, a);
      if (lo > x.lo) {
        x.lo = lo;
        changed = true;
      }
    }
    if (x.lo > x.hi)
      return false;
  }
  return true;
}

} // namespace

Propagated propagateBounds(const IntegerProgram &program, unsigned maxRounds) {
  Propagated p;
  for (uint32_t v = 0; v < program.numVariables(); ++v)
    p.bounds.push_back(program.bounds(v));
  for (const Interval &b : p.bounds)
    if (b.lo > b.hi)
      return {false, {}};
  for (unsigned round = 0; round < maxRounds; ++round) {
    bool changed = false;
    for (const IntegerProgram::Constraint &c : program.constraints()) {
      if (c.expr.terms.empty()) { // a constant: true or false as it stands
        const bool holds = c.relation == IntegerProgram::Relation::EqualZero ? c.expr.constant == 0
                                                                             : c.expr.constant <= 0;
        if (!holds)
          return {false, {}};
        continue;
      }
      if (!tighten(c.expr, 1, p.bounds, changed))
        return {false, {}};
      if (c.relation == IntegerProgram::Relation::EqualZero && !tighten(c.expr, -1, p.bounds, changed))
        return {false, {}};
    }
    if (!changed)
      break;
  }
  return p;
}

std::optional<Interval> boundsOf(const LinearExpr &e, const std::vector<Interval> &bounds) {
  Interval r{e.constant, e.constant};
  for (const auto &[v, c] : e.terms) {
    std::optional<Int> lo = leastOf(c, bounds[v]), hi = leastOf(-c, bounds[v]);
    std::optional<Int> newLo = lo ? checkedAdd(r.lo, *lo) : std::nullopt;
    std::optional<Int> newHi = hi ? checkedAdd(r.hi, -*hi) : std::nullopt;
    if (!newLo || !newHi)
      return std::nullopt;
    r = {*newLo, *newHi};
  }
  return r;
}

} // namespace cairn::arrays
