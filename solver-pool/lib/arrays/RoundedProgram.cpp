#include "RoundedProgram.h"

#include "BoundPropagation.h"

#include <cmath>
#include <map>

namespace cairn::arrays {

namespace {

constexpr Int kLargest = Int(1) << 120; // beyond it, no conversion to and from double is trusted
constexpr Int kExact = Int(1) << 53;    // every integer up to it is a double

bool representable(Int v) { return -kLargest <= v && v <= kLargest; }
bool exactDouble(Int v) { return -kExact <= v && v <= kExact; }

// Both libraries refuse a row or objective naming a column twice.
std::map<uint32_t, Int> mergedTerms(const LinearExpr &e) {
  std::map<uint32_t, Int> terms;
  for (const auto &[v, k] : e.terms)
    terms[v] += k;
  std::erase_if(terms, [](const auto &t) { return t.second == 0; });
  return terms;
}

// The double nearest to v on the side that keeps the program a superset.
double roundedDown(Int v) {
  double d = double(v);
  return Int(d) > v ? std::nextafter(d, -INFINITY) : d;
}
double roundedUp(Int v) {
  double d = double(v);
  return Int(d) < v ? std::nextafter(d, INFINITY) : d;
}

} // namespace

RoundedProgram roundOutwards(const IntegerProgram &program, const std::vector<uint32_t> *subset) {
  RoundedProgram out;
  for (uint32_t v = 0; v < program.numVariables(); ++v) {
    const Interval &b = program.bounds(v);
    if (!representable(b.lo) || !representable(b.hi)) {
      out.load = RoundedProgram::Load::Inexact;
      return out;
    }
    if (b.lo > b.hi) {
      out.load = RoundedProgram::Load::Infeasible;
      return out;
    }
    out.columnLo.push_back(roundedDown(b.lo));
    out.columnHi.push_back(roundedUp(b.hi));
  }
  auto addOne = [&](const IntegerProgram::Constraint &c) {
    const std::map<uint32_t, Int> terms = mergedTerms(c.expr);
    const Int rhs = -c.expr.constant;
    if (!representable(rhs)) {
      out.load = RoundedProgram::Load::Inexact;
      return false;
    }
    const bool equal = c.relation == IntegerProgram::Relation::EqualZero;
    if (terms.empty()) {
      if (equal ? rhs != 0 : rhs < 0)
        out.load = RoundedProgram::Load::Infeasible;
      return out.load == RoundedProgram::Load::Ready;
    }
    RoundedProgram::Row row;
    row.lo = equal ? roundedDown(rhs) : -INFINITY;
    row.hi = roundedUp(rhs);
    for (const auto &[v, k] : terms) {
      if (!exactDouble(k)) {
        out.load = RoundedProgram::Load::Inexact;
        return false;
      }
      row.columns.push_back(int(v));
      row.coefficients.push_back(double(k));
    }
    out.rows.push_back(std::move(row));
    return true;
  };
  if (subset) {
    for (uint32_t i : *subset)
      if (!addOne(program.constraints()[i]))
        break;
  } else {
    for (const IntegerProgram::Constraint &c : program.constraints())
      if (!addOne(c))
        break;
  }
  return out;
}

std::optional<std::vector<std::pair<int, double>>> objectiveInDoubles(const LinearExpr &objective) {
  std::vector<std::pair<int, double>> out;
  for (const auto &[v, k] : mergedTerms(objective)) {
    if (!exactDouble(k))
      return std::nullopt;
    out.emplace_back(int(v), double(k));
  }
  return out;
}

std::optional<Int> inwardBound(double value, double margin, bool maximise) {
  const double bound = maximise ? std::floor(value + margin) : std::ceil(value - margin);
  if (!std::isfinite(bound) || std::fabs(bound) > double(kLargest))
    return std::nullopt;
  return Int(bound);
}

std::optional<IntegerProgramSolver::Ranges> settledWithoutSolver(const IntegerProgram &program,
                                                                 const RoundedProgram &rounded,
                                                                 const std::vector<LinearExpr> &objectives) {
  using Status = IntegerProgramSolver::Status;
  IntegerProgramSolver::Ranges r;
  if (rounded.load == RoundedProgram::Load::Inexact)
    return r;
  if (rounded.load == RoundedProgram::Load::Infeasible) {
    r.status = Status::Infeasible;
    return r;
  }
  if (!rounded.rows.empty())
    return std::nullopt;
  std::vector<Interval> box;
  for (uint32_t v = 0; v < program.numVariables(); ++v)
    box.push_back(program.bounds(v));
  for (const LinearExpr &o : objectives) {
    std::optional<Interval> range = boundsOf(o, box);
    if (!range)
      return IntegerProgramSolver::Ranges{};
    r.ranges.push_back(*range);
  }
  r.status = Status::Feasible;
  return r;
}

IntegerProgramSolver::Ranges rangesFromOptima(const std::vector<LinearExpr> &objectives, const Optimum &optimum) {
  using Status = IntegerProgramSolver::Status;
  IntegerProgramSolver::Ranges r;
  std::vector<LinearExpr> asked = objectives;
  if (asked.empty())
    asked.push_back(LinearExpr::number(0));
  for (const LinearExpr &o : asked) {
    std::optional<std::vector<std::pair<int, double>>> coefficients = objectiveInDoubles(o);
    if (!coefficients)
      return IntegerProgramSolver::Ranges{};
    Interval range;
    for (bool maximise : {false, true}) {
      Status status = Status::Unknown;
      std::optional<Int> bound = optimum(*coefficients, o, maximise, status);
      if (!bound) {
        r.status = status;
        return r;
      }
      std::optional<Int> withConstant = checkedAdd(*bound, o.constant);
      if (!withConstant)
        return IntegerProgramSolver::Ranges{};
      (maximise ? range.hi : range.lo) = *withConstant;
      if (objectives.empty())
        break;
    }
    r.ranges.push_back(range);
  }
  if (objectives.empty())
    r.ranges.clear();
  r.status = Status::Feasible;
  return r;
}

} // namespace cairn::arrays
