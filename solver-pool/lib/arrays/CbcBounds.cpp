#include "CbcBounds.h"

#include "RoundedProgram.h"

#include <Cbc_C_Interface.h>

#include <cmath>
#include <mutex>

namespace cairn::arrays {

namespace {

using Ranges = IntegerProgramSolver::Ranges;
using Status = IntegerProgramSolver::Status;

// Cbc_solve runs CBC's command-line driver, whose state is not per model; lanes share one lock.
std::mutex cbcLock;

constexpr double kIntegrality = 1e-6; // CBC's default integrality tolerance

struct Model {
  Cbc_Model *model = Cbc_newModel();
  ~Model() { Cbc_deleteModel(model); }
};

// One model per solve: CBC's models are not to be changed once solved.
void load(Cbc_Model *m, const RoundedProgram &program, const std::vector<std::pair<int, double>> &objective,
          double sense, unsigned timeoutMs) {
  std::vector<double> costs(program.columnLo.size(), 0);
  for (const auto &[v, k] : objective)
    costs[size_t(v)] = sense * k;
  for (size_t v = 0; v < program.columnLo.size(); ++v)
    Cbc_addCol(m, "", program.columnLo[v], program.columnHi[v], costs[v], 1, 0, nullptr, nullptr);
  for (const RoundedProgram::Row &r : program.rows) {
    const int n = int(r.columns.size());
    if (r.lo == r.hi) {
      Cbc_addRow(m, "", n, r.columns.data(), r.coefficients.data(), 'E', r.hi);
      continue;
    }
    Cbc_addRow(m, "", n, r.columns.data(), r.coefficients.data(), 'L', r.hi);
    if (!std::isinf(r.lo))
      Cbc_addRow(m, "", n, r.columns.data(), r.coefficients.data(), 'G', r.lo);
  }
  Cbc_setObjSense(m, 1);
  Cbc_setLogLevel(m, 0);
  if (timeoutMs)
    Cbc_setMaximumSeconds(m, timeoutMs / 1000.0);
  Cbc_setAllowableGap(m, 0); // the optimum itself, not one within a gap of it
}

// The objective's least value (greatest when `maximise`), without its constant, as a sound
// integer bound; nullopt where CBC proved nothing.
std::optional<Int> optimum(const RoundedProgram &program, const std::vector<std::pair<int, double>> &objective,
                           bool maximise, unsigned timeoutMs, Status &status) {
  Model m;
  const double sense = maximise ? -1 : 1; // always minimised: the bound's side is then CBC's own
  load(m.model, program, objective, sense, timeoutMs);
  Cbc_solve(m.model);
  if (Cbc_isProvenInfeasible(m.model)) {
    status = Status::Infeasible;
    return std::nullopt;
  }
  if (!Cbc_isProvenOptimal(m.model) || Cbc_isAbandoned(m.model))
    return std::nullopt;
  const double best = Cbc_getBestPossibleObjValue(m.model) * sense;
  const double *x = Cbc_getColSolution(m.model);
  double magnitude = std::fabs(best), slack = 1e-6;
  for (const auto &[v, k] : objective) {
    magnitude += std::fabs(k * (x ? x[v] : 0));
    slack += std::fabs(k) * kIntegrality;
  }
  return inwardBound(best, magnitude * 0x1p-40 + slack, maximise);
}

} // namespace

Ranges cbcIntegerRanges(const IntegerProgram &program, const std::vector<uint32_t> *subset,
                        const std::vector<LinearExpr> &objectives, unsigned timeoutMs) {
  const RoundedProgram rounded = roundOutwards(program, subset);
  if (std::optional<Ranges> settled = settledWithoutSolver(program, rounded, objectives))
    return *settled;
  std::lock_guard<std::mutex> lock(cbcLock);
  return rangesFromOptima(objectives, [&](const std::vector<std::pair<int, double>> &coefficients,
                                          const LinearExpr &, bool maximise, Status &status) {
    return optimum(rounded, coefficients, maximise, timeoutMs, status);
  });
}

} // namespace cairn::arrays
