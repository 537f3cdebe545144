// An integer program in doubles, for the floating-point libraries (GLPK, CBC), rounded so that
// the program they are given only grows: variable bounds and constraint constants outwards, and
// a program whose coefficients no double holds is not given at all. Shared by GlpkBounds and
// CbcBounds.
#pragma once

#include "IntegerProgram.h"

#include <functional>
#include <optional>
#include <vector>

namespace cairn::arrays {

struct RoundedProgram {
  enum class Load : uint8_t {
    Ready,      // columns and rows below
    Infeasible, // a bound or a constant constraint already is
    Inexact,    // a number no double holds: leave the program undecided
  };
  struct Row {
    std::vector<int> columns; // each at most once, 0-based
    std::vector<double> coefficients;
    double lo = 0, hi = 0;    // lo == -inf for a <= row
  };
  Load load = Load::Ready;
  std::vector<double> columnLo, columnHi;
  std::vector<Row> rows;
};

// The constraints listed in `subset` (all of them when null).
RoundedProgram roundOutwards(const IntegerProgram &program, const std::vector<uint32_t> *subset);

// An objective's coefficients per column (merged, zeros dropped); nullopt where one is no double.
std::optional<std::vector<std::pair<int, double>>> objectiveInDoubles(const LinearExpr &objective);

// An optimum read back as a double (of the objective without its constant), widened by
// `margin` and rounded inwards to an integer; nullopt where it is not finite or too large to trust.
std::optional<Int> inwardBound(double value, double margin, bool maximise);

// The answer where no library is needed: the program left undecided (Inexact), infeasible, or
// without rows (every objective's exact range over the variables' bounds); nullopt otherwise.
std::optional<IntegerProgramSolver::Ranges> settledWithoutSolver(const IntegerProgram &program,
                                                                 const RoundedProgram &rounded,
                                                                 const std::vector<LinearExpr> &objectives);

// Every objective's range from its two optima: `optimum(coefficients, objective, maximise,
// status)` gives one as an integer bound on the objective without its constant, or nullopt with
// `status` saying why (Infeasible, or Unknown). With no objectives, one optimum of nothing asks
// for feasibility alone.
using Optimum = std::function<std::optional<Int>(const std::vector<std::pair<int, double>> &coefficients,
                                                 const LinearExpr &objective, bool maximise,
                                                 IntegerProgramSolver::Status &status)>;
IntegerProgramSolver::Ranges rangesFromOptima(const std::vector<LinearExpr> &objectives, const Optimum &optimum);

} // namespace cairn::arrays
