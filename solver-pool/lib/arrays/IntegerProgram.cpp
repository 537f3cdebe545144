#include "IntegerProgram.h"

#include "BoundPropagation.h"
#include "CbcBounds.h"
#include "GlpkBounds.h"

#include <z3++.h>

#include <algorithm>
#include <chrono>

namespace cairn::arrays {

namespace {
constexpr Int kLimit = Int(1) << 126;
bool inRange(Int v) { return v < kLimit && v > -kLimit; }
} // namespace

std::optional<Int> checkedAdd(Int a, Int b) {
  Int r;
  if (__builtin_add_overflow(a, b, &r) || !inRange(r))
    return std::nullopt;
  return r;
}

std::optional<Int> checkedMul(Int a, Int b) {
  Int r;
  if (__builtin_mul_overflow(a, b, &r) || !inRange(r))
    return std::nullopt;
  return r;
}

std::optional<LinearExpr> combine(Int a, const LinearExpr &x, Int b, const LinearExpr &y) {
  LinearExpr r;
  auto scaled = [&](Int k, const LinearExpr &e) -> bool {
    for (const auto &[v, c] : e.terms) {
      std::optional<Int> kc = checkedMul(k, c);
      if (!kc)
        return false;
      auto it = std::find_if(r.terms.begin(), r.terms.end(), [&](const auto &t) { return t.first == v; });
      if (it == r.terms.end()) {
        r.terms.emplace_back(v, *kc);
        continue;
      }
      std::optional<Int> sum = checkedAdd(it->second, *kc);
      if (!sum)
        return false;
      it->second = *sum;
    }
    std::optional<Int> kc = checkedMul(k, e.constant);
    std::optional<Int> sum = kc ? checkedAdd(r.constant, *kc) : std::nullopt;
    if (!sum)
      return false;
    r.constant = *sum;
    return true;
  };
  if (!scaled(a, x) || !scaled(b, y))
    return std::nullopt;
  std::erase_if(r.terms, [](const auto &t) { return t.second == 0; });
  return r;
}

std::string toDecimal(Int v) {
  if (v == 0)
    return "0";
  const bool negative = v < 0;
  unsigned __int128 u = negative ? (unsigned __int128)(-(v + 1)) + 1 : (unsigned __int128)v;
  std::string s;
  while (u) {
    s.push_back(char('0' + unsigned(u % 10)));
    u /= 10;
  }
  if (negative)
    s.push_back('-');
  std::reverse(s.begin(), s.end());
  return s;
}

uint32_t IntegerProgram::addVariable(Int lo, Int hi) {
  bounds_.push_back({lo, hi});
  return uint32_t(bounds_.size() - 1);
}

void IntegerProgram::add(LinearExpr expr, Relation relation) {
  constraints_.push_back({std::move(expr), relation});
}

void IntegerProgram::addLessEqual(const LinearExpr &a, const LinearExpr &b) {
  if (std::optional<LinearExpr> d = combine(1, a, -1, b))
    add(std::move(*d), Relation::LessEqualZero);
}

void IntegerProgram::addEqual(const LinearExpr &a, const LinearExpr &b) {
  if (std::optional<LinearExpr> d = combine(1, a, -1, b))
    add(std::move(*d), Relation::EqualZero);
}

struct IntegerProgramSolver::Impl {
  // Made on first use: bound propagation and GLPK never need one, and a context costs
  // milliseconds of a short run's start.
  std::optional<z3::context> z3context;
  z3::context &ctx() {
    if (!z3context)
      z3context.emplace();
    return *z3context;
  }
  unsigned timeoutMs;
  bool relaxed = false;

  z3::expr number(Int v) { return ctx().int_val(toDecimal(v).c_str()); }

  // The program's variables used by `exprs`, declared with their bounds into `opt`.
  struct Translation {
    Impl &impl;
    const IntegerProgram &program;
    z3::optimize &opt;
    std::vector<std::optional<z3::expr>> vars;

    z3::expr var(uint32_t v) {
      if (vars.size() <= v)
        vars.resize(program.numVariables());
      if (!vars[v]) {
        const std::string name = "v" + std::to_string(v);
        z3::expr x = impl.relaxed ? impl.ctx().real_const(name.c_str()) : impl.ctx().int_const(name.c_str());
        const Interval &b = program.bounds(v);
        opt.add(x >= impl.number(b.lo));
        opt.add(x <= impl.number(b.hi));
        vars[v] = x;
      }
      return *vars[v];
    }
    z3::expr linear(const LinearExpr &e) {
      z3::expr_vector parts(impl.ctx());
      for (const auto &[v, c] : e.terms)
        parts.push_back(c == 1 ? var(v) : impl.number(c) * var(v));
      if (e.constant != 0 || parts.empty())
        parts.push_back(impl.number(e.constant));
      return parts.size() == 1 ? parts[0] : z3::sum(parts);
    }
    void constraints(const std::vector<uint32_t> *subset) {
      auto addOne = [&](const IntegerProgram::Constraint &c) {
        z3::expr e = linear(c.expr);
        opt.add(c.relation == IntegerProgram::Relation::EqualZero ? e == 0 : e <= 0);
      };
      if (subset)
        for (uint32_t i : *subset)
          addOne(program.constraints()[i]);
      else
        for (const IntegerProgram::Constraint &c : program.constraints())
          addOne(c);
    }
  };

