// An integer linear program over bounded integer variables, and its exact solution by Z3's
// optimizer over linear integer arithmetic (private to solver-pool/lib; no solver headers).
//
// Why exact: the array pre-check answers UNSAT from an infeasible program and prunes array
// axioms by the bounds it computes; a floating-point LP could report a bound a hair too tight
// or an infeasibility that is not there, and either would be a wrong answer.
#pragma once

#include "cairn/solver/SolverChain.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace cairn::arrays {

using Int = __int128;

struct Interval {
  Int lo = 0;
  Int hi = 0;
  bool contains(Int v) const { return lo <= v && v <= hi; }
};

// sum(coefficient * variable) + constant
struct LinearExpr {
  std::vector<std::pair<uint32_t, Int>> terms;
  Int constant = 0;

  static LinearExpr variable(uint32_t v) { return {{{v, 1}}, 0}; }
  static LinearExpr number(Int c) { return {{}, c}; }
};

// Checked arithmetic on the program's numbers: nullopt where a result leaves ±2^126, which no
// bit-vector of the supported widths (at most 64 bits) comes near unless it is abstracted.
std::optional<Int> checkedAdd(Int a, Int b);
std::optional<Int> checkedMul(Int a, Int b);
// a * x + b * y (+ c): nullopt on overflow of any coefficient.
std::optional<LinearExpr> combine(Int a, const LinearExpr &x, Int b, const LinearExpr &y);

class IntegerProgram {
public:
  enum class Relation : uint8_t { LessEqualZero, EqualZero };
  struct Constraint {
    LinearExpr expr;
    Relation relation;
  };

  uint32_t addVariable(Int lo, Int hi);
  void add(LinearExpr expr, Relation relation);
  void addLessEqual(const LinearExpr &a, const LinearExpr &b); // a <= b (dropped on overflow)
  void addEqual(const LinearExpr &a, const LinearExpr &b);     // a == b (dropped on overflow)
  // Makes the program infeasible (a constraint the linearisation found false as it stands).
  void addFalse() { add(LinearExpr::number(1), Relation::LessEqualZero); }

  size_t numVariables() const { return bounds_.size(); }
  const Interval &bounds(uint32_t v) const { return bounds_[v]; }
  const std::vector<Constraint> &constraints() const { return constraints_; }

private:
  std::vector<Interval> bounds_;
  std::vector<Constraint> constraints_;
};

// Bounds programs by the method asked for (ArrayBounds): bound propagation (BoundPropagation.h),
// GLPK (GlpkBounds.h), CBC (CbcBounds.h; its infeasibilities confirmed by Z3), or Z3's optimizer in a context of its own, reused program after program, over the integers or
// over the linear relaxation (rational variables, simplex only, the optima rounded inwards:
// bounds as sound and never tighter, infeasibility proved more rarely).
class IntegerProgramSolver {
public:
  explicit IntegerProgramSolver(ArrayBounds method = ArrayBounds::Integer, unsigned timeoutMs = 1000);
  ~IntegerProgramSolver();
  IntegerProgramSolver(const IntegerProgramSolver &) = delete;
  IntegerProgramSolver &operator=(const IntegerProgramSolver &) = delete;

  enum class Status : uint8_t { Feasible, Infeasible, Unknown };
  struct Ranges {
    Status status = Status::Unknown;
    std::vector<Interval> ranges; // per objective, when Feasible
  };

  // The least and greatest value of every objective over the solutions of the program's
  // constraints listed in `subset` (all of them when null), each objective optimised on its own.
  Ranges ranges(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                const std::vector<LinearExpr> &objectives);
  // Whether the program's constraints (those of `subset` when given) have an integer solution.
  Status feasible(const IntegerProgram &program, const std::vector<uint32_t> *subset = nullptr);

  uint64_t calls() const { return calls_; }
  double seconds() const { return seconds_; }

private:
  Ranges propagated(const IntegerProgram &program, const std::vector<LinearExpr> &objectives);
  // By Z3's optimizer (over the integers, or the relaxation for ArrayBounds::Relaxed).
  Ranges optimised(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                   const std::vector<LinearExpr> &objectives);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  ArrayBounds method_;
  uint64_t calls_ = 0;
  double seconds_ = 0;
};

std::string toDecimal(Int v);

} // namespace cairn::arrays
