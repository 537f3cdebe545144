#include "GlpkBounds.h"

#include <glpk.h>

#include <cmath>
#include <map>
#include <mutex>

namespace cairn::arrays {

namespace {

using Ranges = IntegerProgramSolver::Ranges;
using Status = IntegerProgramSolver::Status;

constexpr Int kLargest = Int(1) << 120; // beyond it, no conversion to and from double is trusted
constexpr Int kExact = Int(1) << 53;    // every integer up to it is a double

bool representable(Int v) { return -kLargest <= v && v <= kLargest; }
bool exactDouble(Int v) { return -kExact <= v && v <= kExact; }

// The expression's coefficients, one per variable (GLPK refuses a row or objective naming a
// column twice), zeros dropped.
std::map<uint32_t, Int> mergedTerms(const LinearExpr &e) {
  std::map<uint32_t, Int> terms;
  for (const auto &[v, k] : e.terms)
    terms[v] += k;
  std::erase_if(terms, [](const auto &t) { return t.second == 0; });
  return terms;
}

// The double nearest to v on the side that keeps the relaxation a superset.
double roundedDown(Int v) {
  double d = double(v);
  return Int(d) > v ? std::nextafter(d, -INFINITY) : d;
}
double roundedUp(Int v) {
  double d = double(v);
  return Int(d) < v ? std::nextafter(d, INFINITY) : d;
}

// GLPK keeps its environment per thread only when built for it; the lanes share one lock.
std::mutex glpkLock;

struct Problem {
  glp_prob *lp = glp_create_prob();
  ~Problem() { glp_delete_prob(lp); }
};

// Loads the relaxation; false (Unknown) where a coefficient is no double, `infeasible` where a
// bound or a constant constraint already is.
bool load(glp_prob *lp, const IntegerProgram &program, const std::vector<uint32_t> *subset, bool &infeasible) {
  const int columns = int(program.numVariables());
  if (columns > 0) // (GLPK stops the process on adding none)
    glp_add_cols(lp, columns);
  for (int v = 0; v < columns; ++v) {
    const Interval &b = program.bounds(uint32_t(v));
    if (!representable(b.lo) || !representable(b.hi))
      return false;
    if (b.lo > b.hi) {
      infeasible = true;
      return true;
    }
    const double lo = roundedDown(b.lo), hi = roundedUp(b.hi);
    glp_set_col_bnds(lp, v + 1, lo == hi ? GLP_FX : GLP_DB, lo, hi);
  }
  std::vector<int> rows{0}, cols{0};
  std::vector<double> values{0};
  auto addOne = [&](const IntegerProgram::Constraint &c) {
    const std::map<uint32_t, Int> terms = mergedTerms(c.expr);
    const Int rhs = -c.expr.constant;
    if (!representable(rhs))
      return false;
    if (terms.empty()) {
      infeasible |= c.relation == IntegerProgram::Relation::EqualZero ? rhs != 0 : rhs < 0;
      return true;
    }
    const int row = glp_add_rows(lp, 1);
    if (c.relation == IntegerProgram::Relation::LessEqualZero)
      glp_set_row_bnds(lp, row, GLP_UP, 0, roundedUp(rhs));
    else if (const double lo = roundedDown(rhs), hi = roundedUp(rhs); lo == hi)
      glp_set_row_bnds(lp, row, GLP_FX, lo, hi);
    else
      glp_set_row_bnds(lp, row, GLP_DB, lo, hi);
    for (const auto &[v, k] : terms) {
      if (!exactDouble(k))
        return false;
      rows.push_back(row);
      cols.push_back(int(v) + 1);
      values.push_back(double(k));
    }
    return true;
  };
  if (subset) {
    for (uint32_t i : *subset)
      if (!addOne(program.constraints()[i]))
        return false;
  } else {
    for (const IntegerProgram::Constraint &c : program.constraints())
      if (!addOne(c))
        return false;
  }
  if (rows.size() > 1)
    glp_load_matrix(lp, int(rows.size() - 1), rows.data(), cols.data(), values.data());
  return true;
}

// Optimises the objective's terms; the optimum widened by the rounding of each term, then
// rounded inwards. nullopt where the simplex gave no optimum to trust.
std::optional<Int> optimum(glp_prob *lp, const LinearExpr &objective, bool maximise, unsigned timeoutMs,
                           Status &status) {
  glp_set_obj_dir(lp, maximise ? GLP_MAX : GLP_MIN);
  glp_smcp parameters;
  glp_init_smcp(&parameters);
  parameters.msg_lev = GLP_MSG_OFF;
  parameters.tm_lim = timeoutMs ? int(timeoutMs) : INT32_MAX;
  if (glp_exact(lp, &parameters) != 0)
    return std::nullopt;
  const int state = glp_get_status(lp);
  if (state == GLP_NOFEAS) {
    status = Status::Infeasible;
    return std::nullopt;
  }
  if (state != GLP_OPT)
    return std::nullopt;
  const double value = glp_get_obj_val(lp);
  double magnitude = std::fabs(value);
  for (const auto &[v, k] : objective.terms)
    magnitude += std::fabs(double(k) * glp_get_col_prim(lp, int(v) + 1));
  const double margin = magnitude * 0x1p-40 + 0x1p-30;
  const double bound = maximise ? std::floor(value + margin) : std::ceil(value - margin);
  if (!std::isfinite(bound) || std::fabs(bound) > double(kLargest))
    return std::nullopt;
  return Int(bound);
}

// The objective over the variables' bounds alone (GLPK's simplex refuses a program without
// rows), exactly.
std::optional<Interval> overTheBox(const IntegerProgram &program, const LinearExpr &objective) {
  Interval range{objective.constant, objective.constant};
  for (const auto &[v, k] : objective.terms) {
    const Interval &b = program.bounds(v);
    std::optional<Int> low = checkedMul(k, k > 0 ? b.lo : b.hi), high = checkedMul(k, k > 0 ? b.hi : b.lo);
    std::optional<Int> lo = low ? checkedAdd(range.lo, *low) : std::nullopt;
    std::optional<Int> hi = high ? checkedAdd(range.hi, *high) : std::nullopt;
    if (!lo || !hi)
      return std::nullopt;
    range = {*lo, *hi};
  }
  return range;
}

} // namespace

Ranges glpkRelaxedRanges(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                         const std::vector<LinearExpr> &objectives, unsigned timeoutMs) {
  std::lock_guard<std::mutex> lock(glpkLock);
  glp_term_out(GLP_OFF);
  Ranges r;
  Problem p;
  bool infeasible = false;
  if (!load(p.lp, program, subset, infeasible))
    return r;
  if (infeasible) {
    r.status = Status::Infeasible;
    return r;
  }
  if (glp_get_num_rows(p.lp) == 0) { // nothing for the simplex: every constraint was constant
    for (const LinearExpr &o : objectives) {
      std::optional<Interval> range = overTheBox(program, o);
      if (!range)
        return Ranges{};
      r.ranges.push_back(*range);
    }
    r.status = Status::Feasible;
    return r;
  }
  std::vector<LinearExpr> asked = objectives;
  if (asked.empty())
    asked.push_back(LinearExpr::number(0)); // feasibility alone
  for (const LinearExpr &o : asked) {
    for (int v = 1; v <= int(program.numVariables()); ++v)
      glp_set_obj_coef(p.lp, v, 0);
    for (const auto &[v, k] : mergedTerms(o)) {
      if (!exactDouble(k))
        return Ranges{};
      glp_set_obj_coef(p.lp, int(v) + 1, double(k));
    }
    Interval range;
    for (bool maximise : {false, true}) {
      Status status = Status::Unknown;
      std::optional<Int> bound = optimum(p.lp, o, maximise, timeoutMs, status);
      if (!bound) {
        r.status = status;
        return r;
      }
      std::optional<Int> withConstant = checkedAdd(*bound, o.constant);
      if (!withConstant)
        return Ranges{};
      (maximise ? range.hi : range.lo) = *withConstant;
    }
    r.ranges.push_back(range);
  }
  if (objectives.empty())
    r.ranges.clear();
  r.status = Status::Feasible;
  return r;
}

} // namespace cairn::arrays