  z3::optimize optimizer() {
    z3::optimize opt(ctx());
    z3::params p(ctx());
    p.set("timeout", timeoutMs);
    opt.set(p);
    return opt;
  }

  static std::optional<Int> integer(const std::string &s) {
    const bool negative = !s.empty() && s[0] == '-';
    Int v = 0;
    for (char ch : std::string_view(s).substr(negative ? 1 : 0)) {
      if (ch < '0' || ch > '9')
        return std::nullopt;
      std::optional<Int> m = checkedMul(v, 10);
      std::optional<Int> a = m ? checkedAdd(*m, ch - '0') : std::nullopt;
      if (!a)
        return std::nullopt;
      v = *a;
    }
    return negative ? -v : v;
  }

  // An optimum as an integer bound: a rational one (of the relaxation) rounded inwards, up for
  // a least value and down for a greatest, which keeps every integer solution inside.
  static std::optional<Int> bound(const z3::expr &e, bool upper) {
    if (!e.is_numeral())
      return std::nullopt; // unbounded, or infinitesimals
    std::optional<Int> p = integer(Z3_get_numeral_string(e.ctx(), e.numerator()));
    std::optional<Int> q = integer(Z3_get_numeral_string(e.ctx(), e.denominator()));
    if (!p || !q || *q <= 0)
      return std::nullopt;
    Int floor = *p / *q - ((*p % *q != 0 && *p < 0) ? 1 : 0);
    return upper || *p % *q == 0 ? floor : floor + 1;
  }
};

IntegerProgramSolver::IntegerProgramSolver(ArrayBounds method, unsigned timeoutMs)
    : impl_(std::make_unique<Impl>()), method_(method) {
  impl_->timeoutMs = timeoutMs;
  impl_->relaxed = method == ArrayBounds::Relaxed;
}

IntegerProgramSolver::~IntegerProgramSolver() = default;

namespace {
struct Clock {
  double &into;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  ~Clock() { into += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
};
} // namespace

IntegerProgramSolver::Ranges IntegerProgramSolver::ranges(const IntegerProgram &program,
                                                          const std::vector<uint32_t> *subset,
                                                          const std::vector<LinearExpr> &objectives) {
  ++calls_;
  Clock clock{seconds_};
  if (method_ == ArrayBounds::Propagation)
    return propagated(program, objectives);
  if (method_ == ArrayBounds::Glpk)
    return glpkRelaxedRanges(program, subset, objectives, impl_->timeoutMs);
  if (method_ == ArrayBounds::Cbc) {
    Ranges r = cbcIntegerRanges(program, subset, objectives, impl_->timeoutMs);
    // CBC's infeasibility is a floating-point search's: an UNSAT answer rests on Z3's.
    if (r.status == Status::Infeasible && optimised(program, subset, {}).status != Status::Infeasible)
      r.status = Status::Unknown;
    return r;
  }
  return optimised(program, subset, objectives);
}

IntegerProgramSolver::Ranges IntegerProgramSolver::optimised(const IntegerProgram &program,
                                                             const std::vector<uint32_t> *subset,
                                                             const std::vector<LinearExpr> &objectives) {
  Ranges r;
  try {
    z3::optimize opt = impl_->optimizer();
    Impl::Translation t{*impl_, program, opt, {}};
    t.constraints(subset);
    // One objective per check: Z3 4.8's box priority, which would optimise them all in one,
    // reports bounds of one objective for another when they share variables.
    if (objectives.empty()) {
      z3::check_result c = opt.check();
      r.status = c == z3::unsat ? Status::Infeasible : c == z3::sat ? Status::Feasible : Status::Unknown;
      return r;
    }
    for (const LinearExpr &o : objectives) {
      z3::expr e = t.linear(o);
      Interval range;
      for (bool maximise : {false, true}) {
        opt.push();
        z3::optimize::handle h = maximise ? opt.maximize(e) : opt.minimize(e);
        const z3::check_result c = opt.check();
        if (c == z3::unsat) {
          r.status = Status::Infeasible;
          return r;
        }
        std::optional<Int> bound;
        if (c == z3::sat)
          bound = Impl::bound(maximise ? opt.upper(h) : opt.lower(h), maximise);
        opt.pop();
        if (!bound)
          return r; // unknown, or unbounded: no interval to trust
        (maximise ? range.hi : range.lo) = *bound;
      }
      r.ranges.push_back(range);
    }
    r.status = Status::Feasible;
  } catch (const z3::exception &) {
    r = Ranges{};
  }
  return r;
}

IntegerProgramSolver::Ranges IntegerProgramSolver::propagated(const IntegerProgram &program,
                                                              const std::vector<LinearExpr> &objectives) {
  Ranges r;
  Propagated p = propagateBounds(program);
  if (!p.feasible) {
    r.status = Status::Infeasible;
    return r;
  }
  for (const LinearExpr &o : objectives) {
    std::optional<Interval> range = boundsOf(o, p.bounds);
    if (!range)
      return r; // Unknown: no interval to trust
    r.ranges.push_back(*range);
  }
  r.status = Status::Feasible;
  return r;
}

IntegerProgramSolver::Status IntegerProgramSolver::feasible(const IntegerProgram &program,
                                                            const std::vector<uint32_t> *subset) {
  return ranges(program, subset, {}).status;
}

} // namespace cairn::arrays
